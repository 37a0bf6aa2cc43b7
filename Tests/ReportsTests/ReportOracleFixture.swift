import MessageDeferral
import Reports
import Simulation

/// Tallies written by hand for the report oracles: two policies ("base", the baseline, and
/// "other") over three replications, every field a different simple function of one number
/// `k = 1 + replication + 3 × policy`, so that reading the wrong field, lane, histogram,
/// replication or policy gives a different number. ``expected`` states each metric's value
/// from `k` alone, without going through ``Metric``.
enum ReportOracleFixture {
  static let policyNames = ["base", "other"]
  static let replicationCount = 3

  /// Screens of every kind; two immersive ones, so a kind's rate must sum over screens.
  static let screens: [(name: String, kind: ScreenKind)] = [
    ("splash", .launch), ("intro", .onboarding), ("plans", .paywall), ("buy", .checkout),
    ("player", .immersive), ("home", .home), ("reader", .immersive),
  ]

  static func k(replication: Int, policy: Int) -> Int { 1 + replication + 3 * policy }

  /// Whether this (replication, policy) has no breaks (so the per-break metrics have no value).
  static func hasNoBreaks(replication: Int, policy: Int) -> Bool { replication == 2 && policy == 1 }

  static func visits(screen: Int, k: Int) -> Int { 10 * (screen + 1) + k }
  static func interrupted(screen: Int, k: Int) -> Int { screen + k % 2 }

  /// Values recorded in the consent latency, consent hold and billing latency histograms.
  static func consentLatencies(k: Int) -> [Double] { (1...100).map { Double($0 * 10 * k) } }
  static func consentHolds(k: Int) -> [Double] { (1...100).map { Double($0 * k) / 4 } }
  static func billingLatencies(k: Int) -> [Double] { (1...20).map { Double($0 * 1000 * k) } }
  static func genericLatencies(k: Int) -> [Double] { (1...10).map { Double($0 * 7 + k) } }

  static func issued(k: Int) -> [Int] { [120 + k, 30 + k, 20 + k, 10 + k, 5 + k] }
  static func displayed(k: Int) -> [Int] { [100, 20, 0, 10, 0] }
  static func expired(k: Int) -> [Int] { [5, 3 + k, 2, 0, 1] }
  static func pending(k: Int) -> [Int] {
    (0..<5).map { issued(k: k)[$0] - displayed(k: k)[$0] - expired(k: k)[$0] }
  }

  static func tally(replication: Int, policy: Int) -> Tally {
    let k = k(replication: replication, policy: policy)
    var tally = Tally(screenCount: screens.count)
    for screen in screens.indices {
      tally.screenVisits[screen] = visits(screen: screen, k: k)
      tally.screenInterrupted[screen] = interrupted(screen: screen, k: k)
    }
    tally.onboardingRunsStarted = 20 + k
    tally.onboardingRunsInterrupted = k
    tally.onboardingRunsCompleted = 15 + k
    tally.newUsersOnboarding = 10 + k
    tally.newUsersCompleted = 5 + k
    tally.users = 1000 + k
    tally.issued = PerReason(lanes: issued(k: k))
    tally.displayed = PerReason(lanes: displayed(k: k))
    tally.expired = PerReason(lanes: expired(k: k))
    tally.pending = PerReason(lanes: pending(k: k))
    for value in consentLatencies(k: k) { tally.latency[0].record(value) }
    for value in consentHolds(k: k) { tally.hold[0].record(value) }
    for value in billingLatencies(k: k) { tally.latency[1].record(value) }
    for value in genericLatencies(k: k) { tally.latency[3].record(value) }
    tally.latencySumMilliseconds[0] = Int64(123_457 * k)
    tally.consentDeadlineMisses = k
    tally.consentDeadlinesDue = 4 + k
    // Responses (the fixture's scenario has a response model): of the 100 consents shown.
    tally.consentAccepted = 60 + k
    tally.consentDeclined = 10 + k
    tally.consentClosed = 30 - 2 * k
    tally.consentKept = 2 + k
    tally.consentKeptOutside = 1
    tally.billingFixed = 5 + k
    tally.billingRecovered = 8 + 2 * k
    for screen in screens.indices {
      tally.screenConsentShown[screen] = 2 * screen + 1
      tally.screenConsentAccepted[screen] = screen
    }
    tally.fallbackFired = 3 * k
    tally.displayAttempts = 50 + k
    tally.displayFailures = 5 + k
    tally.sheets = 40 + k
    if !hasNoBreaks(replication: replication, policy: policy) {
      tally.breaks = 10 + k
      tally.sheetsInBreaks = 30 + k
      tally.maxSheetsPerBreak = 2 + k
    }
    return tally
  }

  /// The empirical `percent`-quantile: the value of rank ⌈percent/100 · n⌉ in sorted order.
  static func quantile(_ values: [Double], percent: Int) -> Double {
    let sorted = values.sorted()
    let rank = max(1, (percent * sorted.count + 99) / 100)
    return sorted[rank - 1]
  }

  /// How close a histogram quantile must be to the empirical one (relative).
  static let quantileTolerance = LatencyHistogram.maximumRelativeError + 1e-9

  /// Each metric's value for one (replication, policy), from `k` alone.
  /// Whether ``expected(_:replication:policy:)`` knows the metric (`everyMetricHasAnOracle`
  /// names one it does not; the other tests skip it rather than trap).
  static func hasOracle(_ metric: String) -> Bool {
    expected(metric, replication: 0, policy: 0) != nil
  }

  static func expected(_ metric: String, replication: Int, policy: Int) -> Double?? {
    let k = k(replication: replication, policy: policy)
    let d = Double(k)
    let noBreaks = hasNoBreaks(replication: replication, policy: policy)
    func kindRate(_ kind: ScreenKind) -> Double {
      let indices = screens.indices.filter { screens[$0].kind == kind }
      let hit = indices.map { interrupted(screen: $0, k: k) }.reduce(0, +)
      return Double(hit) / Double(indices.map { visits(screen: $0, k: k) }.reduce(0, +))
    }
    let table: [String: Double?] = [
      "onboarding_interruption_rate": d / (20 + d),
      "onboarding_completion_rate": (5 + d) / (10 + d),
      "paywall_interruption_rate": kindRate(.paywall),
      "checkout_interruption_rate": kindRate(.checkout),
      "immersive_interruption_rate": kindRate(.immersive),
      "consent_latency_mean_s": 123.457 * d / 100,
      "consent_latency_p50_s": 500 * d,
      "consent_latency_p90_s": 900 * d,
      "consent_latency_p99_s": 990 * d,
      "consent_hold_p50_s": 50 * d / 4,
      "consent_hold_p90_s": 90 * d / 4,
      "consent_hold_p99_s": 99 * d / 4,
      "consent_deadline_miss_rate": d / (4 + d),
      "billing_latency_p90_s": 18_000 * d,
      "fallback_fired": 3 * d,
      "fallback_fired_per_1k_users": 3 * d * 1000 / (1000 + d),
      "display_attempts": 50 + d,
      "display_failures": 5 + d,
      "sheets_per_break_mean": noBreaks ? nil : (30 + d) / (10 + d),
      "sheets_per_break_max": noBreaks ? nil : 2 + d,
      "messages_issued": 185 + 5 * d,
      "messages_displayed": 130,
      "messages_expired": 11 + d,
      "messages_pending_at_end": Double(pending(k: k).reduce(0, +)),
      "consent_acceptance_rate": (60 + d) / 100,
      "consent_decline_rate": (10 + d) / 100,
      "consent_close_rate": (30 - 2 * d) / 100,
      "renewals_kept_rate": (2 + d) / (4 + d),
      "renewals_lost_per_1k_users": 2 * 1000 / (1000 + d),
      "billing_recovery_rate": (8 + 2 * d) / (30 + d),
      "win_back_redemption_rate": 0,
    ]
    if let parts = valueParts(k: k) {
      let named = [
        "value_onboarding_per_1k_users", "value_consent_per_1k_users",
        "value_billing_per_1k_users", "value_checkout_per_1k_users",
        "value_immersive_per_1k_users", "value_win_back_per_1k_users",
      ]
      if metric == "value_per_1k_users" { return .some(parts.reduce(0, +)) }
      if let index = named.firstIndex(of: metric) { return .some(parts[index]) }
    }
    return table[metric]
  }

  /// The value parts per 1000 users, from the default scenario's `value` amounts and the
  /// fixture's counts, priced as with a response model: completions 5 + k, renewals lost
  /// (4 + k due − (2 + k) kept = 2), billing issues not recovered (30 + k issued − (8 + 2k)
  /// recovered), interrupted checkout and immersive visits, no win-back redeemed, over
  /// 1000 + k users. Costs are negative.
  static func valueParts(k: Int) -> [Double]? {
    guard let model = report.scenario.value else { return nil }
    func interruptedVisits(_ kind: ScreenKind) -> Double {
      Double(
        screens.indices.filter { screens[$0].kind == kind }
          .map { interrupted(screen: $0, k: k) }.reduce(0, +))
    }
    let perThousand = 1000 / Double(1000 + k)
    return [
      model.onboardingCompleted * Double(5 + k) * perThousand,
      -model.renewalLostAmount * 2 * perThousand,
      -model.billingIssueUnresolved * Double(22 - k) * perThousand,
      -model.checkoutInterrupted * interruptedVisits(.checkout) * perThousand,
      -model.immersiveInterrupted * interruptedVisits(.immersive) * perThousand,
      model.winBackRedeemed * 0,
    ]
  }

  /// Metrics read from a histogram (compared within ``quantileTolerance``).
  static func isQuantile(_ metric: String) -> Bool {
    metric.contains("_p") && metric.hasSuffix("_s")
  }

  static let report: RunReport = {
    var scenario = ScenarioLoader.embeddedDefault()
    scenario.screens = screens.map {
      Screen(name: $0.name, kind: $0.kind, dwell: .fixed(1), transitions: [])
    }
    let policies = policyNames.map { NamedPolicy(name: $0, configuration: PolicyConfiguration()) }
    scenario.policies = policies
    scenario.baseline = "base"
    // A response model, so every metric (those that need one included) is reported; its
    // chances do not enter a report, only whether it exists.
    scenario.responses = ResponseModel(
      consentChoice: .init(probability: 0.8), consentAccept: .init(probability: 0.9),
      billingFixed: .init(probability: 0.4), winBackRedeemed: .init(probability: 0.1))
    let tallies = (0..<replicationCount).map { replication in
      policies.indices.map { tally(replication: replication, policy: $0) }
    }
    let result = RunResult(policies: policies, tallies: tallies)
    return RunReport(scenario: scenario, result: result, baseline: "base")
  }()

  /// A written CSV file read back: its header and rows of fields (no quoting is needed here).
  static func rows(of file: String) -> (header: [String], rows: [[String]]) {
    let text = report.files.first { $0.name == file }!.table.text
    let lines = text.split(separator: "\n").map {
      $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
    }
    return (lines[0], Array(lines.dropFirst()))
  }
}
