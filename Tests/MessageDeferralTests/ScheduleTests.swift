import Testing

@testable import MessageDeferral

/// The coordinator's reuse of its last scan of the queue (``_Schedule``) and its per-lane
/// ceilings: the same answers as a full scan at every event (also checked after every event
/// of the random lives, ``PolicyDriver/send(_:)``), and no scan for a screen event that can
/// show nothing.
@Suite("Coordinator schedule")
struct ScheduleTests {
  /// `deadline-aware` holding ten generic messages on an immersive screen, as
  /// `deferral-bench controller` does.
  func holdingTen() -> Harness {
    var policy = Harness(preset: "deadline-aware")
    policy.startSession(at: 999, on: .immersive)
    for id in MessageID(1)...10 { policy.deliver(message(id, .generic), at: 1_000) }
    return policy
  }

  /// Screens that hold messages back reuse the scan made after the last delivery, and answer
  /// with the wake a full scan gives: the end of the grace after the 7-day ceiling.
  @Test func screensThatShowNothingReuseTheLastScan() {
    var policy = holdingTen()
    let wake = 1_000 + 7 * day + 6 * hour
    let scannedAt = policy.coordinator.schedule.scannedAt
    for step in 0..<20 {
      let time = 1_000 + Double(step) * hour
      let answer = policy.screen(step % 2 == 0 ? .checkout : .immersive, at: time)
      #expect(answer == Answer(wakeAt: wake))
      #expect(policy.coordinator.nextWake(after: time) == wake)
    }
    #expect(policy.coordinator.schedule.scannedAt == scannedAt, "no new scan")
    #expect(policy.pendingIDs.count == 10)
  }

  /// Past the ceiling the reused scan no longer says "nothing due": a screen that accepts a
  /// forced sheet gets one (the most urgent, the first delivered), a checkout none.
  @Test func pastTheCeilingTheNextBoundaryForcesOne() {
    var policy = holdingTen()
    let due = 1_000 + 7 * day
    #expect(policy.screen(.checkout, at: due + 1) == Answer(wakeAt: due + 6 * hour))
    let answer = policy.screen(.immersive, at: due + 2)
    #expect(answer.shown == [1] && answer.forced == [1])
  }

  /// A scene activation records an open, which moves a consent's urgent time: the reused scan
  /// does not outlive it. (Without ceilings, the urgent time is the only wake.)
  @Test func anOpenMovesTheUrgentTime() {
    var configuration = PolicyCatalog.Preset.deadlineAware.configuration
    configuration.ceilings = [:]
    var policy = Harness(configuration)
    policy.startSession(at: 0, on: .home)  // an open at 0.5
    policy.deactivate(at: 60)
    policy.activate(at: day)
    policy.screen(.immersive, at: day + 1)
    let deadline = 30 * day
    // Two opens a day apart: urgent at deadline - max(2 d, 3 × the gap).
    let urgentAt = deadline - 3 * (day - 0.5)
    let delivered = policy.deliver(
      message(1, .priceIncreaseConsent, deadline: deadline), at: day + 2)
    #expect(delivered == Answer(wakeAt: urgentAt))
    #expect(policy.screen(.immersive, at: day + 3) == Answer(wakeAt: urgentAt))
    #expect(policy.deactivate(at: day + 4) == Answer(wakeAt: urgentAt))
    // A gap of four days: urgent at deadline - 12 d.
    #expect(policy.activate(at: 5 * day) == Answer(wakeAt: deadline - 12 * day))
    #expect(policy.screen(.immersive, at: 5 * day + 1) == Answer(wakeAt: deadline - 12 * day))
    let shown = policy.screen(.immersive, at: deadline - 12 * day)
    #expect(shown.shown == [1])
  }

  /// An unknown reason takes a ceiling that names it, else the generic one; the lane table
  /// answers for the known reasons.
  @Test func anUnknownReasonTakesItsOwnCeilingElseTheGenericOne() {
    var policy = Harness(
      PolicyConfiguration(
        gate: PolicyConfiguration.gateTable([:], otherwise: .closed), gateAtLaunch: false,
        ceilings: [.unknown(rawValue: 7): 10, .generic: 100, .billingIssue: 50]))
    policy.startSession(at: 0, on: .home)
    policy.deliver(message(1, .unknown(rawValue: 7)), at: 1)
    policy.deliver(message(2, .unknown(rawValue: 8)), at: 1)
    policy.deliver(message(3, .billingIssue), at: 1)
    #expect(policy.deliver(message(4, .winBackOffer), at: 1) == Answer(wakeAt: 11))
    #expect(policy.timer(at: 11) == Answer(shown: [1], forced: [1], wakeAt: 51))
    #expect(policy.timer(at: 51) == Answer(shown: [3], forced: [3], wakeAt: 101))
    #expect(policy.timer(at: 101) == Answer(shown: [2], forced: [2]))
    // Win-back has no ceiling: never forced, no wake for it.
    #expect(policy.coordinator.nextWake(after: 101) == nil)

    var generic = Harness(
      PolicyConfiguration(
        gate: PolicyConfiguration.gateTable([:], otherwise: .closed), gateAtLaunch: false,
        ceilings: [.generic: 100]))
    generic.startSession(at: 0, on: .home)
    #expect(generic.deliver(message(1, .unknown(rawValue: 7)), at: 1) == Answer(wakeAt: 101))
    #expect(generic.timer(at: 101) == Answer(shown: [1], forced: [1]))
  }
}
