import Reports
import Simulation

/// `run --precision REL`: how many replications make every headline metric precise. The
/// search runs here, with the experiments; the command line parses the flags and prints each
/// trial and the outcome.
public enum PrecisionSearch {
  /// A headline metric's widest 95% half-width as a share of its mean, and whose it is.
  public struct Widest: Sendable, Equatable {
    /// The metric's name (`Metric.name`).
    public let metric: String
    /// The policy's name.
    public let policy: String
    /// Half-width / |mean| (infinite for a mean of zero).
    public let value: Double
  }

  /// One run of the search: its replications and its widest metric (`nil`: every headline
  /// metric exact).
  public struct Trial: Sendable {
    public let replications: Int
    public let widest: Widest?
  }

  /// The search's answer: the replications, the result of the run with them (the last one
  /// simulated), its widest metric, and whether it met the precision (`false`: stopped at
  /// the maximum).
  public struct Found: Sendable {
    public let replications: Int
    public let result: RunResult
    public let widest: Widest?
    public let met: Bool
  }

  /// Doubles the replications from the plan's count until every headline metric of every
  /// policy has a 95% half-width at most `relative` × |mean| (a zero-width interval counts as
  /// precise, a metric without data is skipped), or `maximum` is reached; `trial` hears each
  /// run as it ends.
  ///
  /// Replication r is the same users whatever the count, so the run with the returned count is
  /// the last one simulated here: its result is returned too, to be written as it is.
  /// Deterministic for a seed whatever `jobs`: the count depends only on the results.
  public static func search(
    _ plan: RunPlan, scenario: Scenario, world: CompiledScenario, relative: Double,
    maximum: Int, trial: (Trial) -> Void = { _ in }
  ) throws(EngineError) -> Found {
    var replications = min(plan.replications, maximum)
    while true {
      var planned = plan
      planned.replications = replications
      let result = try Experiment.run(planned, on: world)
      let widest = widestRelativeHalfWidth(
        RunReport(scenario: scenario, result: result, baseline: scenario.baseline))
      let met = widest.map { $0.value <= relative } ?? true
      trial(Trial(replications: replications, widest: widest))
      if met || replications >= maximum {
        return Found(replications: replications, result: result, widest: widest, met: met)
      }
      replications = min(maximum, replications * 2)
    }
  }

  /// The headline metric whose 95% half-width is the largest share of its mean.
  public static func widestRelativeHalfWidth(_ report: RunReport) -> Widest? {
    var widest: Widest?
    for id in Metric.headline {
      for (policy, named) in report.result.policies.enumerated() {
        guard let interval = report.interval(policy: policy, metric: id) else { continue }
        let half = (interval.high - interval.low) / 2
        guard half.isFinite, half > 0 else { continue }
        let relative = interval.mean == 0 ? Double.infinity : half / abs(interval.mean)
        if relative > (widest?.value ?? -1) {
          widest = Widest(metric: id.name, policy: named.name, value: relative)
        }
      }
    }
    return widest
  }
}
