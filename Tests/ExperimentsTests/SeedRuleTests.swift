import Experiments
import Foundation
import MessageDeferral
import Simulation
import Testing

/// One rule for seeds and whole numbers in every file: scenarios, sweeps, robustness studies
/// and partial results (``ScenarioFields``).
@Suite("One seed rule")
struct SeedRuleTests {
  @Test(arguments: [
    ("0", UInt64?.some(0)), ("42", 42), ("18446744073709551615", UInt64.max),
    ("18446744073709551616", nil), ("+5", nil), ("-1", nil), (" 5", nil), ("", nil),
    ("0x5", nil), ("5.0", nil),
  ])
  func seedDigits(text: String, seed: UInt64?) {
    #expect(ScenarioFields.seed(digits: text) == seed)
  }

  /// A sweep on a two-policy scenario, its seed as given.
  static func sweep(seed: String) -> String {
    #"{"users": 10, "replications": 2, "seed": \#(seed), "grid": {"policy.sheets_per_break": [1]}}"#
  }

  @Test func sweepSeedsFollowTheScenarioRule() throws {
    // Beyond 9e15 (refused before), as digits: exact, as in a scenario file.
    let large = try SweepPlan.load(source: Self.sweep(seed: "12345678901234567"), file: "s.json")
    #expect(large.seed == 12_345_678_901_234_567)
    let text = try SweepPlan.load(source: Self.sweep(seed: #""18446744073709551615""#), file: "s")
    #expect(text.seed == UInt64.max)
    for bad in [#""+5""#, "-1", "1.5", #""""#] {
      #expect {
        try SweepPlan.load(source: Self.sweep(seed: bad), file: "s.json")
      } throws: { error in
        guard let errors = error as? ScenarioErrors else { return false }
        return errors.problems.map(\.path) == ["$.seed"]
          && errors.problems[0].message.hasPrefix("invalid seed")
      }
    }
  }

  @Test func sweepCountsAndKeysFollowTheScenarioRule() throws {
    let source = #"{"users": 0, "replicatons": 2, "grid": {"policy.sheets_per_break": [1]}}"#
    #expect {
      try SweepPlan.load(source: source, file: "s.json")
    } throws: { error in
      guard let errors = error as? ScenarioErrors else { return false }
      let text = errors.description
      return text.contains("$.users: must be between 1 and 10000000, got 0")
        && text.contains("$.replicatons: unknown key 'replicatons'; did you mean 'replications'?")
    }
  }

  @Test func aPartialWithABadSeedIsRefused() throws {
    let scenario = ScenarioLoader.embeddedDefault()
    var partial = PartialResult(
      toolVersion: "test", scenarioSource: ScenarioLoader.embeddedDefaultJSON,
      scenario: scenario, blockSize: 32, shard: 0, shards: 1,
      result: RunResult(
        policies: scenario.policies,
        tallies: Array(
          repeating: Array(
            repeating: Tally(screenCount: scenario.screens.count),
            count: scenario.policies.count),
          count: scenario.replications)))
    #expect(try partial.runSeed(file: "p.json") == scenario.seed)
    #expect(try partial.scenario(file: "p.json").seed == scenario.seed)
    for bad in ["+5", "", "x", "18446744073709551616"] {
      partial.seed = bad
      #expect(throws: PartialError.self) { try partial.runSeed(file: "p.json") }
      #expect(throws: PartialError.self) { try partial.scenario(file: "p.json") }
      #expect(throws: PartialError.self) { try partial.check(path: "p.json") }
    }
  }
}
