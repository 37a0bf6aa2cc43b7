import Experiments
import Foundation
import MessageDeferral
import Reports
import Simulation

/// A tune over shards: `tune TUNE --shard K/N [--state tune-state-S.json]` runs shard K of N
/// of one stage (``TuneStages``), and `merge` of the stage's N parts writes the next state or,
/// after the verification stage, the tune's files, byte for byte those of `tune` without
/// shards.
extension TuneCommand {
  static func executeShard(
    _ plan: TunePlan, file: String, name: String, shard: (index: Int, count: Int),
    statePath: String?, written: OutputOptions, output: any OutputStreams, showProgress: Bool,
    started: Date
  ) throws -> Int32 {
    let state = try statePath.map { path throws(PartialError) in
      try TuneState.read(contentsOf: path)
    }
    let (stage, runs) = try TuneStages.stage(
      of: plan, file: file, state: state, statePath: statePath ?? "",
      toolVersion: DeferralSim.version)
    // The folder rule before any work: parts are added to a folder others share.
    let folder = try OutputFolder(path: written.folder, mode: .shared)
    let description = TuneStages.describe(runs)
    let part = try TuneStages.part(
      of: plan, name: name, stage: stage, runs: runs, state: state, shard: shard,
      toolVersion: DeferralSim.version
    ) { index in
      if showProgress {
        output.err(
          "tune: stage \(stage), shard \(shard.index)/\(shard.count): run \(index + 1) of \(runs.count)"
        )
      }
    }
    let fileName = TunePart.fileName(stage: stage, shard: shard.index, shards: shard.count)
    try folder.write(try part.encoded(), to: fileName)
    let stateArgument = statePath.map { " --state \(TerminalText.quoted($0))" } ?? ""
    output.out(
      "\(name): stage \(stage) (\(description)), shard \(shard.index)/\(shard.count), "
        + "\(part.events) events, \(TerminalTable.fixed(Date().timeIntervalSince(started), 1)) s. "
        + "Wrote \(TerminalText.quoted(written.folder))/\(fileName); when the \(shard.count) "
        + "parts are there: deferral-sim merge \(TerminalText.quoted(written.folder))"
        + stateArgument)
    return ExitStatus.success
  }

  /// `merge`'s options for a tune's parts.
  static let ahead = Option.integer(
    "ahead", "replications",
    "A tune's parts: selection replications each later stage runs ahead (default "
      + "\(TuneStages.defaultAhead); the files do not depend on it).", in: 1...100_000)
  static let mergeState = Option.text(
    "state", "file",
    "A tune's parts: the tune-state-S.json their stage ran from (none for stage 0).")

  /// `merge` of a tune's parts, or `nil` when the inputs are not a tune's (then `--state` and
  /// `--ahead` are refused).
  static func mergeIfTune(
    _ parsed: ParsedArguments, output: any OutputStreams, started: Date
  ) throws -> Int32? {
    let statePath = try parsed.value(Self.mergeState)
    let ahead = try parsed.value(Self.ahead)
    guard statePath != nil || TuneStages.areTuneParts(parsed.positionals) else {
      if ahead != nil {
        throw UsageError(
          message: "'--ahead' is for merging a tune's parts (tune --shard)", command: "merge")
      }
      return nil
    }
    if parsed.isGiven(MergeCommand.partialOut) {
      throw UsageError(
        message: "'--partial-out' merges a run's or sweep's partials; a tune's parts merge "
          + "whole, one stage at a time", command: "merge")
    }
    let state = try statePath.map { path throws(PartialError) in
      try TuneState.read(contentsOf: path)
    }
    let paths = try TuneStages.partPaths(parsed.positionals, stage: state?.stage ?? 0)
    let merged = try TuneStages.merge(
      parts: paths, state: state, statePath: statePath ?? "",
      ahead: ahead ?? TuneStages.defaultAhead, jobs: 1, toolVersion: DeferralSim.version)
    switch merged {
    case .next(let next, let runs):
      let parent = OutputFolder.parent(of: paths[0])
      let folderPath = parent.isEmpty ? "." : parent
      let folder = try OutputFolder(path: folderPath, mode: .shared)
      let name = TuneState.fileName(stage: next.stage)
      try folder.write(try next.encoded(), to: name)
      let written = (folderPath as NSString).appendingPathComponent(name)
      output.out(
        "\(next.tune.name): stage \(next.stage - 1) merged (\(paths.count) parts); next: stage "
          + "\(next.stage), \(TuneStages.describe(runs)). Wrote \(TerminalText.quoted(written)); "
          + "run deferral-sim tune TUNE --shard K/N --state \(TerminalText.quoted(written)) "
          + "for K = 0 to N-1 (any N), then deferral-sim merge "
          + "\(TerminalText.quoted(folderPath)) --state \(TerminalText.quoted(written))")
      return ExitStatus.success
    case .finished(let plan, let name, let outcome, let verified, let simulated, let stages):
      let written = try OutputOptions(parsed, defaultFolder: "results/tune-\(name)")
      let folder = try OutputFolder(path: written.folder, mode: .replace)
      return try Self.finish(
        plan, name: name, outcome: outcome, verified: verified, folder: folder,
        written: written, output: output, started: started,
        lives: "\(outcome.lives) user lives (\(simulated) simulated over \(stages) stages, "
          + "with the verification and the selection's replications run ahead)")
    }
  }
}
