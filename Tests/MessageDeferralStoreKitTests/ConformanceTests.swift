import MessageDeferral
import MessageDeferralStoreKit
import Testing

@testable import Simulation

/// "The simulated policy is the shipped policy": simulated lives, replayed through the shipped
/// controller on the shim (scripted clock, scenes, StoreKit deliveries and display failures),
/// give the very same display decisions at the very same times as the engine made.
@Suite("Conformance: simulated lives replayed through the shipped controller")
struct ConformanceTests {
  /// Lives per policy. 10,000 per preset is the issue's bar.
  static let livesPerPolicy = Int(ProcessInfoShim.environment("CONFORMANCE_LIVES") ?? "") ?? 10_000

  /// The default scenario, made dense in the events that matter: a 4-day horizon (so a life is
  /// short), most users subscribers with a consent campaign from day 1 and frequent billing
  /// and generic messages, every foreground delivering, and displays failing 15% of the time.
  static let world: CompiledScenario = {
    var scenario = ScenarioLoader.embeddedDefault()
    let day = 86_400.0
    scenario.horizon = 4 * day
    scenario.population.installWindow = 0...(3 * day)
    scenario.population.subscriberShare = 0.8
    scenario.population.returningSubscriberShare = 0.5
    scenario.sessions.delivery = .everyForeground
    scenario.scene.displayFailureProbability = 0.15
    if var consent = scenario.messages.consent {
      consent.start = 0.5 * day
      consent.rolloutWindow = 1.5 * day
      consent.audienceShare = 1
      scenario.messages.consent = consent
    }
    for index in scenario.messages.recurring.indices {
      scenario.messages.recurring[index].meanInterval = 2 * day
    }
    return CompiledScenario(scenario)
  }()

  /// A custom policy with every knob away from its default (where knobs exclude each other,
  /// the one the presets leave least exercised).
  static let everyKnob: PolicyConfiguration = {
    let hour = 3_600.0
    var policy = PolicyConfiguration(
      gate: PolicyConfiguration.gateTable(
        [.home: .open, .settings: .open, .launch: .closed, .onboarding: .closed, .paywall: .closed,
         .checkout: .closed, .immersive: .closed],
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

  static let policies: [NamedPolicy] =
    PolicyCatalog.presets.map { NamedPolicy(name: $0.name, configuration: $0.configuration) }
    + [NamedPolicy(name: "every-knob", configuration: everyKnob)]

  @Test("every display decision and its time match", arguments: policies.map(\.name))
  @MainActor
  func replayMatches(policyName: String) async {
    let policy = Self.policies.first { $0.name == policyName }!.configuration
    let started = ContinuousClock.now
    let lives = simulateLives(
      Self.world, policy: policy, users: 0..<Self.livesPerPolicy, seed: 30)
    let simulated = ContinuousClock.now
    var mismatches = 0
    var deliveries = 0
    var decisions = 0
    var failures = 0
    var firstMismatch: String?
    for life in lives {
      let expected = engineDecisions(life)
      let actual = await replay(life, policy: policy)
      decisions += expected.count
      deliveries += life.steps.filter { $0.what == .delivered }.count
      failures += expected.filter { $0.outcome != .shown }.count
      if expected != actual {
        mismatches += 1
        if firstMismatch == nil { firstMismatch = describe(life, expected, actual) }
      }
    }
    #expect(lives.count == Self.livesPerPolicy)
    #expect(mismatches == 0, "\(policyName): \(mismatches) lives differ; first: \(firstMismatch ?? "")")
    // The replay compared something: deliveries to replay, and (but for `never`) decisions.
    #expect(deliveries > lives.count / 10, "\(policyName): only \(deliveries) deliveries")
    #expect(policyName == "never" || decisions > lives.count / 10)
    print(
      "conformance \(policyName): \(lives.count) lives, \(deliveries) deliveries, \(decisions) "
        + "display decisions (\(failures) failed), \(mismatches) mismatches "
        + "[\(simulated - started) simulate, \(ContinuousClock.now - simulated) replay]")
  }

  func describe(_ life: SimulatedLife, _ expected: [Decision], _ actual: [Decision]) -> String {
    let index =
      zip(expected, actual).enumerated().first { $0.element.0 != $0.element.1 }?.offset
      ?? min(expected.count, actual.count)
    let engine = index < expected.count ? expected[index].description : "nothing"
    let shipped = index < actual.count ? actual[index].description : "nothing"
    return "user \(life.user), decision \(index): engine \(engine), controller \(shipped)"
  }
}

#if canImport(Glibc)
  import Glibc
#else
  import Darwin
#endif

/// The environment without Foundation (a smaller replay count while working on the controller).
enum ProcessInfoShim {
  static func environment(_ name: String) -> String? { getenv(name).map { String(cString: $0) } }
}

/// Prints one life's trace and both decision lists: `CONFORMANCE_DEBUG=policy:user`.
@Test("conformance debug print", .enabled(if: ProcessInfoShim.environment("CONFORMANCE_DEBUG") != nil))
@MainActor
func conformanceDebug() async {
  let parts = ProcessInfoShim.environment("CONFORMANCE_DEBUG")!.split(separator: ":")
  let policy = ConformanceTests.policies.first { $0.name == parts[0] }!.configuration
  let user = Int(parts[1])!
  let life = simulateLives(ConformanceTests.world, policy: policy, users: user..<user + 1, seed: 30)[0]
  for step in life.steps {
    print(step.time, step.screen, step.what, step.message, step.decision.map { "\($0)" } ?? "")
  }
  print("engine:", engineDecisions(life).map(\.description).joined(separator: "\n  "))
  print("controller:", (await replay(life, policy: policy)).map(\.description).joined(separator: "\n  "))
}
