import Experiments
import MessageDeferral
import Reports
import Simulation

/// `run --precision REL`: how many replications make every headline metric precise.
extension RunCommand {
  /// Doubles the replications from the scenario's count until every headline metric of every
  /// policy has a 95% half-width at most `relative` × |mean| (a zero-width interval counts as
  /// precise, a metric without data is skipped), or `maximum` is reached.
  ///
  /// Replication r is the same users whatever the count, so the run with the returned count is
  /// the last one simulated here: its result is returned too, to be written as it is.
  /// Deterministic for a seed whatever `jobs`: the count depends only on the results.
  static func replicationsForPrecision(
    _ plan: RunPlan, scenario: Scenario, world: CompiledScenario, relative: Double,
    maximum: Int, output: any OutputStreams, quiet: Bool
  ) throws -> (replications: Int, result: RunResult) {
    var replications = min(plan.replications, maximum)
    while true {
      var trial = plan
      trial.replications = replications
      let result = try Experiment.run(trial, on: world)
      let widest = widestRelativeHalfWidth(
        RunReport(scenario: scenario, result: result, baseline: scenario.baseline))
      let met = widest.map { $0.value <= relative } ?? true
      if !quiet {
        let detail =
          widest.map {
            "widest relative half-width \(TerminalTable.fixed($0.value * 100, 1))% "
              + "(\($0.metric), \($0.policy))"
          } ?? "every headline metric exact"
        output.err("precision: \(replications) replications: \(detail)")
      }
      if met { return (replications, result) }
      if replications >= maximum {
        output.err(
          "precision: stopped at --max-replications \(maximum) with "
            + "\(widest.map { "\($0.metric) of \($0.policy)" } ?? "?") above "
            + "\(TerminalTable.fixed(relative * 100, 1))%; raise --max-replications or --users")
        return (replications, result)
      }
      replications = min(maximum, replications * 2)
    }
  }

  /// The headline metric whose 95% half-width is the largest share of its mean.
  static func widestRelativeHalfWidth(
    _ report: RunReport
  ) -> (metric: String, policy: String, value: Double)? {
    var widest: (metric: String, policy: String, value: Double)?
    for id in Metric.headline {
      for (policy, named) in report.result.policies.enumerated() {
        guard let interval = report.interval(policy: policy, metric: id) else { continue }
        let half = (interval.high - interval.low) / 2
        guard half.isFinite, half > 0 else { continue }
        let relative = interval.mean == 0 ? Double.infinity : half / abs(interval.mean)
        if relative > (widest?.value ?? -1) { widest = (id.name, named.name, relative) }
      }
    }
    return widest
  }
}
