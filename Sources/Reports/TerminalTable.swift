/// The readable table printed after a run: headline metrics per policy with their 95%
/// intervals, the best value in each column marked with `*`, and one sentence naming the
/// Pareto front on onboarding interruptions and consent p99 latency.
public enum TerminalTable {
  public static func render(_ report: RunReport) -> String {
    let metrics = Metric.headline.compactMap { name in
      Metric.all.firstIndex { $0.name == name }.map { (index: $0, metric: Metric.all[$0]) }
    }
    let names = report.result.policies.map(\.name)
    var cells: [[String]] = []
    var best: [Int: Double] = [:]
    for (column, entry) in metrics.enumerated() {
      let means = names.indices.compactMap {
        report.interval(policy: $0, metric: entry.index)?.mean
      }
      if let extreme = entry.metric.lowerIsBetter ? means.min() : means.max() {
        best[column] = extreme
      }
    }
    for policy in names.indices {
      var row = [names[policy]]
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
    let widths = header.indices.map { column in
      ([header[column]] + cells.map { $0[column] }).map(\.count).max() ?? 0
    }
    func line(_ row: [String]) -> String {
      row.enumerated().map { column, text in
        column == 0 ? text.padded(to: widths[column]) : text.leftPadded(to: widths[column])
      }.joined(separator: "  ")
    }
    var lines = [
      line(header), widths.map { String(repeating: "-", count: $0) }.joined(separator: "  "),
    ]
    lines += cells.map(line)
    lines.append("")
    lines.append(
      "* best in column. Intervals: 95% Student-t over \(report.result.tallies.count) replications."
    )
    lines.append(paretoSentence(report))
    return lines.joined(separator: "\n")
  }

  /// Which policies no other beats on both onboarding interruption rate and consent p99.
  public static func paretoSentence(_ report: RunReport) -> String {
    let front = paretoFront(report, x: "onboarding_interruption_rate", y: "consent_latency_p99_s")
    guard !front.isEmpty else {
      return "Pareto front: not enough data (no onboarding runs or no consent displayed)."
    }
    let list = front.joined(separator: ", ")
    return front.count == 1
      ? "Pareto front (onboarding interruptions vs consent p99 latency): \(list) beats every "
        + "other policy on both."
      : "Pareto front (onboarding interruptions vs consent p99 latency): \(list); no other "
        + "policy is better on both."
  }

  /// Policies not dominated on the two metrics (lower is better for both), in report order.
  public static func paretoFront(_ report: RunReport, x: String, y: String) -> [String] {
    guard let xi = Metric.all.firstIndex(where: { $0.name == x }),
      let yi = Metric.all.firstIndex(where: { $0.name == y })
    else { return [] }
    let points = report.result.policies.indices.compactMap { policy -> (String, Double, Double)? in
      guard let a = report.interval(policy: policy, metric: xi)?.mean,
        let b = report.interval(policy: policy, metric: yi)?.mean
      else { return nil }
      return (report.result.policies[policy].name, a, b)
    }
    return points.filter { point in
      !points.contains { other in
        other.1 <= point.1 && other.2 <= point.2 && (other.1 < point.1 || other.2 < point.2)
      }
    }.map(\.0)
  }

  /// A value in a readable unit: ratios as percentages, seconds as s / min / h / d.
  static func format(_ value: Double, _ unit: String) -> String {
    switch unit {
    case "ratio": return fixed(value * 100, 1) + "%"
    case "seconds":
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
