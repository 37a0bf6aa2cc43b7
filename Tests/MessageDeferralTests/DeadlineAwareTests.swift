import MessageDeferral
import Testing

/// `deadline-aware`: `deadline-aware-v1` (calm screens, one sheet per break, persisted
/// ceilings) plus the urgent-consent rule: a consent becomes urgent at deadline −
/// max(2 d, 3 × the longest gap between the last 8 opens), or at once with fewer than two
/// opens remembered, and is then shown at the first moment that is not onboarding, a paywall
/// or checkout.
@Suite("deadline-aware")
struct DeadlineAwareTests {
  let near = 2 * day
  let factor = 3.0

  /// A user who opened the app `count` times, every `gap` seconds from time 0 (a launch, then
  /// warm resumes), each time on home for a minute; ends in the background.
  func user(opening count: Int, every gap: Double) -> Harness {
    var policy = Harness(preset: "deadline-aware")
    policy.launch(at: 0)
    policy.screen(.launch, at: 0)
    for index in 0..<count {
      let time = Double(index) * gap
      policy.activate(at: time + 0.5)
      policy.screen(.home, at: time + 1)
      policy.deactivate(at: time + 60)
    }
    return policy
  }

  func consent(_ id: MessageID, deadline: Double) -> Message {
    message(id, .priceIncreaseConsent, deadline: deadline)
  }

  /// The issue's case: a user who comes every four days opens the app once more before the
  /// deadline (a week away) and spends it on a match. Shown over the match at delivery;
  /// `deadline-aware-v1` holds it, and the renewal lapses if the next open is too late.
  @Test func aSingleOpenSpentOnAnImmersiveScreenShowsIt() {
    let gap = 4 * day
    let now = 3 * gap
    let deadline = now + 7 * day
    #expect(deadline - now < factor * gap, "urgent by the history")
    for (preset, shown) in [("deadline-aware", true), ("deadline-aware-v1", false)] {
      var policy = user(opening: 3, every: gap)
      if preset == "deadline-aware-v1" {
        policy = Harness(preset: preset)
        policy.launch(at: 0)
      }
      policy.activate(at: now + 0.5)
      policy.screen(.immersive, at: now + 1)
      let answer = policy.deliver(consent(1, deadline: deadline), at: now + 2)
      #expect(answer.shown == (shown ? [1] : []), "\(preset)")
      #expect(answer.forced == (shown ? [1] : []), "\(preset)")
    }
  }

  /// A user who opens the app every three hours, with the deadline three weeks away: held
  /// over the splash, an immersive screen and a paywall; shown on home, unforced. The only
  /// timer is v1's consent ceiling (24 h, then 6 h of grace).
  @Test func aFrequentUserIsHeldForACalmScreen() {
    let gap = 3 * hour
    var policy = user(opening: 8, every: gap)
    let now = 8 * gap
    let deadline = now + 21 * day
    policy.activate(at: now + 0.5)
    policy.screen(.launch, at: now + 1)
    let hard = now + 2 + 30 * hour
    #expect(policy.deliver(consent(1, deadline: deadline), at: now + 2) == Answer(wakeAt: hard))
    #expect(policy.screen(.immersive, at: now + 10).shown.isEmpty)
    #expect(policy.screen(.paywall, at: now + 400).shown.isEmpty)
    #expect(policy.screen(.home, at: now + 450) == Answer(shown: [1]))
  }

  /// Near the deadline the frequent user gets it at the first moment that is not onboarding,
  /// a paywall or checkout: mid-match (or on the splash) when the timer fires; over the spared
  /// kinds only at the next screen of another kind, whatever it is.
  @Test(arguments: [ScreenKind.immersive, .launch, .paywall, .onboarding, .checkout])
  func nearTheDeadlineTheFirstMomentTakesIt(kind: ScreenKind) {
    let gap = 3 * hour
    var policy = user(opening: 8, every: gap)
    let now = 8 * gap
    // Urgent in 12 h, before the 24 h ceiling.
    let deadline = now + 2.5 * day
    let urgentAt = deadline - near
    policy.activate(at: now + 0.5)
    policy.screen(kind, at: now + 1)
    #expect(policy.deliver(consent(1, deadline: deadline), at: now + 2) == Answer(wakeAt: urgentAt))
    let spared = kind == .onboarding || kind == .paywall || kind == .checkout
    let atUrgency = policy.timer(at: urgentAt)
    let hard = now + 2 + 30 * hour
    #expect(atUrgency == (spared ? Answer(wakeAt: hard) : Answer(shown: [1], forced: [1])))
    if spared {
      #expect(policy.screen(kind, at: urgentAt + 30).shown.isEmpty)
      #expect(policy.screen(.immersive, at: urgentAt + 60) == Answer(shown: [1], forced: [1]))
    }
  }

  /// A fresh install (fewer than two opens remembered): nothing says the user comes back, so
  /// the consent goes on the splash it is delivered on; one delivered during onboarding waits
  /// through it and the paywall that follows, and takes the next screen, calm or not.
  @Test func aFreshInstallTakesTheFirstMomentOutsideOnboarding() {
    var onSplash = Harness(preset: "deadline-aware")
    onSplash.launch(at: 0)
    onSplash.screen(.launch, at: 0)
    onSplash.activate(at: 0.5)
    #expect(
      onSplash.deliver(consent(1, deadline: 20 * day), at: 1) == Answer(shown: [1], forced: [1]))

    var inOnboarding = Harness(preset: "deadline-aware")
    inOnboarding.startSession(at: 0, on: .onboarding)
    #expect(inOnboarding.deliver(consent(1, deadline: 20 * day), at: 2).shown.isEmpty)
    #expect(inOnboarding.screen(.onboarding, at: 10).shown.isEmpty)
    #expect(inOnboarding.screen(.paywall, at: 40).shown.isEmpty)
    #expect(inOnboarding.screen(.immersive, at: 60) == Answer(shown: [1], forced: [1]))
  }

  /// With `minimum_opens` 0 the history is trusted from the start: a fresh install's consent
  /// waits for a calm screen like a frequent user's (only the near deadline makes it urgent).
  @Test func withoutAMinimumHistoryAFreshInstallWaits() {
    var configuration = PolicyCatalog.Preset.deadlineAware.configuration
    configuration.urgentConsent?.minimumOpens = 0
    var policy = Harness(configuration)
    policy.launch(at: 0)
    policy.screen(.launch, at: 0)
    policy.activate(at: 0.5)
    let answer = policy.deliver(consent(1, deadline: 2.5 * day), at: 1)
    #expect(answer == Answer(wakeAt: 0.5 * day))
    #expect(policy.screen(.immersive, at: 40).shown.isEmpty)
    #expect(policy.timer(at: 0.5 * day) == Answer(shown: [1], forced: [1]))
  }

  /// The record is the app's own and survives a relaunch: a frequent user relaunching is not
  /// a fresh install. A long absence makes a queued consent urgent at the resume that ends it.
  @Test func theHistorySurvivesARelaunchAndALongAbsenceCounts() {
    let gap = 3 * hour
    var relaunched = user(opening: 8, every: gap)
    relaunched.terminate(at: 8 * gap - 10)
    relaunched.launch(at: 8 * gap)
    relaunched.screen(.launch, at: 8 * gap)
    relaunched.activate(at: 8 * gap + 0.5)
    #expect(relaunched.deliver(consent(1, deadline: 30 * day), at: 8 * gap + 1).shown.isEmpty)

    var away = user(opening: 8, every: gap)
    let now = 8 * gap
    away.activate(at: now)
    away.screen(.immersive, at: now + 1)
    // Urgent two days before the deadline, in a day.
    let answer = away.deliver(consent(1, deadline: now + 3 * day), at: now + 2)
    #expect(answer == Answer(wakeAt: now + day))
    away.deactivate(at: now + 100)
    // Away 20 h: 3 × 20 h is more than the 52 h left. Back on the same match, before the
    // ceiling (24 h) and before the day is up.
    #expect(away.activate(at: now + 20 * hour) == Answer(shown: [1], forced: [1]))
  }

  /// Other reasons keep v1's rules: a billing issue on a match waits for a calm screen even on
  /// a fresh install.
  @Test func otherReasonsAreNeverUrgent() {
    var policy = Harness(preset: "deadline-aware")
    policy.startSession(at: 0, on: .immersive)
    #expect(policy.deliver(message(1, .billingIssue), at: 2).shown.isEmpty)
    #expect(policy.screen(.home, at: 400) == Answer(shown: [1]))
  }

  /// Two urgent consents on one calm screen both go: the per-break limit does not hold back an
  /// urgent one, which is then a fallback (forced).
  @Test func urgentConsentsPassThePerBreakLimit() {
    var policy = Harness(preset: "deadline-aware")
    policy.startSession(at: 0, on: .home)
    #expect(policy.deliver(consent(1, deadline: 20 * day), at: 2) == Answer(shown: [1]))
    #expect(
      policy.deliver(consent(2, deadline: 21 * day), at: 3) == Answer(shown: [2], forced: [2]))
  }
}
