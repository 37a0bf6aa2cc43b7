import Foundation
import MessageDeferral
import Reports
import Simulation

/// `deferral-sim merge`: combines the partial results of `run --shard K/N` into exactly the
/// files a single run would have written.
enum MergeCommand {
  static let spec = CommandSpec(
    name: "merge",
    abstract: "Combine the partial results of a sharded run into the run's reports.",
    positionalUsage: "PARTIAL...",
    positionalCount: (1, nil),
    options: [
      .value("out", "dir", "Output folder (default: results/<scenario name>/)."),
      .flag("no-report", "Do not write report.html."),
      .flag("quiet", "Accepted for symmetry with run; merge prints no progress."),
    ],
    discussion:
      "Give every partial-K-of-N.json of one run, in any order. The CSVs are byte-identical\n"
      + "to those of the same run without shards. Partials of different scenarios, seeds,\n"
      + "versions or shard counts, and missing or repeated shards, are refused (exit 2).")

  static func execute(_ parsed: ParsedArguments, _ output: any OutputStreams) throws -> Int32 {
    let started = Date()
    let paths = parsed.positionals
    let merged: PartialResult
    do {
      let partials = try paths.map { path throws(PartialError) in
        try PartialResult.decode(contentsOf: path)
      }
      merged = try PartialResult.merge(partials, paths: paths)
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
    let folder: OutputFolder
    do {
      folder = try OutputFolder(path: outPath)
    } catch {
      throw ToolError.failure(error.message)
    }
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
}
