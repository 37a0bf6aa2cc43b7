import MessageDeferral
import Testing

/// `deadline-aware-value`: a consent stops waiting once P(no later open before the deadline)
/// × 25 exceeds the cost of a sheet over the current screen (onboarding 1.8, paywall 0.6,
/// checkout 6, immersive 3, the splash and calm screens 0). P is 1 within two days of the
/// deadline, 0.1 with fewer than two opens remembered, else (k + ½) / (m + 1) for k of the
/// m remembered gaps at least as long as the time left.
@Suite("deadline-aware-value")
struct DeadlineAwareValueTests {
  /// A user who opened the app `count` times, every `gap` seconds from time 0, each time on
  /// home for a minute; ends in the background.
  func user(opening count: Int, every gap: Double) -> Harness {
    var policy = Harness(preset: "deadline-aware-value")
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

  /// A fresh install (one open): 0.1 × 25 = 2.5 is worth a sheet over onboarding (1.8), so
  /// the consent is shown there, forced; `deadline-aware` holds it for the next screen.
  @Test func aFreshInstallsOnboardingIsWorthTheRenewal() {
    for (preset, shown) in [("deadline-aware-value", true), ("deadline-aware", false)] {
      var policy = Harness(preset: preset)
      policy.startSession(at: 0, on: .onboarding)
      let answer = policy.deliver(consent(1, deadline: 10 * day), at: 2)
      #expect(answer.shown == (shown ? [1] : []), "\(preset)")
      #expect(answer.forced == (shown ? [1] : []), "\(preset)")
    }
  }

  /// The same fresh install on checkout (6 > 2.5): held, and shown at the next calm screen,
  /// unforced.
  @Test func aFreshInstallsCheckoutIsNot() {
    var policy = Harness(preset: "deadline-aware-value")
    policy.startSession(at: 0, on: .checkout)
    #expect(policy.deliver(consent(1, deadline: 10 * day), at: 2).shown.isEmpty)
    #expect(policy.screen(.home, at: 30) == Answer(shown: [1]))
  }

  /// A user who opens the app every three hours, deadline three weeks away: no remembered
  /// gap is that long, so P = ½ / 8 and waiting costs 1.56: held over a match (3), shown over
  /// a paywall (0.6).
  @Test func aFrequentUserIsHeldOverAMatchButNotAPaywall() {
    var policy = user(opening: 8, every: 3 * hour)
    let now = 8 * 3 * hour
    policy.activate(at: now + 0.5)
    policy.screen(.immersive, at: now + 1)
    #expect(policy.deliver(consent(1, deadline: now + 21 * day), at: now + 2).shown.isEmpty)
    #expect(policy.screen(.paywall, at: now + 600) == Answer(shown: [1], forced: [1]))
  }

  /// One open left: a user who comes every four days, deadline a week away, spends it on a
  /// match. None of the three remembered gaps is a week long, P = ½ / 4 and waiting costs
  /// 3.1 > 3: shown over the match at delivery.
  @Test func aSingleOpenLeftOutweighsAMatch() {
    var policy = user(opening: 3, every: 4 * day)
    let now = 12 * day
    policy.activate(at: now + 0.5)
    policy.screen(.immersive, at: now + 1)
    let answer = policy.deliver(consent(1, deadline: now + 7 * day), at: now + 2)
    #expect(answer == Answer(shown: [1], forced: [1], wakeAt: answer.wakeAt))
  }

  /// The frequent user mid-match with the deadline 2 days and 10 hours away: the timer is set
  /// for the moment the deadline is two days off (P becomes 1, before the 24 h ceiling), and
  /// when it fires the consent is shown over the match.
  @Test func theTimerFiresWhenWaitingStartsToCostMore() {
    var policy = user(opening: 8, every: 3 * hour)
    let now = 8 * 3 * hour
    let deadline = now + 2 * day + 10 * hour
    policy.activate(at: now + 0.5)
    policy.screen(.immersive, at: now + 1)
    let answer = policy.deliver(consent(1, deadline: deadline), at: now + 2)
    #expect(answer == Answer(wakeAt: deadline - 2 * day))
    #expect(policy.timer(at: deadline - 2 * day) == Answer(shown: [1], forced: [1]))
  }

  /// A renewal worth nothing never outweighs anything, not even the free splash: the fresh
  /// install's consent waits over onboarding and the splash, and the calm screen takes it.
  @Test func aRenewalWorthNothingWaitsForACalmScreen() throws {
    let definition = policyObject(
      "free",
      [
        ("preset", .string("deadline-aware-value")),
        ("urgent_consent", .object([.init(key: "value", value: valueObject(renewal: 0))])),
      ])
    let configuration = try PolicyCatalog.definition(from: definition, at: "$").get()
      .configuration
    var policy = Harness(configuration)
    policy.launch(at: 0)
    policy.screen(.launch, at: 0)
    policy.activate(at: 0.5)
    #expect(policy.deliver(consent(1, deadline: 10 * day), at: 1).shown.isEmpty)
    #expect(policy.screen(.onboarding, at: 2).shown.isEmpty)
    #expect(policy.screen(.home, at: 60) == Answer(shown: [1]))
  }

  func valueObject(renewal: Double) -> ConfigValue {
    .object([.init(key: "renewal", value: .number(renewal))])
  }
}
