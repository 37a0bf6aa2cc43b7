import Foundation
import MessageDeferral
import Reports
import Simulation

/// `deferral-sim merge`: combines the partial results of `run --shard K/N` (or of
/// `sweep --shard K/N`) into exactly the files a single run (or sweep) would have written.
enum MergeCommand {
  static let spec = CommandSpec(
    name: "merge",
    abstract: "Combine the partial results of a sharded run or sweep into its reports.",
    positionalUsage: "PARTIAL...",
    positionalCount: (1, nil),
    options: [
      .value(
        "out", "dir",
        "Output folder (default: results/<scenario name>/, or results/sweep-<name>/)."),
      .flag("no-report", "Do not write report.html."),
      .flag("quiet", "Accepted for symmetry with run; merge prints no progress."),
    ],
    discussion:
      "Give every partial-K-of-N.json of one run (run --shard) or one sweep (sweep --shard),\n"
      + "in any order. The files are byte-identical to those of the same run or sweep without\n"
      + "shards (a run's manifest.json aside). Partials of different scenarios, sweeps, seeds,\n"
      + "versions or shard counts, and missing or repeated shards, are refused (exit 2).")

  static func execute(_ parsed: ParsedArguments, _ output: any OutputStreams) throws -> Int32 {
    let started = Date()
    let paths = parsed.positionals
    var runs: [PartialResult] = []
    var sweeps: [SweepPartial] = []
    for path in paths {
      do {
        switch try PartialFile.read(contentsOf: path) {
        case .run(let partial): runs.append(partial)
        case .sweep(let partial): sweeps.append(partial)
        }
      } catch {
        throw ToolError.input(error.message)
      }
      if !runs.isEmpty, !sweeps.isEmpty {
        throw ToolError.input(
          "\(path) and \(paths[0]): one is a run's partial result, the other a sweep's; "
            + "merge only the shards of one run or one sweep")
      }
    }
    if !sweeps.isEmpty {
      let merged: SweepPartial
      do {
        merged = try SweepPartial.merge(sweeps, paths: paths)
      } catch {
        throw ToolError.input(error.message)
      }
      return try mergeSweep(merged, parsed, started: started, output: output)
    }
    let merged: PartialResult
    do {
      merged = try PartialResult.merge(runs, paths: paths)
    } catch {
      throw ToolError.input(error.message)
    }
    var scenario: Scenario
    do {
      scenario = try ScenarioLoader.load(
        json: merged.scenarioSource, file: "\(paths[0]) (scenario)")
    } catch {
      throw ToolError.input(error.description)
    }
    scenario.users = merged.users
    scenario.replications = merged.replications
    scenario.seed = UInt64(merged.seed) ?? scenario.seed
    scenario.baseline = merged.baseline
    scenario.policies = try merged.policies.map { name in
      if let policy = scenario.policies.first(where: { $0.name == name }) { return policy }
      if let preset = PolicyCatalog.preset(named: name) {
        return NamedPolicy(name: name, configuration: preset.configuration)
      }
      throw ToolError.input("\(paths[0]): unknown policy '\(name)' in the partial result")
    }
    let outPath = parsed.value("out") ?? "results/\(scenario.name)"
    let folder = try OutputFolder.forCommand(at: outPath)
    let result = RunResult(policies: scenario.policies, tallies: merged.tallies)
    let manifest = Manifest(
      toolVersion: DeferralSim.version, commandLine: CommandLine.arguments,
      scenarioName: scenario.name, scenarioSHA256: merged.scenarioSHA256, seed: scenario.seed,
      users: scenario.users, replications: scenario.replications, jobs: 1,
      policies: merged.policies, baseline: merged.baseline, started: started, finished: Date(),
      events: merged.events)
    try RunCommand.writeReports(
      scenario: scenario, result: result, manifest: manifest, folder: folder, extraFiles: [],
      htmlReport: !parsed.flag("no-report"), output: output)
    return ExitStatus.success
  }

  /// Writes a merged sweep's files: byte for byte those of the same sweep without shards.
  static func mergeSweep(
    _ merged: SweepPartial, _ parsed: ParsedArguments, started: Date, output: any OutputStreams
  ) throws -> Int32 {
    let plan: SweepPlan
    let outcome: SweepOutcome
    do {
      (plan, outcome) = try merged.outcome()
    } catch let error as ScenarioErrors {
      throw ToolError.input(error.description)
    } catch let error as PartialError {
      throw ToolError.input(error.message)
    } catch let error as ConfigIssues {
      throw ToolError.input(error, file: merged.sweepName)
    }
    let outPath = parsed.value("out") ?? "results/sweep-\(merged.sweepName)"
    let folder = try OutputFolder.forCommand(at: outPath)
    try SweepCommand.write(
      outcome, plan: plan, name: merged.sweepName, folder: folder, outPath: outPath,
      htmlReport: !parsed.flag("no-report"), started: started, output: output)
    return ExitStatus.success
  }
}
