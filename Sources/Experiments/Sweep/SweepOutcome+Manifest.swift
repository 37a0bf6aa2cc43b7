import Foundation
import Reports

extension SweepOutcome {
  /// The sweep's `manifest.json`: the scenario facts of its first point, the SHA-256 of the
  /// scenario and sweep texts, and `sweep` set.
  public func manifest(
    toolVersion: String, commandLine: [String], sweepName: String, plan: SweepPlan, jobs: Int,
    started: Date, finished: Date
  ) -> Manifest {
    var manifest = Manifest(
      toolVersion: toolVersion, commandLine: commandLine, scenarioName: scenarioName,
      scenarioSHA256: SHA256.hex(Array(plan.scenarioSource.utf8)), seed: seed, users: users,
      replications: replications, jobs: jobs, policies: policies,
      baseline: policies.first ?? "", started: started, finished: finished, events: events)
    manifest.sweep = (sweepName, SHA256.hex(Array(plan.source.utf8)), points)
    return manifest
  }
}
