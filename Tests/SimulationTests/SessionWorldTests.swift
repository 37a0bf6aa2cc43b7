import CGSL
import MessageDeferral
import Testing

@testable import Simulation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Counts a user's cold launches and warm resumes, and keeps the time of the first open.
struct OpenCounter: SimulationSink {
  var cold = 0
  var warm = 0
  var firstOpen = Double.nan
  static var recordsSteps: Bool { true }
  static var recordsOutcomes: Bool { false }
  mutating func step(_ step: TraceStep) {
    switch step.what {
    case .coldLaunch: cold += 1
    case .warmResume: warm += 1
    default: return
    }
    if firstOpen.isNaN { firstOpen = step.time }
  }
  mutating func outcome(_ outcome: MessageOutcome, policy: Int, replication: Int, user: Int) {}
}

/// Sessions against closed forms: a suspended process's survival (P(warm) = E[S(gap)]) and
/// existing users met in steady state (first open from the gap's forward-recurrence time).
@Suite("Sessions against closed forms")
struct SessionWorldTests {
  static let z = 4.5

  /// Existing users whose sessions last 2 ms, with the given gaps and survival.
  static func scenario(gap: DistributionSpec, survival: DistributionSpec?) -> Scenario {
    var scenario = Fixtures.latencyToNextOpen(nu: 1.0 / 3600, window: 3600)
    scenario.messages.consent = nil
    scenario.sessions.gap = gap
    scenario.sessions.backgroundSurvival = survival
    scenario.horizon = 4 * 86_400
    return scenario
  }

  /// Runs `users` users and returns one counter per user.
  static func counters(_ scenario: Scenario, users: Int) -> [OpenCounter] {
    let world = CompiledScenario(scenario)
    var simulator = UserSimulator(scenario: world, sink: OpenCounter())
    var tally = Tally(screenCount: scenario.screens.count)
    var result: [OpenCounter] = []
    for user in 0..<users {
      simulator.sink = OpenCounter()
      simulator.run(
        seed: 3, replication: 0, user: user, policyIndex: 0,
        policy: scenario.policies[0].configuration, tally: &tally)
      result.append(simulator.sink)
    }
    return result
  }

  /// The share of opens after the first that are warm resumes (the first is always cold).
  static func warmShare(_ counters: [OpenCounter]) -> (share: Double, opens: Int) {
    let warm = counters.reduce(0) { $0 + $1.warm }
    let later = counters.reduce(0) { $0 + $1.cold + $1.warm - 1 }
    return (Double(warm) / Double(later), later)
  }

  static func check(_ observed: (share: Double, opens: Int), _ p: Double) {
    let tolerance = z * (p * (1 - p) / Double(observed.opens)).squareRoot()
    #expect(abs(observed.share - p) < tolerance, "P(warm) \(observed.share), expected \(p)")
  }

  /// E[f(G)] for a lognormal G (median e^μ, σ), by the trapezoid rule over the normal.
  static func lognormalExpectation(
    median: Double, sigma: Double, _ f: (Double) -> Double
  ) -> Double {
    let step = 0.001
    var sum = 0.0
    for index in 0...24_000 {
      let z = -12 + Double(index) * step
      let weight = (index == 0 || index == 24_000) ? 0.5 : 1
      sum += weight * exp(-z * z / 2) * f(median * exp(sigma * z))
    }
    return sum * step / (2 * Double.pi).squareRoot()
  }

  /// Exponential survival (mean m), fixed gap g: P(warm) = S(g) = e^{−g/m}.
  @Test func fixedGapExponentialSurvival() {
    let counters = Self.counters(
      Self.scenario(gap: .fixed(3600), survival: .exponential(mean: 7200)), users: 1_000)
    Self.check(Self.warmShare(counters), exp(-0.5))
  }

  /// Exponential survival, lognormal gaps: P(warm) = E[e^{−G/m}], integrated numerically.
  @Test func lognormalGapsExponentialSurvival() {
    let counters = Self.counters(
      Self.scenario(
        gap: .lognormal(median: 3600, sigma: 1), survival: .exponential(mean: 7200)),
      users: 1_000)
    let p = Self.lognormalExpectation(median: 3600, sigma: 1) { exp(-$0 / 7200) }
    Self.check(Self.warmShare(counters), p)
  }

  /// Lognormal survival and gaps: P(warm) = P(ln S > ln G) = Φ((ln s − ln g) / √(σₛ² + σ_g²)).
  @Test func lognormalGapsLognormalSurvival() {
    let counters = Self.counters(
      Self.scenario(
        gap: .lognormal(median: 3600, sigma: 1), survival: .lognormal(median: 4 * 3600, sigma: 1.2)),
      users: 1_000)
    let p = gsl_cdf_ugaussian_P(log(4.0) / (1.0 + 1.44).squareRoot())
    Self.check(Self.warmShare(counters), p)
  }

  /// The constant probability is kept: P(warm) = 1 − τ whatever the gap.
  @Test func constantTerminationProbability() {
    var scenario = Self.scenario(gap: .lognormal(median: 3600, sigma: 1), survival: nil)
    scenario.sessions.backgroundTerminationProbability = 0.3
    Self.check(Self.warmShare(Self.counters(scenario, users: 1_000)), 0.7)
  }

  /// An existing user's first open follows the forward-recurrence time of the gap:
  /// P(first open ≤ x) = E[min(G, x)] / E[G]. Exponential gaps: the gap itself (memoryless).
  @Test(arguments: [
    DistributionSpec.exponential(mean: 8 * 3600), .lognormal(median: 7 * 3600, sigma: 1.1),
  ])
  func firstOpenIsTheForwardRecurrenceTime(gap: DistributionSpec) throws {
    let users = 20_000
    let sampler = Sampler(gap)
    var scenario = Self.scenario(gap: gap, survival: nil)
    // Only the first open matters: a horizon just past the largest point checked (a later
    // first open is simply not seen, and counts as above every point).
    scenario.horizon = sampler.quantile(0.9) * 1.01
    let firstOpens = Self.counters(scenario, users: users).map(\.firstOpen)
    let recurrence = ForwardRecurrence(gap)
    for p in [0.1, 0.25, 0.5, 0.75, 0.9] {
      let x = sampler.quantile(p)
      let expected = try #require(recurrence.cdf(x))
      let observed = Double(firstOpens.filter { $0 <= x }.count) / Double(users)
      let tolerance = Self.z * (expected * (1 - expected) / Double(users)).squareRoot()
      #expect(abs(observed - expected) < tolerance, "F(\(x)) \(observed), expected \(expected)")
    }
  }
}
