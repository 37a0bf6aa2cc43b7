import Reports
import TestSupport
import Testing

/// Intervals kept inside a metric's range (results/README.md, "Intervals"), checked for
/// coverage against binomial and Poisson processes whose true mean is known in closed form.
@Suite("Intervals inside the possible range")
struct BoundedIntervalTests {
  /// The simulated replications' draws (``SplitMix64``).
  struct Generator {
    var random: SplitMix64
    init(state: UInt64) { random = SplitMix64(seed: state) }
    mutating func uniform() -> Double { random.unit() }
    /// Successes in `trials` Bernoulli(`p`) draws, as a share of `trials`.
    mutating func binomialShare(trials: Int, p: Double) -> Double {
      var successes = 0
      for _ in 0..<trials where uniform() < p { successes += 1 }
      return Double(successes) / Double(trials)
    }
  }

  /// Share of `experiments` intervals (each over `replications` binomial rates with
  /// `trials` users) that contain `p`, and whether every bound stayed in [0, 1].
  static func rateCoverage(
    p: Double, trials: Int, replications: Int, experiments: Int, seed: UInt64
  ) -> (coverage: Double, inside: Bool) {
    var generator = Generator(state: seed)
    var covered = 0
    var inside = true
    for _ in 0..<experiments {
      let values = (0..<replications).map { _ in
        generator.binomialShare(trials: trials, p: p)
      }
      guard let interval = MeanInterval(values: values, range: .unit) else { continue }
      if interval.low <= p && p <= interval.high { covered += 1 }
      inside = inside && interval.low >= 0 && interval.high <= 1 && interval.low <= interval.high
    }
    return (Double(covered) / Double(experiments), inside)
  }

  /// 4 replications of 400 users at a rate of 2% (8 events each, so a plain t interval often
  /// goes below 0) and of 98%. The nominal coverage is 95%; 3000 experiments estimate it with
  /// a standard error of √(0.95·0.05/3000) ≈ 0.004, so the bounds [0.90, 0.99] leave more than
  /// 10 standard errors for the method's own small-sample departure.
  @Test(arguments: [0.02, 0.98])
  func rateIntervalsStayInsideAndCover(p: Double) {
    let result = Self.rateCoverage(
      p: p, trials: 400, replications: 4, experiments: 3000, seed: p < 0.5 ? 11 : 12)
    #expect(result.inside)
    #expect(result.coverage >= 0.90)
    #expect(result.coverage <= 0.99)
  }

  /// The plain t interval on the same data does cross 0: the test above is not vacuous.
  @Test func plainIntervalCrossesZeroOnTheSameData() {
    var generator = Generator(state: 11)
    var crossed = 0
    for _ in 0..<300 {
      let values = (0..<4).map { _ in generator.binomialShare(trials: 400, p: 0.02) }
      if let plain = MeanInterval(values: values), plain.low < 0 { crossed += 1 }
    }
    #expect(crossed > 0)
  }

  /// Counts near 0 (a Poisson mean of 1.5 per replication, built from 3000 Bernoulli trials
  /// of 0.0005): every lower bound at least 0, coverage in [0.90, 0.99] as above (clipping at
  /// 0 keeps the t interval's coverage; this checks that it is near nominal here too).
  @Test func countIntervalsStayNonNegativeAndCover() {
    var generator = Generator(state: 21)
    let mean = 1.5
    var covered = 0
    var inside = true
    let experiments = 3000
    for _ in 0..<experiments {
      let values = (0..<4).map { _ in
        generator.binomialShare(trials: 3000, p: mean / 3000) * 3000
      }
      let interval = MeanInterval(values: values, range: .nonNegative)!
      if interval.low <= mean && mean <= interval.high { covered += 1 }
      inside = inside && interval.low >= 0
    }
    let coverage = Double(covered) / Double(experiments)
    #expect(inside)
    #expect(coverage >= 0.90 && coverage <= 0.99)
  }

  /// A mean of exactly 0 or 1 (every replication on the end) is a zero-width interval there;
  /// differences of rates are clipped to [−1, 1].
  @Test func endsAndDifferences() throws {
    let zero = try #require(MeanInterval(values: [0, 0, 0], range: .unit))
    #expect(zero.low == 0 && zero.high == 0)
    let one = try #require(MeanInterval(values: [1, 1], range: .unit))
    #expect(one.low == 1 && one.high == 1)
    let difference = try #require(MeanInterval(values: [-0.9, 0.95], range: .signedUnit))
    #expect(difference.low == -1 && difference.high == 1)
    let unbounded = try #require(MeanInterval(values: [-0.9, 0.95], range: .unbounded))
    #expect(unbounded.low < -1 && unbounded.high > 1)
  }
}
