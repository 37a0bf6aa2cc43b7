import Experiments
import Fitting
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
    let inputs = parsed.positionals + [mapPath]
    let givenOut = try parsed.value(Self.out)
    // The file-output rule, checked before any work: a regular file or nothing, never an input.
    if let givenOut { try OutputFolder.checkFileOutput(givenOut, option: "--out", inputs: inputs) }
    let map = try FitMap.load(contentsOf: mapPath)
    let result = try ScenarioFit.fit(files: parsed.positionals, map: map, mapFile: mapPath)
    let outPath = givenOut ?? "results/fit-\(result.scenario.name)/scenario.json"
    try OutputFolder.checkFileOutput(outPath, option: "--out", inputs: inputs)
    let folderPath = OutputFolder.parent(of: outPath)
    // Files added beside others (a scenarios folder, the current one): not a folder replaced
    // whole, but the scenario and its report are written as one unit.
    let folder = try OutputFolder(path: folderPath.isEmpty ? "." : folderPath, mode: .shared)
    let fileName = (outPath as NSString).lastPathComponent
    var files: [(name: String, bytes: [UInt8])] = [(fileName, Array(result.scenarioJSON.utf8))]
    var removing: [String] = []
    var check: [CheckRow] = []
    let reportPath = (folder.path as NSString).appendingPathComponent(Self.reportName)
    if !parsed.flag(Self.noReport) {
      let simulated = PredictiveCheck.simulate(
        result.scenario,
        users: PredictiveCheck.simulatedUsers(forLogOf: result.observations.users), seed: seed,
        like: result.observations, map: map, windowStart: result.windowStart)
      check = PredictiveCheck.compare(
        observed: result.observations.journeys, simulated: simulated,
        checkout: map.screens.contains { $0.kind == .checkout })
      let html = FitReport.render(
        result, simulated: simulated, check: check, toolVersion: DeferralSim.version,
        commandLine: CommandLine.arguments)
      files.append((Self.reportName, Array(html.utf8)))
    } else if isFitReport(reportPath) {
      // An earlier fit's report would sit beside the new scenario as if it described it.
      removing.append(Self.reportName)
    }
    try folder.writeTogether(files, removing: removing)
    printSummary(result, check: check, output: output)
    let written = [outPath] + (files.count > 1 ? [reportPath] : [])
    output.out("Wrote \(written.map { TerminalText.quoted($0) }.joined(separator: ", "))")
    return ExitStatus.success
  }

  static let reportName = "fit-report.html"

  /// Whether `path` is a regular file holding a report `fit` wrote (its generator tag and
  /// title): only such a file is removed by a fit with `--no-report`.
  static func isFitReport(_ path: String) -> Bool {
    var info = stat()
    guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG,
      let handle = FileHandle(forReadingAtPath: path)
    else { return false }
    defer { try? handle.close() }
    let head = String(decoding: handle.readData(ofLength: 8192), as: UTF8.self)
    return head.contains("<meta name=\"generator\" content=\"deferral-sim ")
      && head.contains("<title>deferral-sim fit: ")
  }

  static func printSummary(_ result: FitResult, check: [CheckRow], output: any OutputStreams) {
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
    if !check.isEmpty {
      output.out("")
      output.out("predictive check\tlog\tsimulated\tstatistic\tvalue\ttolerance\tresult")
      for row in check {
        let percent = row.measure == .points || row.measure == .relative
        func shown(_ value: Double) -> String {
          percent ? TerminalTable.fixed(value * 100, 1) + "%" : TerminalTable.fixed(value, 3)
        }
        output.out(
          "\(row.name)\t\(row.observed)\t\(row.simulated)\t\(row.measure.rawValue)\t"
            + "\(shown(row.value))\t\(shown(row.tolerance))\t"
            + (row.passes ? "pass" : row.withinNoise ? "warn (within noise)" : "warn"))
      }
    }
    for warning in result.warnings + PredictiveCheck.warnings(check) {
      output.out("warning: \(warning)")
    }
  }
}
