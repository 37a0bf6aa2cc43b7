import Foundation
import Testing

@testable import Simulation

/// ``DistributionSpec``'s median, mean and quantile against closed forms worked by hand.
@Suite("Distribution summaries")
struct DistributionSummaryTests {
  /// Relative agreement of two closed forms computed different ways (GSL's inverse CDF
  /// against the formula): a few ulps, far below anything a report shows.
  static func close(_ a: Double, _ b: Double, within: Double = 1e-12) -> Bool {
    abs(a - b) <= within * max(abs(a), abs(b))
  }

  @Test func mediansAreTheClosedForms() {
    #expect(DistributionSpec.fixed(42).median == 42)
    // Exponential: F(m) = 1 − e^(−m/θ) = 1/2 ⇒ m = θ ln 2.
    #expect(DistributionSpec.exponential(mean: 3600).median == 3600 * log(2.0))
    #expect(DistributionSpec.lognormal(median: 86400, sigma: 1.3).median == 86400)
    // Weibull: 1 − e^(−(m/λ)^k) = 1/2 ⇒ m = λ (ln 2)^(1/k); k = 1 is the exponential.
    #expect(DistributionSpec.weibull(shape: 2, scale: 10).median == 10 * sqrt(log(2.0)))
    #expect(
      Self.close(
        DistributionSpec.weibull(shape: 1, scale: 7).median,
        DistributionSpec.exponential(mean: 7).median))
    #expect(DistributionSpec.uniform(low: 10, high: 30).median == 20)
    // Gamma with shape 1 is the exponential with mean θ.
    #expect(
      Self.close(
        DistributionSpec.gamma(shape: 1, scale: 5).median, 5 * log(2.0)))
    // Empirical: the smallest value with at least half the weight at or below it.
    #expect(DistributionSpec.empirical(values: [1, 2, 3], weights: [1, 1, 2]).median == 2)
    #expect(DistributionSpec.empirical(values: [9, 1], weights: [3, 1]).median == 9)
  }

  @Test func meansAreTheClosedForms() {
    #expect(DistributionSpec.fixed(42).mean == 42)
    #expect(DistributionSpec.exponential(mean: 3600).mean == 3600)
    // Lognormal: e^(μ + σ²/2) with μ = ln median.
    #expect(
      Self.close(
        DistributionSpec.lognormal(median: 100, sigma: 0.5).mean, 100 * exp(0.125)))
    #expect(DistributionSpec.gamma(shape: 3, scale: 4).mean == 12)
    // Weibull with k = 2: λ Γ(1.5) = λ √π / 2.
    #expect(
      Self.close(DistributionSpec.weibull(shape: 2, scale: 10).mean, 10 * sqrt(Double.pi) / 2))
    #expect(DistributionSpec.uniform(low: 10, high: 30).mean == 20)
    #expect(
      Self.close(
        DistributionSpec.empirical(values: [1, 2, 3], weights: [1, 1, 2]).mean, 9.0 / 4))
  }

  @Test func quantilesAreTheClosedForms() {
    // Exponential: −θ ln(1 − p).
    #expect(
      Self.close(DistributionSpec.exponential(mean: 10).quantile(0.9), -10 * log(0.1)))
    #expect(DistributionSpec.uniform(low: 0, high: 8).quantile(0.25) == 2)
    #expect(DistributionSpec.fixed(5).quantile(0.99) == 5)
    #expect(DistributionSpec.exponential(mean: 10).quantile(0) == 0)
    #expect(DistributionSpec.exponential(mean: 10).quantile(1) == .infinity)
    // Lognormal: median · e^(σ z_p); z_0.975 = 1.959963984540054.
    #expect(
      Self.close(
        DistributionSpec.lognormal(median: 50, sigma: 0.4).quantile(0.975),
        50 * exp(0.4 * 1.959963984540054), within: 1e-9))
  }

  /// The closed-form median is the 0.5-quantile, for every kind.
  @Test(arguments: [
    DistributionSpec.fixed(3), .exponential(mean: 60), .lognormal(median: 40, sigma: 0.8),
    .gamma(shape: 2.5, scale: 300), .weibull(shape: 0.7, scale: 1000),
    .uniform(low: 1, high: 2), .empirical(values: [4, 8, 15], weights: [1, 2, 1]),
  ])
  func medianIsTheHalfQuantile(spec: DistributionSpec) {
    #expect(Self.close(spec.median, spec.quantile(0.5), within: 1e-9), "\(spec)")
  }
}
