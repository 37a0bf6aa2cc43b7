import Experiments
import Reports
import Simulation

/// `run --precision REL`: the search is Experiments' (``PrecisionSearch``); here its trials
/// and its outcome are printed.
extension RunCommand {
  /// The replications that make every headline metric precise (``PrecisionSearch/search``),
  /// and the result of the run with them; each trial on stderr unless `quiet`, and a stop at
  /// `maximum` always.
  static func replicationsForPrecision(
    _ plan: RunPlan, scenario: Scenario, world: CompiledScenario, relative: Double,
    maximum: Int, output: any OutputStreams, quiet: Bool
  ) throws -> (replications: Int, result: RunResult) {
    let found = try PrecisionSearch.search(
      plan, scenario: scenario, world: world, relative: relative, maximum: maximum
    ) { trial in
      guard !quiet else { return }
      let detail =
        trial.widest.map {
          "widest relative half-width \(TerminalTable.fixed($0.value * 100, 1))% "
            + "(\($0.metric), \($0.policy))"
        } ?? "every headline metric exact"
      output.err("precision: \(trial.replications) replications: \(detail)")
    }
    if !found.met {
      output.err(
        "precision: stopped at --max-replications \(maximum) with "
          + "\(found.widest.map { "\($0.metric) of \($0.policy)" } ?? "?") above "
          + "\(TerminalTable.fixed(relative * 100, 1))%; raise --max-replications or --users")
    }
    return (found.replications, found.result)
  }
}
