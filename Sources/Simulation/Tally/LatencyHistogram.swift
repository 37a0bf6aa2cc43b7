import CGSL

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A mergeable histogram of durations (seconds) with log-spaced bins, for latency quantiles
/// whose memory does not grow with the number of values recorded.
///
/// **Bins.** A GSL `gsl_histogram` of ``binCount`` bins over [``lowerBound``, ``upperBound``)
/// = [1 ms, 10⁸ s), ``binsPerDecade`` = 120 per decade, so consecutive edges have the ratio
/// r = 10^(1/120) ≈ 1.019 39. Bin i holds [eᵢ, eᵢ₊₁) with eᵢ = 10^(i/120 − 3), set with
/// `gsl_histogram_set_ranges`, filled with `gsl_histogram_increment`, merged with
/// `gsl_histogram_add`. Values below 1 ms (zero included) and at or above 10⁸ s are counted
/// apart; the exact count, sum, minimum and maximum are kept too.
///
/// **Quantile guarantee.** ``quantile(_:)`` estimates the empirical quantile x₍ₖ₎, the k-th
/// smallest recorded value with k = max(1, ⌈p·n⌉), by interpolating within its bin
/// [eᵢ, eᵢ₊₁): with c values below the bin and b in it, the estimate is eᵢ·r^f,
/// f = (p·n − c − ½) / b clamped to [0, 1] (the bin's values taken as spread evenly in log
/// scale, the j-th at f = (j − ½) / b), then clamped to [minimum, maximum]. The estimate moves continuously with p and n,
/// so estimates from replications differ as the data do (a bin midpoint made them equal
/// whenever the sampling error was below a bin's width). The estimate and x₍ₖ₎ lie in the same
/// bin, so when x₍ₖ₎ is in [1 ms, 10⁸ s) the relative error |estimate − x₍ₖ₎| / x₍ₖ₎ is at
/// most r − 1 ≈ 1.94 % (``maximumRelativeError``), whatever the distribution; for a smooth
/// density it is far smaller (second order in the bin width). Values of exactly 0 are counted
/// (``zeroCount``) and a rank among them is reported as exactly 0. Other values below 1 ms are
/// interpolated linearly on [minimum, 1 ms), off by less than 1 ms; at or above 10⁸ s (three
/// years) the estimate is the geometric middle of [10⁸ s, maximum], with no useful bound.
/// `quantile(0)` is the exact minimum and `quantile(1)` the exact maximum.
///
/// **Merging.** ``merge(_:)`` adds counts. Counts are integers held exactly (GSL stores them as
/// `Double`, exact below 2⁵³), so the counts, minimum, maximum and hence every quantile of a
/// merge are bit-for-bit the same in any merge order. The ``sum`` (and ``mean``) is a `Double`
/// sum and depends on the order of additions in its last bits: merge in a fixed order when
/// bit-identical means matter.
///
/// **Value semantics.** A histogram is a value: copies are independent (copy-on-write of the
/// GSL histogram, about 21 kB), and it is `Sendable`.
///
/// **Cost.** ``record(_:)`` finds the bin from `log10` and corrects it against the edges
/// (``bin(of:)``, tested against `gsl_histogram_find`), then adds 1 to it as
/// `gsl_histogram_increment` would: GSL's binary search over 1,320 edges was 6% of a shared
/// run's time (a group records every duration into every member's tally).
///
/// - Complexity: ``record(_:)`` O(1); ``merge(_:)``,
///   ``quantile(_:)`` O(``binCount``). Memory O(``binCount``), independent of the count.
public struct LatencyHistogram: Sendable {
  /// The lower edge of the first bin: 1 ms.
  public static let lowerBound = 1e-3
  /// The upper edge of the last bin: 10⁸ s.
  public static let upperBound = 1e8
  /// Bins per factor of ten.
  public static let binsPerDecade = 120
  /// The number of bins: 11 decades.
  public static let binCount = 11 * binsPerDecade
  /// The ratio of consecutive bin edges, 10^(1/120).
  public static let binRatio = pow(10, 1 / Double(binsPerDecade))
  /// The quantile guarantee in range: ``binRatio`` − 1 ≈ 0.0194 (an estimate and the
  /// empirical quantile share a bin).
  public static let maximumRelativeError = binRatio - 1

  /// The ``binCount`` + 1 bin edges eᵢ = 10^(i/120 − 3), increasing, from 1e-3 to 1e8.
  public static let binEdges: ContiguousArray<Double> = {
    var edges = ContiguousArray<Double>()
    edges.reserveCapacity(binCount + 1)
    for index in 0...binCount {
      edges.append(pow(10, Double(index) / Double(binsPerDecade) - 3))
    }
    // The outer edges exactly as documented, whatever pow's last-bit rounding.
    edges[0] = lowerBound
    edges[binCount] = upperBound
    return edges
  }()

  private var storage: _LatencyHistogramStorage

  /// The number of values recorded.
  public private(set) var count = 0
  /// How many values were below ``lowerBound`` (zero included).
  public private(set) var belowRangeCount = 0
  /// How many values were exactly 0 (part of ``belowRangeCount``).
  public private(set) var zeroCount = 0
  /// How many values were at or above ``upperBound``.
  public private(set) var aboveRangeCount = 0
  /// The sum of the values recorded (see the type's note on merge order).
  public private(set) var sum = 0.0
  /// The smallest value recorded, `nil` when empty.
  public private(set) var minimum: Double?
  /// The largest value recorded, `nil` when empty.
  public private(set) var maximum: Double?

  /// An empty histogram.
  public init() {
    storage = _LatencyHistogramStorage()
  }

  /// Whether nothing was recorded.
  public var isEmpty: Bool { count == 0 }

  /// The mean of the values recorded, `nil` when empty.
  public var mean: Double? { count == 0 ? nil : sum / Double(count) }

  /// Records one duration.
  ///
  /// - Precondition: `seconds` is finite and not negative.
  /// - Complexity: O(1).
  public mutating func record(_ seconds: Double) {
    precondition(
      seconds.isFinite && seconds >= 0, "A duration must be finite and >= 0, not \(seconds)")
    count += 1
    sum += seconds
    minimum = Swift.min(minimum ?? seconds, seconds)
    maximum = Swift.max(maximum ?? seconds, seconds)
    if seconds < Self.lowerBound {
      belowRangeCount += 1
      if seconds == 0 { zeroCount += 1 }
    } else if seconds >= Self.upperBound {
      aboveRangeCount += 1
    } else {
      makeStorageUnique()
      // What `gsl_histogram_increment` does (its bin gains 1), without its binary search.
      storage.histogram.pointee.bin[Self.bin(of: seconds)] += 1
    }
  }

  /// The bin i with eᵢ ≤ `seconds` < eᵢ₊₁ (``binEdges``, the very edges GSL holds), the one
  /// GSL's search finds: a first guess from `log10`, then moved until the edges agree, so the
  /// rounding of `log10` cannot put a value in a neighbouring bin.
  ///
  /// - Precondition: `seconds` in [``lowerBound``, ``upperBound``).
  static func bin(of seconds: Double) -> Int {
    let edges = binEdges
    let guess = Int(((log10(seconds) + 3) * Double(binsPerDecade)).rounded(.down))
    var index = Swift.min(Swift.max(guess, 0), binCount - 1)
    while index > 0, seconds < edges[index] { index -= 1 }
    while index < binCount - 1, seconds >= edges[index + 1] { index += 1 }
    return index
  }

  /// Adds everything `other` recorded to this histogram, as if its values had been recorded
  /// here.
  ///
  /// Exact and order-independent for counts, minimum, maximum and quantiles; ``sum`` is a
  /// floating-point addition.
  ///
  /// - Complexity: O(``binCount``).
  public mutating func merge(_ other: LatencyHistogram) {
    guard other.count > 0 else { return }
    count += other.count
    belowRangeCount += other.belowRangeCount
    zeroCount += other.zeroCount
    aboveRangeCount += other.aboveRangeCount
    sum += other.sum
    minimum = Swift.min(minimum ?? other.minimum!, other.minimum!)
    maximum = Swift.max(maximum ?? other.maximum!, other.maximum!)
    makeStorageUnique()
    let status = gsl_histogram_add(storage.histogram, other.storage.histogram)
    precondition(status == GSL_SUCCESS, "gsl_histogram_add failed")
  }

  /// The estimated `p`-quantile of the values recorded, within ``maximumRelativeError`` of the
  /// empirical quantile in range (see the type's documentation), or `nil` when empty.
  ///
  /// - Precondition: `0 <= p <= 1`.
  /// - Complexity: O(``binCount``).
  public func quantile(_ p: Double) -> Double? {
    precondition(p >= 0 && p <= 1, "A quantile needs 0 <= p <= 1, not \(p)")
    guard let minimum, let maximum else { return nil }
    if p == 0 { return minimum }
    if p == 1 { return maximum }
    let position = p * Double(count)
    let rank = Swift.max(1, Int(position.rounded(.up)))
    let estimate: Double
    if rank <= zeroCount {
      return 0
    } else if rank <= belowRangeCount {
      let low = zeroCount > 0 ? 0 : minimum
      let high = Swift.min(maximum, Self.lowerBound)
      // The j-th of the b positive values below 1 ms at (j − ½) / b of the way: never 0.
      let share = (Double(rank - zeroCount) - 0.5) / Double(belowRangeCount - zeroCount)
      estimate = low + share * (high - low)
    } else if rank > count - aboveRangeCount {
      estimate = (Self.upperBound * maximum).squareRoot()
    } else {
      estimate = interpolated(rank: rank - belowRangeCount, at: position - Double(belowRangeCount))
    }
    return Swift.min(Swift.max(estimate, minimum), maximum)
  }

  /// The estimate within the bin holding the `rank`-th value in range: eᵢ·r^f, the bin's b
  /// values taken to sit at f = (j − ½) / b, j = 1...b (`position` counts values in range).
  private func interpolated(rank: Int, at position: Double) -> Double {
    let histogram = storage.histogram.pointee
    let target = Double(rank)
    var cumulative = 0.0
    for index in 0..<Self.binCount {
      let inBin = histogram.bin[index]
      if cumulative + inBin >= target {
        let share = Swift.min(Swift.max((position - cumulative - 0.5) / inBin, 0), 1)
        return Self.binEdges[index] * pow(Self.binRatio, share)
      }
      cumulative += inBin
    }
    preconditionFailure("The bins hold fewer values than the in-range count")
  }

  /// The count of each bin, in order (bin i holds [``binEdges``[i], ``binEdges``[i + 1])).
  public var binCounts: ContiguousArray<UInt64> {
    let histogram = storage.histogram.pointee
    return ContiguousArray((0..<Self.binCount).lazy.map { UInt64(histogram.bin[$0]) })
  }

  /// Calls `body` with the underlying GSL histogram (in-range values only), for GSL functions
  /// this type does not wrap. The pointer must not escape `body` and must not be written to.
  public func withUnsafeGSLHistogram<Result>(
    _ body: (UnsafePointer<gsl_histogram>) throws -> Result
  ) rethrows -> Result {
    try body(UnsafePointer(storage.histogram))
  }

  private mutating func makeStorageUnique() {
    if !isKnownUniquelyReferenced(&storage) {
      storage = _LatencyHistogramStorage(copying: storage)
    }
  }
}

extension LatencyHistogram: Equatable {
  /// Equal when every count, the sum, the minimum and the maximum are equal.
  public static func == (lhs: LatencyHistogram, rhs: LatencyHistogram) -> Bool {
    guard
      lhs.count == rhs.count, lhs.belowRangeCount == rhs.belowRangeCount,
      lhs.aboveRangeCount == rhs.aboveRangeCount, lhs.zeroCount == rhs.zeroCount,
      lhs.sum == rhs.sum,
      lhs.minimum == rhs.minimum, lhs.maximum == rhs.maximum
    else { return false }
    if lhs.storage === rhs.storage { return true }
    let left = lhs.storage.histogram.pointee.bin!
    let right = rhs.storage.histogram.pointee.bin!
    for index in 0..<binCount where left[index] != right[index] { return false }
    return true
  }
}

/// Owns one `gsl_histogram` with ``LatencyHistogram/binEdges`` as its ranges.
private final class _LatencyHistogramStorage: @unchecked Sendable {
  // @unchecked Sendable: LatencyHistogram only writes through a uniquely referenced storage
  // (copy-on-write), so a storage shared between values, and so between threads, is only read.
  let histogram: UnsafeMutablePointer<gsl_histogram>

  init() {
    guard let histogram = gsl_histogram_alloc(LatencyHistogram.binCount) else {
      fatalError("GSL could not allocate a histogram (out of memory)")
    }
    let status = LatencyHistogram.binEdges.withUnsafeBufferPointer { edges in
      gsl_histogram_set_ranges(histogram, edges.baseAddress, edges.count)
    }
    precondition(status == GSL_SUCCESS, "gsl_histogram_set_ranges rejected the bin edges")
    self.histogram = histogram
  }

  init(copying other: _LatencyHistogramStorage) {
    guard let histogram = gsl_histogram_clone(other.histogram) else {
      fatalError("GSL could not copy a histogram (out of memory)")
    }
    self.histogram = histogram
  }

  deinit {
    gsl_histogram_free(histogram)
  }
}

extension LatencyHistogram: Codable {
  enum CodingKeys: String, CodingKey {
    case count, below, zero, above, sum, minimum, maximum, bins
  }

  /// Bins are written sparsely as `[index, count]` pairs, so an empty histogram costs a few
  /// bytes; reading one back gives a histogram equal to the original (``==``).
  public func encode(to encoder: Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(count, forKey: .count)
    try container.encode(belowRangeCount, forKey: .below)
    if zeroCount > 0 { try container.encode(zeroCount, forKey: .zero) }
    try container.encode(aboveRangeCount, forKey: .above)
    try container.encode(sum, forKey: .sum)
    try container.encodeIfPresent(minimum, forKey: .minimum)
    try container.encodeIfPresent(maximum, forKey: .maximum)
    var pairs: [[UInt64]] = []
    for (index, binCount) in binCounts.enumerated() where binCount > 0 {
      pairs.append([UInt64(index), binCount])
    }
    try container.encode(pairs, forKey: .bins)
  }

  /// Reads a histogram back, refusing (with a `DecodingError` naming the field) counts that are
  /// negative, above 2⁵³ (where `Double` bins stop being exact) or do not add up, and bins out
  /// of range, so that no file makes a histogram trap later.
  public init(from decoder: Decoder) throws {
    self.init()
    let container = try decoder.container(keyedBy: CodingKeys.self)
    func readCount(_ key: CodingKeys, default fallback: Int? = nil) throws -> Int {
      guard let value = try container.decodeIfPresent(Int.self, forKey: key) ?? fallback else {
        return try container.decode(Int.self, forKey: key)
      }
      guard value >= 0, value <= 1 << 53 else {
        throw DecodingError.dataCorruptedError(
          forKey: key, in: container,
          debugDescription: "\(value) is not a count from 0 to 2^53")
      }
      return value
    }
    count = try readCount(.count)
    belowRangeCount = try readCount(.below)
    aboveRangeCount = try readCount(.above)
    zeroCount = try readCount(.zero, default: 0)
    guard zeroCount <= belowRangeCount else {
      throw DecodingError.dataCorruptedError(
        forKey: .zero, in: container,
        debugDescription:
          "\(zeroCount) exact zeros but only \(belowRangeCount) values below the range")
    }
    sum = try container.decode(Double.self, forKey: .sum)
    minimum = try container.decodeIfPresent(Double.self, forKey: .minimum)
    maximum = try container.decodeIfPresent(Double.self, forKey: .maximum)
    var inRange = 0
    for pair in try container.decode([[Int]].self, forKey: .bins) {
      guard pair.count == 2, pair[0] >= 0, pair[0] < Self.binCount, pair[1] >= 0,
        pair[1] <= 1 << 53
      else {
        throw DecodingError.dataCorruptedError(
          forKey: .bins, in: container,
          debugDescription:
            "a bin is [index from 0 to \(Self.binCount - 1), count from 0 to 2^53], not \(pair)")
      }
      inRange += pair[1]  // Both at most 2^53: no overflow.
      guard inRange <= count else {
        throw DecodingError.dataCorruptedError(
          forKey: .bins, in: container,
          debugDescription: "the bins hold more than count \(count) values")
      }
      storage.histogram.pointee.bin[pair[0]] += Double(pair[1])
    }
    guard inRange + belowRangeCount + aboveRangeCount == count,
      (count == 0) == (minimum == nil), (count == 0) == (maximum == nil)
    else {
      throw DecodingError.dataCorruptedError(
        forKey: .count, in: container,
        debugDescription:
          "counts do not add up: \(inRange) in the bins + \(belowRangeCount) below + "
          + "\(aboveRangeCount) above is not count \(count)")
    }
  }
}
