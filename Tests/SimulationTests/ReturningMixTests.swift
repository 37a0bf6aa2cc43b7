import Simulation
import Testing

/// `entries.returning_mix`: read, checked (file, JSON path and fix), and absent without the key.
@Suite("entries.returning_mix")
struct ReturningMixTests {
  static let anchor = #""returning": "home"}"#

  static func document(_ mix: String) -> String {
    ScenarioTemplates.minimal(replacing: [
      (anchor, #""returning": "home", "returning_mix": "# + mix + "}")
    ])
  }

  @Test func aMixIsReadInFileOrderAndAbsentWithoutTheKey() throws {
    let scenario = try ScenarioLoader.load(
      json: Self.document(#"{"home": 0.25, "player": 0.75}"#), file: "mix.json")
    #expect(
      scenario.entries.returningMix == [
        Entries.Weighted(screen: 2, probability: 0.25),
        Entries.Weighted(screen: 3, probability: 0.75),
      ])
    let plain = try ScenarioLoader.load(json: ScenarioTemplates.minimal, file: "plain.json")
    #expect(plain.entries.returningMix.isEmpty)
  }

  @Test(arguments: [
    (#"{"home": 0.5, "player": 0.4}"#, "$.entries.returning_mix", "sum to 0.9, not 1"),
    (#"{"home": 0.5, "playr": 0.5}"#, "$.entries.returning_mix.playr", "did you mean 'player'?"),
    (#"{"home": 0.5, "intro": 0.5}"#, "$.entries.returning_mix.intro", "onboarding"),
    (#"{"home": 1.5}"#, "$.entries.returning_mix.home", "probability"),
    (#"{}"#, "$.entries.returning_mix", "non-empty object"),
    (#""home""#, "$.entries.returning_mix", "non-empty object"),
  ])
  func badMixesNameThePathAndTheFix(mix: String, path: String, fragment: String) throws {
    let errors = try #require(ScenarioTemplates.errors(of: Self.document(mix)))
    let problem = try #require(errors.problems.first)
    #expect(problem.path == path)
    #expect(problem.message.contains(fragment), "\(problem.message)")
  }
}

/// `sessions.leave_odds_by_position`: read, and refused with the path and the fix.
@Suite("sessions.leave_odds_by_position")
struct LeaveOddsDecodingTests {
  static func document(_ odds: String) -> String {
    ScenarioTemplates.minimal(replacing: [
      (
        #""fetch_delay": {"fixed": "1s"}"#,
        #""fetch_delay": {"fixed": "1s"}, "leave_odds_by_position": "# + odds
      )
    ])
  }

  @Test func oddsAreReadAndAbsentWithoutTheKey() throws {
    let scenario = try ScenarioLoader.load(json: Self.document("[1, 2.5, 0.5]"), file: "o.json")
    #expect(scenario.sessions.leaveOddsByPosition == [1, 2.5, 0.5])
    let plain = try ScenarioLoader.load(json: ScenarioTemplates.minimal, file: "plain.json")
    #expect(plain.sessions.leaveOddsByPosition.isEmpty)
  }

  @Test(arguments: [
    ("[]", "$.sessions.leave_odds_by_position", "non-empty array"),
    ("[1, 0]", "$.sessions.leave_odds_by_position[1]", "positive number"),
    ("[1, \"2\"]", "$.sessions.leave_odds_by_position[1]", "positive number"),
    ("2", "$.sessions.leave_odds_by_position", "non-empty array"),
  ])
  func badOddsNameThePathAndTheFix(odds: String, path: String, fragment: String) throws {
    let errors = try #require(ScenarioTemplates.errors(of: Self.document(odds)))
    let problem = try #require(errors.problems.first)
    #expect(problem.path == path)
    #expect(problem.message.contains(fragment), "\(problem.message)")
  }
}
