import Reports

/// Which shards of N a partial result holds: one shard (`run --shard K/N`), or the union that
/// `merge --partial-out` wrote, as sorted ranges `[first, last]`.
///
/// In a file it is `covers`: an array of `[first, last]` pairs with 0 ≤ first ≤ last < N,
/// sorted, neither overlapping nor touching (`[[0, 3], [8, 8]]`, never `[[0, 1], [2, 3]]`), so
/// one set of shards has one spelling. Its size grows with the number of gaps, not of shards.
public struct ShardCoverage: Sendable, Equatable, Codable {
  /// The ranges, inclusive, in the canonical form above.
  public private(set) var ranges: [ClosedRange<Int>]

  /// The most shards a run or sweep may have (`--shard K/N` takes N up to this).
  public static let maximumShards = 100_000

  /// The coverage of one shard.
  public init(shard: Int) {
    ranges = [shard...shard]
  }

  /// Reads `[[first, last], ...]`, refusing any other spelling.
  public init(from decoder: Decoder) throws {
    let pairs = try [[Int]](from: decoder)
    ranges = []
    for pair in pairs {
      guard pair.count == 2, pair[0] >= 0, pair[0] <= pair[1], pair[1] < Self.maximumShards
      else {
        throw DecodingError.dataCorrupted(
          DecodingError.Context(
            codingPath: decoder.codingPath,
            debugDescription:
              "a range of shards is [first, last] with 0 <= first <= last < "
              + "\(Self.maximumShards), not \(pair)"))
      }
      if let last = ranges.last, pair[0] <= last.upperBound + 1 {
        throw DecodingError.dataCorrupted(
          DecodingError.Context(
            codingPath: decoder.codingPath,
            debugDescription:
              "ranges of shards must be sorted and apart: [\(pair[0]), \(pair[1])] after "
              + "[\(last.lowerBound), \(last.upperBound)]"))
      }
      ranges.append(pair[0]...pair[1])
    }
    guard !ranges.isEmpty else {
      throw DecodingError.dataCorrupted(
        DecodingError.Context(
          codingPath: decoder.codingPath, debugDescription: "a partial covers at least one shard"
        ))
    }
  }

  public func encode(to encoder: Encoder) throws {
    try ranges.map { [$0.lowerBound, $0.upperBound] }.encode(to: encoder)
  }

  /// The number of shards covered.
  public var count: Int { ranges.reduce(0) { $0 + $1.count } }

  /// Whether every shard of `0..<shards` is covered.
  public func isComplete(of shards: Int) -> Bool {
    ranges == [0...(shards - 1)]
  }

  /// The highest shard covered.
  public var last: Int { ranges.last!.upperBound }

  /// The shards as text: `3`, `0-63`, `0-3, 8, 10-12`.
  public var description: String {
    ranges.map { $0.count == 1 ? "\($0.lowerBound)" : "\($0.lowerBound)-\($0.upperBound)" }
      .joined(separator: ", ")
  }

  /// The shards of `0..<shards` not covered, as text like ``description``.
  public func missing(of shards: Int) -> String {
    var gaps: [ClosedRange<Int>] = []
    var next = 0
    for range in ranges {
      if range.lowerBound > next { gaps.append(next...(range.lowerBound - 1)) }
      next = range.upperBound + 1
    }
    if next < shards { gaps.append(next...(shards - 1)) }
    return gaps.map { $0.count == 1 ? "\($0.lowerBound)" : "\($0.lowerBound)-\($0.upperBound)" }
      .joined(separator: ", ")
  }

  /// A shard covered by both, or `nil` when they are disjoint.
  public func overlap(with other: ShardCoverage) -> Int? {
    var (i, j) = (0, 0)
    while i < ranges.count, j < other.ranges.count {
      let (a, b) = (ranges[i], other.ranges[j])
      if a.overlaps(b) { return max(a.lowerBound, b.lowerBound) }
      if a.upperBound < b.upperBound { i += 1 } else { j += 1 }
    }
    return nil
  }

  /// Adds `other`'s shards (disjoint from these: check ``overlap(with:)`` first), keeping the
  /// canonical form.
  ///
  /// - Complexity: O(r + s) for r and s ranges.
  public mutating func formUnion(_ other: ShardCoverage) {
    var merged: [ClosedRange<Int>] = []
    merged.reserveCapacity(ranges.count + other.ranges.count)
    var (i, j) = (0, 0)
    while i < ranges.count || j < other.ranges.count {
      let next: ClosedRange<Int>
      if j == other.ranges.count
        || (i < ranges.count && ranges[i].lowerBound < other.ranges[j].lowerBound)
      {
        next = ranges[i]
        i += 1
      } else {
        next = other.ranges[j]
        j += 1
      }
      if let last = merged.last, next.lowerBound <= last.upperBound + 1 {
        merged[merged.count - 1] = last.lowerBound...max(last.upperBound, next.upperBound)
      } else {
        merged.append(next)
      }
    }
    ranges = merged
  }
}
