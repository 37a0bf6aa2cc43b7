/// Paired comparisons of two policies on one metric, over the replications where both have a
/// value: every policy ran on the same users, so differences cancel the users' own noise.
extension RunReport {
  /// The differences `a − b` of metric `metric`, one per replication where both have a value.
  public func differences(_ a: Int, _ b: Int, metric: Int) -> [Double] {
    result.tallies.indices.compactMap { replication in
      guard let left = values[a][metric][replication],
        let right = values[b][metric][replication]
      else { return nil }
      return left - right
    }
  }

  /// The mean of `a − b` with its 95% interval (``Metric/differenceRange``), `nil` without
  /// data.
  public func pairedInterval(_ a: Int, _ b: Int, metric: Int) -> MeanInterval? {
    MeanInterval(
      values: differences(a, b, metric: metric), range: Metric.all[metric].differenceRange)
  }

  /// ``pairedInterval(_:_:metric:)`` of the metric `id`.
  public func pairedInterval(_ a: Int, _ b: Int, metric id: MetricID) -> MeanInterval? {
    pairedInterval(a, b, metric: id.index)
  }

  /// How `a` compares with `b` on a metric where lower is better, by the paired interval.
  func pairedOrder(_ a: Int, _ b: Int, metric: Int) -> PairedOrder {
    let list = differences(a, b, metric: metric)
    guard let interval = MeanInterval(values: list, range: Metric.all[metric].differenceRange)
    else { return .unknown }
    if list.allSatisfy({ $0 == 0 }) { return .identical }
    if interval.high < 0 { return .lower }
    if interval.low > 0 { return .higher }
    return .notSeparated(within: Swift.max(abs(interval.low), abs(interval.high)))
  }

  /// `true` when the paired intervals show `a` at most `b` on both metrics (lower is better)
  /// and clearly lower on at least one.
  func shownDominating(_ a: Int, _ b: Int, metrics: [Int]) -> Bool {
    let orders = metrics.map { pairedOrder(a, b, metric: $0) }
    let noWorse = orders.allSatisfy { $0 == .lower || $0 == .identical }
    return noWorse && orders.contains(.lower)
  }

}

/// The paired comparison of `a` with `b` on one metric (`a − b`).
enum PairedOrder: Equatable {
  /// Every replication gave both the same value.
  case identical
  /// The interval of `a − b` lies below 0.
  case lower
  /// The interval lies above 0.
  case higher
  /// The interval contains 0; `within` is the largest distance of its ends from 0.
  case notSeparated(within: Double)
  /// No replication has both values.
  case unknown
}

/// SplitMix64 (Steele, Lea and Flood, 2014): a small seeded generator for the bootstrap, so
/// the probability a policy is best is the same on every run of the same results.
struct _SplitMix64 {
  var state: UInt64

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// A uniform integer in 0..<bound (bound > 0; the modulo bias is below 2⁻⁵⁰ for small
  /// bounds).
  mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
}
