import Foundation
import Reports
import Simulation
import Testing

/// Every figure of every CSV of a run folder against an oracle: the hand-written tallies of
/// ``ReportOracleFixture`` and values stated from them without ``Metric`` or ``RunReport``.
/// The files are read back from their text, as a user reads them.
@Suite("Report CSVs against hand-computed values")
struct ReportOracleTests {
  typealias F = ReportOracleFixture

  /// t(0.975, 2) from a printed table (ten digits: interval ends are compared to 1e-9):
  /// three replications.
  static let t2 = 4.302_652_730

  static func close(_ actual: Double, _ expected: Double, relative: Double = 1e-12) -> Bool {
    abs(actual - expected) <= relative * max(1, abs(expected))
  }

  static func number(_ field: String) -> Double? { field.isEmpty ? nil : Double(field)! }

  /// Checks a value read from a file against the oracle for `metric`.
  static func check(
    _ field: String, metric: String, expected: Double?, _ comment: String,
    interval: Bool = false, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    guard let expected else {
      #expect(field.isEmpty, "\(comment): expected no value, read \(field)")
      return
    }
    guard let actual = number(field) else {
      Issue.record("\(comment): expected \(expected), read nothing", sourceLocation: sourceLocation)
      return
    }
    let tolerance = F.isQuantile(metric) ? F.quantileTolerance : interval ? 1e-9 : 1e-12
    #expect(
      close(actual, expected, relative: tolerance),
      "\(comment): read \(actual), expected \(expected)",
      sourceLocation: sourceLocation)
  }

  @Test func everyMetricHasAnOracle() {
    #expect(!Metric.all.isEmpty)
    for metric in Metric.all {
      #expect(
        F.expected(metric.name, replication: 0, policy: 0) != nil,
        "no oracle for metric \(metric.name): add it to ReportOracleFixture.expected")
    }
  }

  @Test func replicationsCSVHoldsEachMetricOfEachReplication() {
    let (header, rows) = F.rows(of: "replications.csv")
    #expect(header == ["policy", "replication", "metric", "value"])
    #expect(rows.count == F.policyNames.count * F.replicationCount * Metric.all.count)
    // A metric without an oracle is reported by everyMetricHasAnOracle, not trapped on here.
    for row in rows where F.hasOracle(row[2]) {
      let policy = F.policyNames.firstIndex(of: row[0])!
      let replication = Int(row[1])!
      let expected = F.expected(row[2], replication: replication, policy: policy)!
      Self.check(row[3], metric: row[2], expected: expected, "\(row[0]) r\(replication) \(row[2])")
    }
    // Each (policy, replication, metric) appears exactly once.
    #expect(Set(rows.map { $0[0] + "/" + $0[1] + "/" + $0[2] }).count == rows.count)
    #expect(Set(rows.map { $0[1] }) == ["0", "1", "2"])
  }

  /// Mean and Student-t interval over the replications with a value, from the oracle values.
  static func interval(_ values: [Double]) -> (mean: Double, low: Double, high: Double) {
    let n = Double(values.count)
    let mean = values.reduce(0, +) / n
    guard values.count > 1 else { return (mean, mean, mean) }
    let s = (values.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / (n - 1)).squareRoot()
    let t = values.count == 3 ? t2 : 12.706_204_736  // t(0.975, 1) for two values
    return (mean, mean - t * s / n.squareRoot(), mean + t * s / n.squareRoot())
  }

  /// The interval summary.csv reports for `metric` (results/README.md, "Intervals"): a rate's
  /// t interval on the logit scale by the delta method (the point itself at exactly 0 or 1),
  /// a value in the user's units unchanged, anything else clipped at 0.
  static func interval(
    _ values: [Double], metric: String
  ) -> (mean: Double, low: Double, high: Double) {
    let plain = interval(values)
    guard values.count > 1 else { return plain }
    if metric.hasPrefix("value_") { return plain }
    if metric.hasSuffix("_rate") {
      let m = plain.mean
      guard m > 0, m < 1 else { return (m, m, m) }
      let n = Double(values.count)
      let s = (values.map { ($0 - m) * ($0 - m) }.reduce(0, +) / (n - 1)).squareRoot()
      let t = values.count == 3 ? t2 : 12.706_204_736
      let half = t * s / n.squareRoot() / (m * (1 - m))
      let logit = log(m / (1 - m))
      return (m, 1 / (1 + exp(half - logit)), 1 / (1 + exp(-logit - half)))
    }
    return (plain.mean, max(0, plain.low), max(0, plain.high))
  }

  @Test func summaryCSVHoldsMeanIntervalAndCount() {
    let (header, rows) = F.rows(of: "summary.csv")
    #expect(header == ["policy", "metric", "mean", "ci95_low", "ci95_high", "replications"])
    #expect(rows.count == F.policyNames.count * Metric.all.count)
    for row in rows where F.hasOracle(row[1]) {
      let policy = F.policyNames.firstIndex(of: row[0])!
      let values = (0..<F.replicationCount).compactMap {
        F.expected(row[1], replication: $0, policy: policy)!
      }
      #expect(Int(row[5]) == values.count, "\(row[0]) \(row[1]): replications")
      let expected = Self.interval(values, metric: row[1])
      let what = "\(row[0]) \(row[1])"
      if F.isQuantile(row[1]) {
        // Histogram estimates: the mean within the quantile tolerance; the interval's width is
        // the estimates' own spread, checked on the exact metrics below.
        Self.check(row[2], metric: row[1], expected: expected.mean, "\(what) mean")
        continue
      }
      Self.check(row[2], metric: row[1], expected: expected.mean, "\(what) mean")
      Self.check(row[3], metric: row[1], expected: expected.low, "\(what) ci95_low", interval: true)
      Self.check(
        row[4], metric: row[1], expected: expected.high, "\(what) ci95_high", interval: true)
    }
  }

  /// `paired.csv` is other − base, replication by replication: k differs by exactly 3 in
  /// every replication, so a difference linear in k has zero spread, and its sign is known.
  @Test func pairedCSVIsPolicyMinusBaselineReplicationByReplication() {
    let (header, rows) = F.rows(of: "paired.csv")
    #expect(
      header == [
        "policy", "baseline", "metric", "mean_diff", "ci95_low", "ci95_high", "replications",
      ])
    #expect(rows.count == Metric.all.count)
    for row in rows where F.hasOracle(row[2]) {
      #expect(row[0] == "other" && row[1] == "base")
      let differences = (0..<F.replicationCount).compactMap { replication -> Double? in
        guard let value = F.expected(row[2], replication: replication, policy: 1)!,
          let reference = F.expected(row[2], replication: replication, policy: 0)!
        else { return nil }
        return value - reference
      }
      #expect(Int(row[6]) == differences.count, "\(row[2]): replications")
      let expected = Self.interval(differences)
      if F.isQuantile(row[2]) {
        // Both sides are histogram estimates: the difference within both sides' tolerance.
        let scale = (0..<F.replicationCount).map {
          F.expected(row[2], replication: $0, policy: 1)!! * F.quantileTolerance * 2
        }.max()!
        let actual = Self.number(row[3])!
        #expect(abs(actual - expected.mean) <= scale, "\(row[2]): \(actual) vs \(expected.mean)")
        #expect(actual > 0, "\(row[2]): other's quantiles are larger, so the difference is > 0")
        continue
      }
      Self.check(row[3], metric: row[2], expected: expected.mean, "\(row[2]) mean_diff")
      Self.check(
        row[4], metric: row[2], expected: expected.low, "\(row[2]) ci95_low", interval: true)
      Self.check(
        row[5], metric: row[2], expected: expected.high, "\(row[2]) ci95_high", interval: true)
    }
    // Signs known without arithmetic: other has more fallbacks, the same number displayed.
    let fallback = rows.first { $0[2] == "fallback_fired" }!
    #expect(fallback[3] == "9" && fallback[4] == "9" && fallback[5] == "9")
    let displayed = rows.first { $0[2] == "messages_displayed" }!
    #expect(displayed[3] == "0")
  }

  @Test func byScreenCSVHoldsPooledVisitsInterruptionsAndRate() {
    let (header, rows) = F.rows(of: "by-screen.csv")
    // The pooled columns come first; the per-replication intervals and times that follow
    // are checked by the by-screen interval tests.
    #expect(
      Array(header.prefix(6))
        == ["policy", "screen", "kind", "visits", "interrupted", "interruption_rate"])
    #expect(rows.count == F.policyNames.count * F.screens.count)
    for (policy, name) in F.policyNames.enumerated() {
      for (screen, info) in F.screens.enumerated() {
        let ks = (0..<F.replicationCount).map { F.k(replication: $0, policy: policy) }
        let visits = ks.map { F.visits(screen: screen, k: $0) }.reduce(0, +)
        let interrupted = ks.map { F.interrupted(screen: screen, k: $0) }.reduce(0, +)
        let row = rows[policy * F.screens.count + screen]
        #expect(row[0] == name && row[1] == info.name && row[2] == info.kind.rawValue)
        #expect(row[3] == String(visits), "\(name) \(info.name) visits")
        #expect(row[4] == String(interrupted), "\(name) \(info.name) interrupted")
        Self.check(
          row[5], metric: "rate", expected: Double(interrupted) / Double(visits),
          "\(name) \(info.name) interruption_rate")
      }
    }
  }

  @Test func byReasonCSVHoldsPooledCountsAndQuantiles() {
    let (header, rows) = F.rows(of: "by-reason.csv")
    #expect(
      Array(header.prefix(9)) == [
        "policy", "reason", "issued", "displayed", "expired", "pending", "latency_p50_s",
        "latency_p90_s", "latency_p99_s",
      ])
    let reasons = [
      "price_increase_consent", "billing_issue", "win_back_offer", "generic", "unknown",
    ]
    #expect(rows.count == F.policyNames.count * reasons.count)
    for (policy, name) in F.policyNames.enumerated() {
      let ks = (0..<F.replicationCount).map { F.k(replication: $0, policy: policy) }
      let latencies: [[Double]] = [
        ks.flatMap(F.consentLatencies), ks.flatMap(F.billingLatencies), [],
        ks.flatMap(F.genericLatencies), [],
      ]
      for (lane, reason) in reasons.enumerated() {
        let row = rows[policy * reasons.count + lane]
        #expect(row[0] == name && row[1] == reason)
        func pooled(_ count: (Int) -> [Int]) -> String {
          String(ks.map { count($0)[lane] }.reduce(0, +))
        }
        #expect(row[2] == pooled(F.issued), "\(name) \(reason) issued")
        #expect(row[3] == pooled(F.displayed), "\(name) \(reason) displayed")
        #expect(row[4] == pooled(F.expired), "\(name) \(reason) expired")
        #expect(row[5] == pooled(F.pending), "\(name) \(reason) pending")
        for (column, percent) in [(6, 50), (7, 90), (8, 99)] {
          let expected =
            latencies[lane].isEmpty ? nil : F.quantile(latencies[lane], percent: percent)
          Self.check(
            row[column], metric: "latency_p\(percent)_s", expected: expected,
            "\(name) \(reason) p\(percent)")
        }
      }
    }
  }

  /// The hold and latency histograms hold different values: each quantile family must read
  /// its own (the hold is a quarter of a fortieth of the latency here).
  @Test func holdQuantilesReadTheHoldHistogram() {
    let (_, rows) = F.rows(of: "replications.csv")
    for percent in [50, 90, 99] {
      let hold = rows.first {
        $0[0] == "base" && $0[1] == "0" && $0[2] == "consent_hold_p\(percent)_s"
      }!
      let latency = rows.first {
        $0[0] == "base" && $0[1] == "0" && $0[2] == "consent_latency_p\(percent)_s"
      }!
      let holdValue = Self.number(hold[3])!
      let latencyValue = Self.number(latency[3])!
      #expect(abs(holdValue / latencyValue - 1.0 / 40) < 0.001, "p\(percent)")
    }
  }
}
