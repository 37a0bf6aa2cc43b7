import Testing

@testable import Simulation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// ``ForwardRecurrence`` draws against the closed-form mean E[G²] / (2 E[G]) for every kind of
/// gap, and against the closed-form CDF where there is one.
@Suite("Forward-recurrence time")
struct ForwardRecurrenceTests {
  static let z = 4.5
  static let kinds: [DistributionSpec] = [
    .fixed(3600), .exponential(mean: 3600), .lognormal(median: 7 * 3600, sigma: 1.1),
    .gamma(shape: 2, scale: 1800), .weibull(shape: 1.5, scale: 3600),
    .uniform(low: 600, high: 7200),
    .empirical(values: [600, 3600, 7200], weights: [1, 2, 1]),
  ]

  static func draws(_ gap: DistributionSpec, count: Int) -> [Double] {
    let recurrence = ForwardRecurrence(gap)
    var stream = RandomStream(seed: 9, replication: 0, user: 0, purpose: .journey)
    return (0..<count).map { _ in recurrence.draw(&stream) }
  }

  @Test(arguments: kinds)
  func meanIsTheClosedForm(gap: DistributionSpec) {
    let count = 100_000
    let values = Self.draws(gap, count: count)
    #expect(values.allSatisfy { $0 >= 0 })
    let mean = values.reduce(0, +) / Double(count)
    var squares = 0.0
    for value in values { squares += (value - mean) * (value - mean) }
    let tolerance = Self.z * (squares / Double(count - 1)).squareRoot() / Double(count).squareRoot()
    let expected = ForwardRecurrence(gap).mean
    #expect(abs(mean - expected) < tolerance, "\(gap): mean \(mean), expected \(expected)")
  }

  /// For a lognormal gap the mean wait is e^(μ + 3σ²/2) / 2: 21.5 h for the default
  /// scenario's gap (median 7 h, σ 1.1), where the gap itself averages 12.8 h.
  @Test func defaultScenarioMeanWait() {
    let recurrence = ForwardRecurrence(.lognormal(median: 7 * 3600, sigma: 1.1))
    let expected = exp(log(7.0 * 3600) + 1.5 * 1.21) / 2
    #expect(abs(recurrence.mean - expected) < 1e-6 * expected)
    #expect(abs(recurrence.mean / 3600 - 21.49) < 0.01)
  }

  @Test(arguments: [
    DistributionSpec.exponential(mean: 3600), .lognormal(median: 7 * 3600, sigma: 1.1),
  ])
  func cdfIsTheClosedForm(gap: DistributionSpec) throws {
    let count = 100_000
    let values = Self.draws(gap, count: count)
    let recurrence = ForwardRecurrence(gap)
    for p in [0.05, 0.25, 0.5, 0.75, 0.95, 0.99] {
      let x = Sampler(gap).quantile(p)
      let expected = try #require(recurrence.cdf(x))
      let observed = Double(values.filter { $0 <= x }.count) / Double(count)
      let tolerance = Self.z * (expected * (1 - expected) / Double(count)).squareRoot()
      #expect(abs(observed - expected) < tolerance, "F(\(x)) \(observed), expected \(expected)")
    }
  }
}
