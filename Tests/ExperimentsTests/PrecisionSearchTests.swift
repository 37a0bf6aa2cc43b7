import Experiments
import Reports
import Simulation
import Testing

/// `run --precision`'s search (Experiments' ``PrecisionSearch``): replications doubled from
/// the plan's until precise or at the maximum, the last run's result returned as it is.
@Suite("Precision search: replications doubled until intervals are narrow")
struct PrecisionSearchTests {
  static func plan() throws -> (RunPlan, Scenario, CompiledScenario) {
    let scenario = ScenarioLoader.embeddedDefault()
    let plan = try RunPlan(
      scenario: scenario,
      overrides: RunPlan.Overrides(
        users: 200, replications: 2, seed: 7, policies: ["never", "deadline-aware"]))
    return (plan, plan.planned(scenario), CompiledScenario(plan.planned(scenario)))
  }

  /// No interval is ever exactly zero-width relative to its mean at 200 users: the search
  /// doubles 2 → 4 → 5 (the maximum), stops there unmet, and its result is that run's.
  @Test func anImpossiblePrecisionStopsAtTheMaximum() throws {
    let (plan, scenario, world) = try Self.plan()
    var trials: [Int] = []
    let found = try PrecisionSearch.search(
      plan, scenario: scenario, world: world, relative: 0, maximum: 5
    ) { trials.append($0.replications) }
    #expect(trials == [2, 4, 5])
    #expect(found.replications == 5 && !found.met)
    let widest = try #require(found.widest)
    #expect(widest.value > 0)
    var five = plan
    five.replications = 5
    #expect(found.result.tallies == (try Experiment.run(five, on: world)).tallies)
    let report = RunReport(scenario: scenario, result: found.result, baseline: scenario.baseline)
    #expect(PrecisionSearch.widestRelativeHalfWidth(report) == widest)
  }

  /// Any width is precise enough for an infinite tolerance: the plan's count, one run.
  @Test func aLoosePrecisionKeepsThePlansCount() throws {
    let (plan, scenario, world) = try Self.plan()
    var trials: [Int] = []
    let found = try PrecisionSearch.search(
      plan, scenario: scenario, world: world, relative: .infinity, maximum: 64
    ) { trials.append($0.replications) }
    #expect(trials == [2] && found.replications == 2 && found.met)
  }
}
