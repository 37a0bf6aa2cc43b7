import CGSL

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The stationary forward-recurrence time of a renewal process with gaps G: how long someone
/// arriving at a random moment waits for the next renewal. An existing user's first open is
/// drawn from it, so a run meets existing users in steady state rather than all just after an
/// open.
///
/// Its density is P(G > x) / E[G], mean E[G²] / (2 E[G]). A draw is U · L with U uniform on
/// [0, 1) and L the length-biased gap (density x f(x) / E[G]), in closed form for every kind:
///
/// | gap G | length-biased L |
/// | ----- | --------------- |
/// | `fixed(v)` | v |
/// | `exponential(mean: m)` | (no L needed: the wait is Exp(m) itself, memoryless) |
/// | `lognormal(median: e^μ, sigma: σ)` | lognormal, median e^(μ + σ²), same σ |
/// | `gamma(shape: k, scale: θ)` | gamma, shape k + 1, same θ |
/// | `weibull(shape: k, scale: λ)` | λ · Y^(1/k), Y ~ gamma(1 + 1/k, 1) |
/// | `uniform(low: a, high: b)` | √(a² + U′(b² − a²)) (inverse CDF of a density ∝ x) |
/// | `empirical(values, weights)` | the same values, weights × values |
///
/// The time spent in the app between two gaps (minutes, against gaps of hours) is left out.
public struct ForwardRecurrence: Sendable {
  @usableFromInline
  internal enum _Kind: Sendable {
    /// Memoryless: draw the gap itself.
    case same(Sampler)
    /// U · L with L from this sampler.
    case scaled(Sampler)
    /// U · λ · Y^(1/k), Y ~ gamma(1 + 1/k, 1).
    case weibull(Sampler, shape: Double, scale: Double)
    /// U · √(a² + U′(b² − a²)).
    case uniform(low: Double, high: Double)
  }

  @usableFromInline
  internal let kind: _Kind
  /// The gap distribution it was built from.
  public let gap: DistributionSpec

  /// The forward-recurrence time of gaps drawn from `gap`.
  ///
  /// - Precondition: `Sampler.invalidParameterReason(gap) == nil`.
  public init(_ gap: DistributionSpec) {
    self.gap = gap
    switch gap {
    case .fixed:
      kind = .scaled(Sampler(gap))
    case .exponential:
      kind = .same(Sampler(gap))
    case .lognormal(let median, let sigma):
      kind = .scaled(Sampler(.lognormal(median: median * exp(sigma * sigma), sigma: sigma)))
    case .gamma(let shape, let scale):
      kind = .scaled(Sampler(.gamma(shape: shape + 1, scale: scale)))
    case .weibull(let shape, let scale):
      kind = .weibull(
        Sampler(.gamma(shape: 1 + 1 / shape, scale: 1)), shape: shape, scale: scale)
    case .uniform(let low, let high):
      kind = .uniform(low: low, high: high)
    case .empirical(let values, let weights):
      // Normalised before multiplying, so huge weights or values cannot overflow.
      let total = weights.reduce(0, +)
      let largest = values.map(abs).max() ?? 0
      let biased = zip(values, weights).map { value, weight in
        largest > 0 ? weight / total * (value / largest) : 0
      }
      if biased.reduce(0, +) > 0 {
        kind = .scaled(Sampler(.empirical(values: values, weights: biased)))
      } else {
        kind = .scaled(Sampler(.fixed(0)))
      }
    }
  }

  /// One draw of the wait until the next renewal.
  @inlinable
  public func draw(_ stream: inout RandomStream) -> Double {
    switch kind {
    case .same(let sampler):
      return sampler.draw(&stream)
    case .scaled(let sampler):
      let length = sampler.draw(&stream)
      return stream.uniform() * length
    case .weibull(let sampler, let shape, let scale):
      let length = scale * pow(sampler.draw(&stream), 1 / shape)
      return stream.uniform() * length
    case .uniform(let low, let high):
      let length = (low * low + stream.uniform() * (high * high - low * low)).squareRoot()
      return stream.uniform() * length
    }
  }

  /// The mean wait, E[G²] / (2 E[G]), in closed form (0 for a gap that is always 0).
  public var mean: Double {
    let sampler = Sampler(gap)
    let first = sampler.mean
    guard first > 0 else { return 0 }
    return (sampler.variance + first * first) / (2 * first)
  }

  /// P(wait ≤ x) = E[min(G, x)] / E[G], in closed form for exponential and lognormal gaps
  /// (`nil` for other kinds).
  public func cdf(_ x: Double) -> Double? {
    guard x > 0 else { return 0 }
    switch gap {
    case .exponential(let mean):
      return gsl_cdf_exponential_P(x, mean)
    case .lognormal(let median, let sigma):
      let mu = log(median)
      let mean = exp(mu + sigma * sigma / 2)
      // E[min(G, x)] = x P(G > x) + E[G; G ≤ x], and E[G; G ≤ x] = E[G] Φ((ln x − μ − σ²)/σ).
      let above = x * gsl_cdf_ugaussian_Q((log(x) - mu) / sigma)
      let below = mean * gsl_cdf_ugaussian_P((log(x) - mu - sigma * sigma) / sigma)
      return (above + below) / mean
    default:
      return nil
    }
  }
}
