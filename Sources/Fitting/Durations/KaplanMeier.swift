import Simulation

/// The Kaplan–Meier estimate of a distribution from right-censored durations: the empirical
/// CDF when nothing is censored.
public struct KaplanMeier: Sendable {
  /// The steps of the estimated CDF: at each distinct complete duration, the CDF from there on.
  public private(set) var steps: [(seconds: Double, cdf: Double)] = []
  /// Durations used (complete and censored).
  public let count: Int

  /// - Complexity: O(n log n).
  public init(_ samples: [DurationSample]) {
    count = samples.count
    // At equal times, events come before censorings (the usual convention).
    let sorted = samples.sorted {
      $0.seconds != $1.seconds ? $0.seconds < $1.seconds : (!$0.censored && $1.censored)
    }
    var atRisk = Double(sorted.count)
    var survival = 1.0
    var index = 0
    while index < sorted.count {
      let time = sorted[index].seconds
      var events = 0.0
      var leaving = 0.0
      while index < sorted.count, sorted[index].seconds == time {
        if !sorted[index].censored { events += 1 }
        leaving += 1
        index += 1
      }
      if events > 0, atRisk > 0 {
        survival *= 1 - events / atRisk
        steps.append((time, 1 - survival))
      }
      atRisk -= leaving
    }
  }

  /// The estimated CDF at `seconds`.
  public func cdf(_ seconds: Double) -> Double {
    var low = 0
    var high = steps.count
    while low < high {
      let middle = (low + high) / 2
      if steps[middle].seconds <= seconds { low = middle + 1 } else { high = middle }
    }
    return low == 0 ? 0 : steps[low - 1].cdf
  }

  /// The Kolmogorov–Smirnov distance to `cdf`: the largest gap between the estimate and it,
  /// checked on both sides of every step.
  public func distance(to cdf: (Double) -> Double) -> Double {
    var largest = 0.0
    var before = 0.0
    for step in steps {
      let fitted = cdf(step.seconds)
      largest = max(largest, abs(fitted - before), abs(fitted - step.cdf))
      before = step.cdf
    }
    return largest
  }
}
