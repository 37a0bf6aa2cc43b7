import MessageDeferral
import Simulation
import Testing

@Suite("Scenario overrides")
struct ScenarioOverridesTests {
  let scenario = ScenarioLoader.embeddedDefault()

  @Test func overridesReplaceTheFileValues() throws {
    let overridden = try ScenarioLoader.apply(
      ScenarioOverrides(
        users: 500, replications: 4, seed: 9, policies: ["never", "deadline-aware"]),
      to: scenario)
    #expect(overridden.users == 500)
    #expect(overridden.replications == 4)
    #expect(overridden.seed == 9)
    #expect(overridden.policies.map(\.name) == ["never", "deadline-aware"])
    // storekit-auto is no longer compared: the first policy becomes the baseline.
    #expect(overridden.baseline == "never")
  }

  @Test func nothingOverriddenKeepsTheScenario() throws {
    let same = try ScenarioLoader.apply(ScenarioOverrides(), to: scenario)
    #expect(same.users == scenario.users && same.seed == scenario.seed)
    #expect(same.policies == scenario.policies && same.baseline == scenario.baseline)
  }

  @Test func everyBadOverrideIsReported() throws {
    #expect {
      try ScenarioLoader.apply(
        ScenarioOverrides(
          users: 0, replications: 1, policies: ["never", "never", "nope"], baseline: "openiap"),
        to: scenario)
    } throws: { error in
      guard let errors = error as? ScenarioErrors else { return false }
      let paths = errors.problems.map(\.path)
      return errors.file == "command line"
        && paths == ["--users", "--replications", "--policies", "--policies", "--baseline"]
        && errors.description.hasPrefix("command line: --users: must be between 1 and 10000000")
    }
  }
}
