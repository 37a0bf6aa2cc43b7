import Simulation

/// What the report's sections read, computed once: intervals by metric, paired
/// differences against the baseline, and per-policy tallies pooled over replications.
struct _ReportData {
  let report: RunReport
  let names: [String]
  let baseline: Int?
  let replications: Int
  /// Per policy, all replications merged (histograms included).
  let pooled: [Tally]
  /// Per policy, its colour and variant (fixed per preset name, ``ChartPalette/styles(for:)``).
  let styles: [SeriesStyle]

  init(_ report: RunReport) {
    self.report = report
    names = report.result.policies.map(\.name)
    baseline = names.firstIndex(of: report.baseline)
    replications = report.result.tallies.count
    pooled = names.indices.map { report.pooled($0) }
    let byName = ChartPalette.styles(for: names)
    styles = names.map { byName[$0]! }
  }

  /// The mean and 95% interval of `metric` for `policy`, `nil` without data.
  func interval(_ policy: Int, _ metric: MetricID) -> MeanInterval? {
    report.interval(policy: policy, metric: metric)
  }

  /// The paired difference `policy` − baseline of `id` over the replications where both have
  /// a value, `nil` without a baseline or data.
  func paired(_ policy: Int, _ id: MetricID) -> MeanInterval? {
    guard let baseline else { return nil }
    let metric = id.index
    var differences: [Double] = []
    for replication in 0..<replications {
      if let value = report.values[policy][metric][replication],
        let reference = report.values[baseline][metric][replication]
      {
        differences.append(value - reference)
      }
    }
    return MeanInterval(values: differences, range: Metric.all[metric].differenceRange)
  }

  /// The default front's metrics: onboarding interruptions against consent deadlines missed
  /// (both rates that policies move; consent p99 latency ties policies that show consent).
  static let frontX = MetricID.onboardingInterruptionRate
  static let frontY = MetricID.consentDeadlineMissRate

  /// The policies no other beats on both metrics (``RunReport/paretoFront(x:y:)``).
  func paretoFront(x: MetricID, y: MetricID) -> [Int] { report.paretoFront(x: x, y: y) }
}

extension HTMLReport {
  /// A mean and interval as text in the metric's unit: ratios as percentages, seconds in one
  /// readable unit chosen by the mean, counts plain. Bounds are clipped to what the metric can
  /// take (nothing is negative; a ratio is at most 100%), as a t-interval over few
  /// replications can cross them.
  static func valueText(
    _ interval: MeanInterval, unit: MetricUnit
  ) -> (mean: String, range: String) {
    // Values (in the user's units) can be negative; nothing else can.
    let low = unit == .valuePer1kUsers ? interval.low : Swift.max(0, interval.low)
    switch unit {
    case .ratio:
      let digits = interval.mean == 0 || interval.mean >= 0.01 ? 1 : 2
      let high = Swift.min(1, interval.high)
      return (
        Chart.fixed(interval.mean * 100, digits) + "%",
        "[\(Chart.fixed(low * 100, digits)), \(Chart.fixed(high * 100, digits))]"
      )
    case .seconds:
      let unit = Chart.durationUnit(for: interval.mean)
      func amount(_ value: Double) -> String { tableNumber(value / unit.size) }
      return (
        amount(interval.mean) + " " + unit.name,
        "[\(amount(low)), \(amount(interval.high))]"
      )
    default:
      return (
        tableNumber(interval.mean),
        "[\(tableNumber(low)), \(tableNumber(interval.high))]"
      )
    }
  }

  /// One decimal below 100 (as the terminal table), none from 100 up, so close values in a
  /// column stay apart.
  static func tableNumber(_ value: Double) -> String {
    Chart.fixed(value, abs(value) >= 100 ? 0 : 1)
  }

  /// `valueText` joined: `6.2% [5.8, 6.6]`.
  static func inlineValue(_ interval: MeanInterval, unit: MetricUnit) -> String {
    let text = valueText(interval, unit: unit)
    return text.mean + " " + text.range
  }

  /// A policy name cut to `limit` characters with an ellipsis (for chart labels; tables and
  /// tooltips keep the full name).
  static func shortName(_ name: String, limit: Int = 24) -> String {
    name.count <= limit ? name : String(name.prefix(limit - 1)) + "…"
  }
}
