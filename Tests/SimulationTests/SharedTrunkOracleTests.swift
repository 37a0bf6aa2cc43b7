import Foundation
import MessageDeferral
import Synchronization
import Testing

@testable import Simulation

/// The shared trunk (``RunOptions/sharedTrunk``) against its oracle, the unshared run: every
/// tally equal, field for field, and every step and outcome a sink records in the same order,
/// on every bundled scenario and on variants that exercise what a fork must copy (every
/// delivery mode, background survival, frequent termination, every preset, late listeners).
/// Unlike the golden checksums, this survives legitimate changes to the figures.
@Suite("shared trunk against its oracle")
struct SharedTrunkOracleTests {
  /// Records every step and outcome of a work item as text lines.
  struct LineSink: SimulationSink {
    var lines: [String] = []
    static var recordsSteps: Bool { true }
    static var recordsOutcomes: Bool { true }
    mutating func begin(replication: Int, user: Int, policy: Int) {
      lines.append("begin \(replication) \(user) \(policy)")
    }
    mutating func step(_ step: TraceStep) {
      lines.append(
        "\(step.time) \(step.screen) \(step.what.rawValue) \(step.message) "
          + String(describing: step.decision))
    }
    mutating func outcome(_ outcome: MessageOutcome, policy: Int, replication: Int, user: Int) {
      lines.append(
        "\(policy) \(user) \(outcome.message) \(outcome.outcome.rawValue) \(outcome.deliveredAt ?? -1) "
          + "\(outcome.displayedAt ?? -1) \(outcome.attempts) \(outcome.forced)")
    }
  }

  /// The tallies and the recorded lines (by work item) of a run.
  static func run(
    _ scenario: Scenario, policies: [NamedPolicy], users: Int, shared: Bool, jobs: Int = 2
  ) throws -> (tallies: [[Tally]], lines: [Int: [String]], result: RunResult) {
    var options = RunOptions(
      users: users, replications: 2, seed: scenario.seed, jobs: jobs, blockSize: 32)
    options.sharedTrunk = shared
    let lines = Mutex<[Int: [String]]>([:])
    let result = try Engine.run(
      CompiledScenario(scenario), policies: policies, options: options,
      makeSink: { _ in LineSink() },
      finishSink: { sink, item in
        let recorded = sink.lines
        lines.withLock { $0[item] = recorded }
      })
    return (result.tallies, lines.withLock { $0 }, result)
  }

  static func allPresets() -> [NamedPolicy] {
    PolicyCatalog.presets.map { NamedPolicy(name: $0.name, configuration: $0.configuration) }
  }

  static func expectSame(_ scenario: Scenario, policies: [NamedPolicy], users: Int) throws {
    let shared = try run(scenario, policies: policies, users: users, shared: true)
    let oracle = try run(scenario, policies: policies, users: users, shared: false, jobs: 1)
    #expect(shared.tallies == oracle.tallies)
    #expect(shared.lines == oracle.lines)
    #expect(shared.result.trunk.users == users * 2)
    #expect(shared.result.trunk.forked > 0, "no user forked: the branches went untested")
    #expect(oracle.result.trunk == TrunkStatistics())
  }

  @Test(arguments: ScenarioFixtures.bundled)
  func bundledScenariosGiveTheOraclesTalliesAndSteps(file: String) throws {
    let scenario = try ScenarioLoader.load(contentsOf: ScenarioFixtures.path(of: file))
    try Self.expectSame(scenario, policies: scenario.policies, users: 60)
  }

  /// Variants of the default scenario, each under every preset.
  @Test(arguments: 0..<6)
  func variantsUnderEveryPresetGiveTheOraclesTalliesAndSteps(variant: Int) throws {
    var scenario = try ScenarioLoader.load(
      contentsOf: ScenarioFixtures.path(of: "indie-subscription.json"))
    scenario.seed = UInt64(1000 + variant)
    switch variant {
    case 0: scenario.sessions.delivery = .launchAndResume
    case 1: scenario.sessions.delivery = .everyForeground
    case 2: scenario.sessions.backgroundTerminationProbability = 0.9
    case 3:
      scenario.sessions.backgroundSurvival = .exponential(mean: 3600)
      scenario.sessions.delivery = .launchAndResume
    case 4: scenario.horizon *= 3
    default: scenario.sessions.backgroundTerminationProbability = 0.02
    }
    var policies = Self.allPresets()
    // A late listener on a policy that has none in its preset, and a longer one.
    var late = policies[0]
    late.name += "-late-listener"
    late.configuration.listenerDelay = .exponential(mean: 5)
    policies.append(late)
    try Self.expectSame(scenario, policies: policies, users: 40)
  }

  /// Lifecycle phases (tables, an entry mix and a gap from the 3rd session on) under every
  /// preset: the session index and the phase are the world's, so a fork carries them.
  @Test func lifecyclePhasesUnderEveryPresetGiveTheOraclesTalliesAndSteps() throws {
    var scenario = try ScenarioLoader.load(
      contentsOf: ScenarioFixtures.path(of: "indie-subscription.json"))
    let index = Dictionary(
      uniqueKeysWithValues: scenario.screens.enumerated().map { ($1.name, $0) })
    let home = try #require(index["home"])
    let library = try #require(index["library"])
    scenario.phases = [
      LifecyclePhase(name: "first", fromSession: 1),
      LifecyclePhase(
        name: "loyal", fromSession: 3,
        transitions: [
          LifecyclePhase.Override(
            screen: home,
            transitions: [
              Screen.Transition(target: .screen(library), probability: 0.7),
              Screen.Transition(target: .background, probability: 0.3),
            ])
        ],
        returningMix: [
          Entries.Weighted(screen: home, probability: 0.5),
          Entries.Weighted(screen: library, probability: 0.5),
        ], gap: .lognormal(median: 3 * 3600, sigma: 1)),
    ]
    scenario.existingUsersPhase = 1
    try Self.expectSame(scenario, policies: Self.allPresets(), users: 40)
  }

  /// Counting variates: the trunk's draws are counted once, so the shared run draws fewer.
  @Test func theSharedRunDrawsFewerVariatesForTheSameResults() throws {
    let scenario = try ScenarioLoader.load(
      contentsOf: ScenarioFixtures.path(of: "indie-subscription.json"))
    func counted(_ shared: Bool) throws -> (Int, [[Tally]]) {
      var options = RunOptions(
        users: 80, replications: 1, seed: 3, jobs: 2, countsVariates: true)
      options.sharedTrunk = shared
      let result = try Engine.run(
        CompiledScenario(scenario), policies: scenario.policies, options: options)
      var total = VariateCounts()
      var tallies = result.tallies
      for row in tallies.indices {
        for policy in tallies[row].indices {
          total.merge(tallies[row][policy].variates)
          tallies[row][policy].variates = VariateCounts()
        }
      }
      return (total.gslTotal, tallies)
    }
    let (sharedDraws, sharedTallies) = try counted(true)
    let (oracleDraws, oracleTallies) = try counted(false)
    #expect(sharedTallies == oracleTallies)
    #expect(sharedDraws > 0)
    #expect(sharedDraws < oracleDraws)
  }
}
