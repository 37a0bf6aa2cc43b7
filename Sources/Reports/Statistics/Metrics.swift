import MessageDeferral
import Simulation

/// The identity of a reported metric, one case per entry of ``Metric/all`` in report order.
///
/// Code names a metric by its case (`.consentLatencyP99`), never by its CSV name; the name,
/// definition and unit live once, in ``Metric/definition(of:)``. The raw value is the
/// metric's position in ``Metric/all`` (and in ``RunReport/values``), so a lookup cannot miss.
public enum MetricID: Int, CaseIterable, Sendable, Hashable, CustomStringConvertible {
  case onboardingInterruptionRate
  case onboardingCompletionRate
  case paywallInterruptionRate
  case checkoutInterruptionRate
  case immersiveInterruptionRate
  case consentLatencyMean
  case consentLatencyP50
  case consentLatencyP90
  case consentLatencyP99
  case consentHoldP50
  case consentHoldP90
  case consentHoldP99
  case consentDeadlineMissRate
  case consentAcceptanceRate
  case consentDeclineRate
  case consentCloseRate
  case renewalsKeptRate
  case renewalsLostPer1kUsers
  case billingRecoveryRate
  case winBackRedemptionRate
  case billingLatencyP90
  case fallbackFired
  case fallbackFiredPer1kUsers
  case displayAttempts
  case displayFailures
  case sheetsPerBreakMean
  case sheetsPerBreakMax
  case messagesIssued
  case messagesDisplayed
  case messagesExpired
  case messagesPendingAtEnd
  case valuePer1kUsers
  case valueOnboardingPer1kUsers
  case valueConsentPer1kUsers
  case valueBillingPer1kUsers
  case valueCheckoutPer1kUsers
  case valueImmersivePer1kUsers
  case valueWinBackPer1kUsers

  /// The metric's position in ``Metric/all`` and in the per-metric arrays of a report.
  public var index: Int { rawValue }

  /// The metric's definition (name, unit, how it is computed).
  public var metric: Metric { Metric.all[rawValue] }

  /// The metric's name in the CSVs (`consent_latency_p99_s`).
  public var name: String { metric.name }

  /// The CSV name, so a metric written into text reads as the files name it.
  public var description: String { name }

  /// The metric whose CSV name is `name`, `nil` for a name that is none (parse user input
  /// once with this, then pass the identity on).
  public init?(name: String) {
    guard let metric = Metric.all.first(where: { $0.name == name }) else { return nil }
    self = metric.id
  }

  /// Every metric name, comma-separated, for error messages that list the choices.
  public static var namesList: String { Metric.all.map(\.name).joined(separator: ", ") }
}

/// The unit of a metric's values; the raw value is the name docs and reports use.
public enum MetricUnit: String, Sendable {
  case ratio
  case seconds
  case count
  case countPer1kUsers = "count per 1000 users"
  case sheets
  case valuePer1kUsers = "value per 1000 users"
}

/// A reported metric: its name in the CSVs, what it means, its unit, and how it is computed
/// from one replication's ``Tally``. Documented in the README ("Metrics").
public struct Metric: Sendable {
  /// The metric's identity (how code names it).
  public var id: MetricID
  public var name: String
  public var definition: String
  public var unit: MetricUnit
  /// `true` when smaller is better (for marking the best value in tables).
  public var lowerIsBetter: Bool
  /// The value for one replication, or `nil` when it has no data (no consent issued...).
  public var value: @Sendable (Tally, Scenario) -> Double?
  /// Whether the metric exists only for scenarios with a `responses` section
  /// (``Scenario/responses``): the others' outputs have no row or column for it.
  public var needsResponses = false

  /// Every metric, in report order (the order of ``MetricID``'s cases).
  public static let all: [Metric] = MetricID.allCases.map { Metric.definition(of: $0) }

  /// The metrics of the terminal table, in column order.
  public static let headline: [MetricID] = [
    .onboardingInterruptionRate, .consentLatencyP50, .consentLatencyP99,
    .consentDeadlineMissRate, .fallbackFiredPer1kUsers, .messagesPendingAtEnd,
  ]

  /// The headline columns of a run: ``headline``, then every priced cost of the `value`
  /// section that differs between policies (checkout and immersive interruptions, unresolved
  /// billing issues), so no cost that moves the recommendation is hidden, then
  /// `value_per_1k_users`.
  public static func headline(for report: RunReport) -> [MetricID] {
    let responses: [MetricID] =
      report.scenario.responses == nil ? [] : [.consentAcceptanceRate, .renewalsLostPer1kUsers]
    guard let model = report.scenario.value else { return headline + responses }
    let priced: [(amount: Double, metric: MetricID, part: MetricID)] = [
      (model.checkoutInterrupted, .checkoutInterruptionRate, .valueCheckoutPer1kUsers),
      (model.immersiveInterrupted, .immersiveInterruptionRate, .valueImmersivePer1kUsers),
      (model.billingIssueUnresolved, .valueBillingPer1kUsers, .valueBillingPer1kUsers),
    ]
    let moving = priced.filter { entry in
      guard entry.amount > 0 else { return false }
      let means = report.result.policies.indices.compactMap {
        report.interval(policy: $0, metric: entry.part)?.mean
      }
      return Set(means).count > 1
    }
    return headline + responses + moving.map(\.metric) + [.valuePer1kUsers]
  }

  /// Whether a run of `scenario` reports the metric (``needsResponses``).
  public func isReported(for scenario: Scenario) -> Bool {
    !needsResponses || scenario.responses != nil
  }

  /// The metric named `name` in the CSVs, `nil` for a name that is none.
  public static func named(_ name: String) -> Metric? { MetricID(name: name)?.metric }

  /// The one place a metric's name, definition, unit and computation are written.
  static func definition(of id: MetricID) -> Metric {
    switch id {
    case .onboardingInterruptionRate:
      Metric(
        id: id, name: "onboarding_interruption_rate",
        definition: "onboarding runs with at least one sheet over an onboarding screen, "
          + "out of runs started", unit: .ratio, lowerIsBetter: true
      ) { tally, _ in ratio(tally.onboardingRunsInterrupted, tally.onboardingRunsStarted) }
    case .onboardingCompletionRate:
      Metric(
        id: id, name: "onboarding_completion_rate",
        definition: "new users who completed onboarding by the horizon, out of those who started",
        unit: .ratio, lowerIsBetter: false
      ) { tally, _ in ratio(tally.newUsersCompleted, tally.newUsersOnboarding) }
    case .paywallInterruptionRate: kindRate(id, .paywall)
    case .checkoutInterruptionRate: kindRate(id, .checkout)
    case .immersiveInterruptionRate: kindRate(id, .immersive)
    case .consentLatencyMean:
      Metric(
        id: id, name: "consent_latency_mean_s",
        definition: "mean time from first issuance to display of price-increase consent messages "
          + "displayed by the horizon", unit: .seconds, lowerIsBetter: true
      ) { tally, _ in
        let consent = Reason.priceIncreaseConsent
        return tally.displayed[consent] > 0
          ? Double(tally.latencySumMilliseconds[consent]) / 1000 / Double(tally.displayed[consent])
          : nil
      }
    case .consentLatencyP50:
      quantile(
        id, "consent_latency_p50_s", lane: .priceIncreaseConsent, 0.50, "median consent latency")
    case .consentLatencyP90:
      quantile(
        id, "consent_latency_p90_s", lane: .priceIncreaseConsent, 0.90,
        "90th percentile of consent latency")
    case .consentLatencyP99:
      quantile(
        id, "consent_latency_p99_s", lane: .priceIncreaseConsent, 0.99,
        "99th percentile of consent latency")
    case .consentHoldP50: hold(id, "consent_hold_p50_s", 0.50, "median")
    case .consentHoldP90: hold(id, "consent_hold_p90_s", 0.90, "90th percentile")
    case .consentHoldP99: hold(id, "consent_hold_p99_s", 0.99, "99th percentile")
    case .consentDeadlineMissRate:
      Metric(
        id: id, name: "consent_deadline_miss_rate",
        definition: "consent messages not displayed by their deadline (renewal), out of those "
          + "whose deadline fell within the horizon", unit: .ratio, lowerIsBetter: true
      ) { tally, _ in ratio(tally.consentDeadlineMisses, tally.consentDeadlinesDue) }
    case .consentAcceptanceRate:
      responseRate(
        id, "consent_acceptance_rate",
        "price-increase consent sheets accepted, out of those shown", lowerIsBetter: false
      ) { ($0.consentAccepted, $0.displayed[.priceIncreaseConsent]) }
    case .consentDeclineRate:
      responseRate(
        id, "consent_decline_rate",
        "price-increase consent sheets declined (the subscription ends at renewal), out of "
          + "those shown", lowerIsBetter: true
      ) { ($0.consentDeclined, $0.displayed[.priceIncreaseConsent]) }
    case .consentCloseRate:
      responseRate(
        id, "consent_close_rate",
        "price-increase consent sheets closed without a choice, out of those shown",
        lowerIsBetter: true
      ) { ($0.consentClosed, $0.displayed[.priceIncreaseConsent]) }
    case .renewalsKeptRate:
      responseRate(
        id, "renewals_kept_rate",
        "consents whose deadline fell within the horizon that kept the renewal: accepted in "
          + "the app by the deadline, or agreed outside the app by it", lowerIsBetter: false
      ) { ($0.consentKept, $0.consentDeadlinesDue) }
    case .renewalsLostPer1kUsers:
      Metric(
        id: id, name: "renewals_lost_per_1k_users",
        definition: "consents due within the horizon whose renewal was lost (declined, or not "
          + "agreed by the deadline in the app or outside it), per 1000 users",
        unit: .countPer1kUsers, lowerIsBetter: true,
        value: { tally, _ in
          tally.users > 0
            ? Double(tally.consentDeadlinesDue - tally.consentKept) * 1000 / Double(tally.users)
            : nil
        }, needsResponses: true)
    case .billingRecoveryRate:
      responseRate(
        id, "billing_recovery_rate",
        "billing issues recovered by the horizon (the payment fixed from a sheet, or resolved "
          + "outside the app by the horizon, before or after a sheet), out of those issued",
        lowerIsBetter: false
      ) { ($0.billingRecovered, $0.issued[.billingIssue]) }
    case .winBackRedemptionRate:
      responseRate(
        id, "win_back_redemption_rate",
        "win-back offers redeemed from a sheet, out of those issued",
        lowerIsBetter: false
      ) { ($0.winBackRedeemed, $0.issued[.winBackOffer]) }
    case .billingLatencyP90:
      quantile(
        id, "billing_latency_p90_s", lane: .billingIssue, 0.90,
        "90th percentile of billing-issue latency")
    case .fallbackFired:
      count(
        id, "fallback_fired", "messages shown because they passed a ceiling", lowerIsBetter: true
      ) { $0.fallbackFired }
    case .fallbackFiredPer1kUsers:
      Metric(
        id: id, name: "fallback_fired_per_1k_users", definition: "fallback_fired per 1000 users",
        unit: .countPer1kUsers, lowerIsBetter: true
      ) { tally, _ in
        tally.users > 0 ? Double(tally.fallbackFired) * 1000 / Double(tally.users) : nil
      }
    case .displayAttempts:
      count(id, "display_attempts", "calls to display a message", lowerIsBetter: true) {
        $0.displayAttempts
      }
    case .displayFailures:
      count(
        id, "display_failures", "display attempts that failed (no active scene, or failure)",
        lowerIsBetter: true
      ) { $0.displayFailures }
    case .sheetsPerBreakMean:
      Metric(
        id: id, name: "sheets_per_break_mean",
        definition: "mean number of sheets shown back to back in one break", unit: .sheets,
        lowerIsBetter: true
      ) { tally, _ in
        tally.breaks > 0 ? Double(tally.sheetsInBreaks) / Double(tally.breaks) : nil
      }
    case .sheetsPerBreakMax:
      Metric(
        id: id, name: "sheets_per_break_max",
        definition: "most sheets shown back to back in one break", unit: .sheets,
        lowerIsBetter: true
      ) { tally, _ in tally.breaks > 0 ? Double(tally.maxSheetsPerBreak) : nil }
    case .messagesIssued:
      count(
        id, "messages_issued", "messages the App Store issued (all reasons)", lowerIsBetter: false
      ) { $0.issued.reduce(0, +) }
    case .messagesDisplayed:
      count(id, "messages_displayed", "messages displayed by the horizon", lowerIsBetter: false) {
        $0.displayed.reduce(0, +)
      }
    case .messagesExpired:
      count(
        id, "messages_expired", "messages that expired before being displayed",
        lowerIsBetter: false
      ) { $0.expired.reduce(0, +) }
    case .messagesPendingAtEnd:
      count(
        id, "messages_pending_at_end", "messages neither displayed nor expired at the horizon",
        lowerIsBetter: true
      ) { $0.pending.reduce(0, +) }
    case .valuePer1kUsers: valueTotal(id)
    case .valueOnboardingPer1kUsers:
      valuePart(
        id, "value_onboarding_per_1k_users",
        "onboarding_completed × new users who completed onboarding, per 1000 users", index: 0)
    case .valueConsentPer1kUsers:
      valuePart(
        id, "value_consent_per_1k_users",
        "−consent_deadline_missed × consent deadlines missed (with a responses section: "
          + "−renewal_lost × renewals lost), per 1000 users", index: 1)
    case .valueBillingPer1kUsers:
      valuePart(
        id, "value_billing_per_1k_users",
        "−billing_issue_unresolved × billing-issue messages still pending at the horizon "
          + "(neither displayed nor expired; with a responses section: not recovered), per "
          + "1000 users", index: 2)
    case .valueCheckoutPer1kUsers:
      valuePart(
        id, "value_checkout_per_1k_users",
        "−checkout_interrupted × checkout visits with a sheet over them, per 1000 users",
        index: 3)
    case .valueImmersivePer1kUsers:
      valuePart(
        id, "value_immersive_per_1k_users",
        "−immersive_interrupted × immersive visits with a sheet over them, per 1000 users",
        index: 4)
    case .valueWinBackPer1kUsers:
      valuePart(
        id, "value_win_back_per_1k_users",
        "win_back_redeemed × win-back offers redeemed from a sheet, per 1000 users", index: 5,
        needsResponses: true)
    }
  }

  /// The values the metric can take, from its unit: ratios in [0, 1], durations and counts
  /// at least 0, anything else (values in the user's units) unbounded.
  public var range: ValueRange {
    switch unit {
    case .ratio: .unit
    case .seconds, .count, .countPer1kUsers, .sheets: .nonNegative
    case .valuePer1kUsers: .unbounded
    }
  }

  /// The range of a paired difference of two of the metric's values: [−1, 1] for ratios,
  /// unbounded otherwise.
  public var differenceRange: ValueRange { range == .unit ? .signedUnit : .unbounded }

  /// A share of two response counts; exists only with a response model.
  static func responseRate(
    _ id: MetricID, _ name: String, _ definition: String, lowerIsBetter: Bool,
    _ counts: @escaping @Sendable (Tally) -> (part: Int, whole: Int)
  ) -> Metric {
    Metric(
      id: id, name: name, definition: definition, unit: .ratio, lowerIsBetter: lowerIsBetter,
      value: { tally, _ in
        let (part, whole) = counts(tally)
        return ratio(part, whole)
      }, needsResponses: true)
  }

  static func ratio(_ part: Int, _ whole: Int) -> Double? {
    whole > 0 ? Double(part) / Double(whole) : nil
  }

  static func kindRate(_ id: MetricID, _ kind: ScreenKind) -> Metric {
    Metric(
      id: id, name: "\(kind.rawValue)_interruption_rate",
      definition: "visits to \(kind.rawValue) screens with at least one sheet over them, out of "
        + "all visits to them", unit: .ratio, lowerIsBetter: true
    ) { tally, scenario in
      var visits = 0
      var interrupted = 0
      for (index, screen) in scenario.screens.enumerated() where screen.kind == kind {
        visits += tally.screenVisits[index]
        interrupted += tally.screenInterrupted[index]
      }
      return ratio(interrupted, visits)
    }
  }

  static func quantile(
    _ id: MetricID, _ name: String, lane: Reason, _ p: Double, _ what: String
  ) -> Metric {
    Metric(
      id: id, name: name,
      definition: "\(what), from first issuance to display (log-binned histogram "
        + "interpolated within the bin, within 2% of the sample quantile)", unit: .seconds,
      lowerIsBetter: true
    ) { tally, _ in tally.latency[lane].quantile(p) }
  }

  /// A quantile of the consent hold: what the policy added to the wait (``Tally/hold``).
  static func hold(_ id: MetricID, _ name: String, _ p: Double, _ what: String) -> Metric {
    Metric(
      id: id, name: name,
      definition: "\(what) of consent hold: time from the message's first delivery to the app "
        + "to its display, the wait the policy added (log-binned histogram interpolated "
        + "within the bin, within 2% of the sample quantile; 0 when shown at delivery)",
      unit: .seconds, lowerIsBetter: true
    ) { tally, _ in tally.hold[.priceIncreaseConsent].quantile(p) }
  }

  static func count(
    _ id: MetricID, _ name: String, _ definition: String, lowerIsBetter: Bool,
    _ count: @escaping @Sendable (Tally) -> Int
  ) -> Metric {
    Metric(
      id: id, name: name, definition: definition, unit: .count, lowerIsBetter: lowerIsBetter
    ) {
      tally, _ in Double(count(tally))
    }
  }
}
