import Experiments
import Foundation
import MessageDeferral
import Reports
import Simulation

/// `deferral-sim robust`: runs every policy in N plausible worlds drawn from ranges of the
/// uncertain parameters, and says how often each is best and which parameters decide it.
enum RobustCommand {
  static let spec = CommandSpec(
    name: "robust",
    abstract: "Run every policy across plausible worlds; report how often each is best.",
    positionalUsage: "UNCERTAINTY",
    positionalCount: (1, 1),
    options: [
      .value("jobs", "j", "Worker threads (default: the number of cores).", short: "j"),
      .value(
        "shard", "K/N",
        "Run only shard K of N of every world and write a partial result (see merge)."),
      .value("out", "dir", "Output folder (default: results/robust-<file name>/).", short: "o"),
      .flag("no-report", "Do not write report.html."),
      .flag("quiet", "No progress line on standard error.", short: "q"),
    ],
    discussion:
      "UNCERTAINTY is a JSON file: a scenario with a value section, ranges for uncertain\n"
      + "'scenario.PATH' and 'value.KEY' parameters (uniform, log_uniform, triangular or a list\n"
      + "of values, each with its source), and the number of worlds drawn from them by a Latin\n"
      + "hypercube ('lhs', the default) or the Sobol sequence. See the README, section\n"
      + "Robustness. Every policy runs in each world on the same users; the best policy of a\n"
      + "world has the highest value_per_1k_users. Writes robust.csv, robust-summary.csv,\n"
      + "robust-tornado.csv and report.html. With --shard K/N it writes partial-K-of-N.json\n"
      + "instead; 'deferral-sim merge' joins the N partials into the same files, byte for byte.")

  static func execute(_ parsed: ParsedArguments, _ output: any OutputStreams) throws -> Int32 {
    let path = parsed.positionals[0]
    let plan: RobustPlan
    let worlds: [RobustWorld]
    do {
      plan = try RobustPlan.load(contentsOf: path)
      worlds = try plan.drawWorlds(file: path)
    } catch {
      throw ToolError.input(error.description)
    }
    let jobs =
      try parsed.integer("jobs", in: 1...1024) ?? ProcessInfo.processInfo.activeProcessorCount
    let name = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
    let outPath = parsed.value("out") ?? "results/robust-\(name)"
    let shard = try RunCommand.parseShard(parsed.value("shard"), command: "robust")
    let folder = try OutputFolder.forCommand(
      at: outPath, mode: shard == nil ? .replace : .shared)
    let started = Date()
    let showProgress = output.errorIsTerminal && !parsed.flag("quiet")
    let meter = ProgressMeter(
      enabled: showProgress, points: worlds.count, pointName: "world", output: output)
    var progress: (@Sendable (Int, Int, RunProgress) -> Void)?
    if showProgress {
      progress = { @Sendable world, _, report in meter.update(report, point: world) }
    }
    let tallies: [[[Tally]]]
    do {
      defer { meter.finish() }
      tallies = try plan.simulate(worlds: worlds, jobs: jobs, shard: shard, progress: progress)
    } catch let error as EngineError {
      throw ToolError.failure(error.description)
    }
    if let shard {
      let fileName = PartialResult.fileName(shard: shard.index, shards: shard.count)
      let partial = SweepPartial(
        toolVersion: DeferralSim.version, studyName: name, plan: plan, worlds: worlds,
        blockSize: RunOptions.defaultBlockSize, shard: shard.index, shards: shard.count,
        tallies: tallies)
      do {
        try folder.write(try partial.encoded(), to: fileName)
      } catch let error as OutputError {
        throw ToolError(error)
      }
      output.out(
        "\(name): shard \(shard.index)/\(shard.count) of \(worlds.count) worlds, "
          + "\(partial.events) events, "
          + "\(TerminalTable.fixed(Date().timeIntervalSince(started), 1)) s. Wrote "
          + "\(outPath)/\(fileName); combine the shards with 'deferral-sim merge'.")
      return ExitStatus.success
    }
    try write(
      plan.outcome(worlds: worlds, tallies: tallies), plan: plan, worlds: worlds, name: name,
      folder: folder, outPath: outPath, htmlReport: !parsed.flag("no-report"), started: started,
      output: output)
    return ExitStatus.success
  }

  /// `merge`'s last step for a study's partials: byte for byte the files of the same study
  /// without shards.
  static func merge(
    _ merged: SweepPartial, _ parsed: ParsedArguments, started: Date, output: any OutputStreams
  ) throws -> Int32 {
    let result: (plan: RobustPlan, worlds: [RobustWorld], outcome: RobustOutcome)
    do {
      result = try merged.robustOutcome()
    } catch let error as ScenarioErrors {
      throw ToolError.input(error.description)
    } catch let error as PartialError {
      throw ToolError.input(error.message)
    }
    let outPath = parsed.value("out") ?? "results/robust-\(merged.sweepName)"
    let folder = try OutputFolder.forCommand(at: outPath)
    try write(
      result.outcome, plan: result.plan, worlds: result.worlds, name: merged.sweepName,
      folder: folder, outPath: outPath, htmlReport: !parsed.flag("no-report"), started: started,
      output: output)
    return ExitStatus.success
  }

  /// Writes a study's files and prints who wins how often and what decides it: shared by
  /// `robust` and `merge`.
  static func write(
    _ outcome: RobustOutcome, plan: RobustPlan, worlds: [RobustWorld], name: String,
    folder: OutputFolder, outPath: String, htmlReport: Bool, started: Date,
    output: any OutputStreams
  ) throws {
    do {
      try folder.write(outcome.table.text, to: "robust.csv")
      try folder.write(outcome.summaryTable.text, to: "robust-summary.csv")
      try folder.write(outcome.tornadoTable.text, to: "robust-tornado.csv")
      if htmlReport {
        try folder.write(
          HTMLReport.renderRobust(name: name, plan: plan, worlds: worlds, outcome: outcome),
          to: "report.html")
      }
      try folder.commit()
    } catch {
      throw ToolError(error)
    }
    let scenario = worlds[0].scenario
    output.out(
      "\(name): \(outcome.worlds) worlds (\(outcome.design.rawValue)) × "
        + "\(scenario.policies.count) policies, \(scenario.users) users × "
        + "\(scenario.replications) replications each, \(outcome.events) events, "
        + "\(TerminalTable.fixed(Date().timeIntervalSince(started), 1)) s")
    for line in outcome.terminalLines { output.out(line) }
    output.out(
      "Wrote robust.csv, robust-summary.csv, robust-tornado.csv"
        + "\(htmlReport ? ", report.html" : "") to \(outPath)/")
  }
}
