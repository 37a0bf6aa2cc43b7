import MessageDeferral
import MessageDeferralStoreKit
import Simulation

/// What the conformance replay runs: the world, the policies, and one policy's check.
enum Conformance {
  /// The default scenario, made dense in the events that matter: a 36-hour horizon (so a life
  /// is short: 10,000 per policy replay in seconds in a release build), most users
  /// subscribers, a consent campaign from hour 2 with deadlines half a day to 4 days out,
  /// billing and generic messages every 12 hours on average, sessions every 3 hours or so,
  /// every foreground delivering, and displays failing 15% of the time.
  static let world: CompiledScenario = {
    var scenario = ScenarioLoader.embeddedDefault()
    let day = 86_400.0
    scenario.horizon = 1.5 * day
    scenario.population.installWindow = 0...(1.2 * day)
    scenario.population.subscriberShare = 0.8
    scenario.population.returningSubscriberShare = 0.5
    scenario.sessions.gap = .lognormal(median: 3 * 3_600, sigma: 1)
    scenario.sessions.delivery = .everyForeground
    scenario.scene.displayFailureProbability = 0.15
    if var consent = scenario.messages.consent {
      consent.start = 2 * 3_600
      consent.rolloutWindow = 0.8 * day
      consent.audienceShare = 1
      consent.deadline = .uniform(low: 0.5 * day, high: 4 * day)
      scenario.messages.consent = consent
    }
    for index in scenario.messages.recurring.indices {
      scenario.messages.recurring[index].meanInterval = 0.5 * day
    }
    return CompiledScenario(scenario)
  }()

  /// A custom policy with every knob away from its default (where knobs exclude each other,
  /// the one the presets leave least exercised).
  static let everyKnob: PolicyConfiguration = {
    let hour = 3_600.0
    var policy = PolicyConfiguration(
      gate: PolicyConfiguration.gateTable(
        [
          .home: .open, .settings: .open, .launch: .closed, .onboarding: .closed,
          .paywall: .closed, .checkout: .closed, .immersive: .closed,
        ],
        otherwise: .unchanged),
      gateAtLaunch: false,
      gateOverrides: [GateOverride(reason: .billingIssue, kind: .content, allowed: true)],
      triggers: [.delivery, .gateAssignment, .screenAppearance, .checkpoint],
      checkpoints: [Checkpoint(.home), Checkpoint(.settings, reasons: [.billingIssue, .generic])],
      reasonFilter: [.priceIncreaseConsent, .billingIssue, .generic],
      ordering: .urgency, requiresActiveScene: true, sequentialBatch: true,
      refusesConcurrentShow: true, onFailure: .appendToBack, stopsBatchWithoutScene: true,
      removesDisplayed: true, removesEveryCopy: true, clearsAfterCall: false,
      displaysOneAtATime: false, retriesOnSceneActivation: true,
      retryBackoff: Backoff(initial: 1, maximum: 8),
      ceilings: [.priceIncreaseConsent: 6 * hour, .billingIssue: 24 * hour, .generic: 48 * hour],
      ceilingClock: .firstDelivery, forcing: .boundaryFirst(grace: 3 * hour),
      deadlineMargin: 24 * hour, knowsDeadlines: true, deduplicates: true,
      showsUnknownReasons: false, sheetsPerBreak: 1,
      listenerDelay: .lognormal(median: 1, sigma: 0.5))
    var urgent = UrgentConsent(
      nearDeadline: 48 * hour, returnFactor: 1.5, rememberedOpens: 8, minimumOpens: 3)
    urgent.value = ConsentValue.defaults
    policy.urgentConsent = urgent
    return policy
  }()

  /// Every preset, then `every-knob`.
  static let policies: [NamedPolicy] =
    PolicyCatalog.presets.map { NamedPolicy(name: $0.name, configuration: $0.configuration) }
    + [NamedPolicy(name: "every-knob", configuration: everyKnob)]

  /// One policy's result.
  struct Summary: Sendable {
    var policy: String
    var lives = 0
    var deliveries = 0
    var decisions = 0
    var failedDisplays = 0
    var mismatches = 0
    var firstMismatch: String?

    var line: String {
      "\(policy): \(lives) lives, \(deliveries) deliveries, \(decisions) display decisions "
        + "(\(failedDisplays) failed), \(mismatches) mismatches"
        + (firstMismatch.map { "; first: \($0)" } ?? "")
    }
  }

  /// Simulates `lives` users under `policy` and replays each through the controller.
  @MainActor
  static func check(
    _ policy: NamedPolicy, lives: Int, seed: UInt64 = 30, fault: ReplayFault = .none
  ) async -> Summary {
    var summary = Summary(policy: policy.name)
    for life in simulateLives(world, policy: policy.configuration, users: 0..<lives, seed: seed) {
      let expected = engineDecisions(life)
      let actual = await replay(life, policy: policy.configuration, fault: fault)
      summary.lives += 1
      summary.decisions += expected.count
      summary.failedDisplays += expected.filter { $0.outcome != .shown }.count
      summary.deliveries += life.steps.filter { $0.what == .delivered }.count
      if expected != actual {
        summary.mismatches += 1
        if summary.firstMismatch == nil { summary.firstMismatch = describe(life, expected, actual) }
      }
    }
    return summary
  }

  static func describe(
    _ life: SimulatedLife, _ expected: [Decision], _ actual: [Decision]
  )
    -> String
  {
    let index =
      zip(expected, actual).enumerated().first { $0.element.0 != $0.element.1 }?.offset
      ?? min(expected.count, actual.count)
    let engine = index < expected.count ? expected[index].description : "nothing"
    let shipped = index < actual.count ? actual[index].description : "nothing"
    return "user \(life.user), decision \(index): engine \(engine), controller \(shipped)"
  }
}
