import Experiments
import Foundation
import Reports
import Testing

@testable import Fitting
@testable import Simulation

/// Issue #32 item 5: lifecycle phases through a round trip. `round-trip.json` with a
/// `lifecycle` section (home leads to settings in a user's first two sessions, to the feed
/// from the third on; existing users in the last phase) is simulated into `events.csv` and
/// fitted back: home's tables come back per phase within sampling errors derived from their
/// counts, no other screen gets one, and the check's by-session-index row passes where the
/// same scenario without its phases fails it.
@Suite("fit: lifecycle phases")
struct FitLifecycleRoundTripTests {
  static let early: [(String, Double)] = [("feed", 0.2), ("settings", 0.4), ("background", 0.4)]
  static let late: [(String, Double)] = [("feed", 0.55), ("settings", 0.05), ("background", 0.4)]

  static func table(_ row: [(String, Double)]) -> String {
    "{" + row.map { "\"\($0.0)\": \($0.1)" }.joined(separator: ", ") + "}"
  }

  static func scenario() throws -> Scenario {
    let lifecycle =
      #""lifecycle": [{"name": "early", "from_session": 1, "transitions": {"home": "#
      + table(early) + #"}}, {"name": "late", "from_session": 3, "transitions": {"home": "#
      + table(late) + "}}], "
    return try EventsLogRoundTrip.roundTrip(
      replacing: [
        (#""new_user_share": 0.3"#, #""new_user_share": 0.6"#),
        (#""entries":"#, lifecycle + #""entries":"#),
      ], file: "lifecycle.json")
  }

  static let fitted: (scenario: Scenario, result: FitResult)? = {
    guard let scenario = try? scenario(),
      let result = EventsLogRoundTrip.fit(scenario, users: 2000, seed: 5, name: "fit-lifecycle")
    else { return nil }
    return (scenario, result)
  }()

  static func probability(
    _ name: String, in row: [Screen.Transition], of scenario: Scenario
  )
    -> Double
  {
    FitSessionMemoryRoundTripTests.probability(name, in: row, of: scenario)
  }

  @Test func homesTablesComeBackPerPhase() throws {
    let (_, result) = try #require(Self.fitted, "the round trip could not run")
    let fitted = result.scenario
    #expect(fitted.phases.map(\.name) == _ScenarioDraft.phaseNames)
    #expect(fitted.phases.map(\.fromSession) == [1, 2, 3, 4])
    #expect(fitted.existingUsersPhase == 3)
    let home = try #require(fitted.screens.firstIndex { $0.name == "home" })
    // Sessions 1 and 2 are one behaviour, 3 on another: the tables are the ones the test
    // can tell apart from the rest, and every phase table is home's.
    for phase in fitted.phases {
      #expect(phase.transitions.allSatisfy { $0.screen == home }, "\(phase.name)")
      #expect(phase.returningMix.isEmpty && phase.gap == nil)
    }
    func row(_ session: Int) -> (label: String, transitions: [Screen.Transition]) {
      let phase = fitted.phases[session - 1]
      if let own = phase.transitions.first {
        return ("home in \(phase.name)", own.transitions)
      }
      return ("home", fitted.screens[home].transitions)
    }
    #expect(row(1).label == "home" && row(2).label == "home")
    #expect(row(3).label != "home" && row(4).label != "home")
    for session in 1...4 {
      let (label, transitions) = row(session)
      let truth = session < 3 ? Self.early : Self.late
      let exits = result.transitions.filter { $0.from == label }.reduce(0) { $0 + $1.count }
      #expect(exits > 1000, "\(label): \(exits) exits")
      for (name, p) in truth {
        let estimate = Self.probability(name, in: transitions, of: fitted)
        // The background keeps the screen's share over every session: the error of all
        // home's exits, far below this one's.
        let error = (p * (1 - p) / Double(exits)).squareRoot()
        #expect(
          abs(estimate - p) <= 4.5 * error + 1e-6,
          "session \(session) home → \(name): \(estimate), true \(p) ± \(4.5 * error)")
      }
    }
    let estimate = try #require(
      result.estimates.first { $0.name == "lifecycle phases (by session index)" })
    #expect(estimate.value == "2 tables in lifecycle", "\(estimate.value)")
  }

  static let rowName = "3-screen paths by session index (1, 2, 3, 4 on; the largest distance)"

  /// The fitted scenario passes the by-session-index row; the same scenario with its phases
  /// taken away (one table for home over every session, what `fit` wrote before) fails it.
  @Test func theCheckSeesThePhases() throws {
    let (_, result) = try #require(Self.fitted, "the round trip could not run")
    var flat = result.scenario
    let home = try #require(flat.screens.firstIndex { $0.name == "home" })
    // The pooled row: what one table fitted on every session would say.
    let pooled = result.observations.transitions[home]
    let total = Double(pooled.reduce(0, +))
    flat.screens[home].transitions = flat.screens[home].transitions.map { transition in
      var pooledOne = transition
      let index: Int
      switch transition.target {
      case .background: index = flat.screens.count
      case .screen(let screen): index = screen
      }
      pooledOne.probability = Double(pooled[index]) / total
      return pooledOne
    }
    flat.phases = []
    var values: [Double] = []
    for scenario in [result.scenario, flat] {
      let rows = EventsLogRoundTrip.checkRows(of: scenario, against: result, users: 4000)
      let row = try #require(rows.first { $0.name == Self.rowName })
      values.append(row.value)
    }
    #expect(values[0] <= PredictiveCheck.tolerances.paths, "fitted: TV \(values[0])")
    #expect(values[1] > PredictiveCheck.tolerances.paths, "without phases: TV \(values[1])")
  }

  /// Gaps by phase: after a user's first two sessions the gap is the scenario's (lognormal,
  /// median 6 h), after later ones a phase's own (median 2 h). Each class's fitted median comes
  /// back within 4.5 standard errors of the truth.
  @Test func eachPhasesGapComesBack() throws {
    let lifecycle =
      #""lifecycle": [{"name": "early", "from_session": 1}, {"name": "late", "from_session": 3, "#
      + #""gap": {"lognormal": {"median": "2h", "sigma": 1.0}}}], "#
    let scenario = try EventsLogRoundTrip.roundTrip(
      replacing: [
        (#""new_user_share": 0.3"#, #""new_user_share": 0.6"#),
        (#""entries":"#, lifecycle + #""entries":"#),
      ], file: "lifecycle-gaps.json")
    let result = try #require(
      EventsLogRoundTrip.fit(scenario, users: 1500, seed: 8, name: "fit-lifecycle-gaps"))
    let phases = result.scenario.phases
    #expect(phases.map(\.name) == _ScenarioDraft.phaseNames)
    for (index, phase) in phases.enumerated() {
      let truth = index < 2 ? 6 * 3600.0 : 2 * 3600.0
      let spec = try #require(phase.gap, "\(phase.name) has no gap")
      guard case .lognormal(let median, let sigma) = spec else {
        Issue.record("\(phase.name): \(spec) is not a lognormal")
        continue
      }
      // The median's standard error is about median × σ √(π / 2n) for n gaps; n ≥ 100.
      let n = Double(result.observations.phaseGaps[index].items.count)
      let error = truth * sigma * (Double.pi / (2 * n)).squareRoot()
      #expect(
        abs(median - truth) <= 4.5 * error, "\(phase.name): median \(median) vs \(truth) ± \(error)"
      )
      #expect(abs(sigma - 1) < 0.1, "\(phase.name): sigma \(sigma)")
      #expect(phase.transitions.isEmpty)
    }
    let estimate = try #require(result.estimates.first { $0.name == "gaps by lifecycle phase" })
    #expect(estimate.value == "4 gaps in lifecycle", "\(estimate.value)")
  }

  /// Entries by phase: onboarded users land on home 70% of cold launches in their first two
  /// sessions, 30% from the third on (the feed the rest). The entry tables come back within
  /// 4.5 standard errors for every phase (its own table, or the scenario's mix, which is what
  /// the tables leave).
  @Test func eachPhasesEntryMixComesBack() throws {
    let lifecycle =
      #""lifecycle": [{"name": "early", "from_session": 1}, {"name": "late", "from_session": 3, "#
      + #""returning_mix": {"home": 0.3, "feed": 0.7}}], "#
    let scenario = try EventsLogRoundTrip.roundTrip(
      replacing: [
        (#""new_user_share": 0.3"#, #""new_user_share": 0.6"#),
        (
          #""returning": "home"}"#,
          #""returning": "home", "returning_mix": {"home": 0.7, "feed": 0.3}}"#
        ),
        (#""entries":"#, lifecycle + #""entries":"#),
      ], file: "lifecycle-entries.json")
    let result = try #require(
      EventsLogRoundTrip.fit(scenario, users: 1500, seed: 4, name: "fit-lifecycle-entries"))
    let fitted = result.scenario
    let home = try #require(fitted.screens.firstIndex { $0.name == "home" })
    func share(_ mix: [Entries.Weighted]) -> Double {
      mix.first { $0.screen == home }?.probability ?? 0
    }
    let phases = fitted.phases
    #expect(phases.map(\.name) == _ScenarioDraft.phaseNames)
    // A new user's first session has no onboarded cold launch: from the second on.
    for (index, phase) in phases.enumerated().dropFirst() {
      let truth = index < 2 ? 0.7 : 0.3
      let mix = phase.returningMix.isEmpty ? fitted.entries.returningMix : phase.returningMix
      let n = Double(result.observations.phaseEntries[index].reduce(0, +))
      let error = (truth * (1 - truth) / max(1, n)).squareRoot()
      #expect(n > 200, "\(phase.name): \(n) cold entries")
      #expect(
        abs(share(mix) - truth) <= 4.5 * error + 1e-6,
        "\(phase.name): home \(share(mix)) vs \(truth) ± \(error)")
    }
    // Whichever phases get a table, the mix a phase uses is right (above); one at least does.
    #expect(
      phases.contains { !$0.returningMix.isEmpty },
      "\(result.estimates.filter { $0.name.hasPrefix("lifecycle") })")
  }

  /// A world with one behaviour for every session keeps no phase.
  @Test func oneBehaviourKeepsNoPhase() throws {
    let scenario = try EventsLogRoundTrip.roundTrip(replacing: [], file: "plain.json")
    let result = try #require(
      EventsLogRoundTrip.fit(scenario, users: 1500, seed: 3, name: "fit-no-lifecycle"))
    #expect(result.scenario.phases.isEmpty)
    #expect(!result.scenarioJSON.contains("\"lifecycle\""))
    let estimate = try #require(
      result.estimates.first { $0.name == "lifecycle phases (by session index)" })
    #expect(estimate.value == "none", "\(estimate.value)")
    let gaps = try #require(result.estimates.first { $0.name == "gaps by lifecycle phase" })
    #expect(gaps.value == "none", "\(gaps.value)")
  }
}
