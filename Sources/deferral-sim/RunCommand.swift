import Experiments
import Fitting
import Foundation
import MessageDeferral
import Reports
import Simulation

/// `deferral-sim run`: resolves the scenario and options (all checks before any work),
/// runs the engine, writes the reports, prints the table.
enum RunCommand {
  /// A scenario and the bytes it was read from (for the manifest's hash).
  struct LoadedScenario {
    var scenario: Scenario
    var bytes: [UInt8]
  }

  static func loadScenario(_ path: String?) throws -> LoadedScenario {
    guard let path else {
      return LoadedScenario(
        scenario: ScenarioLoader.embeddedDefault(),
        bytes: Array(ScenarioLoader.embeddedDefaultJSON.utf8))
    }
    // Read once: the manifest's hash is of the very bytes simulated.
    let bytes: [UInt8]
    switch readRegularFile(path, limit: ScenarioLoader.maximumFileSize) {
    case .success(let read): bytes = read
    case .failure(let problem): throw ScenarioErrors(file: path, problem)
    }
    let scenario = try ScenarioLoader.load(json: bytes, file: path)
    return LoadedScenario(scenario: scenario, bytes: bytes)
  }

  /// The run's plan: the scenario's own, with the command line's `--users`, `--replications`,
  /// `--seed`, `--policies` and `--baseline` (``RunPlan/Overrides``).
  static func makePlan(_ parsed: ParsedArguments, for scenario: Scenario) throws -> RunPlan {
    let overrides = RunPlan.Overrides(
      users: try parsed.value(ScenarioOptions.users),
      replications: try parsed.value(ScenarioOptions.replications),
      seed: try parsed.value(ScenarioOptions.seed),
      policies: try parsed.value(ScenarioOptions.policies),
      baseline: try parsed.value(ScenarioOptions.baseline))
    do {
      return try RunPlan(scenario: scenario, overrides: overrides)
    } catch {
      throw UsageError(
        message: error.message(naming: "--\(error.field.rawValue)", scenario: scenario),
        command: "run")
    }
  }

  static func execute(_ parsed: ParsedArguments, _ output: any OutputStreams) throws -> Int32 {
    var loaded = try loadScenario(parsed.positionals.first)
    try ScenarioOptions.applyResponses(parsed, to: &loaded.scenario)
    var plan = try makePlan(parsed, for: loaded.scenario)
    let execution = try ExecutionOptions(parsed)
    let (jobs, shard) = (execution.jobs, execution.shard)
    let precision = try parsed.value(Self.precision)
    let maximumReplications = try parsed.value(maxReplications) ?? 64
    if precision != nil, shard != nil {
      throw UsageError(
        message: "'--precision' cannot be combined with '--shard': find the count unsharded, "
          + "then shard with --replications", command: "run")
    }
    if precision == nil, parsed.isGiven(maxReplications) {
      throw UsageError(
        message: "'--max-replications' bounds '--precision'; give both", command: "run")
    }
    if precision != nil, parsed.isGiven(ScenarioOptions.replications),
      plan.replications > maximumReplications
    {
      // The search starts at the replications asked for; a lower bound would silently win.
      throw UsageError(
        message: "'--replications \(plan.replications)' is more than '--max-replications "
          + "\(maximumReplications)': --precision starts from the replications and doubles them "
          + "up to the maximum; lower --replications or raise --max-replications",
        command: "run")
    }
    plan.jobs = jobs
    plan.shard = shard
    plan.sharedTrunk = execution.sharedTrunk
    var scenario = plan.planned(loaded.scenario)
    for log in [messagesLog, eventsLog] where shard != nil && parsed.flag(log) {
      throw UsageError(
        message: "'--\(log.spec.name)' cannot be combined with '--shard'; run the log unsharded",
        command: "run")
    }
    _ = try eventsLogPolicies(parsed, scenario: scenario)
    let format = try parsed.value(Self.format) ?? "table"
    let written = try OutputOptions(parsed, defaultFolder: "results/\(scenario.name)")
    let outPath = written.folder
    let folder = try OutputFolder(path: outPath, mode: shard == nil ? .replace : .shared)

    let started = Date()
    let showProgress = output.errorIsTerminal && !written.quiet
    // One policy's events log is a second pass after the run (``runWithLogs``).
    let meter = ProgressMeter(
      enabled: showProgress, points: logsOnePolicyAfter(parsed, scenario: scenario) ? 2 : 1,
      pointName: "pass", output: output)
    var progress: (@Sendable (RunProgress) -> Void)?
    if showProgress {
      progress = { @Sendable report in meter.update(report) }
    }
    let world = CompiledScenario(scenario)
    var result: RunResult
    var precise: RunResult?
    if let precision {
      let found = try replicationsForPrecision(
        plan, scenario: scenario, world: world, relative: precision,
        maximum: maximumReplications, output: output, quiet: written.quiet)
      plan.replications = found.replications
      scenario = plan.planned(loaded.scenario)
      precise = found.result
    }
    let logs = parsed.flag(messagesLog) || parsed.flag(eventsLog)
    if let precise, !logs {
      result = precise
    } else if logs {
      result = try runWithLogs(
        parsed, world: world, scenario: scenario, plan: plan, folder: folder,
        meter: meter, progress: progress)
    } else {
      do {
        result = try Experiment.run(plan, on: world, progress: progress)
      } catch {
        meter.finish()
        throw error
      }
    }
    meter.finish()

    if let shard {
      let partial = PartialResult(
        toolVersion: DeferralSim.version,
        scenarioSource: String(decoding: loaded.bytes, as: UTF8.self),
        scenario: scenario, blockSize: plan.blockSize, shard: shard.index, shards: shard.count,
        result: result)
      let name = PartialResult.fileName(shard: shard.index, shards: shard.count)
      try folder.write(try partial.encoded(), to: name)
      output.out(
        "\(scenario.name): shard \(shard.index)/\(shard.count), \(result.events) events, "
          + "\(TerminalTable.fixed(Date().timeIntervalSince(started), 1)) s. Wrote "
          + "\(outPath)/\(name); combine the shards with 'deferral-sim merge'.")
      return ExitStatus.success
    }

    let manifest = Manifest(
      toolVersion: DeferralSim.version, commandLine: CommandLine.arguments,
      scenarioName: scenario.name, scenarioSHA256: SHA256.hex(loaded.bytes), seed: plan.seed,
      users: scenario.users, replications: scenario.replications, jobs: jobs,
      policies: scenario.policies.map(\.name), baseline: scenario.baseline, started: started,
      finished: Date(), events: result.events)
    try writeReports(
      scenario: scenario, result: result, manifest: manifest, folder: folder,
      extraFiles: (parsed.flag(messagesLog) ? ["messages.csv"] : [])
        + (parsed.flag(eventsLog) ? [EventsLog.fileName, FitMap.eventsMapFileName] : []),
      htmlReport: written.htmlReport, output: output, format: format,
      width: TerminalWidth.resolve(wide: parsed.flag(OutputOptions.wide)))
    return ExitStatus.success
  }

  /// Writes the run folder's files and prints the summary table: shared by `run` and `merge`.
  static func writeReports(
    scenario: Scenario, result: RunResult, manifest: Manifest, folder: OutputFolder,
    extraFiles: [String], htmlReport: Bool, output: any OutputStreams, format: String = "table",
    width: Int? = nil
  ) throws {
    let report = RunReport(scenario: scenario, result: result, baseline: scenario.baseline)
    for file in report.files { try folder.write(file.table.text, to: file.name) }
    var manifest = manifest
    manifest.valueAmounts = scenario.policies.compactMap { policy in
      scenario.pricingNote(for: policy).map { (policy.name, $0) }
    }
    try folder.write(manifest.json, to: "manifest.json")
    let recommended = ExportPolicyCommand.recommended(
      report, scenario: scenario, manifest: manifest)
    if let recommended { try folder.write(recommended, to: "recommended-policy.json") }
    if htmlReport {
      try folder.write(HTMLReport.render(report, manifest: manifest), to: "report.html")
    }
    try folder.commit()
    let written =
      report.files.map(\.name) + extraFiles + (htmlReport ? ["report.html"] : [])
      + (recommended != nil ? ["recommended-policy.json"] : [])
    let wrote = "Wrote \(written.joined(separator: ", ")), manifest.json to \(folder.path)/"
    if format != "table", let summary = report.files.first(where: { $0.name == "summary.csv" }) {
      // Machine-readable standard output: the summary alone; the rest goes to standard error.
      output.out(format == "json" ? summary.table.jsonText : String(summary.table.text.dropLast()))
      output.err(wrote)
      return
    }
    output.out(
      TerminalLayout.wrap(
        "\(scenario.name): \(scenario.users) users × \(scenario.replications) replications × "
          + "\(scenario.policies.count) policies, seed \(scenario.seed), "
          + "\(TerminalTable.fixed(manifest.wallSeconds, 1)) s, \(result.events) events",
        width: width, indent: 2))
    output.out("")
    output.out(TerminalTable.render(report, width: width))
    for (_, note) in manifest.valueAmounts {
      output.out(TerminalLayout.wrap("Amounts: \(note).", width: width, indent: 2))
    }
    output.out("")
    output.out(TerminalLayout.wrap(wrote, width: width, indent: 2))
  }
}

/// The progress line on standard error (only when it is a terminal). A sweep runs one engine
/// run per scenario point: `points` of them, told apart by `update`'s `point`.
final class ProgressMeter: @unchecked Sendable {
  let enabled: Bool
  let points: Int
  /// What a point is called on the progress line (`point`, `world`).
  let pointName: String
  let output: any OutputStreams
  let started = Date()
  let lock = NSLock()
  var lastPrinted = Date.distantPast
  /// The point being run, and the events of the points before it.
  var point = 0
  var eventsBefore = 0
  var eventsInPoint = 0

  init(enabled: Bool, points: Int = 1, pointName: String = "point", output: any OutputStreams) {
    self.enabled = enabled
    self.points = max(1, points)
    self.pointName = pointName
    self.output = output
  }

  func update(_ progress: RunProgress, point: Int = 0) {
    guard enabled else { return }
    lock.lock()
    defer { lock.unlock() }
    if point != self.point {
      self.point = point
      eventsBefore += eventsInPoint
    }
    eventsInPoint = progress.events
    let now = Date()
    guard now.timeIntervalSince(lastPrinted) > 0.2 || progress.itemsDone == progress.itemsTotal
    else {
      return
    }
    lastPrinted = now
    let elapsed = now.timeIntervalSince(started)
    let rate = elapsed > 0 ? Double(eventsBefore + eventsInPoint) / elapsed : 0
    let inPoint = Double(progress.itemsDone) / Double(max(1, progress.itemsTotal))
    let fraction = (Double(point) + inPoint) / Double(points)
    let left = fraction > 0 ? elapsed * (1 - fraction) / fraction : 0
    let pointText = points > 1 ? "\(pointName) \(point + 1)/\(points) · " : ""
    output.errInline(
      "\r  \(pointText)replications \(progress.replicationsDone)/\(progress.replicationsTotal) · "
        + "\(TerminalTable.fixed(rate / 1e6, 2))M events/s · "
        + "\(TerminalTable.fixed(left, 0)) s left   ")
  }

  func finish() {
    guard enabled else { return }
    output.errInline("\r" + String(repeating: " ", count: 80) + "\r")
  }
}
