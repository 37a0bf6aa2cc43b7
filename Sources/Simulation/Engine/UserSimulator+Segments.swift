import MessageDeferral

/// Each user's segment (new or existing, subscriber or not) in the tallies: what the engine adds
/// to ``SegmentTally`` after a life or a part of it.
extension UserSimulator {
  /// The tally's counters that segments split, before a user runs.
  typealias _SegmentSnapshot = (
    runs: Int, interrupted: Int, due: Int, misses: Int, fallback: Int, pending: Int,
    shown: Int, accepted: Int, kept: Int
  )

  func segmentSnapshot(_ tally: Tally) -> _SegmentSnapshot {
    (
      tally.onboardingRunsStarted, tally.onboardingRunsInterrupted, tally.consentDeadlinesDue,
      tally.consentDeadlineMisses, tally.fallbackFired, tally.pending.reduce(0, +),
      tally.displayed[.priceIncreaseConsent], tally.consentAccepted, tally.consentKept
    )
  }

  /// Adds what the user just simulated changed since `before` to their segment, and the user
  /// to its count when `countsUser` (a life split into a shared trunk and a policy's branch
  /// counts the user once, in the trunk), and its consent latencies unless `consentLatencies`
  /// is false (a group records them into each member's tally itself).
  func addToSegment(
    since before: _SegmentSnapshot, tally: inout Tally, countsUser: Bool,
    consentLatencies: Bool = true
  ) {
    let segment = UserSegment.of(isNew: world.profile.isNew, subscriber: world.profile.subscriber)
      .rawValue
    let after = segmentSnapshot(tally)
    if countsUser { tally.segments[segment].users += 1 }
    tally.segments[segment].onboardingRunsStarted += after.runs - before.runs
    tally.segments[segment].onboardingRunsInterrupted += after.interrupted - before.interrupted
    tally.segments[segment].consentDeadlinesDue += after.due - before.due
    tally.segments[segment].consentDeadlineMisses += after.misses - before.misses
    tally.segments[segment].fallbackFired += after.fallback - before.fallback
    tally.segments[segment].pending += after.pending - before.pending
    if compiled.responses != nil {
      tally.segments[segment].consentShown += after.shown - before.shown
      tally.segments[segment].consentAccepted += after.accepted - before.accepted
      tally.segments[segment].consentKept += after.kept - before.kept
    }
    guard consentLatencies else { return }
    for record in world.messages
    where record.reason == .priceIncreaseConsent && record.state == .displayed {
      tally.segments[segment].consentLatency.record(record.displayedAt - record.issuedAt)
    }
  }
}
