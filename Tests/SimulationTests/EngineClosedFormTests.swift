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
    let users = 40_000
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
    let users = 20_000
    let tally = try Self.run(scenario, users: users).tallies[0][0]
    #expect(tally.displayed[0] == users)
    let mean = Double(tally.latencySumMilliseconds[0]) / 1000 / Double(tally.displayed[0])
    let tolerance = Self.z * (1 / nu) / Double(users).squareRoot()
    #expect(abs(mean - 1 / nu) < tolerance, "mean \(mean), expected \(1 / nu) ± \(tolerance)")
  }
}
