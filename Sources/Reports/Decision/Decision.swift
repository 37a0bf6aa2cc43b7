/// The recommendation that opens a run's terminal output and report, and `decision.csv`
/// (results/README.md, "decision.csv"): with a `value` section, the policy with the highest
/// expected value per 1000 users, its paired difference to the runner-up, and the probability
/// it is best; without one, the policies no other is shown to beat on both onboarding
/// interruptions and consent deadlines missed. Policies the data cannot separate are called
/// indistinguishable, never "better".
public struct Decision: Sendable {
  /// What one policy's row says.
  public struct Row: Sendable {
    public var policy: String
    /// 1 for the recommended policy; policies in the recommended set (front) share rank 1.
    public var rank: Int
    /// The mean of the deciding metric (value per 1000 users, or onboarding interruption rate
    /// on the front basis), `nil` without data.
    public var mean: MeanInterval?
    /// The paired difference policy − recommended on the deciding metric (value basis).
    public var differenceToBest: MeanInterval?
    /// Share of bootstrap resamples in which it is best (value basis).
    public var probabilityBest: Double?
    /// `recommended`, `indistinguishable`, `worse` (value basis); `front`, `dominated`,
    /// `not_separated`, `no_data` (front basis).
    public var verdict: Verdict
  }

  /// What decides: the scenario's `value` section, or the non-dominated set.
  public enum Basis: String, Sendable {
    case value
    case front
  }

  /// A policy's verdict, as `decision.csv` writes it.
  public enum Verdict: String, Sendable {
    case recommended, indistinguishable, worse, front, dominated
    case notSeparated = "not_separated"
    case noData = "no_data"
  }

  /// `value` (a `value` section decides) or `front` (non-dominated set).
  public let basis: Basis
  /// One row per policy, in rank order.
  public let rows: [Row]
  /// The recommendation in plain words, one sentence per element.
  public let sentences: [String]
  /// Paired bootstrap resamples used for ``Row/probabilityBest``.
  public static let resamples = 2000

  /// The run it decides.
  let report: RunReport

  public init(_ report: RunReport) {
    self.report = report
    if let model = report.scenario.value {
      let decided = Self.byValue(report, model)
      basis = .value
      rows = decided.rows
      sentences = decided.sentences
    } else {
      let decided = Self.byFront(report)
      basis = .front
      rows = decided.rows
      sentences = decided.sentences
    }
  }

  /// `decision.csv`: one row per policy in rank order; with the scenario's `app` section,
  /// each ``AppCounts`` outcome against the baseline as counts for the app over its period.
  public var table: CSVTable {
    var header = [
      "basis", "rank", "policy", "verdict", "metric", "mean", "ci95_low", "ci95_high",
      "diff_to_recommended", "diff_ci95_low", "diff_ci95_high", "probability_best", "ships_as",
      "how_to_ship", "app_period_days",
    ]
    for outcome in AppCounts.outcomes {
      header += ["", "_ci95_low", "_ci95_high"].map { "\(outcome.name)_vs_baseline_app\($0)" }
    }
    var table = CSVTable(header: header)
    let metric = (basis == .value ? MetricID.valuePer1kUsers : .onboardingInterruptionRate).name
    let names = report.result.policies.map(\.name)
    let base = names.firstIndex(of: report.baseline)
    let period: Double? = report.scenario.app.map { _ in report.scenario.appPeriod / 86400 }
    for row in rows {
      let shipping = Self.shipping(row.policy)
      var cells: [CSVField] = [
        .text(basis.rawValue), .integer(row.rank), .text(row.policy), .text(row.verdict.rawValue),
        .text(metric),
        .number(row.mean?.mean), .number(row.mean?.low), .number(row.mean?.high),
        .number(row.differenceToBest?.mean), .number(row.differenceToBest?.low),
        .number(row.differenceToBest?.high), .number(row.probabilityBest),
        .text(shipping.kind), .text(shipping.summary), .number(period),
      ]
      let index = names.firstIndex(of: row.policy)
      for outcome in AppCounts.outcomes {
        let difference = index.flatMap { policy in
          base.flatMap { AppCounts.difference(report, policy, $0, outcome) }
        }
        cells += [
          .number(difference?.mean), .number(difference?.low), .number(difference?.high),
        ]
      }
      table.append(cells)
    }
    return table
  }

  /// A signed amount in the value's unit: `+12.5 USD`.
  static func amount(_ value: Double, _ unit: String, signed: Bool = false) -> String {
    let text = TerminalTable.fixed(value, abs(value) >= 100 ? 0 : 1)
    return (signed && value >= 0 ? "+" : "") + text + " " + unit
  }

  /// `[low, high]` of an interval in the value's unit (without the unit).
  static func bracket(_ interval: MeanInterval) -> String {
    func number(_ value: Double) -> String {
      TerminalTable.fixed(value, abs(value) >= 100 ? 0 : 1)
    }
    return "[\(number(interval.low)), \(number(interval.high))]"
  }

  /// A share as a whole percentage: `87%`.
  static func percent(_ share: Double) -> String { TerminalTable.fixed(share * 100, 0) + "%" }

  /// "a", "a and b", "a, b and c".
  static func list(_ names: [String]) -> String {
    guard names.count > 1 else { return names.first ?? "" }
    return names.dropLast().joined(separator: ", ") + " and " + names.last!
  }

  /// Per policy, the share of `resamples` paired bootstrap resamples of the replications in
  /// which its mean of `metric` is the highest (ties share the resample equally). Seeded, so
  /// the same results always give the same shares.
  static func bootstrapBest(_ report: RunReport, metric: Int, seed: UInt64) -> [Double] {
    let policies = report.values.count
    let replications = report.result.tallies.count
    var wins = [Double](repeating: 0, count: policies)
    guard replications > 0 else { return wins }
    let table = (0..<policies).map { policy in
      (0..<replications).map { report.values[policy][metric][$0] ?? -.infinity }
    }
    var generator = _SplitMix64(state: seed ^ 0xDEC1_5104)
    var sums = [Double](repeating: 0, count: policies)
    for _ in 0..<resamples {
      for policy in 0..<policies { sums[policy] = 0 }
      for _ in 0..<replications {
        let pick = generator.below(replications)
        for policy in 0..<policies { sums[policy] += table[policy][pick] }
      }
      let top = sums.max() ?? 0
      let tied = sums.indices.filter { sums[$0] == top }
      for policy in tied { wins[policy] += 1 / Double(tied.count) }
    }
    return wins.map { $0 / Double(resamples) }
  }
}
