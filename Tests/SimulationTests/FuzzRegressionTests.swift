import Simulation
import Testing

/// Inputs that once crashed scenario loading or made it run for minutes, found while fuzzing
/// it (CONTRIBUTING.md, "Fuzzing"), each reduced to the smallest document that shows the
/// problem. Each must now give a clean ``ScenarioErrors`` naming the problem.
///
/// The slow inputs are checked by what they report, not by timing (speed is measured in
/// `deferral-bench`, never in timed tests); the times quoted are from a release build.
@Suite("Fuzz regressions")
struct FuzzRegressionTests {
  /// Loads `text`, expecting a user error; returns its problems.
  func problems(_ text: String) -> [ScenarioErrors.Problem] {
    do {
      _ = try ScenarioLoader.load(json: text, file: "fuzz.json")
      Issue.record("the input loaded; expected a ScenarioErrors")
      return []
    } catch {
      return error.problems
    }
  }

  /// Weights that are each finite but overflow when summed passed validation, and then
  /// `CompiledScenario` (the first step of `deferral-sim run`) trapped in `Sampler.init`:
  /// "the weights must have a positive finite sum".
  @Test func empiricalWeightsWhoseSumOverflows() throws {
    let text = ScenarioTemplates.minimal(replacing: [
      ("\"weights\": [1, 2, 1]", "\"weights\": [1e308, 1e308, 1]")
    ])
    let found = problems(text)
    #expect(found.map(\.path) == ["$.sheet_dwell.empirical.weights"])
    #expect(found.first?.message.contains("too large") == true)
    // The largest weights that do add up are still accepted, and compile.
    let largest = ScenarioTemplates.minimal(replacing: [
      ("\"weights\": [1, 2, 1]", "\"weights\": [8e307, 8e307, 1]")
    ])
    _ = CompiledScenario(try ScenarioLoader.load(json: largest, file: "fuzz.json"))
  }
}
