import Experiments
import Foundation
import MessageDeferral
import Reports
import Simulation

/// `deferral-sim merge`: combines the partial results of `run --shard K/N` (or of
/// `sweep --shard K/N`) into exactly the files a single run (or sweep) would have written.
enum MergeCommand {
  static let spec = CommandSpec(
    name: "merge",
    abstract: "Combine the partial results of a sharded run, sweep or robust into its reports.",
    positionalUsage: "PARTIAL... | FOLDER",
    positionalCount: (1, nil),
    declaring: [
      OutputOptions.out.help(
        "Output folder (default: results/<scenario name>/, results/sweep-<name>/ or "
          + "results/robust-<name>/; a tune's last stage: results/tune-<name>/)."),
      partialOut, OutputOptions.noReport,
      OutputOptions.quiet.help("Accepted for symmetry with run; merge prints no progress."),
      OutputOptions.wide, TuneCommand.mergeState, TuneCommand.ahead,
    ],
    discussion:
      "Give every partial-K-of-N.json of one run (run --shard), sweep (sweep --shard) or\n"
      + "robustness study (robust --shard), in any order, or the folder that holds them. The\n"
      + "files are byte-identical to those of the same run, sweep or study without shards (a\n"
      + "run's manifest.json aside). With --partial-out FILE, any subset of the partials is\n"
      + "merged into one partial covering their shards, to merge in a tree: the final files\n"
      + "are the same however the tree is shaped. Partials of different scenarios, sweeps,\n"
      + "seeds, versions or shard counts, edited partials, and missing or repeated shards, are\n"
      + "refused (exit 2).\n"
      + "A tune's parts (tune --shard K/N) merge one stage at a time: give the stage's N\n"
      + "tune-stage-S-part-K-of-N.json (or their folder) and, from stage 1 on, --state\n"
      + "tune-state-S.json, the state they ran from. It writes tune-state-(S+1).json beside the\n"
      + "parts, or after the last stage the tune's files into --out (default\n"
      + "results/tune-<name>/), byte for byte those of the tune without shards. Parts of\n"
      + "another stage, state, tune file or version, edited files, and missing or repeated\n"
      + "shards are refused (exit 2).")

  static let partialOut = Option.text(
    "partial-out", "file",
    "Write the merge of these partials as one partial result instead of reports.")

  static func execute(_ parsed: ParsedArguments, _ output: any OutputStreams) throws -> Int32 {
    let started = Date()
    if let tune = try TuneCommand.mergeIfTune(parsed, output: output, started: started) {
      return tune
    }
    let partialOut = try parsed.value(Self.partialOut)
    if partialOut != nil, parsed.isGiven(OutputOptions.out) {
      throw UsageError(
        message: "give either '--out' (reports) or '--partial-out' (one merged partial), "
          + "not both", command: "merge")
    }
    let inputs = try PartialFile.paths(parsed.positionals)
    if let partialOut {
      // The file-output rule, before any work: a regular file or nothing, never an input.
      try OutputFolder.checkFileOutput(partialOut, option: "--partial-out", inputs: inputs)
    }
    let merged = try PartialFile.merge(inputs, complete: partialOut == nil)
    if let partialOut {
      return try writePartial(merged, to: partialOut, output: output)
    }
    switch merged {
    case .sweep(let sweep): return try mergeSweep(sweep, parsed, started: started, output: output)
    case .run(let run): return try mergeRun(run, parsed, started: started, output: output)
    }
  }

  /// Writes `merged` as one partial result at `path`.
  static func writePartial(
    _ merged: PartialFile, to path: String, output: any OutputStreams
  ) throws -> Int32 {
    let parent = OutputFolder.parent(of: path)
    // One file added to a folder others may share (shards, other merges): not a unit.
    let folder = try OutputFolder(path: parent.isEmpty ? "." : parent, mode: .shared)
    let name = (path as NSString).lastPathComponent
    let covers: ShardCoverage
    let shards: Int
    switch merged {
    case .run(let partial):
      try folder.write(try partial.encoded(), to: name)
      (covers, shards) = (partial.covers, partial.shards)
    case .sweep(let partial):
      try folder.write(try partial.encoded(), to: name)
      (covers, shards) = (partial.covers, partial.shards)
    }
    output.out(
      "Wrote \(TerminalText.quoted(path)): shards \(covers.description) of \(shards) (\(covers.count) of \(shards)); "
        + "merge it with the other partials of the same run or sweep")
    return ExitStatus.success
  }

  /// Writes a merged run's files: byte for byte those of the same run without shards.
  static func mergeRun(
    _ merged: PartialResult, _ parsed: ParsedArguments, started: Date, output: any OutputStreams
  ) throws -> Int32 {
    let scenario = try merged.scenario(file: parsed.positionals[0])
    let written = try OutputOptions(parsed, defaultFolder: "results/\(scenario.name)")
    let outPath = written.folder
    let folder = try OutputFolder(path: outPath)
    let result = RunResult(policies: scenario.policies, tallies: merged.tallies)
    let manifest = Manifest(
      toolVersion: DeferralSim.version, commandLine: CommandLine.arguments,
      scenarioName: scenario.name, scenarioSHA256: merged.scenarioSHA256, seed: scenario.seed,
      users: scenario.users, replications: scenario.replications, jobs: 1,
      policies: merged.policies, baseline: merged.baseline, started: started, finished: Date(),
      events: merged.events)
    try RunCommand.writeReports(
      scenario: scenario, result: result, manifest: manifest, folder: folder, extraFiles: [],
      htmlReport: written.htmlReport, output: output,
      width: TerminalWidth.resolve(wide: parsed.flag(OutputOptions.wide)))
    return ExitStatus.success
  }

  /// Writes a merged sweep's files: byte for byte those of the same sweep without shards.
  static func mergeSweep(
    _ merged: SweepPartial, _ parsed: ParsedArguments, started: Date, output: any OutputStreams
  ) throws -> Int32 {
    if merged.isRobust {
      return try RobustCommand.merge(merged, parsed, started: started, output: output)
    }
    let plan: SweepPlan
    let outcome: SweepOutcome
    do {
      (plan, outcome) = try merged.outcome()
    } catch let issues as ConfigIssues {
      throw ScenarioErrors(file: merged.sweepName, issues)
    }
    let written = try OutputOptions(parsed, defaultFolder: "results/sweep-\(merged.sweepName)")
    let outPath = written.folder
    let folder = try OutputFolder(path: outPath)
    try SweepCommand.write(
      outcome, plan: plan, name: merged.sweepName, folder: folder, outPath: outPath,
      htmlReport: written.htmlReport, started: started, jobs: 1, output: output,
      width: TerminalWidth.resolve(wide: parsed.flag(OutputOptions.wide)))
    return ExitStatus.success
  }
}
