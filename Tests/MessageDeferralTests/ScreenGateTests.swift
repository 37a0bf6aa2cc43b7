import MessageDeferral
import Testing

/// `screen-gate`: the article's `StoreMessageCoordinator` (sources/000), as written.
@Suite("screen-gate")
struct ScreenGateTests {
  /// Launch, splash, scene active, then an onboarding screen: the gate is closed.
  func closedSession() -> Harness {
    var policy = Harness(preset: "screen-gate")
    policy.startSession(at: 0, on: .onboarding)
    return policy
  }

  @Test func canPresentIsFalseAtLaunch() {
    var policy = Harness(preset: "screen-gate")
    policy.launch(at: 0)
    policy.activate(at: 0.5)
    // No screen has assigned the switch yet: `var canPresent = false`.
    #expect(policy.deliver(message(1, .generic), at: 1) == .nothing)
    #expect(policy.pendingIDs == [1])
  }

  /// `enqueue`: consent and billing `insert(at: 0)` (the newest of them first), others appended.
  @Test func consentAndBillingGoToTheFrontNewestFirst() {
    var policy = closedSession()
    let arrivals: [Message] = [
      message(1, .priceIncreaseConsent), message(2, .generic), message(3, .priceIncreaseConsent),
      message(4, .billingIssue), message(5, .winBackOffer), message(6, .unknown(rawValue: 9)),
    ]
    for (offset, arrival) in arrivals.enumerated() {
      #expect(policy.deliver(arrival, at: 10 + Double(offset)) == .nothing)
    }
    #expect(policy.pendingIDs == [4, 3, 1, 2, 5, 6])
    // Home assigns `canPresent = true`: the flush shows everything, in that order.
    #expect(policy.screen(.home, at: 30) == Answer(shown: [4, 3, 1, 2, 5, 6]))
  }

  @Test(arguments: ScreenKind.allCases)
  func theArticlesTable(kind: ScreenKind) {
    // Does an appearance of `kind` show what is queued, starting from a closed gate?
    var fromClosed = closedSession()
    fromClosed.deliver(message(1, .generic), at: 10)
    let opens = kind == .home || kind == .settings
    #expect(fromClosed.screen(kind, at: 20) == (opens ? Answer(shown: [1]) : .nothing))

    // And starting from an open gate (home), does it let a new delivery through?
    var fromOpen = closedSession()
    fromOpen.screen(.home, at: 5)
    fromOpen.screen(kind, at: 10)
    let leavesOpen = opens || kind == .content
    #expect(
      fromOpen.deliver(message(2, .generic), at: 20) == (leavesOpen ? Answer(shown: [2]) : .nothing)
    )
  }

  /// `content` does not assign `canPresent`, so its appearance flushes nothing, even with
  /// messages queued behind an open gate (here: one whose display failed).
  @Test func contentLeavesTheGateAsItWasWithoutAFlush() {
    var policy = closedSession()
    policy.screen(.home, at: 5)
    #expect(policy.deliver(message(1, .generic), at: 6) == Answer(shown: [1]))
    policy.fail(1, at: 6)
    #expect(policy.screen(.content, at: 7) == .nothing)
    #expect(policy.pendingIDs == [1])
    // `settings` assigns true (a `didSet`, even if it was already true): a flush.
    #expect(policy.screen(.settings, at: 8) == Answer(shown: [1]))
    // `content` after a closed screen keeps it closed.
    policy.succeed(1, at: 8)
    policy.screen(.immersive, at: 9)
    policy.screen(.content, at: 10)
    #expect(policy.deliver(message(2, .generic), at: 11) == .nothing)
  }

  @Test func homeFlushesEverythingPendingInOrder() {
    var policy = closedSession()
    for id in MessageID(1)...5 { policy.deliver(message(id, .generic), at: 10 + Double(id)) }
    #expect(policy.screen(.home, at: 30) == Answer(shown: [1, 2, 3, 4, 5]))
    for id in MessageID(1)...5 { #expect(policy.succeed(id, at: 30) == .nothing) }
    #expect(policy.pendingIDs.isEmpty)
  }

  /// The article's `catch { pending.append(message) }`: a failed message goes to the back of
  /// what is left at that moment. Later generic messages then queue behind it, later consent
  /// and billing in front of it.
  @Test func aFailedDisplayGoesToTheBack() {
    var policy = closedSession()
    for id in MessageID(1)...3 { policy.deliver(message(id, .generic), at: 10) }
    #expect(policy.screen(.home, at: 20) == Answer(shown: [1, 2, 3]))
    policy.fail(1, at: 20)
    policy.succeed(2, at: 20)
    policy.fail(3, at: 20)
    // The article: next = [1, 2, 3]; 1 fails → [1]; 2 shown; 3 fails → [1, 3].
    #expect(policy.pendingIDs == [1, 3])
    policy.screen(.onboarding, at: 30)
    policy.deliver(message(4, .generic), at: 31)
    policy.deliver(message(5, .priceIncreaseConsent), at: 32)
    #expect(policy.pendingIDs == [5, 1, 3, 4])
    #expect(policy.screen(.settings, at: 40) == Answer(shown: [5, 1, 3, 4]))
  }

  /// Two messages failing in one flush come back in the order they failed.
  @Test func failuresKeepTheirRelativeOrder() {
    var policy = closedSession()
    policy.deliver(message(1, .generic), at: 10)
    policy.deliver(message(2, .billingIssue), at: 11)
    #expect(policy.screen(.home, at: 20) == Answer(shown: [2, 1]))
    policy.fail(2, at: 20)
    policy.fail(1, at: 20)
    #expect(policy.pendingIDs == [2, 1])
  }

  /// A failure is not retried when the scene becomes active again (no such trigger in the
  /// article): it waits for the next enqueue or the next assignment of `canPresent`.
  @Test func noRetryWhenTheSceneLaterBecomesActive() {
    var policy = closedSession()
    policy.screen(.home, at: 5)
    policy.deliver(message(1, .generic), at: 6)
    policy.fail(1, .noActiveScene, at: 6)
    policy.deactivate(at: 7)
    #expect(policy.activate(at: 60) == .nothing)
    #expect(policy.pendingIDs == [1])
    // The next enqueue flushes it (and the new one).
    #expect(policy.deliver(message(2, .generic), at: 70) == Answer(shown: [1, 2]))
  }

  /// `guard canPresent, let scene = Self.activeScene() else { return }`.
  @Test func noFlushWithoutAnActiveScene() {
    var policy = Harness(preset: "screen-gate")
    policy.launch(at: 0)
    policy.screen(.home, at: 0.1)  // open, but the scene is not active yet
    #expect(policy.deliver(message(1, .generic), at: 0.2) == .nothing)
    #expect(policy.activate(at: 0.5) == .nothing)
    #expect(policy.screen(.content, at: 1) == .nothing)
    #expect(policy.screen(.settings, at: 2) == Answer(shown: [1]))
  }

  @Test func pendingIsLostWithTheProcessAndTheGateStartsClosedAgain() {
    var policy = closedSession()
    policy.deliver(message(1, .priceIncreaseConsent), at: 10)
    policy.deliver(message(2, .generic), at: 11)
    policy.screen(.home, at: 12)
    policy.fail(1, at: 12)
    policy.succeed(2, at: 12)
    policy.deactivate(at: 20)
    policy.terminate(at: 30)
    #expect(policy.pendingIDs.isEmpty)
    #expect(policy.coordinator.counters.lostWithProcess == 1)
    // Relaunch: StoreKit delivers it again; the gate is closed until home or settings.
    policy.launch(at: 100)
    policy.activate(at: 100.5)
    #expect(policy.deliver(message(1, .priceIncreaseConsent), at: 101) == .nothing)
    #expect(policy.screen(.home, at: 110) == Answer(shown: [1]))
  }

  /// The article's array has no de-duplication: the same message delivered twice is queued
  /// twice and displayed twice in one flush. (A documented quirk; what StoreKit does with the
  /// second display of a message is the engine's call.)
  @Test func noDeduplication() {
    var policy = closedSession()
    policy.deliver(message(1, .generic), at: 10)
    policy.deliver(message(1, .generic), at: 11)
    #expect(policy.pendingIDs == [1, 1])
    #expect(policy.screen(.home, at: 20) == Answer(shown: [1, 1]))
    policy.succeed(1, at: 20)
    policy.succeed(1, at: 20)
    #expect(policy.pendingIDs.isEmpty)
  }

  @Test func noCeilingsSoNoTimers() {
    var policy = closedSession()
    #expect(policy.deliver(message(1, .priceIncreaseConsent), at: 10).wakeAt == nil)
    #expect(policy.timer(at: 30 * day) == .nothing)
  }
}

/// `screen-gate-ceiling`: the same plus a 12 h consent ceiling timed from in-process arrival.
@Suite("screen-gate-ceiling")
struct ScreenGateCeilingTests {
  @Test func consentIsForcedAfterExactly12HoursOnAnImmersiveScreen() {
    var policy = Harness(preset: "screen-gate-ceiling")
    policy.startSession(at: 0, on: .immersive)
    let arrival = 100.0
    #expect(
      policy.deliver(message(1, .priceIncreaseConsent), at: arrival)
        == Answer(wakeAt: arrival + 12 * hour))
    // A generic message has no ceiling: the wake-up stays the consent's.
    #expect(policy.deliver(message(2, .generic), at: 200) == Answer(wakeAt: arrival + 12 * hour))
    // Early, nothing is forced (a stray timer, a content screen).
    #expect(policy.timer(at: arrival + 12 * hour - 1) == Answer(wakeAt: arrival + 12 * hour))
    #expect(
      policy.screen(.content, at: arrival + 12 * hour - 1) == Answer(wakeAt: arrival + 12 * hour))
    // At the ceiling: consent only, forced, over the immersive screen.
    #expect(policy.timer(at: arrival + 12 * hour) == Answer(shown: [1], forced: [1]))
    policy.succeed(1, at: arrival + 12 * hour)
    #expect(policy.pendingIDs == [2])
    #expect(policy.requests.map(\.forced) == [true])
  }

  @Test func theCeilingRestartsAfterARelaunch() {
    var policy = Harness(preset: "screen-gate-ceiling")
    policy.startSession(at: 0, on: .immersive)
    #expect(
      policy.deliver(message(1, .priceIncreaseConsent), at: 100) == Answer(wakeAt: 100 + 12 * hour))
    policy.deactivate(at: 6 * hour)
    #expect(policy.terminate(at: 8 * hour) == .nothing)  // no timer for a dead process
    let relaunch = 10 * hour
    policy.launch(at: relaunch)
    policy.screen(.launch, at: relaunch)
    let redelivery = relaunch + 2
    // `since: Date()` is taken again: the 12 h start over from the redelivery.
    #expect(
      policy.deliver(message(1, .priceIncreaseConsent), at: redelivery)
        == Answer(wakeAt: redelivery + 12 * hour))
    policy.activate(at: redelivery + 1)
    policy.screen(.immersive, at: redelivery + 5)
    #expect(policy.timer(at: 100 + 12 * hour) == Answer(wakeAt: redelivery + 12 * hour))
    #expect(policy.timer(at: redelivery + 12 * hour) == Answer(shown: [1], forced: [1]))
  }

  /// Due while the app is in the background: shown forced at the next scene activation
  /// ("on the next frame"), although the plain screen-gate never flushes on activation.
  @Test func dueWithoutASceneIsForcedAtTheNextActivation() {
    var policy = Harness(preset: "screen-gate-ceiling")
    policy.startSession(at: 0, on: .onboarding)
    policy.deliver(message(1, .priceIncreaseConsent), at: 10)
    policy.deactivate(at: 20)
    #expect(policy.timer(at: 10 + 12 * hour) == .nothing)
    #expect(policy.activate(at: 13 * hour) == Answer(shown: [1], forced: [1]))
  }

  @Test func beforeTheCeilingItBehavesLikeScreenGate() {
    var policy = Harness(preset: "screen-gate-ceiling")
    policy.startSession(at: 0, on: .onboarding)
    policy.deliver(message(1, .priceIncreaseConsent), at: 10)
    policy.deliver(message(2, .billingIssue), at: 11)
    #expect(policy.screen(.home, at: 20) == Answer(shown: [2, 1]))
  }
}
