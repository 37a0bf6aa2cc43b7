import MessageDeferral
import Testing

@testable import Simulation

/// The forked branches simulated in groups (``UserSimulator/runGroups(fork:tallies:)``, used
/// with sinks that record nothing per policy) against the unshared run: every tally equal,
/// field for field (histograms included, whose sums are floating point), with policies
/// scripted to part at different moments, and the grouping seen to share and to part.
@Suite("branch groups against the unshared run")
struct BranchGroupOracleTests {
  /// The tallies and what was shared, for a plain run (no sink: branches in groups).
  static func run(
    _ scenario: Scenario, policies: [NamedPolicy], users: Int, shared: Bool, jobs: Int
  ) throws -> RunResult {
    var options = RunOptions(
      users: users, replications: 2, seed: scenario.seed, jobs: jobs, blockSize: 16)
    options.sharedTrunk = shared
    return try Engine.run(CompiledScenario(scenario), policies: policies, options: options)
  }

  /// Runs both ways, expects equal tallies, and returns what the shared run shared.
  static func expectSame(
    _ scenario: Scenario, policies: [NamedPolicy], users: Int
  ) throws -> TrunkStatistics {
    // Both on one thread: a histogram's floating-point sum depends on the order work items
    // merge in when a replication has more than two, whatever the trunk.
    let shared = try run(scenario, policies: policies, users: users, shared: true, jobs: 1)
    let oracle = try run(scenario, policies: policies, users: users, shared: false, jobs: 1)
    #expect(shared.tallies == oracle.tallies)
    #expect(shared.trunk.forked > 0, "no user forked: the branches went untested")
    return shared.trunk
  }

  static func defaultScenario() throws -> Scenario {
    try ScenarioLoader.load(contentsOf: ScenarioFixtures.path(of: "indie-subscription.json"))
  }

  static func preset(_ name: String) -> NamedPolicy {
    let preset = PolicyCatalog.preset(named: name)!
    return NamedPolicy(name: name, configuration: preset.configuration)
  }

  @Test(arguments: ScenarioFixtures.bundled)
  func bundledScenariosUnderEveryPresetGiveTheOraclesTallies(file: String) throws {
    let scenario = try ScenarioLoader.load(contentsOf: ScenarioFixtures.path(of: file))
    let policies =
      scenario.policies
      + PolicyCatalog.presets.map { NamedPolicy(name: $0.name, configuration: $0.configuration) }
    let trunk = try Self.expectSame(scenario, policies: policies, users: 48)
    // At most one branch simulation per policy and forked user, as without groups.
    #expect(trunk.branches <= trunk.forked * policies.count)
  }

  /// A shared run without groups (``RunOptions/branchGroups`` off: `deferral-bench`'s floor
  /// with a branch per policy) gives the same tallies, simulating every policy's branch.
  @Test func aSharedRunWithoutGroupsGivesTheSameTallies() throws {
    let scenario = try Self.defaultScenario()
    var options = RunOptions(
      users: 48, replications: 2, seed: scenario.seed, jobs: 1, blockSize: 16)
    let world = CompiledScenario(scenario)
    let grouped = try Engine.run(world, policies: scenario.policies, options: options)
    options.branchGroups = false
    let perPolicy = try Engine.run(world, policies: scenario.policies, options: options)
    #expect(perPolicy.tallies == grouped.tallies)
    #expect(perPolicy.trunk.forked > 0)
    #expect(perPolicy.trunk.branches == perPolicy.trunk.forked * scenario.policies.count)
    #expect(grouped.trunk.branches < perPolicy.trunk.branches)
  }

  /// Copies of one policy answer every event alike: one branch simulation per forked user.
  @Test func identicalPoliciesNeverPart() throws {
    let scenario = try Self.defaultScenario()
    let policy = Self.preset("screen-gate-ceiling")
    let policies = (0..<4).map {
      NamedPolicy(name: "copy-\($0)", configuration: policy.configuration)
    }
    let trunk = try Self.expectSame(scenario, policies: policies, users: 60)
    #expect(trunk.branches == trunk.forked)
  }

  /// Policies whose answers differ only in their timers stay in one group: each member keeps
  /// its own timer, heard by it alone. Ceilings far past the horizon ask for timers at
  /// different times that never fire, so these never part (with one timer for the group they
  /// parted at the first delivery), and each still takes its own run's tallies.
  @Test func policiesThatDifferOnlyInTheirTimersNeverPart() throws {
    let scenario = try Self.defaultScenario()
    let base = Self.preset("screen-gate-ceiling")
    let policies = [1_000.0, 2_000, 3_000].enumerated().map { index, factor in
      var changed = base
      changed.name = "far-ceilings-\(index)"
      changed.configuration.ceilings = base.configuration.ceilings.mapValues { $0 * factor }
      return changed
    }
    let trunk = try Self.expectSame(scenario, policies: policies, users: 60)
    #expect(trunk.branches == trunk.forked)
  }

  /// Policies that part at different moments: at the first delivery (one displays, one
  /// holds), only when a ceiling's timer is asked for (ceilings differing), only at a second
  /// sheet in a break (`sheetsPerBreak` 1 against none), and only after a cold launch (a late
  /// listener, drawing from its own stream). Each takes the same tallies as its own run.
  @Test(arguments: 0..<6)
  func policiesThatPartAtDifferentMomentsGiveTheOraclesTallies(variant: Int) throws {
    var scenario = try Self.defaultScenario()
    scenario.seed = UInt64(77 + variant)
    switch variant {
    case 1: scenario.sessions.delivery = .launchAndResume
    case 2: scenario.sessions.backgroundTerminationProbability = 0.6
    case 3: scenario.horizon *= 2
    case 4: scenario.sessions.delivery = .everyForeground
    case 5: scenario.sessions.backgroundSurvival = .exponential(mean: 3600)
    default: break
    }
    let base = Self.preset("screen-gate-ceiling")
    var policies = [base]
    for (index, factor) in [0.5, 2, 1].enumerated() {
      var changed = base
      changed.name = "ceilings-\(index)"
      changed.configuration.ceilings = base.configuration.ceilings.mapValues { $0 * factor }
      policies.append(changed)
    }
    var onePerBreak = Self.preset("adapty-manual")
    onePerBreak.name = "one-per-break"
    onePerBreak.configuration.sheetsPerBreak = 1
    policies += [Self.preset("adapty-manual"), onePerBreak]
    var late = Self.preset("adapty-manual")
    late.name = "late-listener"
    late.configuration.listenerDelay = .exponential(mean: 20)
    policies += [late, Self.preset("storekit-auto"), Self.preset("never")]
    let trunk = try Self.expectSame(scenario, policies: policies, users: 64)
    // Shared (an unchanged copy rides with its original) and parted (displays differ).
    #expect(trunk.branches > trunk.forked)
    #expect(trunk.branches < trunk.forked * policies.count)
  }

  /// A life that runs out of its event budget in a group is found branch by branch: the run
  /// stops with the error of the unshared run (same user, policy, time and screen), at budgets
  /// that run out on the trunk, in the groups and not at all.
  @Test func anEventBudgetRunOutInAGroupNamesTheOraclesPolicy() throws {
    let scenario = try Self.defaultScenario()
    let policies =
      [Self.preset("adapty-manual"), Self.preset("screen-gate")]
      + PolicyCatalog.presets.prefix(4).map {
        NamedPolicy(name: $0.name, configuration: $0.configuration)
      }
    var outcomes: Set<String> = []
    for budget in [150, 400, 1_000, 2_500, 6_000, 100_000] {
      func outcome(shared: Bool) -> Result<[[Tally]], EngineError> {
        var options = RunOptions(
          users: 24, replications: 1, seed: scenario.seed, jobs: 1, blockSize: 8)
        options.sharedTrunk = shared
        options.eventBudgetPerUser = budget
        do {
          return .success(
            try Engine.run(CompiledScenario(scenario), policies: policies, options: options)
              .tallies)
        } catch { return .failure(error) }
      }
      let shared = outcome(shared: true)
      let oracle = outcome(shared: false)
      switch (shared, oracle) {
      case (.success(let a), .success(let b)):
        #expect(a == b, "budget \(budget)")
        outcomes.insert("finished")
      case (.failure(let a), .failure(let b)):
        #expect(a == b, "budget \(budget)")
        if case .eventBudgetExceeded(_, _, _, _, _, let policy) = a { outcomes.insert(policy) }
      default:
        Issue.record("budget \(budget): \(shared) against \(oracle)")
      }
    }
    // Both outcomes seen.
    #expect(outcomes.contains("finished"))
    #expect(outcomes.count >= 2, "\(outcomes)")
  }
}
