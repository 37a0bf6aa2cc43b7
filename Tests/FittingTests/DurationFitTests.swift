import Fitting
import Simulation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Maximum-likelihood fits with right-censoring: recovery within the fit's own standard errors,
/// the censoring that a naive estimator gets wrong, and AIC choosing the generating family.
@Suite("Duration fits (maximum likelihood, censoring, AIC)")
struct DurationFitTests {
  /// `count` draws of `spec`, each censored by an independent exponential session cut of mean
  /// `cut` (nil: no censoring).
  static func sample(
    _ spec: DistributionSpec, count: Int, cut: Double?, seed: UInt64
  )
    -> [DurationSample]
  {
    var stream = RandomStream(seed: seed, replication: 0, user: 0, purpose: .journey)
    let sampler = Sampler(spec)
    let session = cut.map { Sampler(.exponential(mean: $0)) }
    return (0..<count).map { _ in
      let dwell = sampler.draw(&stream)
      if let session {
        let end = session.draw(&stream)
        if end < dwell { return DurationSample(seconds: end, censored: true) }
      }
      return DurationSample(seconds: dwell, censored: false)
    }
  }

  static let truths: [(DurationFamily, DistributionSpec, [Double])] = [
    (.exponential, .exponential(mean: 12), [12]),
    (.lognormal, .lognormal(median: 20, sigma: 0.8), [20, 0.8]),
    (.gamma, .gamma(shape: 3, scale: 5), [3, 5]),
    (.weibull, .weibull(shape: 1.8, scale: 30), [1.8, 30]),
  ]

  @Test("each family's parameters are recovered within 4 standard errors, censoring included")
  func recovery() throws {
    for (index, (family, spec, truth)) in Self.truths.enumerated() {
      let samples = Self.sample(spec, count: 4000, cut: 40, seed: UInt64(100 + index))
      #expect(samples.contains { $0.censored }, "the test must censor some dwells")
      let fitted = try #require(DurationFit.fit(samples, family: family))
      for (parameter, value) in zip(fitted.parameters, truth) {
        #expect(parameter.standardError > 0, "\(family) \(parameter.name): no standard error")
        #expect(
          abs(parameter.value - value) <= 4 * parameter.standardError,
          "\(family) \(parameter.name): fitted \(parameter.value) ± \(parameter.standardError), true \(value)"
        )
      }
    }
  }

  @Test("censoring: the censored fit's median is unbiased where ignoring censoring is not")
  func censoring() throws {
    // Sessions cut a third or more of the dwells (exponential cut, mean 20 s; median dwell 20 s).
    let samples = Self.sample(.lognormal(median: 20, sigma: 0.8), count: 5000, cut: 20, seed: 7)
    let censored = samples.filter(\.censored).count
    #expect(censored > samples.count / 3)
    let fitted = try #require(DurationFit.fit(samples, family: .lognormal))
    let median = fitted.parameters[0]
    #expect(abs(median.value - 20) <= 4 * median.standardError, "censored fit: \(median)")
    // The same durations read as complete: the estimator that ignores censoring.
    let naive = samples.map { DurationSample(seconds: $0.seconds, censored: false) }
    let biased = try #require(DurationFit.fit(naive, family: .lognormal)).parameters[0]
    #expect(
      abs(biased.value - 20) > 10 * biased.standardError,
      "ignoring censoring should be biased far beyond its error: \(biased.value)")
    #expect(biased.value < 20)
  }

  @Test("AIC picks the generating family on clear cases")
  func aicChoice() throws {
    for (family, spec, _) in Self.truths where family != .exponential {
      for seed in 0..<8 {
        let samples = Self.sample(spec, count: 3000, cut: nil, seed: UInt64(seed))
        let best = try #require(DurationFit.best(samples))
        #expect(
          best.best.family == family, "seed \(seed): \(family) data chose \(best.best.family)")
      }
    }
    // Exponential is nested in gamma and Weibull: by AIC a two-parameter family wins only when
    // it gains more than one unit of log-likelihood, which happens in about 16% of samples
    // each (a chi-square(1) above 2). Of 20 samples at least 10 must choose exponential.
    var chosen = 0
    for seed in 0..<20 {
      let samples = Self.sample(.exponential(mean: 12), count: 3000, cut: nil, seed: UInt64(seed))
      if try #require(DurationFit.best(samples)).best.family == .exponential { chosen += 1 }
    }
    #expect(chosen >= 10, "exponential chosen in \(chosen) of 20")
  }

  @Test("Kaplan–Meier is the empirical CDF without censoring, and steps at events only")
  func kaplanMeier() {
    let complete = [3.0, 1, 2, 2].map { DurationSample(seconds: $0, censored: false) }
    let plain = KaplanMeier(complete)
    #expect(plain.cdf(0.5) == 0)
    #expect(plain.cdf(1) == 0.25)
    #expect(plain.cdf(2.5) == 0.75)
    #expect(plain.cdf(3) == 1)
    // 1 event, then a censoring at 2 (out of the risk set), then an event at 3 with 2 at risk.
    let mixed = KaplanMeier(
      [
        DurationSample(seconds: 1, censored: false), DurationSample(seconds: 2, censored: true),
        DurationSample(seconds: 3, censored: false), DurationSample(seconds: 4, censored: false),
      ])
    #expect(mixed.cdf(1) == 0.25)
    #expect(abs(mixed.cdf(3) - (1 - 0.75 * 0.5)) < 1e-12)
    #expect(mixed.cdf(4) == 1)
    #expect(mixed.distance(to: { _ in 0 }) == 1)
  }

  @Test("timestamps: ISO 8601 forms and epoch magnitudes")
  func timestamps() {
    func parse(_ text: String) -> Double? { Timestamp.parse(Array(text.utf8)[...]) }
    #expect(parse("2024-05-01T12:00:00Z") == 1_714_564_800)
    #expect(parse("2024-05-01 12:00:00.25") == 1_714_564_800.25)
    #expect(parse("2024-05-01T14:00:00+02:00") == 1_714_564_800)
    #expect(parse("2024-05-01T11:30:00-0030") == 1_714_564_800)
    #expect(parse("2024-02-29T00:00:00Z") == 1_709_164_800)
    #expect(parse("1714564800") == 1_714_564_800)
    #expect(parse("1714564800250") == 1_714_564_800.25)
    #expect(parse("1714564800250000") == 1_714_564_800.25)
    #expect(parse("86400.5") == 86400.5)
    #expect(parse("2023-02-29T00:00:00Z") == nil)
    #expect(parse("yesterday") == nil)
    #expect(parse("2024-05-01T25:00:00Z") == nil)
  }
}
