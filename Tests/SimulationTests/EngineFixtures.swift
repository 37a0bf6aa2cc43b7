import MessageDeferral
import Simulation
import Testing

/// Small hand-built scenarios for engine tests, each shaped so a closed form applies.
enum Fixtures {
  static func policy(_ name: String) -> NamedPolicy {
    NamedPolicy(name: name, configuration: PolicyCatalog.preset(named: name)!.configuration)
  }

  /// A scenario with the given screens (index 0 must be the splash) and everything else
  /// neutral: no scene delay, no failures, no fetch delay, no termination, no messages.
  static func base(
    screens: [Screen], entries: Entries, horizon: Double, gap: DistributionSpec,
    newUserShare: Double = 0, policies: [NamedPolicy] = [policy("storekit-auto")]
  ) -> Scenario {
    Scenario(
      name: "fixture", description: "test fixture", horizon: horizon,
      population: Population(
        newUserShare: newUserShare, installWindow: 0...0, subscriberShare: 1,
        returningSubscriberShare: 0),
      sessions: Sessions(
        gap: gap, backgroundTerminationProbability: 0, delivery: .launchAndResume,
        fetchDelay: .fixed(0)),
      screens: screens, entries: entries,
      onboarding: Onboarding(quitAfterSheetProbability: 0, neverReturnAfterLeavingProbability: 0),
      scene: SceneModel(activationDelay: .fixed(0), displayFailureProbability: 0),
      sheetDwell: .fixed(1), messages: MessageProcesses(consent: nil, recurring: []),
      policies: policies, baseline: policies[0].name, replications: 2, users: 1000, seed: 7)
  }

  /// Each user's visit shares of screens 1 ... (the splash left out) over one traced life
  /// under storekit-auto, and the mean visits per user. The users' shares are independent
  /// samples: ``shareMean(_:_:)`` gives a mean and its standard error.
  static func visitShares(
    _ compiled: CompiledScenario, users: Int, seed: UInt64
  ) -> (shares: [[Double]], meanVisits: Double) {
    var shares: [[Double]] = []
    var totalVisits = 0
    for user in 0..<users {
      let tally = Engine.trace(
        compiled, policy: PolicyCatalog.Preset.storeKitAuto.configuration, seed: seed,
        replication: 0,
        user: user
      ).tally
      let visits = Array(tally.screenVisits[1...])
      let total = visits.reduce(0, +)
      totalVisits += total
      shares.append(visits.map { Double($0) / Double(total) })
    }
    return (shares, Double(totalVisits) / Double(users))
  }

  /// The mean over users of screen `j`'s share (``visitShares(_:users:seed:)``, index `j`)
  /// and its standard error.
  static func shareMean(_ shares: [[Double]], _ j: Int) -> (mean: Double, error: Double) {
    let values = shares.map { $0[j] }
    let count = Double(values.count)
    let mean = values.reduce(0, +) / count
    let variance = values.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / (count - 1)
    return (mean, (variance / count).squareRoot())
  }

  /// Expects `a` and `b` to give every user the same life under storekit-auto: the same
  /// visits and screen time, user for user (a key that changes nothing draws nothing new).
  static func expectSameLives(
    _ a: Scenario, _ b: Scenario, users: Int, seed: UInt64,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let (first, second) = (CompiledScenario(a), CompiledScenario(b))
    for user in 0..<users {
      let x = Engine.trace(
        first, policy: PolicyCatalog.Preset.storeKitAuto.configuration, seed: seed, replication: 0,
        user: user
      ).tally
      let y = Engine.trace(
        second, policy: PolicyCatalog.Preset.storeKitAuto.configuration, seed: seed, replication: 0,
        user: user
      ).tally
      #expect(x.screenVisits == y.screenVisits, "user \(user)", sourceLocation: sourceLocation)
      #expect(
        x.screenMilliseconds == y.screenMilliseconds, "user \(user)",
        sourceLocation: sourceLocation)
    }
  }

  static func transition(_ target: ScreenTarget, _ p: Double) -> Screen.Transition {
    Screen.Transition(target: target, probability: p)
  }

  /// Splash → one onboarding screen (exponential dwell, mean 1/μ) → home → background.
  /// Generic messages to everyone at rate λ. New users only.
  static func onboardingRace(lambda: Double, mu: Double) -> Scenario {
    var scenario = base(
      screens: [
        Screen(name: "splash", kind: .launch, dwell: .fixed(0), transitions: []),
        Screen(
          name: "welcome", kind: .onboarding, dwell: .exponential(mean: 1 / mu),
          transitions: [transition(.screen(2), 1)]),
        Screen(
          name: "home", kind: .home, dwell: .fixed(1), transitions: [transition(.background, 1)]),
      ],
      entries: Entries(coldLaunch: 0, newUser: 1, returning: 2), horizon: 5 / mu,
      gap: .fixed(1e9), newUserShare: 1)
    scenario.messages.recurring = [
      RecurringMessages(reason: .generic, audience: .all, meanInterval: 1 / lambda, expiry: nil)
    ]
    return scenario
  }

  /// Existing subscribers whose app opens form a Poisson process of rate ν (exponential gaps,
  /// near-zero sessions); one consent message each, issued uniformly in a window.
  static func latencyToNextOpen(nu: Double, window: Double) -> Scenario {
    var scenario = base(
      screens: [
        Screen(name: "splash", kind: .launch, dwell: .fixed(0.001), transitions: []),
        Screen(
          name: "home", kind: .home, dwell: .fixed(0.001),
          transitions: [transition(.background, 1)]),
      ],
      entries: Entries(coldLaunch: 0, newUser: 1, returning: 1), horizon: window + 40 / nu,
      gap: .exponential(mean: 1 / nu))
    scenario.messages.consent = ConsentCampaign(
      start: 0, rolloutWindow: window, audienceShare: 1, deadline: .fixed(1e9), expiry: nil)
    return scenario
  }
}
