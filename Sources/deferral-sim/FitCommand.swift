import Foundation
import MessageDeferral
import Reports
import Simulation

/// `deferral-sim fit`: reads screen-view logs with a map, writes a fitted scenario and
/// `fit-report.html`, prints what it fitted.
enum FitCommand {
  static let spec = CommandSpec(
    name: "fit",
    abstract: "Fit a scenario to screen-view analytics logs.",
    positionalUsage: "EVENTS...",
    positionalCount: (1, nil),
    declaring: [map, out, seed, noReport],
    discussion:
      "EVENTS are read in order, streaming: a user's events must be in time order (fit does not\n"
      + "sort). Formats: generic CSV or JSON lines (user_id,timestamp,screen[,event,session]),\n"
      + "Firebase's BigQuery export and Amplitude's export as JSON lines (the map's 'format').\n"
      + "fit-report.html is written next to the scenario. The map's keys and every rule:\n"
      + "scenarios/fit-samples/README.md.")

  static let map = Option.text(
    "map", "file", "The map: screen kinds, onboarding order, session timeout (required).")
  /// A file, not a folder as in ``OutputOptions``; completed as a folder, as it always was.
  static let out = Option.text(
    "out", "file", "Where to write the scenario (default: results/fit-<name>/scenario.json).",
    completion: .folders)
  static let seed = Option.unsigned(
    "seed", "s", "Seed of the predictive check's simulation (default 42).")
  static let noReport = OutputOptions.noReport.help(
    "Do not write fit-report.html (and skip the predictive check).")

  static func execute(_ parsed: ParsedArguments, _ output: any OutputStreams) throws -> Int32 {
    guard let mapPath = try parsed.value(Self.map) else {
      throw UsageError(
        message: "'--map MAP.json' is required: it gives each screen's kind", command: "fit")
    }
    let seed = try parsed.value(Self.seed) ?? 42
    let map = try FitMap.load(contentsOf: mapPath)
    let result = try ScenarioFit.fit(files: parsed.positionals, map: map)
    let outPath = try parsed.value(Self.out) ?? "results/fit-\(result.scenario.name)/scenario.json"
    let folderPath = (outPath as NSString).deletingLastPathComponent
    // Files added one by one beside others (a scenarios folder, the current one): not a unit.
    let folder = try OutputFolder(path: folderPath.isEmpty ? "." : folderPath, mode: .shared)
    let fileName = (outPath as NSString).lastPathComponent
    var written = [outPath]
    try folder.write(result.scenarioJSON, to: fileName)
    if !parsed.flag(Self.noReport) {
      let simulated = PredictiveCheck.simulate(
        result.scenario, users: min(result.observations.users, 20_000), seed: seed,
        like: result.observations, timeout: map.sessionTimeout)
      let html = FitReport.render(
        result, simulated: simulated, toolVersion: DeferralSim.version,
        commandLine: CommandLine.arguments)
      try folder.write(html, to: "fit-report.html")
      written.append((folder.path as NSString).appendingPathComponent("fit-report.html"))
    }
    printSummary(result, output: output)
    output.out("Wrote \(written.joined(separator: ", "))")
    return ExitStatus.success
  }

  static func printSummary(_ result: FitResult, output: any OutputStreams) {
    let observations = result.observations
    output.out(
      "\(result.scenario.name): \(observations.rows) events, \(observations.screenViews) screen "
        + "views, \(observations.users) users, \(observations.journeys.sessions) sessions")
    output.out("")
    output.out("screen\tcomplete\tcensored\tfamily\tparameters (± standard error)\tKS")
    for summary in result.screens.map(\.screen) + [result.gap] {
      let family = summary.chosen?.family.rawValue ?? "default"
      let parameters =
        summary.chosen?.parameters.map {
          "\($0.name)=\(TerminalTable.fixed($0.value, 4))±"
            + ($0.standardError.isFinite ? TerminalTable.fixed($0.standardError, 4) : "n/a")
        }
        .joined(separator: " ") ?? ""
      let ks = summary.ks.map { TerminalTable.fixed($0, 3) } ?? ""
      output.out(
        "\(summary.name)\t\(summary.complete)\t\(summary.censored)\t\(family)\t\(parameters)\t\(ks)"
      )
    }
    for estimate in result.estimates {
      output.out("\(estimate.name): \(estimate.value) (\(estimate.basis))")
    }
    for warning in result.warnings { output.out("warning: \(warning)") }
  }
}
