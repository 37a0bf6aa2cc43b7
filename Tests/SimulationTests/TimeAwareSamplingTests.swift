import Simulation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Time-aware sampling (``Sampler/init(schedule:)``, ``Sampler/draw(_:at:)``): a draw at time t
/// comes from the distribution of the slot t falls in, and a sampler that does not vary draws
/// what it always drew, whatever the time.
@Suite("time-aware sampling")
struct TimeAwareSamplingTests {
  /// A day of three slots: night (exponential), day (uniform), evening (lognormal).
  static let day = SamplingSchedule(
    period: 86_400, starts: [0, 8 * 3600, 20 * 3600],
    distributions: [
      .exponential(mean: 3600), .uniform(low: 10, high: 20), .lognormal(median: 60, sigma: 0.5),
    ])

  /// Which slot of ``day`` time t falls in, written from the slots' bounds.
  static func slot(at time: Double) -> Int {
    let phase = time - (time / 86_400).rounded(.down) * 86_400
    return phase < 8 * 3600 ? 0 : phase < 20 * 3600 ? 1 : 2
  }

  /// Every draw equals the draw of its slot's own sampler from the same stream state, at
  /// times in several days, slot bounds included (seeded; the failing seed and time print).
  @Test func aDrawComesFromTheSlotOfItsTime() {
    let scheduled = Sampler(schedule: Self.day)
    let plain = Self.day.distributions.map(Sampler.init)
    for seed in UInt64(0)..<20 {
      var stream = RandomStream(seed: seed, replication: 0, user: 0, purpose: .journey)
      var twin = RandomStream(seed: seed, replication: 0, user: 0, purpose: .journey)
      var clock = RandomStream(seed: seed, replication: 0, user: 0, purpose: .scene)
      var times: [Double] = [0, 8 * 3600, 8 * 3600 - 0.001, 20 * 3600, 86_400, 3 * 86_400 + 1]
      for _ in 0..<40 { times.append(clock.uniform() * 7 * 86_400) }
      for time in times {
        let drawn = scheduled.draw(&stream, at: time)
        let expected = plain[Self.slot(at: time)].draw(&twin)
        #expect(drawn == expected, "seed \(seed), time \(time)")
      }
    }
  }

  /// Draws at any time from a sampler that does not vary are its draws without a time: the
  /// same values, from the same stream positions.
  @Test(arguments: [
    DistributionSpec.fixed(4), .exponential(mean: 2), .gamma(shape: 0.7, scale: 3),
    .weibull(shape: 1.5, scale: 2), .empirical(values: [1, 2, 5], weights: [1, 3, 1]),
  ])
  func aSamplerThatDoesNotVaryIgnoresTheTime(spec: DistributionSpec) {
    let sampler = Sampler(spec)
    #expect(!sampler.isTimeAware)
    var stream = RandomStream(seed: 9, replication: 1, user: 2, purpose: .scene)
    var twin = RandomStream(seed: 9, replication: 1, user: 2, purpose: .scene)
    for step in 0..<200 {
      let time = Double(step) * 977.5
      #expect(sampler.draw(&stream, at: time) == sampler.draw(&twin), "step \(step)")
    }
  }

  /// The summaries are the mixture's over one period: slots weighted by their share of it
  /// (8 h, 12 h and 4 h), computed here from each slot's closed form.
  @Test func summariesAreTheMixtureOverAPeriod() {
    let sampler = Sampler(schedule: Self.day)
    #expect(sampler.isTimeAware)
    let weights = [8.0 / 24, 12.0 / 24, 4.0 / 24]
    let means = [3600.0, 15, 60 * exp(0.125)]  // a lognormal's mean: median · e^(σ²/2)
    let mean = zip(weights, means).reduce(0) { $0 + $1.0 * $1.1 }
    #expect(abs(sampler.mean - mean) < 1e-9 * mean)
    // P(X <= 15): the night's exponential, half the day's uniform, the evening's lognormal.
    let cdf =
      weights[0] * (1 - exp(-15.0 / 3600)) + weights[1] * 0.5
      + weights[2] * Sampler(.lognormal(median: 60, sigma: 0.5)).cdf(15)
    #expect(abs(sampler.cdf(15) - cdf) < 1e-12)
    let median = sampler.quantile(0.5)
    #expect(abs(sampler.cdf(median) - 0.5) < 1e-9)
  }
}
