import CGSL

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Draws from a ``DistributionSpec`` with GSL, with everything that can be computed once
/// computed at construction (for a lognormal ζ = ln median; for an empirical distribution the
/// Walker alias table).
///
/// A draw is a `switch` over a small enum and one GSL call: no closure, no existential.
///
/// | spec | GSL draw | GSL CDF |
/// | ---- | -------- | ------- |
/// | `fixed(v)` | none (no uniform consumed) | step at v |
/// | `exponential(mean:)` | `gsl_ran_exponential(r, mean)` | `gsl_cdf_exponential_P` |
/// | `lognormal(median:sigma:)` | `gsl_ran_lognormal(r, ln median, σ)` | `gsl_cdf_lognormal_P` |
/// | `gamma(shape:scale:)` | `gsl_ran_gamma(r, a = shape, b = scale)` | `gsl_cdf_gamma_P` |
/// | `weibull(shape:scale:)` | `gsl_ran_weibull(r, a = scale, b = shape)` | `gsl_cdf_weibull_P` |
/// | `uniform(low:high:)` | `gsl_ran_flat(r, low, high)` | `gsl_cdf_flat_P` |
/// | `empirical(values:weights:)` | `gsl_ran_discrete` (alias table) | cumulative weights |
///
/// GSL's Weibull takes the *scale* first (`p(x) = b/aᵇ xᵇ⁻¹ exp(-(x/a)ᵇ)`), the reverse of the
/// spec's (shape, scale) order; this type does the swap in one place.
///
/// A sampler is immutable and `Sendable`: build one per distribution of a scenario and share
/// it between threads, each drawing from its own ``RandomStream``.
///
/// What does not hold: the number of uniforms a draw consumes depends on the distribution
/// (`fixed` none, exponential/Weibull/uniform/empirical one, lognormal and gamma a variable
/// number through rejection), so two policies stay on common random numbers only while they
/// draw the same sequence of distributions from a stream; that is why streams are per purpose.
public struct Sampler: Sendable {
  /// The spec this sampler was built from.
  public let spec: DistributionSpec

  @usableFromInline
  internal let kind: _Kind

  @usableFromInline
  internal enum _Kind: Sendable {
    case fixed(Double)
    case exponential(mean: Double)
    case lognormal(zeta: Double, sigma: Double)
    case gamma(shape: Double, scale: Double)
    case weibull(shape: Double, scale: Double)
    case uniform(low: Double, high: Double)
    case empirical(_EmpiricalTable)
    /// A distribution that depends on the simulated time (``init(schedule:)``).
    case scheduled(_Schedule)
  }

  /// A sampler for `spec`.
  ///
  /// - Precondition: `Sampler.invalidParameterReason(spec) == nil` (scenario loading checks
  ///   this and reports a user error; reaching here with a bad spec is a programmer error).
  public init(_ spec: DistributionSpec) {
    if let reason = Self.invalidParameterReason(spec) {
      preconditionFailure("Invalid distribution \(spec): \(reason)")
    }
    self.spec = spec
    switch spec {
    case .fixed(let value): kind = .fixed(value)
    case .exponential(let mean): kind = .exponential(mean: mean)
    case .lognormal(let median, let sigma): kind = .lognormal(zeta: log(median), sigma: sigma)
    case .gamma(let shape, let scale): kind = .gamma(shape: shape, scale: scale)
    case .weibull(let shape, let scale): kind = .weibull(shape: shape, scale: scale)
    case .uniform(let low, let high): kind = .uniform(low: low, high: high)
    case .empirical(let values, let weights):
      kind = .empirical(_EmpiricalTable(values: values, weights: weights))
    }
  }

  /// A sampler of `kind`, described by `spec` (``init(schedule:)``).
  internal init(spec: DistributionSpec, kind: _Kind) {
    self.spec = spec
    self.kind = kind
  }

  /// Why `spec` cannot be sampled, in words fit for an error message, or `nil` when it can.
  ///
  /// Every parameter must be finite; means, medians, sigmas, shapes and scales positive;
  /// `low < high`; an empirical distribution needs as many weights as values (at least one),
  /// weights non-negative with a positive sum.
  public static func invalidParameterReason(_ spec: DistributionSpec) -> String? {
    func positive(_ value: Double, _ name: String) -> String? {
      value.isFinite && value > 0 ? nil : "\(name) must be a positive finite number, not \(value)"
    }
    switch spec {
    case .fixed(let value):
      return value.isFinite ? nil : "the value must be finite, not \(value)"
    case .exponential(let mean):
      return positive(mean, "the mean")
    case .lognormal(let median, let sigma):
      return positive(median, "the median") ?? positive(sigma, "sigma")
    case .gamma(let shape, let scale), .weibull(let shape, let scale):
      return positive(shape, "the shape") ?? positive(scale, "the scale")
    case .uniform(let low, let high):
      guard low.isFinite && high.isFinite else { return "the bounds must be finite" }
      return low < high ? nil : "low (\(low)) must be less than high (\(high))"
    case .empirical(let values, let weights):
      if values.isEmpty { return "at least one value is needed" }
      if values.count != weights.count {
        return "there are \(values.count) values but \(weights.count) weights"
      }
      if let bad = values.first(where: { !$0.isFinite }) { return "value \(bad) is not finite" }
      if let bad = weights.first(where: { !($0.isFinite && $0 >= 0) }) {
        return "weight \(bad) is not a finite non-negative number"
      }
      let total = weights.reduce(0, +)
      return total > 0 && total.isFinite ? nil : "the weights must have a positive finite sum"
    }
  }

  /// One draw.
  ///
  /// - Precondition: the sampler does not depend on the time (``isTimeAware`` is false): a
  ///   scheduled sampler is drawn with ``draw(_:at:)``.
  /// - Complexity: O(1) (expected O(1) for the rejection samplers of lognormal and gamma).
  @inlinable
  public func draw(_ stream: inout RandomStream) -> Double {
    if case .scheduled = kind {
      preconditionFailure("A sampler that depends on the time is drawn with draw(_:at:)")
    }
    return draw(&stream, at: 0)
  }

  /// One draw at simulated time `time` (seconds from the start of the horizon): for a
  /// scheduled sampler (``init(schedule:)``) a draw from the distribution of the slot that
  /// `time` falls in; for any other, exactly what ``draw(_:)`` draws, whatever `time` (the
  /// time is not read: a sampler that does not vary costs nothing more).
  ///
  /// - Complexity: O(1) (expected O(1) for lognormal and gamma), plus O(log slots) for a
  ///   scheduled sampler.
  @inlinable
  public func draw(_ stream: inout RandomStream, at time: Double) -> Double {
    let generator = stream.generator
    switch kind {
    case .fixed(let value):
      stream.countVariate(.fixed)
      return value
    case .exponential(let mean):
      stream.countVariate(.exponential)
      return gsl_ran_exponential(generator, mean)
    case .lognormal(let zeta, let sigma):
      if let tape = stream.tape {
        // A replayed draw is not drawn, so not counted (``VariateCounts`` count GSL's work).
        if let value = tape.pointee.replayLognormal(zeta: zeta, sigma: sigma) { return value }
        stream.countVariate(.lognormal)
        return tape.pointee.drawLognormal(generator, zeta: zeta, sigma: sigma)
      }
      stream.countVariate(.lognormal)
      return gsl_ran_lognormal(generator, zeta, sigma)
    case .gamma(let shape, let scale):
      stream.countVariate(.gamma)
      return gsl_ran_gamma(generator, shape, scale)
    case .weibull(let shape, let scale):
      stream.countVariate(.weibull)
      return gsl_ran_weibull(generator, scale, shape)
    case .uniform(let low, let high):
      stream.countVariate(.flat)
      return gsl_ran_flat(generator, low, high)
    case .empirical(let table):
      return table.values[AliasTable.draw(&stream, from: table.alias.unsafeTable)]
    case .scheduled(let schedule):
      return schedule.sampler(at: time).draw(&stream, at: time)
    }
  }

  /// The mean, in closed form.
  public var mean: Double {
    switch kind {
    case .fixed(let value): return value
    case .exponential(let mean): return mean
    case .lognormal(let zeta, let sigma): return exp(zeta + sigma * sigma / 2)
    case .gamma(let shape, let scale): return shape * scale
    case .weibull(let shape, let scale): return scale * tgamma(1 + 1 / shape)
    case .uniform(let low, let high): return (low + high) / 2
    case .empirical(let table): return table.mean
    case .scheduled(let schedule): return schedule.mean
    }
  }

  /// The variance, in closed form.
  public var variance: Double {
    switch kind {
    case .fixed: return 0
    case .exponential(let mean): return mean * mean
    case .lognormal(let zeta, let sigma):
      let s2 = sigma * sigma
      return expm1(s2) * exp(2 * zeta + s2)
    case .gamma(let shape, let scale): return shape * scale * scale
    case .weibull(let shape, let scale):
      let g1 = tgamma(1 + 1 / shape)
      return scale * scale * (tgamma(1 + 2 / shape) - g1 * g1)
    case .uniform(let low, let high): return (high - low) * (high - low) / 12
    case .empirical(let table): return table.variance
    case .scheduled(let schedule): return schedule.variance
    }
  }

  /// P(X ≤ x), in closed form (GSL's `gsl_cdf_*_P`): for Kolmogorov–Smirnov tests and reports.
  public func cdf(_ x: Double) -> Double {
    switch kind {
    case .fixed(let value): return x < value ? 0 : 1
    case .exponential(let mean): return gsl_cdf_exponential_P(x, mean)
    case .lognormal(let zeta, let sigma): return x <= 0 ? 0 : gsl_cdf_lognormal_P(x, zeta, sigma)
    case .gamma(let shape, let scale): return gsl_cdf_gamma_P(x, shape, scale)
    case .weibull(let shape, let scale): return gsl_cdf_weibull_P(x, scale, shape)
    case .uniform(let low, let high): return gsl_cdf_flat_P(x, low, high)
    case .empirical(let table): return table.cdf(x)
    case .scheduled(let schedule): return schedule.cdf(x)
    }
  }

  /// The `p`-quantile, the smallest x with P(X ≤ x) ≥ p, in closed form (GSL's
  /// `gsl_cdf_*_Pinv`).
  ///
  /// - Precondition: `0 <= p <= 1`. For unbounded distributions `quantile(1)` is +∞.
  public func quantile(_ p: Double) -> Double {
    precondition(p >= 0 && p <= 1, "A quantile needs 0 <= p <= 1, not \(p)")
    switch kind {
    case .fixed(let value): return value
    case .exponential(let mean): return gsl_cdf_exponential_Pinv(p, mean)
    case .lognormal(let zeta, let sigma): return gsl_cdf_lognormal_Pinv(p, zeta, sigma)
    case .gamma(let shape, let scale): return gsl_cdf_gamma_Pinv(p, shape, scale)
    case .weibull(let shape, let scale): return gsl_cdf_weibull_Pinv(p, scale, shape)
    case .uniform(let low, let high): return gsl_cdf_flat_Pinv(p, low, high)
    case .empirical(let table): return table.quantile(p)
    case .scheduled(let schedule): return schedule.quantile(p)
    }
  }
}

/// The precomputed parts of an empirical distribution. A class, so that a draw's `switch`
/// retains one reference instead of copying five arrays' worth of references.
@usableFromInline
internal final class _EmpiricalTable: Sendable {
  /// The values in the spec's order, indexed by the alias table's draws.
  @usableFromInline
  internal let values: ContiguousArray<Double>
  @usableFromInline
  internal let alias: AliasTable
  /// Distinct values in increasing order, with P(X ≤ value).
  internal let sortedValues: ContiguousArray<Double>
  internal let cumulative: ContiguousArray<Double>
  internal let mean: Double
  internal let variance: Double

  internal init(values: [Double], weights: [Double]) {
    self.values = ContiguousArray(values)
    alias = AliasTable(weights: weights)
    let probabilities = alias.probabilities
    var mean = 0.0
    for (value, probability) in zip(values, probabilities) { mean += probability * value }
    var variance = 0.0
    for (value, probability) in zip(values, probabilities) {
      variance += probability * (value - mean) * (value - mean)
    }
    self.mean = mean
    self.variance = variance
    var sortedValues = ContiguousArray<Double>()
    var cumulative = ContiguousArray<Double>()
    var total = 0.0
    let order = values.indices.sorted { values[$0] < values[$1] }
    for index in order {
      total += probabilities[index]
      if sortedValues.last == values[index] {
        cumulative[cumulative.count - 1] = total
      } else {
        sortedValues.append(values[index])
        cumulative.append(total)
      }
    }
    cumulative[cumulative.count - 1] = 1
    self.sortedValues = sortedValues
    self.cumulative = cumulative
  }

  /// The number of sorted values ≤ x.
  private func countNotAbove(_ x: Double) -> Int {
    var low = 0
    var high = sortedValues.count
    while low < high {
      let middle = (low + high) / 2
      if sortedValues[middle] <= x { low = middle + 1 } else { high = middle }
    }
    return low
  }

  internal func cdf(_ x: Double) -> Double {
    let index = countNotAbove(x)
    return index == 0 ? 0 : cumulative[index - 1]
  }

  internal func quantile(_ p: Double) -> Double {
    // The smallest value whose cumulative probability reaches p (values of weight zero
    // included, so quantile(0) is the smallest value listed).
    for (value, reached) in zip(sortedValues, cumulative) where reached >= p { return value }
    return sortedValues[sortedValues.count - 1]
  }
}
