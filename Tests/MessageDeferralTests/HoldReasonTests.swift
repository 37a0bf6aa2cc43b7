import MessageDeferral
import Testing

/// ``Coordinator/holdReason()``, the "why" of a trace's hold rows: a failed display is not
/// called a sheet the user saw (issue #20), though it spends the break's allowance.
@Suite("hold reasons")
struct HoldReasonTests {
  func session() -> Harness {
    var policy = Harness(preset: "deadline-aware-v1")
    policy.startSession(at: 0, on: .onboarding)
    return policy
  }

  @Test func aShownSheetIsCountedAsShown() {
    var policy = session()
    policy.deliver(message(1, .generic), at: 10)
    policy.deliver(message(2, .generic), at: 11)
    #expect(policy.screen(.home, at: 100).shown == [1])
    policy.succeed(1, at: 100)
    #expect(policy.coordinator.holdReason() == "already 1 sheet(s) this break")
  }

  @Test func aFailedDisplayIsNotCalledAShownSheet() {
    var policy = session()
    policy.deliver(message(1, .generic), at: 10)
    #expect(policy.screen(.home, at: 100).shown == [1])
    policy.fail(1, at: 100)
    let reason = policy.coordinator.holdReason()
    #expect(!reason.contains("sheet(s)"), "\(reason)")
    #expect(reason.hasPrefix("1 failed display(s) this break"), "\(reason)")
    // The behaviour is unchanged: the failed attempt spends the break, the next break retries.
    #expect(policy.deliver(message(2, .generic), at: 101).shown.isEmpty)
    #expect(policy.screen(.settings, at: 200).shown == [1])
    policy.succeed(1, at: 200)
    #expect(policy.coordinator.holdReason() == "already 1 sheet(s) this break")
  }

  /// After a failed display on a calm screen, StoreKit's default names what would show it.
  @Test func aHoldOnACalmScreenNamesTheTriggersThatWouldShowIt() {
    var policy = Harness(preset: "storekit-auto")
    policy.startSession(at: 0, on: .home)
    #expect(policy.deliver(message(1, .generic), at: 10).shown == [1])
    policy.fail(1, at: 10)
    let reason = policy.coordinator.holdReason()
    #expect(reason.hasPrefix("waits for a trigger (delivery"), "\(reason)")
    #expect(reason.hasSuffix("); on home"), "\(reason)")
  }

  @Test func aCheckpointPolicyOnItsCheckpointWaitsForTheNextCall() {
    var policy = Harness(preset: "adapty-manual")
    policy.startSession(at: 0, on: .home)
    policy.deliver(message(1, .generic), at: 10)
    #expect(
      policy.coordinator.holdReason() == "waits for the next checkpoint call (home); on home")
  }
}
