import MessageDeferral
import Simulation
import Testing

@testable import Experiments

/// Every way a value-aware policy enters a run prices it by the scenario's `value` section
/// (``Scenario/priced(_:definition:)``), except a robustness study's worlds, which keep the
/// base scenario's amounts: an app ships one set of amounts whatever world it lives in.
@Suite("Value pricing in runs, sweeps, tunes and studies")
struct ValuePricingExperimentTests {
  /// The embedded default scenario's `value` section: renewal 25, checkout 6, immersive 0,
  /// onboarding 0.3 × 6.
  static let defaultScenario = try! ScenarioLoader.load(
    json: ScenarioLoader.embeddedDefaultJSON, file: "indie-subscription")

  static func renewal(_ policy: NamedPolicy?) -> Double? {
    policy?.configuration.urgentConsent?.value?.renewal
  }

  @Test func theDefaultScenarioSimulatesTheAmountsItExports() throws {
    let policy = try #require(
      Self.defaultScenario.policies.first { $0.name == "deadline-aware-value" })
    let test = try #require(policy.configuration.urgentConsent?.value)
    #expect(test.renewal == 25)
    #expect(test.costs[ScreenKind.immersive.index] == 0)  // the preset's own is 3
    #expect(test.costs[ScreenKind.checkout.index] == 6)
  }

  @Test func aPresetNamedOnTheCommandLineIsPricedToo() throws {
    var scenario = Self.defaultScenario
    scenario.policies = scenario.policies.filter { $0.name == "storekit-auto" }
    scenario.value?.consentDeadlineMissed = 70
    #expect(Self.renewal(PolicyLookup.policy(named: "deadline-aware-value", in: scenario)) == 70)
  }

  @Test func sweepPointsFollowTheirScenarioAndPolicyPointsKeepTheirOwnAmounts() throws {
    let plan = try SweepPlan.load(
      source: """
        {"users": 50, "replications": 2,
         "policy": {"preset": "deadline-aware-value"},
         "grid": {"policy.urgent_consent.value.costs.checkout": [1, 2],
                  "scenario.value.consent_deadline_missed": [10, 50]},
         "compare": ["deadline-aware-value"]}
        """, file: "pricing.json")
    let runs = try plan.pointRuns(file: "pricing.json")
    #expect(runs.count == 2)
    for (run, renewal) in zip(runs, [10.0, 50]) {
      for policy in run.scenario.policies {
        #expect(Self.renewal(policy) == renewal, "\(policy.name)")
      }
      let checkouts = run.scenario.policies.map {
        $0.configuration.urgentConsent?.value?.costs[ScreenKind.checkout.index]
      }
      // The compared preset takes the scenario's 6; the policy points set their own.
      #expect(checkouts == [6, 1, 2])
    }
  }

  @Test func aStudysWorldsKeepTheBaseScenariosAmounts() throws {
    let plan = try RobustPlan.load(
      source: """
        {"users": 50, "replications": 2, "worlds": 4,
         "policies": ["storekit-auto", "deadline-aware-value"],
         "parameters": {"value.consent_deadline_missed": {"uniform": {"min": 5, "max": 90}, "source": "assumption"}}}
        """, file: "study.json")
    let worlds = try plan.drawWorlds(file: "study.json")
    #expect(worlds.count == 4)
    #expect(Set(worlds.compactMap { $0.scenario.value?.consentDeadlineMissed }).count == 4)
    for world in worlds {
      let policy = world.scenario.policies.first { $0.name == "deadline-aware-value" }
      #expect(Self.renewal(policy) == 25)
    }
  }
}
