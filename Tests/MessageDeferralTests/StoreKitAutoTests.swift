import MessageDeferral
import Testing

/// `storekit-auto`: StoreKit's default, no listener.
@Suite("storekit-auto")
struct StoreKitAutoTests {
  @Test(arguments: [ScreenKind.onboarding, .immersive, .checkout, .launch])
  func shownOnDeliveryOverAnyScreenWhenTheSceneIsActive(kind: ScreenKind) {
    var policy = Harness(preset: "storekit-auto")
    policy.startSession(at: 0, on: kind)
    #expect(policy.deliver(message(1, .priceIncreaseConsent), at: 10) == Answer(shown: [1]))
    #expect(policy.succeed(1, at: 10) == .nothing)
    #expect(policy.pendingIDs.isEmpty)
    #expect(policy.deliver(message(2, .generic), at: 20) == Answer(shown: [2]))
  }

  @Test func deliveredBeforeTheSceneIsActiveIsShownAtActivation() {
    var policy = Harness(preset: "storekit-auto")
    policy.launch(at: 0)
    policy.screen(.launch, at: 0)
    #expect(policy.deliver(message(1, .billingIssue), at: 0.2) == .nothing)
    #expect(policy.deliver(message(2, .generic), at: 0.3) == .nothing)
    #expect(policy.pendingIDs == [1, 2])
    #expect(policy.activate(at: 0.5) == Answer(shown: [1, 2]))
  }

  @Test(arguments: [DisplayFailure.presentationFailed, .noActiveScene])
  func aFailureIsKeptAndRetriedAtTheNextActivation(failure: DisplayFailure) {
    var policy = Harness(preset: "storekit-auto")
    policy.startSession(at: 0, on: .home)
    #expect(policy.deliver(message(1, .generic), at: 5) == Answer(shown: [1]))
    #expect(policy.fail(1, failure, at: 5) == .nothing)
    #expect(policy.pendingIDs == [1])
    // Nothing retries it while the scene stays active on screen changes...
    #expect(policy.screen(.settings, at: 6) == .nothing)
    policy.deactivate(at: 7)
    // ...the next activation does.
    #expect(policy.activate(at: 100) == Answer(shown: [1]))
    policy.succeed(1, at: 100)
    #expect(policy.pendingIDs.isEmpty)
  }

  /// Documented consequence of "shown as soon as delivered": a later delivery attempts every
  /// queued message, the failed one included, in arrival order.
  @Test func aLaterDeliveryAlsoRetriesAFailedOne() {
    var policy = Harness(preset: "storekit-auto")
    policy.startSession(at: 0)
    policy.deliver(message(1, .generic), at: 5)
    policy.fail(1, at: 5)
    #expect(policy.deliver(message(2, .winBackOffer), at: 9) == Answer(shown: [1, 2]))
  }

  @Test func deduplicatesAQueuedMessage() {
    var policy = Harness(preset: "storekit-auto")
    policy.launch(at: 0)
    policy.deliver(message(1, .generic), at: 0.1)
    policy.deliver(message(1, .generic), at: 0.2)
    #expect(policy.pendingIDs == [1])
    #expect(policy.coordinator.counters.duplicatesIgnored == 1)
    #expect(policy.activate(at: 0.5) == Answer(shown: [1]))
  }

  @Test func queuedMessagesAreLostWithTheProcess() {
    var policy = Harness(preset: "storekit-auto")
    policy.launch(at: 0)
    policy.deliver(message(1, .generic), at: 0.1)
    policy.terminate(at: 50)
    #expect(policy.pendingIDs.isEmpty)
    #expect(policy.coordinator.counters.lostWithProcess == 1)
    // Redelivered at the next launch, it is shown once a scene is active.
    policy.launch(at: 100)
    policy.deliver(message(1, .generic), at: 100.2)
    #expect(policy.activate(at: 100.5) == Answer(shown: [1]))
  }
}
