import Experiments
import Foundation
import Reports
import Testing

@testable import Fitting
@testable import Simulation

/// Issue #32 item 4: session memory through a round trip. `round-trip.json` with a
/// `transitions_after` table on home (after feed users rarely go back to feed) is simulated
/// into `events.csv` and fitted back: the fit keeps exactly that table, and both of home's
/// rows come back within sampling errors derived from their counts.
@Suite("fit: session memory (second-order transitions)")
struct FitSessionMemoryRoundTripTests {
  /// Home after feed: feed 0.1, settings 0.4, background 0.5 (its own row: 0.5, 0.1, 0.4).
  static let after: [(String, Double)] = [("feed", 0.1), ("settings", 0.4), ("background", 0.5)]

  static func scenario() throws -> Scenario {
    let own = #""transitions": {"feed": 0.5, "settings": 0.1, "background": 0.4}"#
    let table = after.map { "\"\($0.0)\": \($0.1)" }.joined(separator: ", ")
    return try EventsLogRoundTrip.roundTrip(
      replacing: [(own, own + #", "transitions_after": {"feed": {"# + table + "}}")],
      file: "memory.json")
  }

  static let fitted: (scenario: Scenario, result: FitResult)? = {
    guard let scenario = try? scenario(),
      let result = EventsLogRoundTrip.fit(scenario, users: 2000, seed: 5, name: "fit-memory")
    else { return nil }
    return (scenario, result)
  }()

  /// The probability of `name` in `row` of `scenario` (0 when absent).
  static func probability(
    _ name: String, in row: [Screen.Transition], of scenario: Scenario
  ) -> Double {
    row.first { transition in
      switch transition.target {
      case .background: name == "background"
      case .screen(let index): scenario.screens[index].name == name
      }
    }?.probability ?? 0
  }

  @Test func theTableIsFoundAndBothRowsComeBack() throws {
    let (scenario, result) = try #require(Self.fitted, "the round trip could not run")
    let fitted = result.scenario
    let tables = fitted.screens.flatMap { screen in
      screen.transitionsAfter.map { (screen.name, fitted.screens[$0.previous].name) }
    }
    #expect(tables.map { "\($0.0) after \($0.1)" } == ["home after feed"])
    let home = try #require(fitted.screens.first { $0.name == "home" })
    let truthHome = try #require(scenario.screens.first { $0.name == "home" })
    let table = try #require(home.transitionsAfter.first)
    let rows: [(label: String, fitted: [Screen.Transition], truth: [Screen.Transition])] = [
      ("home after feed", table.transitions, truthHome.transitionsAfter[0].transitions),
      ("home", home.transitions, truthHome.transitions),
    ]
    for row in rows {
      let exits = result.transitions.filter { $0.from == row.label }.reduce(0) { $0 + $1.count }
      #expect(exits > 300, "\(row.label): \(exits) exits")
      for (name, _) in Self.after {
        let truth = Self.probability(name, in: row.truth, of: scenario)
        let estimate = Self.probability(name, in: row.fitted, of: fitted)
        let error = (truth * (1 - truth) / Double(exits)).squareRoot()
        #expect(
          abs(estimate - truth) <= 4.5 * error + 1e-6,
          "\(row.label) → \(name): \(estimate), true \(truth) ± \(4.5 * error)")
      }
    }
    let estimate = try #require(
      result.estimates.first { $0.name == "session memory (second-order transitions)" })
    #expect(estimate.value == "1 table in transitions_after", "\(estimate.value)")
  }
}
