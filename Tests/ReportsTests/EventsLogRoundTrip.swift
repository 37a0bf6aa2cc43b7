import Experiments
import Foundation
import Reports
import TestSupport
import Testing

@testable import Fitting
@testable import Simulation

/// A scenario simulated into `events.csv` under its first policy and fitted back with the
/// events log's own map (``FitMap/forEventsLog(of:policy:)``): the round trip the fit tests
/// share. The temporary folder is removed afterwards.
enum EventsLogRoundTrip {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  /// `scenarios/fit-samples/round-trip.json` with each `(old, new)` fragment replaced; a
  /// fragment not found is an issue (the file changed: update the test).
  static func roundTrip(replacing edits: [(String, String)], file: String) throws -> Scenario {
    var text = try String(
      contentsOf: root.appendingPathComponent("scenarios/fit-samples/round-trip.json"),
      encoding: .utf8)
    for (old, new) in edits {
      #expect(text.contains(old), "round-trip.json no longer holds \(old); update the test")
      text = text.replacingOccurrences(of: old, with: new)
    }
    return try ScenarioLoader.load(json: Array(text.utf8), file: file)
  }

  /// The predictive check's rows of `scenario` (by default the fitted one) simulated for
  /// `users` users at seed 42 against the log `result` was fitted on, as `fit` compares them
  /// (no checkout row).
  static func checkRows(
    of scenario: Scenario? = nil, against result: FitResult, users: Int
  ) -> [CheckRow] {
    let simulatedScenario = scenario ?? result.scenario
    let map = FitMap.forEventsLog(of: simulatedScenario, policy: "never")
    let simulated = PredictiveCheck.simulate(
      simulatedScenario, users: users, seed: 42, like: result.observations, map: map,
      windowStart: result.windowStart)
    return PredictiveCheck.compare(
      observed: result.observations.journeys, simulated: simulated, checkout: false)
  }

  static func fit(_ scenario: Scenario, users: Int, seed: UInt64, name: String) -> FitResult? {
    let folder = TestScratch.directory
      .appendingPathComponent("\(name)-\(getpid())").path
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    guard let log = try? EventsLog(folder: folder, scenario: scenario, policies: scenario.policies)
    else { return nil }
    let options = RunOptions(users: users, replications: 1, seed: seed, jobs: 2)
    _ = try? Engine.run(
      CompiledScenario(scenario), policies: scenario.policies, options: options,
      makeSink: { log.sink(for: $0) }, finishSink: { sink, _ in sink.close() })
    guard (try? log.finish(itemCount: Engine.itemCount(options))) != nil else { return nil }
    let map = FitMap.forEventsLog(of: scenario, policy: scenario.policies[0].name)
    let path = (folder as NSString).appendingPathComponent(EventsLog.fileName)
    return try? ScenarioFit.fit(files: [path], map: map)
  }
}
