import MessageDeferral
import Testing

@testable import Simulation

/// Who the users are and what the App Store issues them, against exact values: the shares of
/// new, existing, subscriber, lapsed and returning-subscriber users, and each reason's audience
/// and issuance count. Tolerances are z = 4.5 standard deviations of the sample (a false alarm
/// about once in 300,000 runs), the standard deviations derived from the model below.
@Suite("Population and audiences against closed forms")
struct PopulationClosedFormTests {
  static let z = 4.5
  static let users = 20_000
  static let day = 86_400.0
  static let horizon = 30 * day
  /// Mean interval of every recurring process: λ = horizon / meanInterval = 3 per user.
  static let meanInterval = 10 * day

  /// Splash → intro (onboarding, 1 s) → home, where the user stays past the horizon. Consent
  /// to a share of subscribers, issued in the first hour; billing issues to lapsed users,
  /// win-back offers to subscribers, generic messages to all.
  static func world(
    newUserShare: Double, subscriberShare: Double, returningShare: Double
  )
    -> Scenario
  {
    var scenario = Fixtures.base(
      screens: [
        Screen(name: "splash", kind: .launch, dwell: .fixed(0.5), transitions: []),
        Screen(
          name: "intro", kind: .onboarding, dwell: .fixed(1),
          transitions: [Fixtures.transition(.screen(2), 1)]),
        Screen(
          name: "home", kind: .home, dwell: .fixed(1e12),
          transitions: [Fixtures.transition(.background, 1)]),
      ],
      entries: Entries(coldLaunch: 0, newUser: 1, returning: 2), horizon: horizon, gap: .fixed(60),
      newUserShare: newUserShare)
    scenario.population = Population(
      newUserShare: newUserShare, installWindow: (horizon / 4)...(horizon / 2),
      subscriberShare: subscriberShare, returningSubscriberShare: returningShare)
    scenario.messages = MessageProcesses(
      consent: ConsentCampaign(
        start: 0, rolloutWindow: 3600, audienceShare: 0.7, deadline: .fixed(1e9), expiry: nil),
      recurring: [
        RecurringMessages(
          reason: .billingIssue, audience: .lapsed, meanInterval: meanInterval, expiry: nil),
        RecurringMessages(
          reason: .winBackOffer, audience: .subscribers, meanInterval: meanInterval, expiry: nil),
        RecurringMessages(
          reason: .generic, audience: .all, meanInterval: meanInterval, expiry: nil),
      ])
    return scenario
  }

  static func tally(_ scenario: Scenario) throws -> Tally {
    try Engine.run(
      CompiledScenario(scenario), policies: scenario.policies,
      options: RunOptions(users: users, replications: 1, seed: 23, jobs: 2)
    ).tallies[0][0]
  }

  /// A sum over users of Poisson counts whose mean per user is `rate` with probability
  /// `share` and 0 otherwise (given the user's type): its mean and variance.
  static func poissonMixture(share q: Double, rate: Double) -> (mean: Double, variance: Double) {
    let n = Double(users)
    return (n * q * rate, n * (q * rate + q * (1 - q) * rate * rate))
  }

  static func binomial(_ p: Double) -> (mean: Double, variance: Double) {
    (Double(users) * p, Double(users) * p * (1 - p))
  }

  static func expectNear(
    _ observed: Int, _ model: (mean: Double, variance: Double), _ what: String,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let tolerance = z * model.variance.squareRoot()
    #expect(
      abs(Double(observed) - model.mean) <= tolerance,
      "\(what): \(observed), expected \(model.mean) ± \(tolerance)", sourceLocation: sourceLocation)
  }

  /// Existing users only: a share s are subscribers, the rest lapsed, each reason reaches its
  /// audience from the start of the horizon.
  @Test func existingUsersSplitIntoSubscribersAndLapsed() throws {
    let s = 0.3
    let tally = try Self.tally(Self.world(newUserShare: 0, subscriberShare: s, returningShare: 0.9))
    let lambda = Self.horizon / Self.meanInterval
    #expect(tally.users == Self.users)
    #expect(tally.newUsersOnboarding == 0)
    #expect(tally.onboardingRunsStarted == 0)
    #expect(tally.screenVisits == [Self.users, 0, Self.users])
    Self.expectNear(tally.issued[0], Self.binomial(s * 0.7), "consent to 70% of subscribers")
    Self.expectNear(tally.issued[1], Self.poissonMixture(share: 1 - s, rate: lambda), "billing")
    Self.expectNear(tally.issued[2], Self.poissonMixture(share: s, rate: lambda), "win-back")
    Self.expectNear(tally.issued[3], Self.poissonMixture(share: 1, rate: lambda), "generic")
  }

  /// New users only: a share r are returning subscribers, whose App Store account predates the
  /// install (they receive the campaign, issued before they install, and messages from time 0);
  /// the others are not subscribers and not lapsed, and receive messages from their install,
  /// uniform in [H/4, H/2].
  @Test func newUsersAreReturningSubscribersOrBrandNew() throws {
    let r = 0.1
    let tally = try Self.tally(Self.world(newUserShare: 1, subscriberShare: 0.6, returningShare: r))
    let h = Self.horizon
    let m = Self.meanInterval
    #expect(tally.users == Self.users)
    #expect(tally.newUsersOnboarding == Self.users)
    #expect(tally.newUsersCompleted == Self.users)
    #expect(tally.onboardingRunsStarted == Self.users)
    Self.expectNear(tally.issued[0], Self.binomial(r * 0.7), "consent to returning subscribers")
    #expect(tally.issued[1] == 0, "no new user is lapsed")
    Self.expectNear(tally.issued[2], Self.poissonMixture(share: r, rate: h / m), "win-back")
    // Generic: rate H/m for a returning subscriber; (H - U)/m, U uniform in [H/4, H/2], for
    // the others. Mean and variance by total variance: Var = E[μ] + Var(μ).
    let c = h / 2 / m
    let d = 3 * h / 4 / m
    let meanMu = r * h / m + (1 - r) * (c + d) / 2
    let meanMuSquared = r * (h / m) * (h / m) + (1 - r) * (c * c + c * d + d * d) / 3
    let n = Double(Self.users)
    Self.expectNear(
      tally.issued[3], (n * meanMu, n * (meanMu + meanMuSquared - meanMu * meanMu)),
      "generic from install")
  }

  /// A mixed population: the share of new users is the share that onboards, and the consent
  /// audience mixes both kinds of subscriber.
  @Test func newUserShareIsTheShareThatOnboards() throws {
    let nu = 0.4
    let s = 0.5
    let r = 0.2
    let tally = try Self.tally(Self.world(newUserShare: nu, subscriberShare: s, returningShare: r))
    Self.expectNear(tally.newUsersOnboarding, Self.binomial(nu), "new users")
    #expect(tally.onboardingRunsStarted == tally.newUsersOnboarding, "existing users skip it")
    #expect(tally.screenVisits[1] == tally.newUsersOnboarding)
    #expect(tally.newUsersCompleted == tally.newUsersOnboarding)
    Self.expectNear(
      tally.issued[0], Self.binomial(((1 - nu) * s + nu * r) * 0.7), "consent audience")
    Self.expectNear(
      tally.issued[1],
      Self.poissonMixture(share: (1 - nu) * (1 - s), rate: Self.horizon / Self.meanInterval),
      "billing to existing lapsed users")
  }

  /// Arrivals that grow (`install_window.weights` [1, 3] over [H/4, H/2]): an install falls in
  /// the window's second half with probability 3/4, uniform within each half. New users who
  /// are not subscribers receive generic messages from their install at rate (H − T)/m, so
  /// the generic count is a Poisson mixture with E[μ] = (H − E[T])/m and Var(μ) = Var(T)/m²,
  /// T a two-part mixture of uniforms. The plain window's count (E[T] = 3H/8) lies 14
  /// standard deviations away, so reading the weights wrongly fails.
  @Test func weightedInstallWindowShiftsArrivals() throws {
    var scenario = Self.world(newUserShare: 1, subscriberShare: 0.5, returningShare: 0)
    scenario.population.installWeights = [1, 3]
    let tally = try Self.tally(scenario)
    let h = Self.horizon
    let m = Self.meanInterval
    let (a, b) = (h / 4, h / 2)
    let width = (b - a) / 2
    // The two parts: (weight, mean, second moment) of a uniform on each half.
    let parts = [(0.25, a + width / 2), (0.75, a + 1.5 * width)].map { weight, mean in
      (weight, mean, mean * mean + width * width / 12)
    }
    let meanT = parts.reduce(0) { $0 + $1.0 * $1.1 }
    let secondT = parts.reduce(0) { $0 + $1.0 * $1.2 }
    let meanMu = (h - meanT) / m
    let varianceMu = (secondT - meanT * meanT) / (m * m)
    let n = Double(Self.users)
    Self.expectNear(
      tally.issued[3], (n * meanMu, n * (meanMu + varianceMu)), "generic from install")
    // The same users without weights: back to the uniform window's closed form.
    scenario.population.installWeights = []
    let plain = try Self.tally(scenario)
    let plainMu = (h - (a + b) / 2) / m
    let plainVariance = (b - a) * (b - a) / 12 / (m * m)
    Self.expectNear(plain.issued[3], (n * plainMu, n * (plainMu + plainVariance)), "uniform window")
  }

  /// `onboarding_share` o: of the new users a share o onboards (binomial), the others open on
  /// the returning entry from their first launch and start no onboarding run; existing users
  /// are untouched. With 0 no one onboards, and the share 1 draws as the key's absence does
  /// (the same tally, byte for byte).
  @Test func onboardingShareIsTheShareOfNewUsersWhoOnboard() throws {
    let nu = 0.5
    let o = 0.3
    var scenario = Self.world(newUserShare: nu, subscriberShare: 0.5, returningShare: 0.2)
    scenario.population.onboardingShare = o
    let tally = try Self.tally(scenario)
    Self.expectNear(tally.newUsersOnboarding, Self.binomial(nu * o), "new users who onboard")
    #expect(tally.onboardingRunsStarted == tally.newUsersOnboarding)
    #expect(tally.screenVisits[1] == tally.newUsersOnboarding, "only they see the intro")
    #expect(tally.screenVisits[2] == Self.users, "everyone reaches home")
    scenario.population.onboardingShare = 0
    let none = try Self.tally(scenario)
    #expect(none.newUsersOnboarding == 0 && none.screenVisits[1] == 0)
    scenario.population.onboardingShare = 1
    let all = try Self.tally(scenario)
    scenario = Self.world(newUserShare: nu, subscriberShare: 0.5, returningShare: 0.2)
    #expect(all == (try Self.tally(scenario)))
  }
}
