import Experiments
import Foundation
import MessageDeferral
import Simulation
import Testing

@Suite("Run plans: one policy lookup, one baseline rule")
struct RunPlanTests {
  let scenario = ScenarioLoader.embeddedDefault()

  @Test func overridesReplaceTheFileValues() throws {
    let plan = try RunPlan(
      scenario: scenario,
      overrides: RunPlan.Overrides(
        users: 500, replications: 4, seed: 9, policies: ["never", "deadline-aware"]))
    #expect(plan.users == 500)
    #expect(plan.replications == 4)
    #expect(plan.seed == 9)
    #expect(plan.options.seed == 9)
    // The file's baseline (storekit-auto) is left out of the list: it still runs, first.
    #expect(plan.policies.map(\.name) == ["storekit-auto", "never", "deadline-aware"])
    #expect(plan.baseline == "storekit-auto")
    let planned = plan.planned(scenario)
    #expect(planned.seed == 9 && planned.users == 500 && planned.baseline == "storekit-auto")
  }

  @Test func nothingOverriddenKeepsTheScenario() throws {
    let plan = try RunPlan(scenario: scenario, overrides: RunPlan.Overrides())
    #expect(plan.users == scenario.users && plan.seed == scenario.seed)
    #expect(plan.policies == scenario.policies && plan.baseline == scenario.baseline)
  }

  @Test func aBaselineAskedForAlwaysRuns() throws {
    let plan = try RunPlan(
      scenario: scenario,
      overrides: RunPlan.Overrides(policies: ["never"], baseline: "storekit-auto"))
    #expect(plan.policies.map(\.name) == ["storekit-auto", "never"])
    #expect(plan.baseline == "storekit-auto")
    // A study's policy list asks for no baseline: the first listed is it, nothing is added.
    var study = RunPlan(scenario: scenario)
    study.policies = [
      NamedPolicy(name: "never", configuration: PolicyCatalog.Preset.never.configuration)
    ]
    study.settleBaseline()
    #expect(study.baseline == "never" && study.policies.count == 1)
  }

  @Test(arguments: [
    (RunPlan.Overrides(users: 0), RunPlan.Problem.Field.users, "'--users' must be between 1"),
    (RunPlan.Overrides(replications: 1), .replications, "'--replications' must be between 2"),
    (RunPlan.Overrides(policies: []), .policies, "'--policies' needs at least one name"),
    (
      RunPlan.Overrides(policies: ["never", "never"]), .policies,
      "policy 'never' is listed twice in --policies"
    ),
    (
      RunPlan.Overrides(policies: ["screen-gat"]), .policies,
      "unknown policy 'screen-gat' in --policies; did you mean 'screen-gate'?"
    ),
    (
      RunPlan.Overrides(policies: ["never"], baseline: "nope"), .baseline,
      "baseline 'nope' is not a policy of this run; choose one of never"
    ),
  ])
  func everyBadOverrideIsNamed(
    overrides: RunPlan.Overrides, field: RunPlan.Problem.Field, message: String
  ) {
    #expect {
      try RunPlan(scenario: scenario, overrides: overrides)
    } throws: { error in
      guard let problem = error as? RunPlan.Problem else { return false }
      return problem.field == field
        && problem.message(naming: "--\(problem.field.rawValue)", scenario: scenario)
          .hasPrefix(message)
    }
  }

  @Test func oneLookupForEveryCommand() throws {
    // The scenario's own policy wins over a preset of the same name; unknown names get the
    // closest valid one, the scenario's policies listed first.
    let own = try #require(PolicyLookup.policy(named: scenario.policies[0].name, in: scenario))
    #expect(own == scenario.policies[0])
    #expect(PolicyLookup.policy(named: "openiap", in: scenario)?.name == "openiap")
    #expect(PolicyLookup.policy(named: "nope", in: scenario) == nil)
    let valid = PolicyLookup.validNames(in: scenario)
    #expect(Array(valid.prefix(scenario.policies.count)) == scenario.policies.map(\.name))
    #expect(Set(valid).count == valid.count)
    #expect(Set(PolicyCatalog.presetNames).isSubset(of: Set(valid)))
  }
}
