import MessageDeferral
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

  /// The minimal scenario with `policies` as its policies array (JSON text).
  func withPolicies(_ policies: String) -> String {
    ScenarioTemplates.minimal(replacing: [(InvalidScenarioCase.policies, policies)])
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

  /// An unknown policy key of 1 MB took 3.4 s (2 MB: 14 s): the "did you mean" search
  /// compared it with every valid key. Names over 64 bytes are no typo and get no suggestion,
  /// as everywhere else in a scenario file; the message lists the valid keys instead.
  @Test func longUnknownPolicyKeyGetsNoSuggestion() {
    let key = String(repeating: "gate", count: 25_000)
    let found = problems(withPolicies("[{\"name\": \"p\", \"\(key)\": 1}]"))
    #expect(found.count == 1)
    #expect(found.first?.message.contains("did you mean") == false)
    #expect(found.first?.message.contains("valid: name, preset, gate,") == true)
  }

  /// Each policy entry had a suggestion budget of its own, so 50,000 policies with one
  /// misspelled key each took 10.7 s (400 µs per suggestion). Policies now share the file's
  /// budget: the first misspellings get a suggestion, those after it is spent a list.
  @Test func policySuggestionsShareTheFileBudget() {
    // One unit per candidate name: `name`, `preset` and every policy key.
    let candidates = PolicyConfiguration.keys.count + 2
    var budget = candidates
    let first = PolicyCatalog.definition(
      from: .object([.init(key: "name", value: .string("p")), .init(key: "gaet", value: .null)]),
      at: "$.policies[0]", suggestionBudget: &budget)
    #expect(budget == 0)
    guard case .failure(let issues) = first else {
      Issue.record("expected an unknown key")
      return
    }
    #expect(issues.issues.map(\.message) == ["unknown policy key 'gaet'; did you mean 'gate'?"])

    let entry = "{\"name\": \"p\", \"gaet\": {}}"
    let count = PolicyCatalog.defaultSuggestionBudget / candidates + 1
    let found = problems(
      withPolicies("[" + Array(repeating: entry, count: count).joined(separator: ",") + "]"))
    #expect(found.count == count)
    #expect(found.first?.message.contains("did you mean 'gate'?") == true)
    #expect(found.last?.message.contains("did you mean") == false)
  }

  /// Locating each policy problem searched the object's members again: 50,000 unknown keys in
  /// one policy took 30 s, 100,000 over 2 minutes. Objects are indexed once now; positions are
  /// unchanged (the offending key's value, or the entry).
  @Test func manyPolicyProblemsKeepTheirPositions() {
    let kinds = (0..<2_000).map { "\"k\($0)\": \"open\"" }.joined(separator: ", ")
    let found = problems(withPolicies("[{\"name\": \"p\", \"gate\": {\(kinds)}, \"x\": 1}]"))
    #expect(found.count == 2_001)
    #expect(found.first?.path == "$.policies[0].gate.k0")
    #expect(found.last?.path == "$.policies[0].x")
    // Every problem points into the one line holding the policies, each further right.
    let columns = found.compactMap(\.position?.column)
    #expect(columns.count == found.count)
    #expect(zip(columns, columns.dropFirst()).allSatisfy { $0 < $1 })
  }

  /// Every unknown transition target rebuilt the list of screen names for its message:
  /// 12,500 screens with an unknown target each took 6 s. The list is built once now.
  @Test func manyUnknownTransitionTargets() {
    let screens = (0..<300).map {
      "{\"name\": \"s\($0)\", \"kind\": \"home\", \"dwell\": {\"fixed\": 1}, "
        + "\"transitions\": {\"t\($0)\": 1}}"
    }
    let text = ScenarioTemplates.minimal(replacing: [
      (
        InvalidScenarioCase.splash,
        InvalidScenarioCase.splash + ", " + screens.joined(separator: ", ")
      )
    ])
    let found = problems(text)
    #expect(found.count == 300)
    #expect(found.last?.path == "$.screens[300].transitions.t299")
    #expect(
      found.last?.message.hasSuffix(
        "(screens: splash, s0, s1, s2, s3, s4, s5, s6, s7, s8, s9, s10, ...)") == true)
  }
}
