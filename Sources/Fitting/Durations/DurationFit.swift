import CGSL
import Simulation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The distribution families `fit` tries for a duration.
public enum DurationFamily: String, Sendable, CaseIterable {
  case exponential, lognormal, gamma, weibull

  /// Free parameters (for AIC).
  public var parameterCount: Int { self == .exponential ? 1 : 2 }
}

/// A family fitted to durations by maximum likelihood, right-censoring included.
public struct FittedDuration: Sendable {
  public var family: DurationFamily
  /// As a scenario names it (`lognormal(median:sigma:)`...).
  public var spec: DistributionSpec
  /// The parameters in the scenario's terms, with standard errors from the observed
  /// information (the inverse Hessian of the log-likelihood, by the delta method).
  public var parameters: [(name: String, value: Double, standardError: Double)]
  public var logLikelihood: Double
  /// Akaike's criterion: 2 × parameters − 2 × log-likelihood. Lower is better.
  public var aic: Double { 2 * Double(family.parameterCount) - 2 * logLikelihood }

  /// The fitted CDF at `seconds`.
  public func cdf(_ seconds: Double) -> Double {
    guard seconds > 0 else { return 0 }
    switch spec {
    case .exponential(let mean): return -expm1(-seconds / mean)
    case .lognormal(let median, let sigma): return gsl_cdf_lognormal_P(seconds, log(median), sigma)
    case .gamma(let shape, let scale): return gsl_cdf_gamma_P(seconds, shape, scale)
    case .weibull(let shape, let scale): return gsl_cdf_weibull_P(seconds, scale, shape)
    default: return .nan
    }
  }

  /// The median of the fitted distribution (``DistributionSpec/median``).
  public var median: Double { spec.median }
}

/// Maximum-likelihood fits of durations with right-censoring.
///
/// A complete duration *x* contributes log *f*(*x*); a censored one *c* (the true duration is
/// longer) contributes log *S*(*c*) = log(1 − *F*(*c*)). Exponential has a closed form (events
/// over total time); lognormal, gamma and Weibull are fitted over log-parameters with GSL's
/// simplex minimiser from moment starts. Durations of 0 (two events in the same millisecond)
/// are read as 0.5 ms, half the usual timestamp resolution, unless the samples carry a
/// resolution (``DurationSample/resolution``): then each duration is interval-censored and
/// contributes log(*F*(high) − *F*(low)), and every family is fitted numerically.
///
/// What does not hold: the standard errors are asymptotic (large samples); a family whose
/// likelihood is flat (a handful of complete durations) gets wide errors, not a refusal.
public enum DurationFit {
  /// Complete durations below this are read as it (seconds).
  public static let resolution = 0.0005

  /// Fits `family`; `nil` without any complete duration.
  public static func fit(_ samples: [DurationSample], family: DurationFamily) -> FittedDuration? {
    let data = _FitData(samples)
    guard data.completeCount > 0 else { return nil }
    switch family {
    case .exponential where !data.intervals.isEmpty:
      // Interval-censored: no closed form; a one-dimensional search over the log mean.
      let objective = { (point: [Double]) -> Double in
        data.negativeLogLikelihood(.exponential, point)
      }
      let best = _Minimizer.minimize(objective, from: data.start(.exponential))
      let polished = _Minimizer.minimize(objective, from: best.point, step: 0.1)
      let point = polished.value <= best.value ? polished.point : best.point
      let mean = exp(point[0])
      let h = 1e-3
      let curvature =
        (objective([point[0] + h]) - 2 * objective(point) + objective([point[0] - h])) / (h * h)
      let error = curvature > 0 ? mean / curvature.squareRoot() : .nan
      return FittedDuration(
        family: .exponential, spec: .exponential(mean: mean),
        parameters: [("mean", mean, error)], logLikelihood: -objective(point))
    case .exponential:
      let mean = data.totalTime / Double(data.complete.count)
      let n = Double(data.complete.count)
      return FittedDuration(
        family: .exponential, spec: .exponential(mean: mean),
        parameters: [("mean", mean, mean / n.squareRoot())],
        logLikelihood: -n * log(mean) - data.totalTime / mean)
    case .lognormal, .gamma, .weibull:
      let objective = { (point: [Double]) -> Double in data.negativeLogLikelihood(family, point) }
      let start = data.start(family)
      let best = _Minimizer.minimize(objective, from: start)
      // A second start from the first optimum guards against an early stop of the simplex.
      let polished = _Minimizer.minimize(objective, from: best.point, step: 0.1)
      let point = polished.value <= best.value ? polished.point : best.point
      let errors = standardErrors(objective, at: point)
      let first = exp(point[0])
      let second = exp(point[1])
      let spec: DistributionSpec
      let names: (String, String)
      switch family {
      case .lognormal:
        spec = .lognormal(median: first, sigma: second)
        names = ("median", "sigma")
      case .gamma:
        spec = .gamma(shape: first, scale: second)
        names = ("shape", "scale")
      default:
        spec = .weibull(shape: first, scale: second)
        names = ("shape", "scale")
      }
      return FittedDuration(
        family: family, spec: spec,
        parameters: [
          (names.0, first, first * errors[0]), (names.1, second, second * errors[1]),
        ], logLikelihood: -objective(point))
    }
  }

  /// Every family of `families` fitted, and the one of least AIC.
  public static func best(
    _ samples: [DurationSample], families: [DurationFamily] = DurationFamily.allCases
  ) -> (best: FittedDuration, all: [FittedDuration])? {
    let all = families.compactMap { fit(samples, family: $0) }
      .filter { $0.logLikelihood.isFinite && $0.parameters.allSatisfy { $0.value.isFinite } }
    guard let best = all.min(by: { $0.aic < $1.aic }) else { return nil }
    return (best, all)
  }

  /// Standard errors of the coordinates at the optimum: the square roots of the diagonal of
  /// the inverse of the numerical Hessian (central differences).
  static func standardErrors(_ function: ([Double]) -> Double, at point: [Double]) -> [Double] {
    let h = 1e-3
    func value(_ a: Double, _ b: Double) -> Double { function([point[0] + a, point[1] + b]) }
    let center = value(0, 0)
    let faa = (value(h, 0) - 2 * center + value(-h, 0)) / (h * h)
    let fbb = (value(0, h) - 2 * center + value(0, -h)) / (h * h)
    let fab = (value(h, h) - value(h, -h) - value(-h, h) + value(-h, -h)) / (4 * h * h)
    let determinant = faa * fbb - fab * fab
    guard determinant > 0, faa > 0, fbb > 0 else { return [.nan, .nan] }
    return [(fbb / determinant).squareRoot(), (faa / determinant).squareRoot()]
  }
}
