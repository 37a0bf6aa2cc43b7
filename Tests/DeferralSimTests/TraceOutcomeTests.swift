import Experiments
import Foundation
import MessageDeferral
import Simulation
import TestSupport
import Testing

@testable import deferral_sim

/// `trace --find` by outcome (#34): with two policies, `differ` lists the users whose outcome
/// differs (messages displayed, deadlines missed, interrupted visits, forced displays), not
/// those whose events differ anywhere; `missed`, `interrupted` and `forced` list the users
/// whose count of it differs, not those who had it under both alike; and a consent deadline
/// is printed in the trace.
@Suite("trace: find by outcome, deadlines")
struct TraceOutcomeTests {
  static let scenario = ScenarioLoader.embeddedDefault()
  static let world = CompiledScenario(scenario)
  static let policies = named(["storekit-auto", "deadline-aware"])
  /// Two policies whose lives differ in time far more often than in outcome (screen-gate
  /// shows what deadline-aware shows, at other moments).
  static let similar = named(["screen-gate", "deadline-aware"])

  static func named(_ names: [String]) -> [NamedPolicy] {
    names.map { PolicyLookup.policy(named: $0, in: scenario)! }
  }

  /// One user's two lives, with their steps.
  static func lives(
    _ user: Int, keepingSteps: Int = 0, policies: [NamedPolicy] = policies
  ) -> [TraceLife] {
    policies.map { policy in
      let traced = Engine.boundedTrace(
        world, policy: policy.configuration, seed: scenario.seed, replication: 0, user: user,
        keepingSteps: keepingSteps)
      return TraceLife(
        policy: policy, traced: (traced.steps, traced.outcomes, traced.tally),
        scenario: scenario)
    }
  }

  static func counts(_ life: TraceLife, _ outcomes: [String]) -> [Int] {
    outcomes.map { life.count($0) }
  }

  @Test func differListsUsersWhoseOutcomeDiffersNotWhoseEventsDo() throws {
    let scanned = 300
    var outcomeDiffers: [Int] = []
    var eventsOnly: [Int] = []
    for user in 0..<scanned {
      let lives = Self.lives(
        user, keepingSteps: TraceCommand.maximumSteps, policies: Self.similar)
      let compared = ["displayed", "missed", "interrupted", "forced"]
      let differs = Self.counts(lives[0], compared) != Self.counts(lives[1], compared)
      let eventsDiffer = TraceAlignment(lives: lives).entries.contains {
        if case .only = $0 { true } else { false }
      }
      if differs { outcomeDiffers.append(user) } else if eventsDiffer { eventsOnly.append(user) }
    }
    // Both kinds occur among the users scanned, or the check below proves nothing.
    #expect(!outcomeDiffers.isEmpty)
    #expect(!eventsOnly.isEmpty, "no user whose events differ with the same outcome")
    let found = try TraceSearch.find(
      "differ", in: Self.world, policies: Self.similar, replication: 0, limit: 1_000_000,
      scanning: scanned)
    #expect(found.users.map(\.0) == outcomeDiffers)
    #expect(found.users.allSatisfy { $0.1 == ["screen-gate", "deadline-aware"] })
    for user in outcomeDiffers {
      #expect(found.differences[user]?.isEmpty == false, "user \(user)")
    }
  }

  @Test(arguments: ["missed", "interrupted", "forced"])
  func withTwoPoliciesAnOutcomeListsUsersWhereTheyDifferInIt(outcome: String) throws {
    let scanned = outcome == "missed" ? 2500 : 400
    var differing: [Int] = []
    var alike: [Int] = []  // had it under both policies, as often
    for user in 0..<scanned {
      let lives = Self.lives(user)
      let counts = (lives[0].count(outcome), lives[1].count(outcome))
      if counts.0 != counts.1 { differing.append(user) } else if counts.0 > 0 { alike.append(user) }
    }
    let found = try TraceSearch.find(
      outcome, in: Self.world, policies: Self.policies, replication: 0, limit: 1_000_000,
      scanning: scanned)
    #expect(found.users.map(\.0) == differing, "\(outcome)")
    #expect(found.between == ["storekit-auto", "deadline-aware"])
    // A user who had it under both alike is not listed (today's 'missed' listed mostly those).
    if let user = alike.first { #expect(!found.users.contains { $0.0 == user }) }
    for (user, policies) in found.users {
      let lives = Self.lives(user)
      #expect(policies == lives.filter { $0.had(outcome) }.map(\.policy.name), "user \(user)")
      let counts = lives.map { $0.count(outcome) }
      #expect(found.differences[user] == ["\(outcome) \(counts[0]) vs \(counts[1])"])
    }
    if outcome == "missed" {
      #expect(!differing.isEmpty && !alike.isEmpty, "both kinds among \(scanned) users")
    }
  }

  @Test func withOnePolicyAnOutcomeStillListsUsersWhoHadIt() throws {
    let found = try TraceSearch.find(
      "interrupted", in: Self.world, policies: [Self.policies[0]], replication: 0, limit: 5)
    #expect(found.users.count == 5)
    #expect(found.between == nil)
    for (user, _) in found.users { #expect(Self.lives(user)[0].interruptions > 0) }
  }

  /// Each consent deadline within the horizon is a row (`consent deadline met` or `missed`),
  /// and the misses are exactly the engine's `consent_deadline_missed` count.
  @Test func theConsentDeadlineIsARowOfTheTraceAndItsMissesAreTheEngines() throws {
    var missed = 0
    var met = 0
    for user in 0..<600 {
      for life in Self.lives(user, keepingSteps: TraceCommand.maximumSteps) {
        let rows = life.rows.filter { $0.what.hasPrefix("consent deadline") }
        let misses = rows.filter { $0.what == TraceLife.deadlineMissed }.count
        #expect(misses == life.tally.consentDeadlineMisses, "user \(user) \(life.policy.name)")
        #expect(rows.count == life.tally.consentDeadlinesDue, "user \(user) \(life.policy.name)")
        #expect(life.deadlines.count >= rows.count)
        // Rows stay in time order, the deadline after everything before it.
        #expect(zip(life.rows, life.rows.dropFirst()).allSatisfy { $0.time <= $1.time })
        missed += misses
        met += rows.count - misses
      }
    }
    #expect(missed > 0 && met > 0, "both kinds among the users scanned")
  }

  @Test func theTextTraceAndFindPrintTheDeadlineAndTheDifference() throws {
    let found = try ToolRunner.run([
      "trace", "--find", "missed", "--policy", "storekit-auto", "--policy", "deadline-aware",
      "--limit", "1",
    ])
    #expect(found.status == 0, "\(found.stderr)")
    #expect(found.stdout.contains("differs between storekit-auto and deadline-aware"))
    let line = try #require(
      found.stdout.split(separator: "\n").first { $0.hasPrefix("  user ") })
    #expect(line.contains("(missed "), "\(line)")
    let user = try #require(line.dropFirst(7).split(separator: ":").first)
    #expect(
      found.stdout.contains(
        "See one: deferral-sim trace --policy storekit-auto --policy deadline-aware --user "
          + "\(user) --diff"))
    let trace = try ToolRunner.run([
      "trace", "--policy", "storekit-auto", "--policy", "deadline-aware", "--user", String(user),
    ])
    #expect(trace.status == 0, "\(trace.stderr)")
    #expect(trace.stdout.contains("consent deadline missed"), "\(trace.stdout)")
    #expect(trace.stdout.contains("(deadline #"), "\(trace.stdout)")
  }
}
