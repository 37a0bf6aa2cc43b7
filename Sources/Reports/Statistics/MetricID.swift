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
