import CGSL

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Summaries of a distribution, beside its sampler, so reports describe what the engine
/// draws without re-deriving it.
extension DistributionSpec {
  /// The mean, in closed form (``Sampler/mean``).
  ///
  /// - Precondition: the spec is valid (as every spec of a loaded scenario is).
  public var mean: Double { Sampler(self).mean }

  /// The `p`-quantile, the smallest x with P(X ≤ x) ≥ p (``Sampler/quantile(_:)``).
  ///
  /// - Precondition: `0 <= p <= 1` and the spec is valid. For an unbounded distribution
  ///   `quantile(1)` is +∞.
  public func quantile(_ p: Double) -> Double { Sampler(self).quantile(p) }

  /// The median, in closed form where there is one: θ ln 2 for an exponential with mean θ,
  /// the median itself for a lognormal, λ (ln 2)^(1/k) for a Weibull, the midpoint of a
  /// uniform; GSL's inverse CDF for a gamma; the smallest value with half the weight at or
  /// below it for an empirical list. Equal to `quantile(0.5)` up to rounding.
  public var median: Double {
    switch self {
    case .fixed(let value): value
    case .exponential(let mean): mean * log(2)
    case .lognormal(let median, _): median
    case .gamma(let shape, let scale): gsl_cdf_gamma_Pinv(0.5, shape, scale)
    case .weibull(let shape, let scale): scale * pow(log(2), 1 / shape)
    case .uniform(let low, let high): (low + high) / 2
    case .empirical: quantile(0.5)
    }
  }
}
