import CGSL
import Foundation

/// The values a metric can take; its intervals are kept inside (results/README.md,
/// "Intervals").
public enum ValueRange: Sendable, Equatable {
  /// Any real number (paired differences of durations and counts, values in the user's units).
  case unbounded
  /// At least 0: durations, counts, counts per 1000 users.
  case nonNegative
  /// Between 0 and 1: rates.
  case unit
  /// Between −1 and 1: paired differences of two rates.
  case signedUnit
}

extension MeanInterval {
  /// The mean of `values` and a 95% interval that stays inside `range`.
  ///
  /// - `unit` (rates): when 0 < mean < 1, the Student-t interval is built on the logit scale
  ///   by the delta method, logit(m) ± t(0.975, n−1) · s / (√n · m(1 − m)), and mapped back,
  ///   so it lies strictly inside (0, 1) and is asymmetric near the ends. A mean of exactly 0
  ///   or 1 means every replication sat on that end: no spread can be estimated and the
  ///   interval is that point (as with a single value; not a claim of certainty).
  /// - `nonNegative`: the Student-t interval clipped at 0. Clipping never removes the true
  ///   value (it is at least 0), so coverage is the t interval's. (A log-scale interval was
  ///   tried: its upper end explodes at 2–3 replications, 11.8 d becoming 256,000 d.)
  /// - `signedUnit`: the Student-t interval clipped to [−1, 1].
  /// - `unbounded`: the Student-t interval, as ``init(values:)``.
  ///
  /// Returns `nil` for no values.
  public init?(values: [Double], range: ValueRange) {
    guard let plain = MeanInterval(values: values) else { return nil }
    self = plain
    let n = values.count
    guard n > 1 else { return }
    let mean = plain.mean
    var squares = 0.0
    for value in values { squares += (value - mean) * (value - mean) }
    let standardError = (squares / Double(n - 1)).squareRoot() / Double(n).squareRoot()
    let t = gsl_cdf_tdist_Pinv(0.975, Double(n - 1))
    switch range {
    case .unbounded:
      return
    case .signedUnit:
      low = Swift.max(-1, Swift.min(1, low))
      high = Swift.max(-1, Swift.min(1, high))
    case .unit:
      guard mean > 0, mean < 1 else {
        low = mean
        high = mean
        return
      }
      let center = log(mean / (1 - mean))
      let half = t * standardError / (mean * (1 - mean))
      low = 1 / (1 + exp(-(center - half)))
      high = 1 / (1 + exp(-(center + half)))
    case .nonNegative:
      low = Swift.max(0, low)
      high = Swift.max(0, high)
    }
  }
}
