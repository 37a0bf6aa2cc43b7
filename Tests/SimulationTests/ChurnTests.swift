import Foundation
import MessageDeferral
import Testing

@testable import Simulation

/// `sessions.churn_probability` (#32 item 7: user lifetimes): in the engine against the
/// geometric law of sessions it implies, and as a scenario key with its errors (fitted with
/// the gap: FittingTests' `ChurnFitTests`).
@Suite("Churn: a session that is the user's last")
struct ChurnTests {
  static let users = 4000

  /// Splash → home (10 s, then background), a 60 s gap, a horizon long enough that no user
  /// reaches it: each user's sessions are geometric, P(N = k) = (1 − q)^(k−1) q, so the home
  /// visits sum to n/q with variance n(1 − q)/q². z = 4.5.
  @Test func sessionsAreGeometric() throws {
    let q = 0.2
    var scenario = Fixtures.base(
      screens: [
        Screen(name: "splash", kind: .launch, dwell: .fixed(0.5), transitions: []),
        Screen(
          name: "home", kind: .home, dwell: .fixed(10),
          transitions: [Fixtures.transition(.background, 1)]),
      ],
      entries: Entries(coldLaunch: 0, newUser: 1, returning: 1), horizon: 30 * 86_400,
      gap: .fixed(60))
    scenario.sessions.churnProbability = q
    // Every return a cold launch, so each session shows the splash: its visits count sessions.
    scenario.sessions.backgroundTerminationProbability = 1
    let tally = try Engine.run(
      CompiledScenario(scenario), policies: scenario.policies,
      options: RunOptions(users: Self.users, replications: 1, seed: 5, jobs: 1)
    ).tallies[0][0]
    let n = Double(Self.users)
    let mean = n / q
    let sd = (n * (1 - q) / (q * q)).squareRoot()
    #expect(abs(Double(tally.screenVisits[0]) - mean) <= 4.5 * sd, "\(tally.screenVisits)")
    // Without the key every user returns until the horizon (about 36,000 sessions each in 30
    // days of 70.5 s cycles): far more sessions. Ten users say so (200 took 90 s in a debug
    // build, the fast tier's longest test).
    scenario.sessions.churnProbability = 0
    let kept = try Engine.run(
      CompiledScenario(scenario), policies: scenario.policies,
      options: RunOptions(users: 10, replications: 1, seed: 5, jobs: 1)
    ).tallies[0][0]
    #expect(kept.screenVisits[0] > 10 * 1000)
  }

  @Test func theKeyIsChecked() throws {
    let base = ScenarioTemplates.minimal(replacing: [])
    let marker = "\"fetch_delay\""
    #expect(base.contains(marker))
    for (value, fragment) in [("1", "must be below 1, got 1"), ("1.5", "must be between 0 and 1")] {
      let text = base.replacingAll(marker, with: "\"churn_probability\": \(value), \(marker)")
      let errors = try #require(ScenarioTemplates.errors(of: text))
      #expect(
        errors.problems.contains {
          $0.path == "$.sessions.churn_probability" && $0.message.contains(fragment)
        }, "\(errors.problems)")
    }
    let fine = base.replacingAll(marker, with: "\"churn_probability\": 0.05, \(marker)")
    let scenario = try ScenarioLoader.load(json: fine, file: "churn.json")
    #expect(scenario.sessions.churnProbability == 0.05)
  }
}
