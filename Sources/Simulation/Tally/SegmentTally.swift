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
    counters.addCounters(other.counters)
    consentLatency.merge(other.consentLatency)
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

  public init() {}

  static let fieldNames = _counterFieldNames(of: Self.self)
}

extension UserSimulator {
  /// The tally's counters that segments split, before a user runs.
  typealias _SegmentSnapshot = (
    runs: Int, interrupted: Int, due: Int, misses: Int, fallback: Int, pending: Int
  )

  func segmentSnapshot(_ tally: Tally) -> _SegmentSnapshot {
    (
      tally.onboardingRunsStarted, tally.onboardingRunsInterrupted, tally.consentDeadlinesDue,
      tally.consentDeadlineMisses, tally.fallbackFired, tally.pending.reduce(0, +)
    )
  }

  /// Adds what the user just simulated changed since `before` to their segment, and the user
  /// to its count when `countsUser` (a life split into a shared trunk and a policy's branch
  /// counts the user once, in the trunk).
  func addToSegment(since before: _SegmentSnapshot, tally: inout Tally, countsUser: Bool) {
    let segment = UserSegment.of(isNew: life.profile.isNew, subscriber: life.profile.subscriber)
      .rawValue
    let after = segmentSnapshot(tally)
    if countsUser { tally.segments[segment].users += 1 }
    tally.segments[segment].onboardingRunsStarted += after.runs - before.runs
    tally.segments[segment].onboardingRunsInterrupted += after.interrupted - before.interrupted
    tally.segments[segment].consentDeadlinesDue += after.due - before.due
    tally.segments[segment].consentDeadlineMisses += after.misses - before.misses
    tally.segments[segment].fallbackFired += after.fallback - before.fallback
    tally.segments[segment].pending += after.pending - before.pending
    for record in messages
    where record.reason == .priceIncreaseConsent && record.state == .displayed {
      tally.segments[segment].consentLatency.record(record.displayedAt - record.issuedAt)
    }
  }
}
