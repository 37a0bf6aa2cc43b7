/// A distribution that changes with the simulated time, periodically: a day (or a week) cut
/// into slots, each with a distribution of its own (a gap between sessions longer at night, a
/// dwell shorter at lunch). What a daily or weekly rhythm is drawn from.
///
/// A draw at time t uses the slot that contains `t mod period`; the slot is read from the time
/// the draw is made at (the event that asks for it), not spread over the interval drawn.
///
/// What does not hold: the summaries (``Sampler/mean``, ``Sampler/variance``,
/// ``Sampler/cdf(_:)``, ``Sampler/quantile(_:)``) are those of the mixture over one period,
/// each slot weighted by its share of the period: what a draw at a uniformly random time
/// follows, not what a draw at a given time follows.
public struct SamplingSchedule: Sendable {
  /// The length of one cycle in seconds (86 400 for a day, 604 800 for a week).
  public let period: Double
  /// Where each slot starts, in seconds from the start of a cycle: 0 first, increasing, each
  /// below `period`. Slot k lasts until `starts[k + 1]` (the last one until `period`).
  public let starts: [Double]
  /// Each slot's distribution.
  public let distributions: [DistributionSpec]

  /// A schedule of `distributions`, slot k from `starts[k]`.
  ///
  /// - Precondition: `period` positive and finite; as many starts as distributions (at least
  ///   one), `starts[0] == 0`, increasing, each below `period`; each distribution valid
  ///   (``Sampler/invalidParameterReason(_:)``).
  public init(period: Double, starts: [Double], distributions: [DistributionSpec]) {
    precondition(period.isFinite && period > 0, "A schedule's period must be positive")
    precondition(
      !starts.isEmpty && starts.count == distributions.count,
      "A schedule needs one start per distribution, and at least one")
    precondition(starts[0] == 0, "A schedule's first slot starts at 0")
    precondition(
      zip(starts, starts.dropFirst()).allSatisfy { $0 < $1 } && starts.last! < period,
      "A schedule's slots start in increasing order within the period")
    self.period = period
    self.starts = starts
    self.distributions = distributions
  }
}

extension Sampler {
  /// A sampler that draws from `schedule`'s distribution of the moment: drawn with
  /// ``draw(_:at:)``. Its ``spec`` is the first slot's distribution.
  public init(schedule: SamplingSchedule) {
    self.init(
      spec: schedule.distributions[0],
      kind: .scheduled(
        _Schedule(
          period: schedule.period, starts: ContiguousArray(schedule.starts),
          samplers: ContiguousArray(schedule.distributions.map(Sampler.init)))))
  }

  /// Whether draws depend on the simulated time (a scheduled sampler, ``init(schedule:)``).
  public var isTimeAware: Bool {
    if case .scheduled = kind { return true }
    return false
  }
}

/// The compiled form of a ``SamplingSchedule``. A class, so that the sampler's enum stays small
/// and a draw's `switch` retains one reference.
@usableFromInline
internal final class _Schedule: Sendable {
  @usableFromInline
  internal let period: Double
  @usableFromInline
  internal let starts: ContiguousArray<Double>
  @usableFromInline
  internal let samplers: ContiguousArray<Sampler>
  /// Each slot's share of the period.
  internal let weights: ContiguousArray<Double>

  internal init(period: Double, starts: ContiguousArray<Double>, samplers: ContiguousArray<Sampler>)
  {
    self.period = period
    self.starts = starts
    self.samplers = samplers
    var weights = ContiguousArray<Double>()
    for index in starts.indices {
      let end = index + 1 < starts.count ? starts[index + 1] : period
      weights.append((end - starts[index]) / period)
    }
    self.weights = weights
  }

  /// The sampler of the slot that `time` falls in.
  @inlinable
  internal func sampler(at time: Double) -> Sampler {
    var phase = time.truncatingRemainder(dividingBy: period)
    if phase < 0 { phase += period }
    // The last slot whose start is at or before the phase (starts[0] == 0).
    var low = 0
    var high = starts.count
    while high - low > 1 {
      let middle = (low + high) / 2
      if starts[middle] <= phase { low = middle } else { high = middle }
    }
    return samplers[low]
  }

  internal var mean: Double {
    zip(weights, samplers).reduce(0) { $0 + $1.0 * $1.1.mean }
  }

  internal var variance: Double {
    let mean = self.mean
    let second = zip(weights, samplers).reduce(0) { sum, slot in
      sum + slot.0 * (slot.1.variance + slot.1.mean * slot.1.mean)
    }
    return max(0, second - mean * mean)
  }

  internal func cdf(_ x: Double) -> Double {
    zip(weights, samplers).reduce(0) { $0 + $1.0 * $1.1.cdf(x) }
  }

  /// The mixture's quantile, by bisection between the slots' own quantiles (the mixture's lies
  /// between the least and the greatest of them).
  internal func quantile(_ p: Double) -> Double {
    let bounds = samplers.map { $0.quantile(p) }
    var low = bounds.min()!
    var high = bounds.max()!
    guard low < high, high.isFinite, low.isFinite else { return p >= 1 ? high : low }
    for _ in 0..<200 {
      let middle = low + (high - low) / 2
      guard middle > low, middle < high else { break }
      if cdf(middle) >= p { high = middle } else { low = middle }
    }
    return high
  }
}
