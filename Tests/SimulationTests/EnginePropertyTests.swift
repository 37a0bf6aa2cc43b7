import MessageDeferral
import Testing

@testable import Simulation

@Suite("Engine properties")
struct EnginePropertyTests {
  /// A small but complete world: onboarding, paywall, immersive, home, every message process,
  /// terminations, scene delays and failures.
  static var world: Scenario {
    var scenario = Fixtures.base(
      screens: [
        Screen(name: "splash", kind: .launch, dwell: .uniform(low: 1, high: 3), transitions: []),
        Screen(
          name: "onboarding_1", kind: .onboarding, dwell: .lognormal(median: 20, sigma: 0.5),
          transitions: [
            Fixtures.transition(.screen(2), 0.9), Fixtures.transition(.background, 0.1),
          ]),
        Screen(
          name: "onboarding_2", kind: .onboarding, dwell: .exponential(mean: 15),
          transitions: [Fixtures.transition(.screen(3), 1)]),
        Screen(
          name: "paywall", kind: .paywall, dwell: .gamma(shape: 2, scale: 10),
          transitions: [Fixtures.transition(.screen(4), 1)]),
        Screen(
          name: "home", kind: .home, dwell: .weibull(shape: 1.5, scale: 30),
          transitions: [
            Fixtures.transition(.screen(5), 0.3), Fixtures.transition(.screen(6), 0.3),
            Fixtures.transition(.background, 0.4),
          ]),
        Screen(
          name: "video", kind: .immersive, dwell: .exponential(mean: 600),
          transitions: [
            Fixtures.transition(.screen(4), 0.7), Fixtures.transition(.background, 0.3),
          ]),
        Screen(
          name: "settings", kind: .settings,
          dwell: .empirical(values: [5, 10, 30], weights: [1, 2, 1]),
          transitions: [Fixtures.transition(.screen(4), 1)]),
      ],
      entries: Entries(coldLaunch: 0, newUser: 1, returning: 4), horizon: 20 * 86_400,
      gap: .lognormal(median: 8 * 3600, sigma: 1), newUserShare: 0.4,
      policies: PolicyCatalog.presets.map {
        NamedPolicy(name: $0.name, configuration: $0.configuration)
      })
    scenario.population.installWindow = 0...(15 * 86_400)
    scenario.population.subscriberShare = 0.5
    scenario.population.returningSubscriberShare = 0.3
    scenario.sessions.backgroundTerminationProbability = 0.4
    scenario.sessions.fetchDelay = .lognormal(median: 1.5, sigma: 0.5)
    scenario.scene = SceneModel(
      activationDelay: .uniform(low: 0.1, high: 0.6), displayFailureProbability: 0.05)
    scenario.onboarding = Onboarding(
      quitAfterSheetProbability: 0.3, neverReturnAfterLeavingProbability: 0.5)
    scenario.messages = MessageProcesses(
      consent: ConsentCampaign(
        start: 3 * 86_400, rolloutWindow: 2 * 86_400, audienceShare: 0.8,
        deadline: .uniform(low: 7 * 86_400, high: 30 * 86_400), expiry: nil),
      recurring: [
        RecurringMessages(
          reason: .billingIssue, audience: .subscribers, meanInterval: 30 * 86_400,
          expiry: .exponential(mean: 3 * 86_400)),
        RecurringMessages(
          reason: .winBackOffer, audience: .lapsed, meanInterval: 20 * 86_400, expiry: nil),
        RecurringMessages(reason: .generic, audience: .all, meanInterval: 40 * 86_400, expiry: nil),
        RecurringMessages(
          reason: .unknown(rawValue: 7), audience: .all, meanInterval: 60 * 86_400, expiry: nil),
      ])
    return scenario
  }

  static func run(
    _ scenario: Scenario, jobs: Int, users: Int = 600, replications: Int = 3
  ) throws
    -> RunResult
  {
    try Engine.run(
      CompiledScenario(scenario), policies: scenario.policies,
      options: RunOptions(
        users: users, replications: replications, seed: 99, jobs: jobs, blockSize: 64))
  }

  static func fingerprint(_ result: RunResult) -> [String] {
    result.tallies.flatMap { row in
      row.map { tally in
        "\(tally.screenVisits) \(tally.screenInterrupted) \(tally.issued) \(tally.displayed) "
          + "\(tally.expired) \(tally.pending) \(tally.latencySumMilliseconds) "
          + "\(tally.onboardingRunsStarted) \(tally.onboardingRunsInterrupted) "
          + "\(tally.fallbackFired) \(tally.displayAttempts) \(tally.displayFailures) "
          + "\(tally.sheetsInBreaks) \(tally.maxSheetsPerBreak) \(tally.events) "
          + "\((0..<5).map { tally.latency[$0].quantile(0.9) ?? -1 }) "
          + "\((0..<5).map { tally.hold[$0].quantile(0.9) ?? -1 })"
      }
    }
  }

  @Test func resultsDoNotDependOnJobs() throws {
    let one = try Self.fingerprint(Self.run(Self.world, jobs: 1))
    let three = try Self.fingerprint(Self.run(Self.world, jobs: 3))
    #expect(one == three)
  }

  @Test func messagesAreConservedAndIssuedAlike() throws {
    let result = try Self.run(Self.world, jobs: 2)
    for row in result.tallies {
      // Common random numbers: every policy sees the same issued messages.
      for tally in row { #expect(tally.issued == row[0].issued) }
      for tally in row {
        for lane in 0..<5 {
          #expect(
            tally.issued[lane] == tally.displayed[lane] + tally.expired[lane] + tally.pending[lane])
        }
      }
    }
    // Not vacuous, and the world's consent campaign as its closed form says: every subscriber
    // (existing: 0.6 × 0.5; new, a returning subscriber: 0.4 × 0.3; the account predates the
    // campaign for both) is chosen with probability 0.8 and issued within days 3-5, well inside
    // the horizon: binomial(600, 0.42 × 0.8), within z = 4.5 standard deviations.
    let p = (0.6 * 0.5 + 0.4 * 0.3) * 0.8
    let (n, z) = (600.0, 4.5)
    for row in result.tallies {
      let consent = Double(row[0].issued[.priceIncreaseConsent])
      let tolerance = z * (n * p * (1 - p)).squareRoot()
      #expect(abs(consent - n * p) <= tolerance, "consent issued \(consent), expected \(n * p)")
    }
  }

  /// The hold (first delivery → display) is part of the latency (first issuance → display):
  /// one per displayed message, and no quantile of it above the latency's, for every preset.
  @Test func holdIsPartOfTheLatencyForEveryPreset() throws {
    let result = try Self.run(Self.world, jobs: 2)
    var held = 0
    for row in result.tallies {
      for tally in row {
        for lane in 0..<5 {
          #expect(tally.hold[lane].count == tally.displayed[lane])
          for p in [0, 0.5, 0.9, 0.99, 1] {
            guard let hold = tally.hold[lane].quantile(p) else { continue }
            let latency = try #require(tally.latency[lane].quantile(p))
            #expect(hold <= latency, "lane \(lane), p \(p): hold \(hold) > latency \(latency)")
          }
          held += tally.hold[lane].count
        }
      }
    }
    #expect(held > 100, "the world displays messages")
  }

  /// The same policy under two names gives identical metrics (common random numbers).
  @Test func samePolicyUnderTwoNamesIsIdentical() throws {
    var scenario = Self.world
    scenario.policies = [
      Fixtures.policy("screen-gate-ceiling"),
      NamedPolicy(
        name: "twin", configuration: PolicyCatalog.Preset.screenGateCeiling.configuration),
    ]
    let result = try Self.run(scenario, jobs: 2)
    let prints = Self.fingerprint(result)
    for replication in 0..<3 { #expect(prints[2 * replication] == prints[2 * replication + 1]) }
  }

  @Test func neverDisplaysNothingAndLeavesIssuedMinusExpiredPending() throws {
    var scenario = Self.world
    scenario.policies = [Fixtures.policy("never")]
    let result = try Self.run(scenario, jobs: 2)
    for row in result.tallies {
      let tally = row[0]
      #expect(tally.displayed.reduce(0, +) == 0)
      #expect(tally.displayAttempts == 0)
      for lane in 0..<5 { #expect(tally.pending[lane] == tally.issued[lane] - tally.expired[lane]) }
    }
  }

  /// deadline-aware's gate is closed on onboarding screens, which an urgent consent spares
  /// too: a sheet lands on one only when forced past its hard ceiling, so its interrupted runs
  /// are at most its forced sheets; and it interrupts a smaller share of runs than StoreKit's
  /// default, by more than the sampling error (a one-sided two-proportion test at z = 4.5 on
  /// the pooled share).
  @Test func deadlineAwareDoesNotInterruptOnboarding() throws {
    var scenario = Self.world
    scenario.policies = [Fixtures.policy("storekit-auto"), Fixtures.policy("deadline-aware")]
    let result = try Self.run(scenario, jobs: 2, users: 1000)
    var auto = (interrupted: 0, started: 0)
    var ours = (interrupted: 0, started: 0, forced: 0)
    for row in result.tallies {
      auto.interrupted += row[0].onboardingRunsInterrupted
      auto.started += row[0].onboardingRunsStarted
      ours.interrupted += row[1].onboardingRunsInterrupted
      ours.started += row[1].onboardingRunsStarted
      ours.forced += row[1].fallbackFired
      // One sheet per break; only a message forced past its ceiling may add a second.
      #expect(row[1].sheetsInBreaks <= row[1].breaks + row[1].fallbackFired)
    }
    #expect(ours.interrupted <= ours.forced, "deadline-aware \(ours)")
    let pAuto = Double(auto.interrupted) / Double(auto.started)
    let pOurs = Double(ours.interrupted) / Double(ours.started)
    let pooled = Double(auto.interrupted + ours.interrupted) / Double(auto.started + ours.started)
    let standardError =
      (pooled * (1 - pooled) * (1 / Double(auto.started) + 1 / Double(ours.started))).squareRoot()
    #expect(
      pAuto - pOurs > 4.5 * standardError,
      "storekit-auto \(auto) vs deadline-aware \(ours): \(pAuto) - \(pOurs) <= 4.5 × \(standardError)"
    )
  }
}

@Suite("Engine: Little's law")
struct LittlesLawTests {
  /// For every policy: the time-average of the number of messages waiting (integrated from the
  /// event stream: +1 when issued, −1 when displayed or expired) equals the issue rate times
  /// the mean wait (from each message's final record, censored at the horizon), L = λW.
  /// The two sides are computed from different data (the steps as they happen, the outcomes at
  /// the horizon), so a message counted twice or lost in either breaks the equality.
  @Test(arguments: PolicyCatalog.presetNames)
  func averagePendingEqualsRateTimesWait(policy: String) throws {
    let scenario = EnginePropertyTests.world
    let world = CompiledScenario(scenario)
    let configuration = PolicyCatalog.preset(named: policy)!.configuration
    var area = 0.0
    var waits = 0.0
    var issued = 0
    for user in 0..<150 {
      let traced = Engine.trace(world, policy: configuration, seed: 3, replication: 0, user: user)
      var pending = 0
      var last = 0.0
      for step in traced.steps {
        area += Double(pending) * (step.time - last)
        last = step.time
        switch step.what {
        case .issued: pending += 1
        case .displayed, .displayedForced, .expired: pending -= 1
        default: break
        }
        #expect(pending >= 0)
      }
      area += Double(pending) * (scenario.horizon - last)
      for outcome in traced.outcomes {
        issued += 1
        let end: Double
        switch outcome.outcome {
        case .displayed: end = outcome.displayedAt!
        case .expired:
          end = traced.steps.first { $0.what == .expired && $0.message == outcome.message }!.time
        default: end = scenario.horizon
        }
        waits += end - outcome.issuedAt
      }
    }
    let span = scenario.horizon * 150
    let averagePending = area / span
    let rate = Double(issued) / span
    let meanWait = waits / Double(issued)
    #expect(issued > 50)
    #expect(
      abs(averagePending - rate * meanWait) <= 1e-9 * max(1, averagePending),
      "L \(averagePending) vs λW \(rate * meanWait)")
  }
}
