import MessageDeferral
import Testing

/// `deadline-aware-v1`: the first version of this project's own policy. Ceilings: consent and billing 24 h, others
/// 7 d, timed from the first delivery of a reason and persisted; consent also due two days
/// before its deadline; forced at a screen boundary (not onboarding, paywall, checkout) once
/// due, anywhere once due + 6 h; one sheet per break; most urgent first.
@Suite("deadline-aware-v1")
struct DeadlineAwareV1Tests {
  let ceiling = 24 * hour
  let grace = 6 * hour

  func session(on kind: ScreenKind) -> Harness {
    var policy = Harness(preset: "deadline-aware-v1")
    policy.startSession(at: 0, on: kind)
    return policy
  }

  func consent(_ id: MessageID, deadline: Double = 30 * day) -> Message {
    message(id, .priceIncreaseConsent, deadline: deadline)
  }

  @Test func neverOverOnboardingPaywallOrCheckoutBeforeTheHardCeiling() {
    var policy = session(on: .onboarding)
    let hard = 10 + ceiling + grace
    #expect(policy.deliver(consent(1), at: 10) == Answer(wakeAt: hard))
    // Past the soft ceiling, these screens are not boundaries where it may be forced.
    #expect(policy.screen(.paywall, at: 10 + ceiling + 1) == Answer(wakeAt: hard))
    #expect(policy.screen(.checkout, at: 10 + ceiling + 2) == Answer(wakeAt: hard))
    #expect(policy.screen(.onboarding, at: 10 + ceiling + 3) == Answer(wakeAt: hard))
    policy.deactivate(at: 10 + ceiling + 4)
    #expect(policy.activate(at: 10 + ceiling + 5) == Answer(wakeAt: hard))
    #expect(policy.timer(at: hard - 1) == Answer(wakeAt: hard))
    // At ceiling + grace it is still not forced over onboarding (or checkout): the next
    // screen takes it, whatever its kind.
    #expect(policy.timer(at: hard) == Answer())
    #expect(policy.screen(.checkout, at: hard + 1) == Answer())
    #expect(policy.screen(.paywall, at: hard + 2) == Answer(shown: [1], forced: [1]))
  }

  @Test func forcedMidScreenAfterTheHardCeilingOnAnImmersiveScreen() {
    var policy = session(on: .immersive)
    let hard = 10 + ceiling + grace
    #expect(policy.deliver(consent(1), at: 10) == Answer(wakeAt: hard))
    #expect(policy.timer(at: hard) == Answer(shown: [1], forced: [1]))
  }

  @Test(arguments: ScreenKind.allCases)
  func forcedAtTheNextBoundaryAfterTheSoftCeiling(kind: ScreenKind) {
    var policy = session(on: .immersive)
    policy.deliver(consent(1), at: 10)
    #expect(policy.screen(.immersive, at: 10 + ceiling - 1).shown.isEmpty)
    let answer = policy.screen(kind, at: 10 + ceiling)
    // The splash is no boundary either: home follows it within seconds.
    let boundary = ![ScreenKind.onboarding, .paywall, .checkout, .launch].contains(kind)
    #expect(answer.shown == (boundary ? [1] : []))
    #expect(answer.forced == (boundary ? [1] : []))
  }

  @Test func atMostOneSheetPerBreak() {
    var policy = session(on: .onboarding)
    for id in MessageID(1)...4 { policy.deliver(message(id, .generic), at: 10 + Double(id)) }
    #expect(policy.screen(.home, at: 100).shown == [1])
    policy.succeed(1, at: 100)
    // Same break: a new delivery waits.
    #expect(policy.deliver(message(5, .generic), at: 101).shown.isEmpty)
    #expect(policy.screen(.settings, at: 200).shown == [2])
    policy.succeed(2, at: 200)
    // A scene activation is a break too.
    policy.deactivate(at: 300)
    #expect(policy.activate(at: 400).shown == [3])
    policy.succeed(3, at: 400)
    #expect(policy.screen(.content, at: 500).shown == [4])
  }

  /// Most urgent first: the earlier of the ceiling due time and (for consent) the deadline
  /// less the two-day margin.
  @Test func mostUrgentFirst() {
    var policy = session(on: .onboarding)
    policy.deliver(message(1, .generic), at: 10)  // due 10 + 7 d
    policy.deliver(consent(2, deadline: 40 * day), at: 11)  // due 11 + 24 h
    policy.deliver(consent(3, deadline: 12 + 2.5 * day), at: 12)  // due 12 + 12 h
    policy.deliver(message(4, .billingIssue), at: 13)  // due 13 + 24 h
    var order: [MessageID] = []
    for (step, kind) in [ScreenKind.home, .settings, .content, .home].enumerated() {
      let time = 100 + Double(step)
      order += policy.screen(kind, at: time).shown
      if let id = order.last { policy.succeed(id, at: time) }
    }
    #expect(order == [3, 2, 4, 1])
  }

  /// Two consent messages share their reason's ceiling (timed from the first one's delivery);
  /// the closer deadline still goes first. (Found by this test: equal urgency fell back to
  /// arrival order, so a consent due in 5 days waited behind one due in 10.)
  @Test func theCloserDeadlineGoesFirstWhenCeilingsTie() {
    var policy = session(on: .onboarding)
    policy.deliver(message(1, .generic), at: 10)
    policy.deliver(consent(2, deadline: 10 * day), at: 11)
    policy.deliver(consent(3, deadline: 5 * day), at: 12)
    #expect(policy.screen(.home, at: 100).shown == [3])
    policy.succeed(3, at: 100)
    #expect(policy.screen(.settings, at: 200).shown == [2])
    policy.succeed(2, at: 200)
    #expect(policy.screen(.home, at: 300).shown == [1])
  }

  /// The first-delivery time is persisted: a relaunch does not restart the wait (unlike
  /// `screen-gate-ceiling`).
  @Test func thePersistedCeilingSurvivesARelaunch() {
    var policy = session(on: .immersive)
    let hard = 10 + ceiling + grace
    #expect(policy.deliver(consent(1), at: 10) == Answer(wakeAt: hard))
    policy.deactivate(at: 10 * hour)
    policy.terminate(at: 11 * hour)
    #expect(policy.pendingIDs.isEmpty)
    policy.launch(at: 12 * hour)
    policy.screen(.launch, at: 12 * hour)
    #expect(policy.deliver(consent(1), at: 12 * hour + 1) == Answer(wakeAt: hard))
    policy.activate(at: 12 * hour + 2)
    #expect(policy.screen(.immersive, at: 20 * hour).shown.isEmpty)
    #expect(policy.screen(.immersive, at: 10 + ceiling) == Answer(shown: [1], forced: [1]))
  }

  /// The clock of a reason restarts once none of its messages is left (all were shown).
  @Test func aReasonsClockRestartsOnceItsLastMessageIsShown() {
    var policy = session(on: .home)
    #expect(policy.deliver(consent(1), at: 10).shown == [1])
    policy.succeed(1, at: 10)
    policy.screen(.onboarding, at: 20)
    #expect(policy.deliver(consent(2), at: 2 * day) == Answer(wakeAt: 2 * day + ceiling + grace))
  }

  /// ... but not while another message of the reason is still queued.
  @Test func aReasonsClockIsKeptWhileOneOfItsMessagesWaits() {
    var policy = session(on: .onboarding)
    policy.deliver(consent(1), at: 10)
    policy.deliver(consent(2), at: 20 * hour)
    #expect(policy.screen(.home, at: 21 * hour).shown == [1])
    #expect(policy.succeed(1, at: 21 * hour) == Answer(wakeAt: 10 + ceiling + grace))
    policy.screen(.immersive, at: 22 * hour)
    #expect(policy.screen(.immersive, at: 10 + ceiling) == Answer(shown: [2], forced: [2]))
  }

  /// Consent is due two days before its deadline when that comes before the ceiling. One
  /// delivered already past due still gets its grace, from its arrival, to meet a boundary
  /// (it is not forced over the onboarding screen it arrives on).
  @Test func theDeadlineMarginBringsConsentForward() {
    var policy = session(on: .onboarding)
    let deadline = 100 + 1.9 * day
    #expect(deadline - 2 * day < 100, "already past due at delivery")
    #expect(policy.deliver(consent(1, deadline: deadline), at: 100) == Answer(wakeAt: 100 + grace))
    #expect(policy.screen(.paywall, at: 200).shown.isEmpty)
    #expect(policy.screen(.immersive, at: 300) == Answer(shown: [1], forced: [1]))
  }

  /// Two messages past ceiling + grace at once are both forced: the per-break limit holds
  /// back regular and boundary-forced sheets, not overdue ones. (Found by this test: the
  /// second waited, with no timer set, until the next screen change.)
  @Test func everyOverdueMessageIsForcedMidScreen() {
    var policy = session(on: .immersive)
    policy.deliver(consent(1), at: 10)
    policy.deliver(consent(2), at: 20)  // same reason: same clock
    let hard = 10 + ceiling + grace
    #expect(policy.timer(at: hard) == Answer(shown: [1, 2], forced: [1, 2]))
  }

  /// A message overdue after another was forced on the same screen is forced at its own
  /// time. (Found by this test: the earlier forced sheet used up the break.)
  @Test func aLaterOverdueMessageIsForcedOnTheSameScreen() {
    var policy = session(on: .immersive)
    policy.deliver(consent(1), at: 10)
    policy.deliver(message(2, .billingIssue), at: 5 * hour)
    let billingHard = 5 * hour + ceiling + grace
    #expect(
      policy.timer(at: 10 + ceiling + grace) == Answer(shown: [1], forced: [1], wakeAt: billingHard)
    )
    #expect(policy.succeed(1, at: 10 + ceiling + grace) == Answer(wakeAt: billingHard))
    #expect(policy.timer(at: billingHard) == Answer(shown: [2], forced: [2]))
  }

  @Test func aFailureIsRetriedAtTheNextSceneActivation() {
    var policy = session(on: .home)
    #expect(policy.deliver(message(1, .generic), at: 10).shown == [1])
    policy.fail(1, .noActiveScene, at: 10)
    policy.deactivate(at: 11)
    #expect(policy.activate(at: 20).shown == [1])
  }

  @Test func nothingWithoutAnActiveScene() {
    var policy = Harness(preset: "deadline-aware-v1")
    policy.launch(at: 0)
    policy.screen(.home, at: 0.1)
    #expect(policy.deliver(message(1, .generic), at: 0.2).shown.isEmpty)
    #expect(policy.activate(at: 0.5).shown == [1])
  }

  @Test func deduplicatesAndShowsUnknownReasons() {
    var policy = session(on: .onboarding)
    policy.deliver(message(1, .unknown(rawValue: 5)), at: 10)
    policy.deliver(message(1, .unknown(rawValue: 5)), at: 11)
    #expect(policy.pendingIDs == [1])
    // An unknown reason falls back to the generic ceiling.
    #expect(policy.pending(1)?.reason == .unknown(rawValue: 5))
    #expect(policy.screen(.home, at: 20).shown == [1])
  }
}

extension Harness {
  /// The queued message with this id, if any.
  func pending(_ id: MessageID) -> Message? { coordinator.pending.first { $0.id == id } }
}
