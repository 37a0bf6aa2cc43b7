import MessageDeferral
import Simulation
import Testing

/// A listener that attaches late (``PolicyConfiguration/listenerDelay``): what StoreKit
/// delivers before it exists is StoreKit's to show, as `storekit-auto` shows it.
///
/// Also the engine half of Adapty's "Missing manager makes presentation a no-op" and
/// "Missing manager returns empty snapshot" (adaptyteam/AdaptySDK-iOS
/// `Tests/Adapty/StoreKit/StoreMessageControlTests.swift`, commit
/// 12d09db50096a872f8d07fa63d18a5363ac36178): before the manager exists the SDK holds
/// nothing, so nothing it could show is withheld from StoreKit.
@Suite("Listener delay")
struct ListenerDelayTests {
  /// A policy that never gets a listener in the horizon behaves exactly as `storekit-auto`:
  /// every tally equal, user by user, on a world with every reason, relaunches and failures.
  @Test(arguments: ["adapty-manual", "revenuecat-manual", "openiap", "never", "deadline-aware"])
  func aListenerThatNeverAttachesIsStoreKitAuto(name: String) throws {
    var scenario = EnginePropertyTests.world
    var late = try #require(PolicyCatalog.preset(named: name)).configuration
    late.listenerDelay = .fixed(10 * scenario.horizon)
    scenario.policies = [
      Fixtures.policy("storekit-auto"), NamedPolicy(name: "late-\(name)", configuration: late),
    ]
    scenario.baseline = "storekit-auto"
    let result = try EnginePropertyTests.run(scenario, jobs: 2, users: 300, replications: 2)
    let fingerprints = EnginePropertyTests.fingerprint(result)
    let half = fingerprints.count / 2
    // Rows are replications, each with both policies: compare policy 0 and 1 per replication.
    let auto = stride(from: 0, to: fingerprints.count, by: 2).map { fingerprints[$0] }
    let delayed = stride(from: 1, to: fingerprints.count, by: 2).map { fingerprints[$0] }
    #expect(half == 2)
    #expect(auto == delayed)
  }

  /// Closed form: one consent message issued before the first open, delivered 1 s after it
  /// (fetch delay), scene active at once, a listener after Uniform(0, 4 s). `never` shows
  /// nothing; StoreKit shows the message iff it came first: P(delay > 1 s) = 3/4.
  @Test func theShareShownByStoreKitIsTheChanceTheListenerIsLate() throws {
    let users = 4000
    var never = PolicyCatalog.Preset.never.configuration
    never.listenerDelay = .uniform(low: 0, high: 4)
    var scenario = Fixtures.base(
      screens: [
        Screen(
          name: "splash", kind: .launch, dwell: .fixed(100),
          transitions: [Fixtures.transition(.background, 1)])
      ],
      entries: Entries(coldLaunch: 0, newUser: 0, returning: 0), horizon: 60, gap: .fixed(10),
      policies: [NamedPolicy(name: "late-never", configuration: never)])
    scenario.sessions.fetchDelay = .fixed(1)
    scenario.messages.consent = ConsentCampaign(
      start: 0, rolloutWindow: 1, audienceShare: 1, deadline: .fixed(1e9), expiry: nil)
    let result = try Engine.run(
      CompiledScenario(scenario), policies: scenario.policies,
      options: RunOptions(users: users, replications: 1, seed: 3, jobs: 2))
    let tally = result.tallies[0][0]
    let consent = Reason.priceIncreaseConsent.laneIndex
    #expect(tally.issued[consent] == users)
    let share = Double(tally.displayed[consent]) / Double(users)
    let tolerance = 4.5 * (0.75 * 0.25 / Double(users)).squareRoot()
    #expect(abs(share - 0.75) < tolerance, "share \(share)")
  }
}
