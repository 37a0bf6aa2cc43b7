import MessageDeferral
import Simulation
import Testing

@testable import Reports

/// One real run whose answer is known by construction: the default scenario where every sheet
/// over onboarding loses the user for good (quit and never return), so interruptions cost
/// completed onboardings one for one, and a copy of `screen-gate` under another name (same
/// configuration, same users: identical in every replication).
enum DecisionFixture {
  static let policyNames = ["storekit-auto", "openiap", "screen-gate", "never", "gate-copy"]

  static let scenario: Scenario = {
    var scenario = ScenarioLoader.embeddedDefault()
    // Without responses: these tests weigh the model of a consent shown as a renewal kept.
    scenario.responses = nil
    scenario.users = 800
    scenario.replications = 4
    scenario.onboarding = Onboarding(
      quitAfterSheetProbability: 1, neverReturnAfterLeavingProbability: 1)
    scenario.policies = policyNames.map { name in
      let preset = name == "gate-copy" ? "screen-gate" : name
      return NamedPolicy(
        name: name, configuration: PolicyCatalog.preset(named: preset)!.configuration)
    }
    scenario.baseline = "storekit-auto"
    return scenario
  }()

  static let result: RunResult = {
    try! Engine.run(
      CompiledScenario(scenario), policies: scenario.policies,
      options: RunOptions(
        users: scenario.users, replications: scenario.replications, seed: scenario.seed, jobs: 2))
  }()

  /// The report with `value` as the scenario's value section, restricted to `policies`.
  static func report(value: ValueModel?, policies: [String]? = nil) -> RunReport {
    var scenario = scenario
    scenario.value = value
    var result = result
    if let policies {
      let keep = policies.map { name in policyNames.firstIndex(of: name)! }
      result = RunResult(
        policies: keep.map { result.policies[$0] },
        tallies: result.tallies.map { row in keep.map { row[$0] } })
      scenario.policies = result.policies
      scenario.baseline = policies[0]
    }
    return RunReport(scenario: scenario, result: result, baseline: scenario.baseline)
  }

  static func mean(_ report: RunReport, _ policy: String, _ metric: MetricID) -> Double? {
    let index = report.result.policies.firstIndex { $0.name == policy }!
    return report.interval(policy: index, metric: metric)?.mean
  }
}

@Suite("Recommendation")
struct DecisionTests {
  @Test func valueOnlyInOnboardingRecommendsAPolicyThatNeverInterruptsIt() throws {
    let report = DecisionFixture.report(value: ValueModel(unit: "USD", onboardingCompleted: 10))
    let decision = Decision(report)
    let best = try #require(decision.rows.first)
    #expect(decision.basis == .value)
    #expect(best.verdict == .recommended)
    #expect(DecisionFixture.mean(report, best.policy, .onboardingInterruptionRate) == 0)
    let auto = try #require(decision.rows.first { $0.policy == "storekit-auto" })
    #expect(auto.verdict == .worse)
    #expect((auto.differenceToBest?.high ?? 0) < 0)
    #expect(decision.sentences[0].hasPrefix("Recommendation: "))
  }

  @Test func valueOnlyInConsentRecommendsShowingAtOnce() throws {
    let report = DecisionFixture.report(value: ValueModel(unit: "USD", consentDeadlineMissed: 25))
    let decision = Decision(report)
    let best = try #require(decision.rows.first)
    #expect(["storekit-auto", "openiap"].contains(best.policy))
    let never = try #require(decision.rows.first { $0.policy == "never" })
    #expect(never.verdict == .worse)
    let shares = decision.rows.compactMap(\.probabilityBest)
    #expect(abs(shares.reduce(0, +) - 1) < 1e-9)
  }

  @Test func identicalPoliciesAreIndistinguishableNeverBeaten() throws {
    let valued = Decision(
      DecisionFixture.report(
        value: ValueModel(unit: "USD", onboardingCompleted: 10),
        policies: ["screen-gate", "gate-copy"]))
    #expect(valued.rows.map(\.verdict) == [.recommended, .indistinguishable])
    #expect(valued.rows.map(\.probabilityBest) == [0.5, 0.5])
    #expect(valued.sentences.contains { $0.contains("indistinguishable here") })
    let plain = DecisionFixture.report(value: nil, policies: ["screen-gate", "gate-copy"])
    let text = TerminalTable.render(plain)
    #expect(text.contains("screen-gate and gate-copy: indistinguishable here"))
    #expect(!text.contains("beats"))
  }

  @Test func frontBasisClaimsDominanceOnlyWhenPairedIntervalsShowIt() throws {
    let report = DecisionFixture.report(value: nil)
    let decision = Decision(report)
    #expect(decision.basis == .front)
    let never = try #require(decision.rows.first { $0.policy == "never" })
    // `never` misses far more deadlines and interrupts no more onboarding than screen-gate.
    #expect(never.verdict == .dominated)
    let csv = decision.table.text
    #expect(csv.hasPrefix("basis,rank,policy,verdict,"))
    #expect(csv.split(separator: "\n").count == 1 + DecisionFixture.policyNames.count)
  }
}
