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
@dynamicMemberLookup
public struct SegmentTally: Sendable, Equatable {
  /// The counts (``SegmentCounters``), read and written as the segment's own properties.
  public var counters = SegmentCounters()
  /// Latency of the price-increase consent messages displayed, first issuance to display.
  public var consentLatency = LatencyHistogram()

  public init() {}

  /// A counter of ``counters``, as if it were the segment's own property.
  @inlinable
  public subscript(dynamicMember counter: WritableKeyPath<SegmentCounters, Int>) -> Int {
    get { counters[keyPath: counter] }
    _modify { yield &counters[keyPath: counter] }
  }

  /// Adds `other` into `self`. Exact and commutative.
  public mutating func merge(_ other: SegmentTally) {
    var merge = _MergeFields()
    Self._visitFields(&self, other, &merge)
  }
}

/// The counts of a ``SegmentTally``, declared once (``_CounterBlock``), like
/// ``TallyCounters``.
public struct SegmentCounters: Sendable, Equatable, _CounterBlock {
  public var users = 0
  public var onboardingRunsStarted = 0
  public var onboardingRunsInterrupted = 0
  public var consentDeadlinesDue = 0
  public var consentDeadlineMisses = 0
  public var fallbackFired = 0
  /// Messages of every reason neither displayed nor expired at the horizon.
  public var pending = 0
  /// Consent sheets shown and accepted, and renewals kept of the consents due
  /// (``TallyCounters/consentKept``); zero without a response model.
  public var consentShown = 0
  public var consentAccepted = 0
  public var consentKept = 0

  public init() {}

  static let fieldNames = _counterFieldNames(of: Self.self)
}
