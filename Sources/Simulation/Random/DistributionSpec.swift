/// A probability distribution as a scenario file names it: a value, not a sampler.
///
/// Durations are in seconds. ``Sampler`` turns a spec into draws from a GSL stream.
public enum DistributionSpec: Equatable, Sendable {
  /// Always the same value.
  case fixed(Double)
  /// Exponential with the given mean (rate 1/mean).
  case exponential(mean: Double)
  /// Lognormal given as its median (e^μ) and σ of the underlying normal.
  case lognormal(median: Double, sigma: Double)
  /// Gamma with shape k and scale θ (mean kθ).
  case gamma(shape: Double, scale: Double)
  /// Weibull with shape k and scale λ.
  case weibull(shape: Double, scale: Double)
  /// Uniform on [low, high).
  case uniform(low: Double, high: Double)
  /// One of `values`, chosen with probability proportional to `weights` (Walker alias).
  case empirical(values: [Double], weights: [Double])
}
