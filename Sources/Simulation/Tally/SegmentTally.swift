/// Who a user is, for the per-segment figures (`by-segment.csv`).
public enum UserSegment: Int, CaseIterable, Sendable {
  /// A new install who is not a subscriber.
  case new = 0
  /// A new install who is a returning subscriber (a reinstall, a new device).
  case returningSubscriber
  /// An existing user who subscribes.
  case existingSubscriber
  /// An existing user whose subscription lapsed.
  case lapsed

  /// The name in `by-segment.csv`.
  public var name: String {
    switch self {
    case .new: "new"
    case .returningSubscriber: "returning_subscriber"
    case .existingSubscriber: "existing_subscriber"
    case .lapsed: "lapsed"
    }
  }

  /// The segment of a user with this profile.
  static func of(isNew: Bool, subscriber: Bool) -> UserSegment {
    switch (isNew, subscriber) {
    case (true, false): .new
    case (true, true): .returningSubscriber
    case (false, true): .existingSubscriber
    case (false, false): .lapsed
    }
  }
}

/// The headline figures of one segment's users in one replication: the parts of a ``Tally``
/// that `by-segment.csv` splits. Merges exactly, like a tally.
public struct SegmentTally: Sendable, Codable, Equatable {
  public var users = 0
  public var onboardingRunsStarted = 0
  public var onboardingRunsInterrupted = 0
  /// Latency of the price-increase consent messages displayed, first issuance to display.
  public var consentLatency = LatencyHistogram()
  public var consentDeadlinesDue = 0
  public var consentDeadlineMisses = 0
  public var fallbackFired = 0
  /// Messages of every reason neither displayed nor expired at the horizon.
  public var pending = 0

  public init() {}

  /// The counts, in the order of ``countNames`` (for checked arithmetic on merge).
  var counts: [Int] {
    get {
      [
        users, onboardingRunsStarted, onboardingRunsInterrupted, consentDeadlinesDue,
        consentDeadlineMisses, fallbackFired, pending,
      ]
    }
    set {
      (
        users, onboardingRunsStarted, onboardingRunsInterrupted, consentDeadlinesDue,
        consentDeadlineMisses, fallbackFired, pending
      ) = (
        newValue[0], newValue[1], newValue[2], newValue[3], newValue[4], newValue[5], newValue[6]
      )
    }
  }

  /// The JSON names of ``counts``.
  static let countNames = [
    "users", "onboardingRunsStarted", "onboardingRunsInterrupted", "consentDeadlinesDue",
    "consentDeadlineMisses", "fallbackFired", "pending",
  ]

  /// Adds `other` into `self`. Exact and commutative.
  public mutating func merge(_ other: SegmentTally) {
    users += other.users
    onboardingRunsStarted += other.onboardingRunsStarted
    onboardingRunsInterrupted += other.onboardingRunsInterrupted
    consentLatency.merge(other.consentLatency)
    consentDeadlinesDue += other.consentDeadlinesDue
    consentDeadlineMisses += other.consentDeadlineMisses
    fallbackFired += other.fallbackFired
    pending += other.pending
  }
}
