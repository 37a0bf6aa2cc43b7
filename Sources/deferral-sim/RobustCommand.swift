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
    declaring: [
      ExecutionOptions.jobs, ExecutionOptions.shard(ofEvery: "world"),
      OutputOptions.out(default: "results/robust-<file name>/"), OutputOptions.noReport,
      OutputOptions.quiet,
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
    let plan = try RobustPlan.load(contentsOf: path)
    let worlds = try plan.drawWorlds(file: path)
    let execution = try ExecutionOptions(parsed)
    let (jobs, shard) = (execution.jobs, execution.shard)
    let name = try PartialFile.studyName(file: path, what: "study")
    let written = try OutputOptions(parsed, defaultFolder: "results/robust-\(name)")
    let outPath = written.folder
    let folder = try OutputFolder(path: outPath, mode: shard == nil ? .replace : .shared)
    let started = Date()
    let showProgress = output.errorIsTerminal && !written.quiet
    let meter = ProgressMeter(
      enabled: showProgress, points: worlds.count, pointName: "world", output: output)
    var progress: (@Sendable (Int, Int, RunProgress) -> Void)?
    if showProgress {
      progress = { @Sendable world, _, report in meter.update(report, point: world) }
    }
    guard let shard else {
      // Each world's rows go to robust.csv as the world ends, and its tallies are dropped:
      // memory does not grow with the number of worlds (a partial must hold them all).
      let csv = try folder.stream(to: "robust.csv")
      var tabulation = RobustTabulation(plan: plan, first: worlds[0])
      try csv.append(tabulation.headerText)
      do {
        defer { meter.finish() }
        try plan.simulate(worlds: worlds, jobs: jobs, progress: progress) { world, tallies in
          try csv.append(tabulation.add(world, tallies: tallies, keepingRows: false))
        }
      }
      try csv.finish()
      try write(
        tabulation.outcome(worlds: worlds), plan: plan, worlds: worlds, name: name,
        folder: folder, outPath: outPath, htmlReport: written.htmlReport, started: started,
        output: output, tableWritten: true)
      return ExitStatus.success
    }
    let tallies: [[[Tally]]]
    do {
      defer { meter.finish() }
      tallies = try plan.simulate(worlds: worlds, jobs: jobs, shard: shard, progress: progress)
    }
    let fileName = PartialResult.fileName(shard: shard.index, shards: shard.count)
    let partial = SweepPartial(
      toolVersion: DeferralSim.version, studyName: name, plan: plan, worlds: worlds,
      blockSize: RunOptions.defaultBlockSize, shard: shard.index, shards: shard.count,
      tallies: tallies)
    try folder.write(try partial.encoded(), to: fileName)
    output.out(
      "\(name): shard \(shard.index)/\(shard.count) of \(worlds.count) worlds, "
        + "\(partial.events) events, "
        + "\(TerminalTable.fixed(Date().timeIntervalSince(started), 1)) s. Wrote "
        + "\(outPath)/\(fileName); combine the shards with 'deferral-sim merge'.")
    return ExitStatus.success
  }

  /// `merge`'s last step for a study's partials: byte for byte the files of the same study
  /// without shards.
  static func merge(
    _ merged: SweepPartial, _ parsed: ParsedArguments, started: Date, output: any OutputStreams
  ) throws -> Int32 {
    let result = try merged.robustOutcome()
    let written = try OutputOptions(parsed, defaultFolder: "results/robust-\(merged.sweepName)")
    let outPath = written.folder
    let folder = try OutputFolder(path: outPath)
    try write(
      result.outcome, plan: result.plan, worlds: result.worlds, name: merged.sweepName,
      folder: folder, outPath: outPath, htmlReport: written.htmlReport, started: started,
      output: output)
    return ExitStatus.success
  }

  /// Writes a study's files and prints who wins how often and what decides it: shared by
  /// `robust` and `merge`.
  static func write(
    _ outcome: RobustOutcome, plan: RobustPlan, worlds: [RobustWorld], name: String,
    folder: OutputFolder, outPath: String, htmlReport: Bool, started: Date,
    output: any OutputStreams, tableWritten: Bool = false
  ) throws {
    // `robust` streams robust.csv world by world (``RobustTabulation``); `merge` writes it here.
    if !tableWritten { try folder.write(outcome.table.text, to: "robust.csv") }
    try folder.write(outcome.summaryTable.text, to: "robust-summary.csv")
    try folder.write(outcome.tornadoTable.text, to: "robust-tornado.csv")
    if htmlReport {
      try folder.write(
        HTMLReport.renderRobust(name: name, plan: plan, worlds: worlds, outcome: outcome),
        to: "report.html")
    }
    try folder.commit()
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
