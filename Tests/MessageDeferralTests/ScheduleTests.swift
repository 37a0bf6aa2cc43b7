import Testing

@testable import MessageDeferral

/// The coordinator's per-lane ceilings (``Coordinator/laneCeilings``): the same due times as
/// the configuration's dictionary.
@Suite("Coordinator schedule")
struct ScheduleTests {
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
