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

/// Each ``DeliveryMode`` against its closed form. Opens form a Poisson process of rate ν
/// (exponential gaps, sessions of 2 ms); the OS terminates the process at a constant share τ
/// of stays in the background; one consent message per user, issued at a uniform time while
/// the app is away, with a fixed deadline D, shown at once by `storekit-auto` when delivered.
///
/// - `launch`: only a cold launch delivers. Each open after the issue is cold with probability
///   τ, independently, so cold launches are a Poisson process of rate ντ and the message waits
///   Exp(ντ): P(miss) = e^{−ντD}.
/// - `launch_and_resume`, `every_foreground`: the next open of any kind delivers, after
///   Exp(ν): P(miss) = e^{−νD}.
@Suite("Delivery modes against closed forms")
struct DeliveryModeTests {
  static let z = 4.5
  static let nu = 1.0 / 3600
  static let tau = 0.25
  static let deadline = 4 * 3600.0

  static func scenario(_ mode: DeliveryMode) -> Scenario {
    var scenario = Fixtures.latencyToNextOpen(nu: nu, window: 86_400)
    let start = 10 / nu
    scenario.messages.consent = ConsentCampaign(
      start: start, rolloutWindow: 86_400, audienceShare: 1, deadline: .fixed(deadline),
      expiry: nil)
    scenario.horizon = start + 86_400 + deadline + 1
    scenario.sessions.delivery = mode
    scenario.sessions.backgroundTerminationProbability = tau
    return scenario
  }

  static func expectedMissRate(_ mode: DeliveryMode) -> Double {
    switch mode {
    case .launch: exp(-nu * tau * deadline)
    case .launchAndResume, .everyForeground: exp(-nu * deadline)
    }
  }

  @Test(arguments: DeliveryMode.allCases)
  func deadlineMissRateIsTheClosedForm(mode: DeliveryMode) throws {
    let users = 6_000
    let scenario = Self.scenario(mode)
    let tally = try Engine.run(
      CompiledScenario(scenario), policies: scenario.policies,
      options: RunOptions(users: users, replications: 1, seed: 5, jobs: 2)
    ).tallies[0][0]
    #expect(tally.consentDeadlinesDue == users)
    let p = Self.expectedMissRate(mode)
    let observed = Double(tally.consentDeadlineMisses) / Double(tally.consentDeadlinesDue)
    let tolerance = Self.z * (p * (1 - p) / Double(users)).squareRoot()
    #expect(abs(observed - p) < tolerance, "\(mode): \(observed), expected \(p) ± \(tolerance)")
  }

  /// The modes differ only at a warm resume: with every stay in the background ending in
  /// termination (τ = 1) every open is a launch and all three give e^{−νD}.
  @Test func withEveryOpenALaunchTheModesAgree() throws {
    var misses: [Int] = []
    for mode in DeliveryMode.allCases {
      var scenario = Self.scenario(mode)
      scenario.sessions.backgroundTerminationProbability = 1
      let tally = try Engine.run(
        CompiledScenario(scenario), policies: scenario.policies,
        options: RunOptions(users: 2_000, replications: 1, seed: 5, jobs: 1)
      ).tallies[0][0]
      misses.append(tally.consentDeadlineMisses)
    }
    // Same users, same draws: a cold launch delivers the same way in every mode.
    #expect(Set(misses).count == 1, "\(misses)")
  }

  /// A scenario without `delivery` gets the documented default.
  @Test func theDefaultIsLaunchAndResume() throws {
    let text = ScenarioTemplates.minimal.replacingAll("\"delivery\": \"launch\",", with: "")
    #expect(text != ScenarioTemplates.minimal)
    let scenario = try ScenarioLoader.load(json: text, file: "default.json")
    #expect(scenario.sessions.delivery == .launchAndResume)
    #expect(DeliveryMode.defaultMode == .launchAndResume)
  }
}
