/// The readable output of a run: the recommendation (``Decision``) first, then the headline
/// metrics per policy with their 95% intervals, the best value in each column marked with `*`,
/// and the Pareto front on onboarding interruptions and consent deadlines missed.
public enum TerminalTable {
  /// The recommendation, the table and its footnote, fitted to `width` characters
  /// (``TerminalLayout``): prose broken at spaces, the table split into stacked blocks of
  /// columns when it is wider. `width` `nil`: one wide table and unbroken lines.
  public static func render(_ report: RunReport, width: Int? = nil) -> String {
    let decision = Decision(report)
    var opening = decision.sentences
    opening.append("")
    let text =
      opening + [table(report, width: width)]
      + (decision.basis == .value ? [paretoSentence(report)] : [])
      + (decision.basis == .value
        ? Decision.offFrontSentence(report, decision: decision).map { [$0] } ?? [] : [])
    return TerminalLayout.wrap(text.joined(separator: "\n"), width: width, indent: 2)
  }

  /// The headline table and its footnote; split into blocks of columns to fit `width`.
  static func table(_ report: RunReport, width: Int? = nil) -> String {
    let ids = Metric.headline(for: report)
    let metrics = ids.map { (index: $0.index, metric: $0.metric) }
    let policies = report.result.policies.map(\.name)
    var cells: [[String]] = []
    var best: [Int: Double] = [:]
    for (column, entry) in metrics.enumerated() {
      let means = policies.indices.compactMap {
        report.interval(policy: $0, metric: entry.index)?.mean
      }
      if let extreme = entry.metric.lowerIsBetter ? means.min() : means.max() {
        best[column] = extreme
      }
    }
    for policy in policies.indices {
      var row = [policies[policy]]
      for (column, entry) in metrics.enumerated() {
        guard let interval = report.interval(policy: policy, metric: entry.index) else {
          row.append("—")
          continue
        }
        let unit = entry.metric.unit
        let mark = best[column] == interval.mean ? "*" : " "
        row.append(
          "\(format(interval.mean, unit)) [\(format(interval.low, unit)), "
            + "\(format(interval.high, unit))]\(mark)")
      }
      cells.append(row)
    }
    let header = ["policy"] + metrics.map(\.metric.name)
    let laid = TerminalLayout.table(header: header, rows: cells, width: width)
    var lines = laid.lines
    lines.append("")
    lines.append(
      "* best in column. Intervals: 95% over \(report.result.tallies.count) replications, inside "
        + "the possible range (results/README.md, \"Intervals\").")
    if laid.blocks != 1, let width {
      lines.append(
        (laid.blocks == 0
          ? "One policy per record" : "Columns split into \(laid.blocks) blocks")
          + " to fit \(max(width, TerminalLayout.minimumWidth)) columns; --wide prints "
          + "one table.")
    }
    return lines.joined(separator: "\n")
  }

  /// The Pareto front on onboarding interruptions and consent deadlines missed, with
  /// dominance claimed only where paired intervals show it (``Decision/frontSentences(_:)``).
  public static func paretoSentence(_ report: RunReport) -> String {
    Decision.frontSentences(report).joined(separator: "\n")
  }

  /// A value in a readable unit: ratios as percentages, seconds as s / min / h / d.
  public static func format(_ value: Double, _ unit: MetricUnit) -> String {
    switch unit {
    case .ratio: return fixed(value * 100, 1) + "%"
    case .seconds:
      let magnitude = abs(value)
      if magnitude < 120 { return fixed(value, 1) + "s" }
      if magnitude < 7200 { return fixed(value / 60, 1) + "m" }
      if magnitude < 172_800 { return fixed(value / 3600, 1) + "h" }
      return fixed(value / 86400, 1) + "d"
    default: return fixed(value, value.magnitude >= 100 ? 0 : 1)
    }
  }

  /// `value` with `digits` decimals (no locale involved).
  public static func fixed(_ value: Double, _ digits: Int) -> String {
    guard value.isFinite else { return value.isNaN ? "nan" : (value < 0 ? "-inf" : "inf") }
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    let rounded = (value * scale).rounded() / scale
    // Beyond 2^53 a Double has no fractional digits to show, and Int64 would trap past 2^63.
    guard rounded.magnitude < 9.0e15 else { return "\(rounded)" }
    var text = digits == 0 ? String(Int64(rounded)) : "\(rounded)"
    if digits > 0, let dot = text.firstIndex(of: ".") {
      let decimals = text.distance(from: dot, to: text.endIndex) - 1
      if decimals < digits { text += String(repeating: "0", count: digits - decimals) }
    }
    return text == "-0.0" ? "0.0" : text
  }
}

extension String {
  func padded(to width: Int) -> String {
    count >= width ? self : self + String(repeating: " ", count: width - count)
  }

  func leftPadded(to width: Int) -> String {
    count >= width ? self : String(repeating: " ", count: width - count) + self
  }
}
