import MessageDeferral
import Testing

@testable import Simulation

/// The per-segment consent latency (`by-segment.csv`) against a world whose answer is known by
/// hand, on every path the engine records it by: each policy simulated alone, the shared trunk
/// with a branch per policy, and branches simulated in groups (which record it themselves,
/// ``UserSimulator/finishGroup(_:since:tallies:)``). The latency is timed from the message's
/// issuance, not from its delivery to the app: in this world the two differ by the whole wait
/// for the next open.
///
/// Timing it from delivery in only one of its two copies (`addToSegment`, or `finishGroup`'s)
/// made grouped and ungrouped runs disagree; that says nothing of `deliveredAt` itself. With
/// both copies timed from delivery, grouped, branch-per-policy and unshared runs still give
/// equal tallies (`BranchGroupOracleTests`, `SharedTrunkOracleTests`, `SegmentTallyTests`:
/// 9 of 9 passed, 2026-12-01): a displayed message's `deliveredAt` is the same on every path.
/// It is set once, at the first delivery (`deliver` skips a message no longer pending), so at
/// the end of a life it is still what the hold histogram read at the display, which those
/// tests compare field for field; and the only other output that reads it, `messages.csv`,
/// comes from recording sinks, which never group branches (`groupsBranches`).
@Suite("Segment consent latency against a hand-computed world")
struct SegmentLatencyOracleTests {
  static let z = 4.5
  /// The fixed gap between a session's end and the next open.
  static let gap = 1000.0
  /// When the consent message is issued to every subscriber (no rollout window).
  static let issuedAt = 2500.0
  /// A warm resume's session: home (1 ms) again, then the background. The first open, a cold
  /// launch, shows the splash (1 ms) before home.
  static let resumed = 0.001

  /// Half new users (all returning subscribers: installed at 0, first open at 0) and half
  /// existing subscribers (first open uniform over one gap, the gap's forward recurrence).
  /// No fetch delay, no scene delay, no termination: a message is shown at the open after
  /// its issuance, by a policy that shows at once.
  static func scenario(policies: [NamedPolicy]) -> Scenario {
    var scenario = Fixtures.base(
      screens: [
        Screen(name: "splash", kind: .launch, dwell: .fixed(0.001), transitions: []),
        Screen(
          name: "home", kind: .home, dwell: .fixed(0.001),
          transitions: [Fixtures.transition(.background, 1)]),
      ],
      entries: Entries(coldLaunch: 0, newUser: 1, returning: 1), horizon: 10 * gap,
      gap: .fixed(gap),
      newUserShare: 0.5, policies: policies)
    scenario.population.returningSubscriberShare = 1
    scenario.messages.consent = ConsentCampaign(
      start: issuedAt, rolloutWindow: 0, audienceShare: 1, deadline: .fixed(1e9), expiry: nil)
    return scenario
  }

  /// Two copies of StoreKit's default (always one group in a shared run) and openiap's
  /// listener, which shows on delivery too.
  static let policies = [
    NamedPolicy(name: "auto-a", configuration: Fixtures.policy("storekit-auto").configuration),
    NamedPolicy(name: "auto-b", configuration: Fixtures.policy("storekit-auto").configuration),
    Fixtures.policy("openiap"),
  ]

  enum Path: String, CaseIterable, CustomTestStringConvertible {
    case unshared, branchPerPolicy, groups
    var testDescription: String { rawValue }
  }

  /// A new user opens at 0 (splash and home: back in the background at 0.002 s), then warm
  /// resumes at 1000.002, 2000.003 and 3000.004 s: the message issued at 2500 s (while the
  /// app is in the background) is delivered and shown at 3000.004 s, a latency of 500.004 s
  /// exactly for every such user (from its delivery it would be 0). An existing user's opens
  /// are offset by a uniform time, so the wait from issuance to the next open is uniform over
  /// one cycle (gap + 1 ms): mean cycle / 2, standard deviation cycle / √12.
  @Test(arguments: Path.allCases)
  func consentLatencyBySegmentIsTimedFromIssuance(path: Path) throws {
    let scenario = Self.scenario(policies: Self.policies)
    var options = RunOptions(users: 2_000, replications: 1, seed: 11, jobs: 2)
    options.sharedTrunk = path != .unshared
    options.branchGroups = path == .groups
    let result = try Engine.run(
      CompiledScenario(scenario), policies: scenario.policies, options: options)
    if path == .groups {
      #expect(result.trunk.branches < result.trunk.forked * scenario.policies.count)
    }
    let cycle = Self.gap + Self.resumed
    let newUsersLatency = 0.002 + 2 * cycle + Self.gap - Self.issuedAt
    for (policy, tally) in zip(scenario.policies, result.tallies[0]) {
      let returning = tally.segments[UserSegment.returningSubscriber.rawValue]
      let existing = tally.segments[UserSegment.existingSubscriber.rawValue]
      #expect(returning.users > 0 && existing.users > 0)
      #expect(tally.segments[UserSegment.new.rawValue].users == 0)
      #expect(tally.segments[UserSegment.lapsed.rawValue].users == 0)
      // Every subscriber gets one message, shown before the horizon.
      #expect(returning.consentLatency.count == returning.users, "\(policy.name)")
      #expect(existing.consentLatency.count == existing.users, "\(policy.name)")
      let exact = try #require(returning.consentLatency.mean)
      #expect(
        abs(exact - newUsersLatency) < 1e-6,
        "\(policy.name), \(path): returning subscribers' mean latency \(exact), expected \(newUsersLatency)"
      )
      let mean = try #require(existing.consentLatency.mean)
      let n = Double(existing.users)
      let tolerance = Self.z * cycle / (12 * n).squareRoot()
      #expect(
        abs(mean - cycle / 2) <= tolerance,
        "\(policy.name), \(path): existing subscribers' mean latency \(mean), expected \(cycle / 2) ± \(tolerance)"
      )
    }
  }
}
