import Simulation

/// What a tune gained, measured on new users (`verification.csv` and the closing lines of
/// `tune`): the tuned policy (the report's first policy, `tuned`) against each other policy of
/// the verification run, paired per replication, on the objective and the headline metrics.
public struct TuneVerification: Sendable {
  public let report: RunReport
  public let objective: MetricID

  public init(_ report: RunReport, objective: MetricID) {
    self.report = report
    self.objective = objective
  }

  /// The objective first, then the headline metrics it is not.
  public var metrics: [MetricID] { [objective] + Metric.headline.filter { $0 != objective } }

  /// The other policy with the best mean objective: the best preset the tune was compared to.
  public var bestOther: Int? {
    let others = report.result.policies.indices.dropFirst()
    let sign = objective.metric.lowerIsBetter ? -1.0 : 1.0
    return others.max { a, b in
      sign * (report.interval(policy: a, metric: objective)?.mean ?? -.infinity)
        < sign * (report.interval(policy: b, metric: objective)?.mean ?? -.infinity)
    }
  }

  /// `verification.csv`: per other policy and metric, both means and the paired difference
  /// tuned − other with its 95% interval.
  public var table: CSVTable {
    var table = CSVTable(header: [
      "against", "best_other", "metric", "tuned_mean", "other_mean", "diff", "diff_ci95_low",
      "diff_ci95_high", "replications",
    ])
    let names = report.result.policies.map(\.name)
    for other in names.indices.dropFirst() {
      for metric in metrics {
        let difference = report.pairedInterval(0, other, metric: metric)
        table.append([
          .text(names[other]), .text(other == bestOther ? "yes" : "no"), .text(metric.name),
          .number(report.interval(policy: 0, metric: metric)?.mean),
          .number(report.interval(policy: other, metric: metric)?.mean),
          .number(difference?.mean), .number(difference?.low), .number(difference?.high),
          .integer(difference?.count ?? 0),
        ])
      }
    }
    return table
  }

  /// The terminal's lines: per other policy, the paired difference on the objective (in
  /// `unit`) and on the headline metrics that differ.
  public func lines(unit: String) -> [String] {
    let names = report.result.policies.map(\.name)
    var lines = [
      "Verified on \(report.result.tallies.count) replications of \(report.scenario.users) new "
        + "users, paired (tuned − other, 95% intervals):"
    ]
    for other in names.indices.dropFirst() {
      var parts: [String] = []
      for metric in metrics {
        guard let difference = report.pairedInterval(0, other, metric: metric) else { continue }
        let shownUnit = metric.metric.unit
        if metric != objective, difference.low == 0, difference.high == 0 { continue }
        parts.append(
          "\(metric.name) \(Self.signed(difference.mean, shownUnit)) "
            + "[\(Self.signed(difference.low, shownUnit)), \(Self.signed(difference.high, shownUnit))]"
            + (metric == objective && shownUnit == .valuePer1kUsers ? " \(unit)" : ""))
      }
      let label = other == bestOther ? " (the best of the others)" : ""
      let identical = metrics.allSatisfy { metric in
        report.differences(0, other, metric: metric.index).allSatisfy { $0 == 0 }
      }
      lines.append(
        "  against \(names[other])\(label): "
          + (identical
            ? "no difference in any replication (the tuned policy behaves as this one)"
            : parts.joined(separator: "; ")))
    }
    return lines
  }

  /// A signed figure: ratios in percentage points, seconds readable, others as numbers.
  static func signed(_ value: Double, _ unit: MetricUnit) -> String {
    let sign = value > 0 ? "+" : ""
    switch unit {
    case .ratio: return sign + TerminalTable.fixed(value * 100, 2) + " pt"
    case .seconds: return sign + TerminalTable.format(value, .seconds)
    default: return sign + TerminalTable.fixed(value, abs(value) >= 100 ? 0 : 2)
    }
  }
}
