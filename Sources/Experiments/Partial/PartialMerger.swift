import Reports
import Simulation

/// What ``PartialMerger`` needs of a partial result: ``PartialResult`` (a run's) or
/// ``SweepPartial`` (a sweep's).
public protocol MergeablePartial: Codable, Sendable {
  /// `run` or `sweep`, for messages.
  static var kind: String { get }
  var toolVersion: String { get }
  /// N, the number of shards of the run or sweep.
  var shards: Int { get }
  /// The shards this partial holds.
  var covers: ShardCoverage { get set }
  var events: Int { get set }
  var contentSHA256: String { get set }
  /// Checks everything a file can be checked for on its own: bounds, names, shape, the
  /// digests of its sources and content, and every tally (``Tally/problem()``).
  func check(path: String) throws(PartialError)
  /// Why this partial cannot be merged with `first` (another scenario, seed, ...), or `nil`.
  func disagreement(with first: Self) -> String?
  /// Adds `other`'s tallies into these with checked arithmetic; returns the JSON path of the
  /// tally and the problem when a sum would overflow.
  mutating func addTallies(_ other: Self) -> (tally: String, problem: Tally.Problem)?
  /// Checks a merge that covers every shard: what only the whole run can be checked for.
  func checkComplete(path: String) throws(PartialError)
  /// The file's text, with its content digest filled in.
  func encoded() throws -> String
  /// What to give for the missing shards of `shards`, for messages.
  static func missingFiles(shards: Int) -> String
}

extension MergeablePartial {
  /// The fix every refused partial gets.
  static var rewrite: String { "write the partial again with the command that wrote it" }

  public static func missingFiles(shards: Int) -> String {
    "every partial-K-of-\(shards).json (or merges that cover them)"
  }

  /// Checks the shard count and that the shards held are among them (every kind alike).
  func checkCoverage(path: String) throws(PartialError) {
    guard (1...ShardCoverage.maximumShards).contains(shards), covers.last < shards else {
      throw PartialError(
        message: "\(path): $.covers: shards \(covers.description) of \(shards): a partial "
          + "holds shards of 0..<N, N from 1 to \(ShardCoverage.maximumShards); \(Self.rewrite)")
    }
  }
}

/// Merges partial results one at a time into one accumulator, so the memory needed is one
/// partial plus the merged tallies whatever the number of partials; the first partial's
/// texts (scenario, sweep) are the only ones kept.
///
/// Refuses (``PartialError``) a partial of another run or sweep, one that covers a shard
/// already merged, and a sum that would overflow; ``result(complete:)`` then refuses missing
/// shards when the merge must be whole. Merging is exact: the tallies are integers (and
/// histograms of integer counts), so the result is the same in any order and for any tree of
/// merges (`merge --partial-out`), apart from histogram sums of durations, which no report
/// reads.
public struct PartialMerger<Partial: MergeablePartial>: Sendable {
  private var merged: Partial?
  private var firstPath = ""
  /// The path that gave each range of shards, for messages about overlaps.
  private var owners: [(range: ClosedRange<Int>, path: String)] = []

  public init() {}

  /// The number of partials merged so far.
  public private(set) var count = 0

  /// Adds one partial (already checked: ``PartialFile/read(contentsOf:)``). A partial of
  /// another run, or one that overlaps, is refused and the merger stays as it was; after an
  /// overflow (a refused sum) the merger is empty: start again.
  ///
  /// - Complexity: O(size of `partial`) plus O(r) for the r ranges of shards merged so far.
  public mutating func add(_ partial: Partial, path: String) throws(PartialError) {
    guard merged != nil else {
      merged = partial
      firstPath = path
      owners = partial.covers.ranges.map { ($0, path) }
      count = 1
      return
    }
    try refuseForeignOrOverlapping(partial, path: path)
    // Take the accumulator out, so that adding into it copies nothing.
    var accumulated = merged.take()!
    let (events, overflow) = accumulated.events.addingReportingOverflow(partial.events)
    if overflow {
      throw PartialError(message: "\(path): $.events: the merged count overflows")
    }
    accumulated.events = events
    if let (tally, problem) = accumulated.addTallies(partial) {
      throw PartialError(
        message: "\(path): \(tally).\(problem.field): adding it to the partials before it: "
          + "\(problem.message); these cannot come from one \(Partial.kind)")
    }
    accumulated.covers.formUnion(partial.covers)
    merged = accumulated
    owners += partial.covers.ranges.map { ($0, path) }
    count += 1
  }

  /// Throws when `partial` is of another run or sweep than the merged ones, or holds a shard
  /// they hold. Reads the accumulator in place (a copy would make the next add copy it all).
  private func refuseForeignOrOverlapping(
    _ partial: Partial, path: String
  ) throws(PartialError) {
    if let what = partial.disagreement(with: merged!) {
      throw PartialError(
        message: "\(path) does not belong with \(firstPath): \(what); merge only the shards of "
          + "one \(Partial.kind) (or merges of them)")
    }
    if let shard = merged!.covers.overlap(with: partial.covers) {
      let other = owners.first { $0.range.contains(shard) }?.path ?? firstPath
      throw PartialError(
        message: "shard \(shard) given twice: \(other) and \(path) hold it (overlapping "
          + "merges?); give each shard once")
    }
  }

  /// The merge of every partial added: with `complete`, only when they cover every shard
  /// (then also ``MergeablePartial/checkComplete(path:)``).
  public func result(complete: Bool) throws(PartialError) -> Partial {
    guard let merged else { throw PartialError(message: "no partial results given") }
    if complete {
      guard merged.covers.isComplete(of: merged.shards) else {
        throw PartialError(
          message: "missing shard(s) \(merged.covers.missing(of: merged.shards)) of "
            + "\(merged.shards); give \(Partial.missingFiles(shards: merged.shards))")
      }
      try merged.checkComplete(path: firstPath)
    }
    return merged
  }
}

extension PartialFile {
  /// Reads and merges the partial files at `paths` one at a time (``PartialMerger``): memory
  /// holds one partial and the merged tallies, whatever the number of files. With `complete`,
  /// they must cover every shard of their run or sweep.
  public static func merge(_ paths: [String], complete: Bool) throws(PartialError) -> PartialFile {
    var runs = PartialMerger<PartialResult>()
    var sweeps = PartialMerger<SweepPartial>()
    for path in paths {
      switch try read(contentsOf: path) {
      case .run(let partial): try runs.add(partial, path: path)
      case .sweep(let partial): try sweeps.add(partial, path: path)
      }
      if runs.count > 0, sweeps.count > 0 {
        throw PartialError(
          message: "\(path) and \(paths[0]): one is a run's partial result, the other a "
            + "sweep's; merge only the shards of one run or one sweep")
      }
    }
    return sweeps.count > 0
      ? .sweep(try sweeps.result(complete: complete)) : .run(try runs.result(complete: complete))
  }
}
