import MessageDeferral
import Simulation

/// The tables a run reports, computed from its tallies: `summary.csv`, `paired.csv`,
/// `by-screen.csv`, `by-reason.csv`, `by-segment.csv` and `replications.csv` (formats in
/// results/README.md).
public struct RunReport: Sendable {
  public let scenario: Scenario
  public let result: RunResult
  public let baseline: String
  /// `values[policy][metric][replication]`.
  public let values: [[[Double?]]]

  public init(scenario: Scenario, result: RunResult, baseline: String) {
    self.scenario = scenario
    self.result = result
    self.baseline = baseline
    values = result.policies.indices.map { policy in
      Metric.all.map { metric in
        result.tallies.map { row in metric.value(row[policy], scenario) }
      }
    }
  }

  var policyNames: [String] { result.policies.map(\.name) }

  /// Mean and interval of one metric for one policy over the replications that have data,
  /// kept inside the metric's ``Metric/range``.
  public func interval(policy: Int, metric: Int) -> MeanInterval? {
    MeanInterval(values: values[policy][metric].compactMap { $0 }, range: Metric.all[metric].range)
  }

  /// ``interval(policy:metric:)`` of the metric `id`.
  public func interval(policy: Int, metric id: MetricID) -> MeanInterval? {
    interval(policy: policy, metric: id.index)
  }

  public var summary: CSVTable {
    var table = CSVTable(header: [
      "policy", "metric", "mean", "ci95_low", "ci95_high", "replications",
    ])
    for (policy, name) in policyNames.enumerated() {
      for (index, metric) in Metric.all.enumerated() where metric.isReported(for: scenario) {
        let interval = interval(policy: policy, metric: index)
        table.append([
          .text(name), .text(metric.name), .number(interval?.mean), .number(interval?.low),
          .number(interval?.high), .integer(interval?.count ?? 0),
        ])
      }
    }
    return table
  }

  /// Paired differences (policy − baseline) per replication: valid because every policy
  /// ran on the same users.
  public var paired: CSVTable {
    var table = CSVTable(header: [
      "policy", "baseline", "metric", "mean_diff", "ci95_low", "ci95_high", "replications",
    ])
    guard let base = policyNames.firstIndex(of: baseline) else { return table }
    for (policy, name) in policyNames.enumerated() where policy != base {
      for (index, metric) in Metric.all.enumerated() where metric.isReported(for: scenario) {
        var differences: [Double] = []
        for replication in result.tallies.indices {
          if let value = values[policy][index][replication],
            let reference = values[base][index][replication]
          {
            differences.append(value - reference)
          }
        }
        let interval = MeanInterval(values: differences, range: metric.differenceRange)
        table.append([
          .text(name), .text(baseline), .text(metric.name), .number(interval?.mean),
          .number(interval?.low), .number(interval?.high), .integer(interval?.count ?? 0),
        ])
      }
    }
    return table
  }

  /// Per policy, the tally of all replications together.
  func pooled(_ policy: Int) -> Tally {
    var total = Tally(screenCount: scenario.screens.count)
    for row in result.tallies { total.merge(row[policy]) }
    return total
  }

  public var replications: CSVTable {
    var table = CSVTable(header: ["policy", "replication", "metric", "value"])
    for (policy, name) in policyNames.enumerated() {
      for replication in result.tallies.indices {
        for (index, metric) in Metric.all.enumerated() where metric.isReported(for: scenario) {
          table.append([
            .text(name), .integer(replication), .text(metric.name),
            .number(values[policy][index][replication]),
          ])
        }
      }
    }
    return table
  }

  /// The files of a run folder, by name.
  public var files: [(name: String, table: CSVTable)] {
    [
      ("summary.csv", summary), ("paired.csv", paired), ("by-screen.csv", byScreen),
      ("by-reason.csv", byReason), ("by-segment.csv", bySegment),
      ("replications.csv", replications), ("decision.csv", Decision(self).table),
    ]
  }
}
