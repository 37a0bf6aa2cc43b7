import Experiments
import Foundation
import Reports
import TestSupport
import Testing

@testable import Fitting
@testable import Simulation

/// Issue #32 items 1 and 2: the cold-launch entry mix and the warm share, from a closed form
/// and through a round trip (a scenario simulated into `events.csv`, fitted back, with and
/// without its splash rows), within sampling errors derived from the counts.
@Suite("fit: entry screens and cold or warm starts")
struct FitWorldRoundTripTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  static let truth = (termination: 0.3, home: 0.6)

  /// `round-trip.json` with a returning mix (home 0.6, feed 0.4) and a termination
  /// probability of 0.3.
  static func scenario(termination: Double = truth.termination) throws -> Scenario {
    var text = try String(
      contentsOf: root.appendingPathComponent("scenarios/fit-samples/round-trip.json"),
      encoding: .utf8)
    text = text.replacingOccurrences(
      of: #""returning": "home"}"#,
      with: #""returning": "home", "returning_mix": {"home": 0.6, "feed": 0.4}}"#)
    text = text.replacingOccurrences(
      of: #""background_termination_probability": 0.5"#,
      with: #""background_termination_probability": \#(termination)"#)
    return try ScenarioLoader.load(json: Array(text.utf8), file: "mix.json")
  }

  /// The scenario's events log, fitted as it is and without its splash rows (and the splash
  /// left out of the map).
  static let fits: (withSplash: FitResult, withoutSplash: FitResult)? = {
    guard let scenario = try? scenario() else { return nil }
    let folder = TestScratch.directory
      .appendingPathComponent("fit-world-\(getpid())").path
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    guard let log = try? EventsLog(folder: folder, scenario: scenario, policies: scenario.policies)
    else { return nil }
    let options = RunOptions(users: 3000, replications: 1, seed: 11, jobs: 2)
    _ = try? Engine.run(
      CompiledScenario(scenario), policies: scenario.policies, options: options,
      makeSink: { log.sink(for: $0) }, finishSink: { sink, _ in sink.close() })
    guard (try? log.finish(itemCount: Engine.itemCount(options))) != nil else { return nil }
    let path = (folder as NSString).appendingPathComponent(EventsLog.fileName)
    var map = FitMap.forEventsLog(of: scenario, policy: scenario.policies[0].name)
    guard let withSplash = try? ScenarioFit.fit(files: [path], map: map),
      let text = try? String(contentsOfFile: path, encoding: .utf8)
    else { return nil }
    let stripped = text.split(separator: "\n").filter { !$0.contains(",splash,") }
    let strippedPath = (folder as NSString).appendingPathComponent("no-splash.csv")
    guard
      (try? (stripped.joined(separator: "\n") + "\n").write(
        toFile: strippedPath, atomically: true, encoding: .utf8)) != nil
    else { return nil }
    map.screens.removeAll { $0.kind == .launch }
    guard let withoutSplash = try? ScenarioFit.fit(files: [strippedPath], map: map) else {
      return nil
    }
    return (withSplash, withoutSplash)
  }()

  @Test("the warm share: excess matches over chance, scaled by the spread (worked by hand)")
  func warmClosedForm() throws {
    // L = f = (1/2, 1/2), m = 0.7: chance 1/2, spread 1/2, w = (0.7 − 0.5) / 0.5 = 0.4.
    let estimate = try #require(_WarmEstimate(pairs: [[35, 15], [15, 35]]))
    #expect(abs(estimate.share - 0.4) < 1e-12 && abs(estimate.chance - 0.5) < 1e-12)
    #expect(abs(estimate.standardError - (0.7 * 0.3 / 100).squareRoot() / 0.5) < 1e-12)
    #expect(estimate.decides)
    // Every session ends on one screen: reopening on it says nothing.
    let flat = try #require(_WarmEstimate(pairs: [[50, 50], [0, 0]]))
    #expect(flat.spread == 0 && !flat.decides)
    #expect(_WarmEstimate(pairs: [[0, 0], [0, 0]]) == nil)
  }

  @Test("returning_mix: cold launches of onboarded users land on each screen at its probability")
  func mixInTheEngine() throws {
    // Every stay in the background terminates: every session is a cold launch.
    let scenario = try Self.scenario(termination: 1)
    var map = FitMap.forEventsLog(of: scenario, policy: "never")
    map.sessionTimeout = 1800
    let stats = PredictiveCheck.simulate(
      scenario, users: 2000, seed: 3, like: FitObservations(screenCount: 6), map: map,
      windowStart: 0)
    let home = Double(stats.firstScreens["home"] ?? 0)
    let feed = Double(stats.firstScreens["feed"] ?? 0)
    let n = home + feed
    #expect(n > 2000)
    // New users' first sessions open on intro; every other session on home or feed.
    let share = home / n
    let sd = (Self.truth.home * (1 - Self.truth.home) / n).squareRoot()
    #expect(abs(share - Self.truth.home) <= 4.5 * sd, "home \(share), n \(n)")
  }

  @Test("with a splash: the mix is counted after it, termination from cold launches")
  func withSplash() throws {
    let result = try #require(Self.fits?.withSplash)
    let mix = result.scenario.entries.returningMix
    let names = result.scenario.screens.map(\.name)
    let home = try #require(mix.first { names[$0.screen] == "home" })
    let counts = result.observations.afterLaunchReturning
    let n = Double(counts.reduce(0, +))
    let sd = (Self.truth.home * (1 - Self.truth.home) / n).squareRoot()
    #expect(mix.count == 2 && abs(home.probability - Self.truth.home) <= 4.5 * sd)
    let cold = Double(result.observations.coldLaunches)
    let later = cold + Double(result.observations.warmResumes)
    let termination = result.scenario.sessions.backgroundTerminationProbability
    let tsd = (Self.truth.termination * (1 - Self.truth.termination) / later).squareRoot()
    #expect(abs(termination - Self.truth.termination) <= 4.5 * tsd)
  }

  @Test("without a splash: the warm share from reopened screens, and the entry mix from f − wL")
  func withoutSplash() throws {
    let fits = try #require(Self.fits)
    let result = fits.withoutSplash
    let estimate = try #require(_WarmEstimate(pairs: result.observations.resumePairs))
    #expect(estimate.decides)
    let termination = result.scenario.sessions.backgroundTerminationProbability
    #expect(abs(termination - (1 - estimate.share)) < 1e-4)
    #expect(
      abs(termination - Self.truth.termination) <= 4.5 * estimate.standardError,
      "termination \(termination) ± \(estimate.standardError)")
    #expect(result.estimates.contains { $0.name == "background termination probability" })
    #expect(!result.warnings.contains { $0.hasPrefix("background termination") })
    // The entry mix: the cold sessions' first screens, about (1 − w) of the later sessions.
    let names = result.scenario.screens.map(\.name)
    let home = try #require(
      result.scenario.entries.returningMix.first { names[$0.screen] == "home" })
    let cold = Double(estimate.pairs) * (1 - estimate.share)
    // f − wL carries the error of w too: the binomial error of the cold sessions, doubled.
    let sd = 2 * (Self.truth.home * (1 - Self.truth.home) / cold).squareRoot()
    #expect(abs(home.probability - Self.truth.home) <= 4.5 * sd, "home \(home.probability)")
  }
}
