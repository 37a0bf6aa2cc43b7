import MessageDeferral
import Testing

/// OpenIAP's display loop, translated from its source (OpenIAP has no unit test of it).
///
/// Source: hyodotdev/openiap `packages/apple/Sources/OpenIapModule.swift` at commit
/// 11dbb07e1888a129f364ef86ac29079e1ff2cd35: `startMessageListener` iterates
/// `for await message in StoreKit.Message.messages` and awaits
/// `displayStoreKitMessage(message)` before reading the next one; that function tries
/// `message.display(in:)` when a foreground-active scene exists and otherwise, or after a
/// throw, sleeps `retryDelay` (500 ms, doubled after each sleep up to 2 s, a fresh 500 ms
/// for each message) and tries again.
@Suite("OpenIAP display loop")
struct OpenIAPLoopTests {
  /// The loop reads the next message only after `display(in:)` returned for the previous.
  @Test func theNextMessageIsReadAfterThePreviousDisplayReturned() {
    var policy = Harness(preset: "openiap")
    policy.startSession(at: 0, on: .home)
    #expect(policy.deliver(message(1, .generic), at: 10) == Answer(shown: [1]))
    #expect(policy.deliver(message(2, .billingIssue), at: 10.5) == .nothing)
    #expect(policy.deliver(message(3, .priceIncreaseConsent), at: 10.6) == .nothing)
    #expect(policy.succeed(1, at: 11) == Answer(shown: [2]))
    #expect(policy.succeed(2, at: 11) == Answer(shown: [3]))
    #expect(policy.succeed(3, at: 11) == .nothing)
    #expect(policy.pendingIDs.isEmpty)
  }

  /// Without a foreground-active scene the head sleeps 0.5 s, 1 s, 2 s, 2 s...; a message
  /// delivered meanwhile waits behind it, and the scene becoming active does not wake the
  /// loop: the next attempt is at the end of the sleep.
  @Test func aSceneLessHeadHoldsBackTheRest() {
    var policy = Harness(preset: "openiap")
    policy.launch(at: 0)
    policy.screen(.launch, at: 0)
    #expect(policy.deliver(message(1, .generic), at: 0) == Answer(wakeAt: 0.5))
    #expect(policy.deliver(message(2, .billingIssue), at: 0.2) == Answer(wakeAt: 0.5))
    #expect(policy.timer(at: 0.5) == Answer(wakeAt: 1.5))
    #expect(policy.activate(at: 0.7) == Answer(wakeAt: 1.5))
    #expect(policy.deliver(message(3, .generic), at: 0.8) == Answer(wakeAt: 1.5))
    #expect(policy.timer(at: 1.5) == Answer(shown: [1]))
    // Message 2 starts its own loop iteration: tried at once, the scene being active.
    #expect(policy.succeed(1, at: 1.5) == Answer(shown: [2]))
  }

  /// A display that throws is retried after the sleep; the rest wait behind it.
  @Test func aFailedDisplayIsRetriedBeforeTheNextMessage() {
    var policy = Harness(preset: "openiap")
    policy.startSession(at: 0, on: .home)
    #expect(policy.deliver(message(1, .generic), at: 10) == Answer(shown: [1]))
    #expect(policy.deliver(message(2, .generic), at: 10) == .nothing)
    #expect(policy.fail(1, .presentationFailed, at: 10) == Answer(wakeAt: 10.5))
    #expect(policy.screen(.settings, at: 10.2) == Answer(wakeAt: 10.5))
    #expect(policy.timer(at: 10.5) == Answer(shown: [1]))
    #expect(policy.fail(1, .presentationFailed, at: 10.5) == Answer(wakeAt: 11.5))
    #expect(policy.timer(at: 11.5) == Answer(shown: [1]))
    #expect(policy.succeed(1, at: 11.5) == Answer(shown: [2]))
  }

  /// `retryDelay` is a local of `displayStoreKitMessage`: each message starts at 500 ms,
  /// however long the previous one waited.
  @Test func eachMessageStartsItsOwnBackoff() {
    var policy = Harness(preset: "openiap")
    policy.launch(at: 0)
    policy.deliver(message(1, .generic), at: 0)
    policy.deliver(message(2, .generic), at: 0)
    var wake = 0.5
    for next in [1.5, 3.5, 5.5] {
      #expect(policy.timer(at: wake) == Answer(wakeAt: next))
      wake = next
    }
    policy.activate(at: 5)
    #expect(policy.timer(at: wake) == Answer(shown: [1]))
    // The scene goes away as message 1 is shown: message 2 sleeps 500 ms, not 2 s.
    policy.deactivate(at: 5.5)
    #expect(policy.succeed(1, at: 5.5) == Answer(wakeAt: 6))
  }

  /// Every reason is displayed ("Preserve StoreKit's default UX for every reason"), unknown
  /// ones included.
  @Test(arguments: Reason.known + [.unknown(rawValue: 12345)])
  func everyReasonIsDisplayed(reason: Reason) {
    var policy = Harness(preset: "openiap")
    policy.startSession(at: 0, on: .onboarding)
    #expect(policy.deliver(message(1, reason), at: 10) == Answer(shown: [1]))
  }
}
