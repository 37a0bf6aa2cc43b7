import Foundation
import MessageDeferral
import Testing

@testable import Simulation

/// Delivery, display failures, sheets and breaks, expiry and consent deadlines in scripted
/// worlds with a known answer: exact identities where the world fixes them, closed forms with
/// z = 4.5 standard deviations (from the model) where it draws.
@Suite("Delivery, breaks and deadlines against closed forms")
struct DeliveryOracleTests {
  static let z = 4.5
  static let nu = 1.0 / 3600

  static func run(_ scenario: Scenario, users: Int, seed: UInt64 = 41) throws -> Tally {
    try Engine.run(
      CompiledScenario(scenario), policies: scenario.policies,
      options: RunOptions(users: users, replications: 1, seed: seed, jobs: 2)
    ).tallies[0][0]
  }

  static func expectBinomial(
    _ observed: Int, n: Int, p: Double, _ what: String,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let mean = Double(n) * p
    let tolerance = z * (Double(n) * p * (1 - p)).squareRoot()
    #expect(
      abs(Double(observed) - mean) <= tolerance,
      "\(what): \(observed), expected \(mean) ± \(tolerance)",
      sourceLocation: sourceLocation)
  }

  /// storekit-auto keeps a message whose presentation failed and tries again at the next
  /// scene activation (each open, here): attempts per message are geometric, failures
  /// before the first success have mean f / (1 − f), and the latency, a geometric sum of
  /// exponential gaps, is exponential with rate (1 − f)ν.
  @Test func presentationFailuresAreRetriedAtEachOpen() throws {
    let f = 0.3
    var scenario = Fixtures.latencyToNextOpen(nu: Self.nu, window: 86_400)
    scenario.scene.displayFailureProbability = f
    let users = 6_000
    let tally = try Self.run(scenario, users: users)
    #expect(tally.displayed[0] == users, "the horizon leaves 40 opens for each message")
    #expect(tally.displayAttempts == tally.displayed[0] + tally.displayFailures)
    let n = Double(users)
    let failuresMean = n * f / (1 - f)
    let failuresTolerance = Self.z * (n * f / ((1 - f) * (1 - f))).squareRoot()
    #expect(
      abs(Double(tally.displayFailures) - failuresMean) <= failuresTolerance,
      "failures \(tally.displayFailures), expected \(failuresMean) ± \(failuresTolerance)")
    let mean = Double(tally.latencySumMilliseconds[0]) / 1000 / n
    let expected = 1 / ((1 - f) * Self.nu)
    let tolerance = Self.z * expected / n.squareRoot()
    #expect(
      abs(mean - expected) <= tolerance, "latency \(mean), expected \(expected) ± \(tolerance)")
  }

  /// The consent message waits for the next open, Exp(ν), under storekit-auto. With deadline
  /// D = 1/ν and expiry E (resolved outside the app at E unless displayed first): it expires
  /// with probability e^{−νE}; it misses its deadline when displayed after it, or when it
  /// expires after it: probability e^{−νD} when E > D, none when E < D.
  @Test(arguments: [nil, 2.0, 0.5])
  func deadlineMissesAndExpiryFollowTheWait(expiryInDeadlines: Double?) throws {
    let deadline = 1 / Self.nu
    var scenario = Fixtures.latencyToNextOpen(nu: Self.nu, window: 86_400)
    scenario.messages.consent?.deadline = .fixed(deadline)
    scenario.messages.consent?.expiry = expiryInDeadlines.map { .fixed($0 * deadline) }
    let users = 6_000
    let tally = try Self.run(scenario, users: users)
    #expect(tally.issued[0] == users)
    #expect(tally.consentDeadlinesDue == users, "every deadline falls within the horizon")
    #expect(tally.displayed[0] + tally.expired[0] == users)
    #expect(tally.pending[0] == 0)
    let pMiss = exp(-1.0)
    if let e = expiryInDeadlines {
      Self.expectBinomial(tally.expired[0], n: users, p: exp(-e), "expired")
      if e > 1 {
        Self.expectBinomial(tally.consentDeadlineMisses, n: users, p: pMiss, "misses")
      } else {
        #expect(tally.consentDeadlineMisses == 0, "every late message expired before its deadline")
      }
    } else {
      #expect(tally.expired[0] == 0)
      Self.expectBinomial(tally.consentDeadlineMisses, n: users, p: pMiss, "misses")
    }
  }

  /// A deadline past the horizon is not due, so it is neither a miss nor in the denominator.
  @Test func deadlinesPastTheHorizonAreNotDue() throws {
    var scenario = Fixtures.latencyToNextOpen(nu: Self.nu, window: 86_400)
    scenario.messages.consent?.deadline = .fixed(scenario.horizon)
    let tally = try Self.run(scenario, users: 500)
    #expect(tally.issued[0] == 500)
    #expect(tally.consentDeadlinesDue == 0 && tally.consentDeadlineMisses == 0)
  }

  /// Messages issued (Poisson, rate μ/T) before an existing user's first open all arrive at
  /// that launch, straight onto a paywall, and are shown back to back: one break of K sheets
  /// per user with K ≥ 1, one interrupted visit. Existing users are met in steady state, so
  /// with a fixed gap T the first open is uniform on [0, T) (the gap's forward recurrence):
  /// K ~ Poisson(μU) and P(K ≥ 1) = 1 − (1 − e^{−μ})/μ. The visit lasts 1 ms and the next
  /// open comes a whole gap later, past the horizon, so no message arrives during a session.
  @Test func messagesHeldTillLaunchAreShownInOneBreak() throws {
    let t = 1e6
    let mu = 2.0
    var scenario = Fixtures.base(
      screens: [
        Screen(
          name: "plans", kind: .paywall, dwell: .fixed(0.001),
          transitions: [Fixtures.transition(.background, 1)])
      ],
      entries: Entries(coldLaunch: 0, newUser: 0, returning: 0), horizon: t + 0.1, gap: .fixed(t))
    scenario.sheetDwell = .fixed(0.0001)
    scenario.messages.recurring = [
      RecurringMessages(reason: .generic, audience: .all, meanInterval: t / mu, expiry: nil)
    ]
    let users = 400
    let tally = try Self.run(scenario, users: users)
    #expect(tally.screenVisits == [users])
    #expect(tally.displayed[3] == tally.sheets && tally.sheets == tally.sheetsInBreaks)
    #expect(tally.screenInterrupted[0] == tally.breaks, "one interrupted visit per break")
    Self.expectBinomial(
      tally.breaks, n: users, p: 1 - (1 - exp(-mu)) / mu, "users with a message at launch")
    #expect(tally.hold[3].quantile(1) == 0, "shown the moment they are delivered")

    // The longest break is the largest K, each user's K read from a trace of that user alone.
    let world = CompiledScenario(scenario)
    let largest = (0..<users).map { user in
      Engine.trace(
        world, policy: PolicyCatalog.Preset.storeKitAuto.configuration, seed: 41, replication: 0,
        user: user
      ).tally.displayed[3]
    }.max()!
    #expect(largest >= 3)
    #expect(tally.maxSheetsPerBreak == largest)
  }

  /// screen-gate-ceiling keeps consent off an immersive screen until it has waited 12 h since
  /// its arrival in the process, then forces it there: every message is a fallback, held
  /// exactly 12 h; storekit-auto shows it at once and never falls back.
  @Test func aCeilingForcesTheMessageOverTheClosedGate() throws {
    var scenario = Fixtures.base(
      screens: [
        Screen(name: "splash", kind: .launch, dwell: .fixed(1), transitions: []),
        Screen(
          name: "player", kind: .immersive, dwell: .fixed(1e12),
          transitions: [Fixtures.transition(.background, 1)]),
      ],
      entries: Entries(coldLaunch: 0, newUser: 1, returning: 1), horizon: 1e5, gap: .fixed(10),
      policies: [Fixtures.policy("screen-gate-ceiling"), Fixtures.policy("storekit-auto")])
    scenario.messages.consent = ConsentCampaign(
      start: 0, rolloutWindow: 1, audienceShare: 1, deadline: .fixed(1e9), expiry: nil)
    let users = 300
    let row = try Engine.run(
      CompiledScenario(scenario), policies: scenario.policies,
      options: RunOptions(users: users, replications: 1, seed: 5, jobs: 2)
    ).tallies[0]
    let ceiling = row[0]
    #expect(ceiling.displayed[0] == users && ceiling.fallbackFired == users)
    #expect(ceiling.hold[0].quantile(0) == 12 * 3600 && ceiling.hold[0].quantile(1) == 12 * 3600)
    #expect(ceiling.screenInterrupted == [0, users])
    let auto = row[1]
    #expect(auto.displayed[0] == users && auto.fallbackFired == 0)
    #expect(auto.screenInterrupted == [users, 0], "shown on the splash, where it arrives")
  }

  /// adapty-manual calls display at each appearance of home whether or not a scene is active.
  /// Every open is a cold launch whose home appears 0.5 s in; with the scene active after 1 s
  /// every attempt fails for want of a scene (and the message waits forever), with the scene
  /// active after 0.1 s the first attempt shows it. The first open is uniform on [0, 10 s)
  /// (steady state), then one every 15.5 s: 65 home appearances by the horizon when it comes
  /// in the first 7.5 s, else 64, so the attempts are 64 per user plus Binomial(n, 0.75). The listener exists from launch here
  /// (`listener_delay` 0): with Adapty's default delay StoreKit itself would show a message
  /// delivered at launch (ListenerDelayTests covers that).
  @Test(arguments: [(1.0, false), (0.1, true)])
  func aDisplayNeedsAnActiveScene(activation: Double, shows: Bool) throws {
    var adapty = Fixtures.policy("adapty-manual")
    adapty.configuration.listenerDelay = .none
    var scenario = Fixtures.base(
      screens: [
        Screen(name: "splash", kind: .launch, dwell: .fixed(0.5), transitions: []),
        Screen(
          name: "home", kind: .home, dwell: .fixed(5),
          transitions: [Fixtures.transition(.background, 1)]),
      ],
      entries: Entries(coldLaunch: 0, newUser: 1, returning: 1), horizon: 1000, gap: .fixed(10),
      policies: [adapty])
    scenario.sessions.backgroundTerminationProbability = 1
    scenario.scene.activationDelay = .fixed(activation)
    scenario.messages.consent = ConsentCampaign(
      start: 0, rolloutWindow: 1, audienceShare: 1, deadline: .fixed(1e9), expiry: nil)
    let users = 200
    let tally = try Self.run(scenario, users: users)
    #expect(tally.issued[0] == users)
    if shows {
      #expect(tally.displayed[0] == users && tally.displayAttempts == users)
      #expect(tally.displayFailures == 0)
    } else {
      #expect(tally.displayed[0] == 0 && tally.pending[0] == users)
      // One failed attempt per session.
      #expect(tally.displayFailures == tally.displayAttempts)
      #expect(tally.displayAttempts >= 64 * users && tally.displayAttempts <= 65 * users)
      Self.expectBinomial(
        tally.displayAttempts - 64 * users, n: users, p: 0.75, "users with a 65th session")
    }
  }

  /// With every-foreground delivery StoreKit hands a waiting message over again at each
  /// return; screen-gate (no de-duplication) queues every copy and, when home opens its gate,
  /// attempts them all: one display and K no-ops after K returns. The hold still counts from
  /// the first delivery: 1 s of splash, K + 1 player dwells of 100 s and K gaps of G.
  @Test func everyForegroundDeliveryRedeliversAndHoldCountsFromTheFirst() throws {
    let g = 1000.0
    var scenario = Fixtures.base(
      screens: [
        Screen(name: "splash", kind: .launch, dwell: .fixed(1), transitions: []),
        Screen(
          name: "player", kind: .immersive, dwell: .fixed(100),
          transitions: [
            Fixtures.transition(.screen(2), 0.5), Fixtures.transition(.background, 0.5),
          ]
        ),
        Screen(
          name: "home", kind: .home, dwell: .fixed(1e12),
          transitions: [Fixtures.transition(.background, 1)]),
      ],
      entries: Entries(coldLaunch: 0, newUser: 1, returning: 1), horizon: 1e6, gap: .fixed(g),
      policies: [Fixtures.policy("screen-gate")])
    scenario.sessions.delivery = .everyForeground
    scenario.messages.consent = ConsentCampaign(
      start: 0, rolloutWindow: 1, audienceShare: 1, deadline: .fixed(1e9), expiry: nil)
    let users = 4_000
    let tally = try Self.run(scenario, users: users)
    let n = Double(users)
    #expect(tally.displayed[0] == users)
    // K ~ geometric, P(K = k) = 2^−(k+1): mean 1, variance 2.
    let returns = Double(tally.displayAttempts - users)
    #expect(
      abs(returns - n) <= Self.z * (2 * n).squareRoot(), "K summed: \(returns), expected \(n)")
    let hold = try #require(tally.hold[0].mean)
    let expected = 1 + 100 * 2 + g
    let tolerance = Self.z * (100 + g) * 2.0.squareRoot() / n.squareRoot()
    #expect(abs(hold - expected) <= tolerance, "hold \(hold), expected \(expected) ± \(tolerance)")
  }
}
