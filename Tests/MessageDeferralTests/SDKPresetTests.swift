import MessageDeferral
import Testing

/// `adapty-manual`: Adapty `storeMessagesHandling: .manual` (sources/004).
@Suite("adapty-manual")
struct AdaptyManualTests {
  /// A session on onboarding with consent 1, generic 2 and billing 3 queued.
  func queuedSession() -> Harness {
    var policy = Harness(preset: "adapty-manual")
    policy.startSession(at: 0, on: .onboarding)
    policy.deliver(message(1, .priceIncreaseConsent), at: 10)
    policy.deliver(message(2, .generic), at: 11)
    policy.deliver(message(3, .billingIssue), at: 12)
    return policy
  }

  @Test func nothingUntilHomeThenOneAtATimeInArrivalOrder() {
    var policy = queuedSession()
    for kind in ScreenKind.allCases where kind != .home {
      #expect(policy.screen(kind, at: 20) == .nothing, "\(kind)")
    }
    #expect(policy.activate(at: 21) == .nothing)
    #expect(policy.timer(at: 22) == .nothing)
    // `showStoreMessages` at home: one display, the next only after its result.
    #expect(policy.screen(.home, at: 30) == Answer(shown: [1]))
    #expect(policy.succeed(1, at: 31) == Answer(shown: [2]))
    #expect(policy.succeed(2, at: 32) == Answer(shown: [3]))
    #expect(policy.succeed(3, at: 33) == .nothing)
    #expect(policy.pendingIDs.isEmpty)
  }

  /// Adapty's `sceneUnavailable` ends the call; the rest stay pending for the next one.
  @Test func noActiveSceneEndsTheBatch() {
    var policy = queuedSession()
    #expect(policy.screen(.home, at: 30) == Answer(shown: [1]))
    #expect(policy.fail(1, .noActiveScene, at: 30) == .nothing)
    #expect(policy.pendingIDs == [1, 2, 3])
    // The batch is over, so the next checkpoint is not refused.
    #expect(policy.screen(.home, at: 40) == Answer(shown: [1]))
    #expect(policy.coordinator.counters.refusedShowCalls == 0)
  }

  /// "conserva el mensaje para la próxima llamada y continúa con los demás mensajes".
  @Test func aPresentationFailureIsKeptAndTheBatchGoesOn() {
    var policy = queuedSession()
    #expect(policy.screen(.home, at: 30) == Answer(shown: [1]))
    #expect(policy.fail(1, .presentationFailed, at: 30) == Answer(shown: [2]))
    #expect(policy.succeed(2, at: 31) == Answer(shown: [3]))
    #expect(policy.succeed(3, at: 32) == .nothing)
    #expect(policy.pendingIDs == [1])
    #expect(policy.screen(.home, at: 40) == Answer(shown: [1]))
  }

  /// `storeMessageShowInProgress`: a call while a batch runs is refused (and counted).
  @Test func aCheckpointWhileABatchRunsIsRefused() {
    var policy = queuedSession()
    #expect(policy.screen(.home, at: 30) == Answer(shown: [1]))
    policy.screen(.content, at: 31)
    #expect(policy.screen(.home, at: 32) == .nothing)
    #expect(policy.coordinator.counters.refusedShowCalls == 1)
    // The running batch carries on where it was.
    #expect(policy.succeed(1, at: 33) == Answer(shown: [2]))
  }

  /// A message delivered while a batch runs is not part of it: it waits for the next call.
  @Test func aMessageDeliveredDuringABatchWaitsForTheNextCall() {
    var policy = queuedSession()
    policy.screen(.home, at: 30)
    #expect(policy.deliver(message(4, .winBackOffer), at: 30.5) == .nothing)
    policy.succeed(1, at: 31)
    policy.succeed(2, at: 32)
    #expect(policy.succeed(3, at: 33) == .nothing)
    #expect(policy.pendingIDs == [4])
    #expect(policy.screen(.home, at: 40) == Answer(shown: [4]))
  }

  @Test func aDuplicateDeliveryIsIgnored() {
    var policy = queuedSession()
    #expect(policy.deliver(message(2, .generic), at: 15) == .nothing)
    #expect(policy.pendingIDs == [1, 2, 3])
    #expect(policy.coordinator.counters.duplicatesIgnored == 1)
  }

  /// The SDK does not look for a scene before displaying: the attempt is made (and the engine
  /// answers `noActiveScene`, which ends the batch).
  @Test func attemptsWithoutAnActiveScene() {
    var policy = Harness(preset: "adapty-manual")
    policy.launch(at: 0)
    policy.deliver(message(1, .generic), at: 0.1)
    #expect(policy.screen(.home, at: 0.2) == Answer(shown: [1]))
  }

  @Test func unknownReasonsAreShownLikeOthers() {
    var policy = Harness(preset: "adapty-manual")
    policy.startSession(at: 0, on: .onboarding)
    policy.deliver(message(1, .unknown(rawValue: 42)), at: 5)
    #expect(policy.screen(.home, at: 10) == Answer(shown: [1]))
  }

  @Test func pendingIsInMemoryOnly() {
    var policy = queuedSession()
    policy.terminate(at: 50)
    #expect(policy.pendingIDs.isEmpty)
    #expect(policy.coordinator.counters.lostWithProcess == 3)
  }
}

/// `revenuecat-manual`: RevenueCat `showStoreMessagesAutomatically: false`, 5.6.0 and later
/// (`Sources/Support/StoreMessagesHelper.swift` at commit df33158600). The SDK's own tests are
/// translated in `RevenueCatHelperTests.swift`.
@Suite("revenuecat-manual")
struct RevenueCatManualTests {
  @Test func unknownReasonsAreNeverShown() {
    var policy = Harness(preset: "revenuecat-manual")
    policy.startSession(at: 0, on: .onboarding)
    policy.deliver(message(1, .unknown(rawValue: 7)), at: 10)
    policy.deliver(message(2, .generic), at: 11)
    #expect(policy.screen(.home, at: 20) == Answer(shown: [2]))
    policy.succeed(2, at: 20)
    #expect(policy.pendingIDs == [1])
    policy.timer(at: 30 * day)
    #expect(!policy.requests.contains { $0.message.id == 1 })
  }

  /// No de-duplication: both copies are displayed in the call; the first success removes
  /// every copy (`removeAll(where: { $0.hashValue == message.hashValue })`).
  @Test func aSuccessRemovesEveryCopy() {
    var policy = Harness(preset: "revenuecat-manual")
    policy.startSession(at: 0, on: .onboarding)
    policy.deliver(message(1, .generic), at: 10)
    policy.deliver(message(1, .generic), at: 11)
    #expect(policy.pendingIDs == [1, 1])
    #expect(policy.coordinator.counters.duplicatesIgnored == 0)
    #expect(policy.screen(.home, at: 20) == Answer(shown: [1, 1]))
    policy.succeed(1, at: 20)
    #expect(policy.pendingIDs.isEmpty)
    policy.succeed(1, at: 20)
    #expect(policy.screen(.home, at: 30) == .nothing)
  }

  /// A failed display stays queued; the others of the same call are still attempted, and a
  /// shown one is not displayed again. Win-back is a `StoreMessageType` from 5.6.0.
  @Test(arguments: [DisplayFailure.presentationFailed, .noActiveScene])
  func aFailedOneStaysQueued(failure: DisplayFailure) {
    var policy = Harness(preset: "revenuecat-manual")
    policy.startSession(at: 0, on: .onboarding)
    policy.deliver(message(1, .generic), at: 10)
    policy.deliver(message(2, .winBackOffer), at: 11)
    #expect(policy.screen(.home, at: 20) == Answer(shown: [1, 2]))
    #expect(policy.fail(1, failure, at: 20) == .nothing)
    #expect(policy.succeed(2, at: 20) == .nothing)
    #expect(policy.activate(at: 25) == .nothing)
    #expect(policy.screen(.home, at: 30) == Answer(shown: [1]))
  }

  @Test func onlyAtHome() {
    var policy = Harness(preset: "revenuecat-manual")
    policy.startSession(at: 0, on: .onboarding)
    policy.deliver(message(1, .generic), at: 10)
    for kind in ScreenKind.allCases where kind != .home {
      #expect(policy.screen(kind, at: 20) == .nothing, "\(kind)")
    }
  }
}

/// `openiap`: react-native-iap / OpenIAP (its display loop is translated in
/// `OpenIAPLoopTests.swift`).
@Suite("openiap")
struct OpenIAPTests {
  @Test func retriesWithBackoffUntilASceneIsActive() {
    var policy = Harness(preset: "openiap")
    policy.launch(at: 0)
    policy.screen(.launch, at: 0)
    // Retries 0.5 s, then 1 s, 2 s, 2 s later: at 0.5, 1.5, 3.5 and 5.5 s.
    #expect(policy.deliver(message(1, .priceIncreaseConsent), at: 0) == Answer(wakeAt: 0.5))
    #expect(policy.timer(at: 0.5) == Answer(wakeAt: 1.5))
    #expect(policy.timer(at: 1.5) == Answer(wakeAt: 3.5))
    #expect(policy.timer(at: 3.5) == Answer(wakeAt: 5.5))
    // The scene becomes active between two retries: the next retry shows it.
    #expect(policy.activate(at: 4) == Answer(wakeAt: 5.5))
    #expect(policy.timer(at: 5.5) == Answer(shown: [1]))
    #expect(policy.succeed(1, at: 5.5) == .nothing)
    #expect(policy.pendingIDs.isEmpty)
  }

  @Test func theBackoffStaysAtTwoSeconds() {
    var policy = Harness(preset: "openiap")
    policy.launch(at: 0)
    var wake = policy.deliver(message(1, .generic), at: 0).wakeAt
    var times: [Double] = []
    while let time = wake, times.count < 7 {
      times.append(time)
      wake = policy.timer(at: time).wakeAt
    }
    #expect(times == [0.5, 1.5, 3.5, 5.5, 7.5, 9.5, 11.5])
  }

  @Test(arguments: [ScreenKind.onboarding, .checkout, .immersive])
  func shownAtOnceOnDeliveryOverAnyScreen(kind: ScreenKind) {
    var policy = Harness(preset: "openiap")
    policy.startSession(at: 0, on: kind)
    #expect(policy.deliver(message(1, .generic), at: 10) == Answer(shown: [1]))
    policy.succeed(1, at: 10)
    #expect(policy.deliver(message(2, .billingIssue), at: 11) == Answer(shown: [2]))
  }

  @Test func aFailureIsRetriedWithBackoff() {
    var policy = Harness(preset: "openiap")
    policy.startSession(at: 0)
    policy.deliver(message(1, .generic), at: 10)
    #expect(policy.fail(1, .presentationFailed, at: 10) == Answer(wakeAt: 10.5))
    #expect(policy.timer(at: 10.5) == Answer(shown: [1]))
    #expect(policy.fail(1, .presentationFailed, at: 10.5) == Answer(wakeAt: 11.5))
    #expect(policy.timer(at: 11.5) == Answer(shown: [1]))
    policy.succeed(1, at: 11.5)
    #expect(policy.pendingIDs.isEmpty)
  }

}

/// `never`: a listener that never displays.
@Suite("never")
struct NeverTests {
  @Test func neverDisplays() {
    var policy = Harness(preset: "never")
    policy.startSession(at: 0, on: .home)
    var answers: [Answer] = []
    answers.append(policy.deliver(message(1, .priceIncreaseConsent, deadline: day), at: 10))
    answers.append(policy.deliver(message(2, .billingIssue), at: 11))
    for kind in ScreenKind.allCases { answers.append(policy.screen(kind, at: 20)) }
    policy.deactivate(at: 30)
    answers.append(policy.activate(at: 40))
    answers.append(policy.timer(at: 60 * day))
    #expect(answers.allSatisfy { $0 == .nothing })
    #expect(policy.pendingIDs == [1, 2])
  }
}
