import CGSL
import Simulation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A distribution under test, named for the test report.
struct SamplerCase: Sendable, CustomTestStringConvertible {
  let spec: DistributionSpec
  var testDescription: String { "\(spec)" }
}

/// E[Xⁿ] in closed form, written independently of `Sampler` (textbook formulas).
private func rawMoment(_ spec: DistributionSpec, _ order: Int) -> Double {
  let n = Double(order)
  switch spec {
  case .fixed(let value):
    return pow(value, n)
  case .exponential(let mean):
    return tgamma(n + 1) * pow(mean, n)
  case .lognormal(let median, let sigma):
    return exp(n * log(median) + n * n * sigma * sigma / 2)
  case .gamma(let shape, let scale):
    // θⁿ Γ(k + n) / Γ(k) = θⁿ k (k + 1) ⋯ (k + n − 1)
    var product = 1.0
    for step in 0..<order { product *= shape + Double(step) }
    return pow(scale, n) * product
  case .weibull(let shape, let scale):
    return pow(scale, n) * tgamma(1 + n / shape)
  case .uniform(let low, let high):
    return (pow(high, n + 1) - pow(low, n + 1)) / ((n + 1) * (high - low))
  case .empirical(let values, let weights):
    let total = weights.reduce(0, +)
    return zip(values, weights).reduce(0) { $0 + $1.1 * pow($1.0, n) } / total
  }
}

/// Mean, variance and fourth central moment from the raw moments.
private func centralMoments(
  _ spec: DistributionSpec
) -> (mean: Double, variance: Double, mu4: Double) {
  let m1 = rawMoment(spec, 1)
  let m2 = rawMoment(spec, 2)
  let m3 = rawMoment(spec, 3)
  let m4 = rawMoment(spec, 4)
  let mu4 = m4 - 4 * m1 * m3 + 6 * m1 * m1 * m2 - 3 * m1 * m1 * m1 * m1
  return (m1, m2 - m1 * m1, mu4)
}

@Suite("Sampler")
struct SamplerTests {
  static let continuous: [SamplerCase] = [
    SamplerCase(spec: .exponential(mean: 45)),
    SamplerCase(spec: .lognormal(median: 20, sigma: 0.5)),
    SamplerCase(spec: .gamma(shape: 2.5, scale: 4)),
    SamplerCase(spec: .gamma(shape: 0.5, scale: 10)),
    SamplerCase(spec: .weibull(shape: 1.5, scale: 30)),
    SamplerCase(spec: .weibull(shape: 0.7, scale: 5)),
    SamplerCase(spec: .uniform(low: 2, high: 10)),
  ]
  static let empirical = DistributionSpec.empirical(
    values: [1, 5, 10, 60, 7], weights: [1, 2, 3, 4, 0])
  static let drawCount = 200_000

  static func draws(_ sampler: Sampler, user: Int) -> [Double] {
    var stream = RandomStream(seed: 2024, replication: 0, user: user, purpose: .journey)
    return (0..<drawCount).map { _ in sampler.draw(&stream) }
  }

  /// Checks the sample mean and variance against the closed forms, with tolerances of five
  /// standard errors: sqrt(σ²/n) for the mean, and for the unbiased sample variance
  /// sqrt(μ₄/n − σ⁴(n − 3)/(n(n − 1))), its exact standard deviation.
  static func expectMoments(_ sample: [Double], of spec: DistributionSpec) {
    let moments = centralMoments(spec)
    let n = Double(sample.count)
    let mean = sample.reduce(0, +) / n
    let variance = sample.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / (n - 1)
    let sigma4 = moments.variance * moments.variance
    let meanTolerance = 5 * (moments.variance / n).squareRoot()
    let varianceTolerance = 5 * (moments.mu4 / n - sigma4 * (n - 3) / (n * (n - 1))).squareRoot()
    #expect(abs(mean - moments.mean) < meanTolerance, "mean \(mean) vs \(moments.mean)")
    #expect(
      abs(variance - moments.variance) < varianceTolerance,
      "variance \(variance) vs \(moments.variance), tolerance \(varianceTolerance)")
  }

  @Test(arguments: continuous + [SamplerCase(spec: empirical), SamplerCase(spec: .fixed(3.5))])
  func closedFormsMatchIndependentMoments(_ testCase: SamplerCase) {
    let sampler = Sampler(testCase.spec)
    let moments = centralMoments(testCase.spec)
    #expect(abs(sampler.mean - moments.mean) <= 1e-12 * abs(moments.mean))
    #expect(abs(sampler.variance - moments.variance) <= 1e-9 * moments.variance)
  }

  /// Moments within five standard errors, and the Kolmogorov–Smirnov statistic D below the
  /// 0.1 % critical value 1.95/sqrt(n) against the closed-form CDF (this also catches GSL's
  /// Weibull parameter order: the cases have shape ≠ scale).
  @Test(arguments: continuous)
  func continuousDrawsMatchTheirDistribution(_ testCase: SamplerCase) {
    let sampler = Sampler(testCase.spec)
    var sample = Self.draws(sampler, user: 1)
    Self.expectMoments(sample, of: testCase.spec)
    // gsl_sort: Swift's generic sort is slow in the debug builds tests run in.
    sample.withUnsafeMutableBufferPointer { gsl_sort($0.baseAddress, 1, $0.count) }
    let n = Double(sample.count)
    var statistic = 0.0
    for (index, value) in sample.enumerated() {
      let cdf = sampler.cdf(value)
      statistic = max(statistic, Double(index + 1) / n - cdf, cdf - Double(index) / n)
    }
    #expect(statistic < 1.95 / n.squareRoot(), "KS D = \(statistic)")
  }

  /// Each value's frequency within five binomial standard errors of its weight's share; a
  /// value of weight zero never appears.
  @Test func empiricalDrawsMatchTheirWeights() {
    let sampler = Sampler(Self.empirical)
    let sample = Self.draws(sampler, user: 2)
    Self.expectMoments(sample, of: Self.empirical)
    let values: [Double] = [1, 5, 10, 60, 7]
    let shares = [0.1, 0.2, 0.3, 0.4, 0]
    let n = Double(sample.count)
    for (value, share) in zip(values, shares) {
      let frequency = Double(sample.lazy.filter { $0 == value }.count) / n
      let tolerance = 5 * (share * (1 - share) / n).squareRoot()
      #expect(abs(frequency - share) <= tolerance, "value \(value): \(frequency) vs \(share)")
    }
    #expect(sample.allSatisfy { values.contains($0) })
  }

  @Test func fixedAlwaysDrawsItsValue() {
    let sample = Self.draws(Sampler(.fixed(3.5)), user: 3)
    #expect(sample.allSatisfy { $0 == 3.5 })
  }

  @Test func empiricalCDFAndQuantileHandleRepeatedValues() {
    let sampler = Sampler(.empirical(values: [3, 1, 3], weights: [1, 1, 2]))
    #expect(sampler.cdf(0.5) == 0)
    #expect(sampler.cdf(1) == 0.25)
    #expect(sampler.cdf(2.9) == 0.25)
    #expect(sampler.cdf(3) == 1)
    #expect(sampler.quantile(0.25) == 1)
    #expect(sampler.quantile(0.26) == 3)
    #expect(sampler.quantile(1) == 3)
  }

  @Test func stepCDFOfFixed() {
    let sampler = Sampler(.fixed(2))
    #expect(sampler.cdf(1.999) == 0)
    #expect(sampler.cdf(2) == 1)
    #expect(sampler.quantile(0.5) == 2)
  }

  @Test(arguments: continuous)
  func quantileInvertsCDF(_ testCase: SamplerCase) {
    let sampler = Sampler(testCase.spec)
    for p in [0.001, 0.1, 0.5, 0.9, 0.999] {
      #expect(abs(sampler.cdf(sampler.quantile(p)) - p) < 1e-9, "p = \(p)")
    }
  }

  /// The lognormal is parameterized by its median: half the mass lies below it.
  @Test func lognormalMedianIsTheMedian() {
    let sampler = Sampler(.lognormal(median: 20, sigma: 0.5))
    #expect(abs(sampler.quantile(0.5) - 20) < 1e-9)
    #expect(abs(sampler.cdf(20) - 0.5) < 1e-12)
  }

  @Test(arguments: [
    DistributionSpec.fixed(.nan), .exponential(mean: 0), .exponential(mean: -1),
    .lognormal(median: 0, sigma: 1), .lognormal(median: 1, sigma: 0), .gamma(shape: 0, scale: 1),
    .weibull(shape: 1, scale: .infinity), .uniform(low: 2, high: 2),
    .empirical(values: [], weights: []), .empirical(values: [1, 2], weights: [1]),
    .empirical(values: [1], weights: [-1]), .empirical(values: [1, 2], weights: [0, 0]),
  ])
  func invalidSpecsAreExplained(_ spec: DistributionSpec) {
    #expect(Sampler.invalidParameterReason(spec) != nil)
  }

  @Test(arguments: continuous + [SamplerCase(spec: empirical), SamplerCase(spec: .fixed(0))])
  func validSpecsAreAccepted(_ testCase: SamplerCase) {
    #expect(Sampler.invalidParameterReason(testCase.spec) == nil)
  }
}
