import Experiments
import Foundation
import Reports
import TestSupport
import Testing

@testable import Fitting
@testable import Simulation

/// Issue #32 item 3: `sessions.leave_odds_by_position` in the engine (screens per session
/// against the closed form) and fitted back from a simulated `events.csv` (each factor within
/// the delta-method error of two binomial log-odds).
@Suite("session length: leaving odds by screen position")
struct SessionLengthTests {
  /// One screen looping on itself (p = 1/2 of leaving), odds × 1, 3, 0.2 after the 1st, 2nd,
  /// 3rd and later screens.
  static func scenario(termination: Double) throws -> Scenario {
    let text = """
      {
        "schema": 1, "name": "positions", "horizon": "20d", "users": 100, "replications": 2,
        "seed": 1,
        "population": {"new_user_share": 0, "install_window": {"start": "0s", "end": "1d"},
          "subscriber_share": 0, "returning_subscriber_share": 0},
        "sessions": {"gap": {"lognormal": {"median": "6h", "sigma": 0.8}},
          "background_termination_probability": \(termination), "delivery": "launch",
          "fetch_delay": {"fixed": "1s"}, "leave_odds_by_position": [1, 3, 0.2]},
        "screens": [
          {"name": "splash", "kind": "launch", "dwell": {"fixed": "1s"}},
          {"name": "home", "kind": "home", "dwell": {"exponential": {"mean": "20s"}},
            "transitions": {"home": 0.5, "background": 0.5}}
        ],
        "entries": {"cold_launch": "splash", "returning": "home"},
        "onboarding": {"quit_after_sheet_probability": 0, "never_return_after_leaving_probability": 0},
        "scene": {"activation_delay": {"fixed": "300ms"}, "display_failure_probability": 0},
        "sheet_dwell": {"fixed": "5s"},
        "messages": {},
        "policies": ["never"]
      }
      """
    return try ScenarioLoader.load(json: Array(text.utf8), file: "positions.json")
  }

  @Test("screens per session: 1/2, 3/8, then (1/8)(5/6)^(n-3)(1/6)")
  func closedForm() throws {
    let scenario = try Self.scenario(termination: 1)
    var map = FitMap()
    map.screens = [("home", .home)]
    let stats = PredictiveCheck.simulate(
      scenario, users: 1500, seed: 9, like: FitObservations(screenCount: 1), map: map,
      windowStart: 0)
    let counts = stats.screensPerSession
    let n = Double(counts.values.reduce(0, +))
    #expect(n > 50_000)
    let expected: [(String, Double, Double)] = [
      ("1", Double(counts[1] ?? 0), 0.5), ("2", Double(counts[2] ?? 0), 0.375),
      ("3", Double(counts[3] ?? 0), 0.125 / 6),
      ("4+", Double(counts.filter { $0.key >= 4 }.values.reduce(0, +)), 0.125 * 5 / 6),
    ]
    for (name, count, p) in expected {
      let sd = (p * (1 - p) / n).squareRoot()
      #expect(abs(count / n - p) <= 4.5 * sd, "\(name): \(count / n) against \(p)")
    }
  }

  @Test("fit recovers each factor within 4.5 delta-method errors, and screens per session")
  func fittedBack() throws {
    let scenario = try Self.scenario(termination: 0.5)
    let folder = TestScratch.directory
      .appendingPathComponent("fit-positions-\(getpid())").path
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let eventsLog = try EventsLog(folder: folder, scenario: scenario, policies: scenario.policies)
    let options = RunOptions(users: 1500, replications: 1, seed: 4, jobs: 2)
    _ = try Engine.run(
      CompiledScenario(scenario), policies: scenario.policies, options: options,
      makeSink: { eventsLog.sink(for: $0) }, finishSink: { sink, _ in sink.close() })
    try eventsLog.finish(itemCount: Engine.itemCount(options))
    let map = FitMap.forEventsLog(of: scenario, policy: "never")
    let result = try ScenarioFit.fit(
      files: [(folder as NSString).appendingPathComponent(EventsLog.fileName)], map: map)
    let factors = result.scenario.sessions.leaveOddsByPosition
    #expect(factors.count >= 3 && factors[0] == 1)
    let home = 1
    let exits = result.observations.positionExits[home].map(Double.init)
    let leaves = result.observations.positionLeaves[home].map(Double.init)
    // log-odds error of a binomial share: 1 / √(n h (1 − h)).
    func variance(_ k: Int) -> Double {
      let h = leaves[k] / exits[k]
      return 1 / (exits[k] * h * (1 - h))
    }
    for (k, truth) in [(1, 3.0), (2, 0.2)] {
      let se = (variance(0) + variance(k)).squareRoot()
      #expect(abs(log(factors[k]) - log(truth)) <= 4.5 * se, "place \(k + 1): \(factors[k])")
    }
    let background = try #require(
      result.scenario.screens.first { $0.name == "home" }?.transitions.first {
        $0.target == .background
      })
    #expect(abs(background.probability - 0.5) <= 4.5 * variance(0).squareRoot() / 4)
    // The fitted scenario's sessions come back: screens per session within the target.
    let simulated = PredictiveCheck.simulate(
      result.scenario, users: 3000, seed: 2, like: result.observations, map: map,
      windowStart: 0)
    let rows = PredictiveCheck.compare(
      observed: result.observations.journeys, simulated: simulated, checkout: false)
    let screens = try #require(rows.first { $0.name == "screens per session" })
    #expect(screens.passes, "screens per session KS D \(screens.value)")
  }
}
