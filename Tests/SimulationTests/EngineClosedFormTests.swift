import MessageDeferral
import Testing

@testable import Simulation

/// The proof that the engine is right: results against closed forms, with tolerances derived
/// from the sample size (z = 4.5: a false alarm about once in 300,000 runs).
@Suite("Engine against closed forms")
struct EngineClosedFormTests {
  static let z = 4.5

  static func run(
    _ scenario: Scenario, users: Int, jobs: Int = 2, seed: UInt64 = 11
  ) throws
    -> RunResult
  {
    try Engine.run(
      CompiledScenario(scenario), policies: scenario.policies,
      options: RunOptions(users: users, replications: 1, seed: seed, jobs: jobs))
  }

  /// One onboarding screen with exponential dwell (rate μ) and messages issued as a Poisson
  /// process (rate λ) while the user is on it: under storekit-auto with no scene delay, the
  /// run is interrupted iff a message comes first, P = λ / (λ + μ).
  /// (λ, μ) per second: messages every 60 s against a 30 s screen, and every 20 s against 60 s.
  static let races: [(lambda: Double, mu: Double)] = [
    (0.016_666_7, 0.033_333_3), (0.05, 0.016_666_7),
  ]

  @Test(arguments: races)
  func onboardingInterruptionIsTheRaceProbability(lambda: Double, mu: Double) throws {
    let users = 20_000
    let result = try Self.run(Fixtures.onboardingRace(lambda: lambda, mu: mu), users: users)
    let tally = result.tallies[0][0]
    #expect(tally.onboardingRunsStarted == users)
    let p = lambda / (lambda + mu)
    let observed = Double(tally.onboardingRunsInterrupted) / Double(tally.onboardingRunsStarted)
    let tolerance = Self.z * (p * (1 - p) / Double(users)).squareRoot()
    #expect(abs(observed - p) < tolerance, "observed \(observed), expected \(p) ± \(tolerance)")
  }

  /// Opens form a Poisson process of rate ν; a message issued at a uniform time waits for the
  /// next open (memoryless): mean latency 1/ν, under a policy that shows at once.
  @Test(arguments: ["storekit-auto", "openiap"])
  func latencyToTheNextOpenIsOneOverNu(policy: String) throws {
    let nu = 1.0 / 3600
    var scenario = Fixtures.latencyToNextOpen(nu: nu, window: 86_400)
    scenario.policies = [Fixtures.policy(policy)]
    let users = 6_000
    let tally = try Self.run(scenario, users: users).tallies[0][0]
    #expect(tally.displayed[0] == users)
    let mean = Double(tally.latencySumMilliseconds[0]) / 1000 / Double(tally.displayed[0])
    let tolerance = Self.z * (1 / nu) / Double(users).squareRoot()
    #expect(abs(mean - 1 / nu) < tolerance, "mean \(mean), expected \(1 / nu) ± \(tolerance)")
    // Shown the moment it is delivered: the policy adds no hold at all.
    #expect(tally.hold[0].count == users)
    #expect(tally.hold[0].quantile(1) == 0)
  }

  /// Every open is a cold launch (splash, 1 ms) onto an immersive screen with exponential
  /// dwell (mean m), then home. The article's screen gate holds a consent message delivered at
  /// launch until home appears: hold = 1 ms + Exp(m), mean m + 0.001 s (a message issued while
  /// the user is on the immersive screen waits for the rest of its dwell, Exp(m) again). The
  /// latency, by contrast, also counts the ~1/ν the user stays away.
  @Test func screenGateHoldIsTheGatedScreensDwell() throws {
    let nu = 1.0 / 3600
    let m = 60.0
    var scenario = Fixtures.latencyToNextOpen(nu: nu, window: 86_400)
    scenario.screens = [
      Screen(name: "splash", kind: .launch, dwell: .fixed(0.001), transitions: []),
      Screen(
        name: "player", kind: .immersive, dwell: .exponential(mean: m),
        transitions: [Fixtures.transition(.screen(2), 1)]),
      Screen(
        name: "home", kind: .home, dwell: .fixed(0.001),
        transitions: [Fixtures.transition(.background, 1)]),
    ]
    scenario.entries = Entries(coldLaunch: 0, newUser: 1, returning: 1)
    scenario.sessions.backgroundTerminationProbability = 1
    scenario.policies = [Fixtures.policy("screen-gate")]
    let users = 6_000
    let tally = try Self.run(scenario, users: users).tallies[0][0]
    #expect(tally.displayed[0] == users)
    #expect(tally.hold[0].count == users)
    let mean = try #require(tally.hold[0].mean)
    let expected = m + 0.001
    let tolerance = Self.z * m / Double(users).squareRoot()
    #expect(
      abs(mean - expected) < tolerance, "mean hold \(mean), expected \(expected) ± \(tolerance)")
    let latency = Double(tally.latencySumMilliseconds[0]) / 1000 / Double(users)
    #expect(latency > 10 * mean, "latency \(latency) counts the time away; hold does not")
  }
}

@Suite("Engine: sampled journeys")
struct JourneyStationaryTests {
  /// Screen visits of a long run follow the stationary distribution of the scenario's chain.
  /// A warm resume returns to the screen the user left without a new visit, so the visit
  /// sequence is the chain with `background` removed and each row renormalised (no process
  /// is terminated here, so no cold launch restarts it).
  @Test func visitFrequenciesMatchTheStationaryDistribution() throws {
    let rows: [[(ScreenTarget, Double)]] = [
      [(.screen(2), 0.5), (.screen(3), 0.3), (.background, 0.2)],
      [(.screen(1), 0.6), (.screen(3), 0.4)],
      [(.screen(1), 0.7), (.screen(2), 0.2), (.background, 0.1)],
    ]
    let kinds: [ScreenKind] = [.home, .content, .settings]
    var screens = [Screen(name: "splash", kind: .launch, dwell: .fixed(0.5), transitions: [])]
    for (index, row) in rows.enumerated() {
      screens.append(
        Screen(
          name: "s\(index)", kind: kinds[index], dwell: .exponential(mean: 5),
          transitions: row.map { Fixtures.transition($0.0, $0.1) }))
    }
    let scenario = Fixtures.base(
      screens: screens, entries: Entries(coldLaunch: 0, newUser: 1, returning: 1),
      horizon: 20_000, gap: .exponential(mean: 60))

    // The renormalised chain over the three screens, and its stationary distribution.
    var chain = [[Double]](repeating: [0, 0, 0], count: 3)
    for (i, row) in rows.enumerated() {
      let stay = 1 - row.filter { $0.0 == .background }.map(\.1).reduce(0, +)
      for (target, p) in row { if case .screen(let j) = target { chain[i][j - 1] = p / stay } }
    }
    var pi = [1.0 / 3, 1.0 / 3, 1.0 / 3]
    for _ in 0..<2000 {
      pi = (0..<3).map { j in (0..<3).reduce(0) { $0 + pi[$1] * chain[$1][j] } }
    }

    // Per-user frequencies are independent samples: their spread gives the tolerance.
    let (shares, meanVisits) = Fixtures.visitShares(CompiledScenario(scenario), users: 400, seed: 5)
    #expect(meanVisits > 1000, "long journeys: \(meanVisits) visits per user")
    for j in 0..<3 {
      let (mean, error) = Fixtures.shareMean(shares, j)
      // 5 standard errors, plus the start-up bias of a chain begun at s0 (at most ~2 visits).
      let tolerance = 5 * error + 2 / meanVisits
      #expect(abs(mean - pi[j]) < tolerance, "screen s\(j): \(mean) vs \(pi[j]) ± \(tolerance)")
    }
  }
}
