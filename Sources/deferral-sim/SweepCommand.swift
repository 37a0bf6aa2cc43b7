import Experiments
import Foundation
import MessageDeferral
import Reports
import Simulation

/// `deferral-sim sweep`: runs a grid of policy and scenario parameters on the same users and
/// reports every point and the Pareto front.
enum SweepCommand {
  static let spec = CommandSpec(
    name: "sweep",
    abstract: "Run a grid of policy and scenario parameters and find the Pareto front.",
    positionalUsage: "SWEEP",
    positionalCount: (1, 1),
    declaring: [
      ExecutionOptions.jobs, ExecutionOptions.shard(ofEvery: "point"),
      OutputOptions.out(default: "results/sweep-<file name>/"), OutputOptions.noReport,
      OutputOptions.quiet, ExecutionOptions.noSharedTrunk, format, OutputOptions.wide,
    ],
    discussion:
      "SWEEP is a JSON file: a base policy, a grid of 'policy.KEY' and 'scenario.PATH'\n"
      + "values, presets to compare, and the two metrics of the Pareto front. See the README,\n"
      + "section Sweeps. Writes sweep.csv, pareto.csv, manifest.json and report.html.\n"
      + "With --shard K/N it writes partial-K-of-N.json instead; 'deferral-sim merge' joins\n"
      + "the N partials into the same files, byte for byte (manifest.json aside: it records\n"
      + "the command, date and wall time).")

  static let format = Option.choice(
    "format", ["table", "csv", "json"],
    "What goes to standard output: the front (default), or sweep.csv as CSV or JSON.")

  static func execute(_ parsed: ParsedArguments, _ output: any OutputStreams) throws -> Int32 {
    let path = parsed.positionals[0]
    let plan = try SweepPlan.load(contentsOf: path)
    let execution = try ExecutionOptions(parsed)
    let (jobs, shard) = (execution.jobs, execution.shard)
    let name = try PartialFile.studyName(file: path, what: "sweep")
    let written = try OutputOptions(parsed, defaultFolder: "results/sweep-\(name)")
    let outPath = written.folder
    let folder = try OutputFolder(path: outPath, mode: shard == nil ? .replace : .shared)
    let started = Date()
    let showProgress = output.errorIsTerminal && !written.quiet
    let meter = ProgressMeter(
      enabled: showProgress, points: plan.scenarioPointCount, output: output)
    var progress: (@Sendable (Int, Int, RunProgress) -> Void)?
    if showProgress {
      progress = { @Sendable point, _, report in meter.update(report, point: point) }
    }
    // Runs the sweep's simulation, naming the sweep file in a policy's problems, and clears
    // the progress line after.
    func simulating<T>(_ body: () throws -> T) throws -> T {
      defer { meter.finish() }
      do {
        return try body()
      } catch let issues as ConfigIssues {
        throw ScenarioErrors(file: path, issues)
      }
    }
    if let shard {
      let tallies = try simulating {
        try plan.simulate(
          jobs: jobs, shard: shard, sharedTrunk: execution.sharedTrunk, file: path,
          progress: progress)
      }
      let fileName = PartialResult.fileName(shard: shard.index, shards: shard.count)
      let partial = try SweepPartial(
        toolVersion: DeferralSim.version, sweepName: name, plan: plan, file: path,
        blockSize: RunOptions.defaultBlockSize, shard: shard.index, shards: shard.count,
        tallies: tallies)
      try folder.write(try partial.encoded(), to: fileName)
      output.out(
        "\(name): shard \(shard.index)/\(shard.count) of \(tallies.count) scenario point(s), "
          + "\(partial.events) events, "
          + "\(TerminalTable.fixed(Date().timeIntervalSince(started), 1)) s. Wrote "
          + "\(outPath)/\(fileName); combine the shards with 'deferral-sim merge'.")
      return ExitStatus.success
    }
    let format = try parsed.value(Self.format) ?? "table"
    let outcome = try simulating {
      try plan.run(
        jobs: jobs, sharedTrunk: execution.sharedTrunk, file: path, progress: progress)
    }
    try write(
      outcome, plan: plan, name: name, folder: folder, outPath: outPath,
      htmlReport: written.htmlReport, started: started, jobs: jobs, output: output,
      format: format, width: TerminalWidth.resolve(wide: parsed.flag(OutputOptions.wide)))
    return ExitStatus.success
  }

  /// Writes a sweep's files (`manifest.json` as a run's, with the sweep's name, hash and
  /// points) and prints its front: shared by `sweep` and `merge` (`jobs` 1).
  static func write(
    _ outcome: SweepOutcome, plan: SweepPlan, name: String, folder: OutputFolder,
    outPath: String, htmlReport: Bool, started: Date, jobs: Int, output: any OutputStreams,
    format: String = "table", width: Int? = nil
  ) throws {
    let manifest = outcome.manifest(
      toolVersion: DeferralSim.version, commandLine: CommandLine.arguments, sweepName: name,
      plan: plan, jobs: jobs, started: started, finished: Date())
    try folder.write(outcome.sweep.text, to: "sweep.csv")
    try folder.write(outcome.pareto.text, to: "pareto.csv")
    try folder.write(manifest.json, to: "manifest.json")
    if htmlReport {
      try folder.write(
        HTMLReport.renderSweep(
          name: name, outcome: outcome, pareto: plan.pareto, manifest: manifest),
        to: "report.html")
    }
    try folder.commit()
    let wrote =
      "Wrote sweep.csv, pareto.csv, manifest.json\(htmlReport ? ", report.html" : "") to \(outPath)/"
    if format != "table" {
      // Machine-readable standard output: sweep.csv alone; the rest goes to standard error.
      output.out(format == "json" ? outcome.sweep.jsonText : String(outcome.sweep.text.dropLast()))
      output.err(wrote)
      return
    }
    func say(_ text: String) { output.out(TerminalLayout.wrap(text, width: width, indent: 2)) }
    say(
      "\(name): \(outcome.points) points, \(outcome.events) events, "
        + "\(TerminalTable.fixed(Date().timeIntervalSince(started), 1)) s")
    say("Pareto front (\(plan.pareto.x.name) vs \(plan.pareto.y.name), lower is better):")
    for line in outcome.frontLines { say("  " + line) }
    say(wrote)
  }
}
