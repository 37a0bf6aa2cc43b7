import MessageDeferral
import Reports
import Simulation

/// What to run on a world: the policies compared and their baseline, users × replications,
/// the seed, the shard, and the engine's options. The ``Scenario`` is the world (screens,
/// sessions, messages, and the defaults its file gives for these); the plan is the experiment
/// on it, and its seed is the run's only seed (``Experiment/run(_:on:progress:)``).
///
/// Built from the scenario's own defaults (``init(scenario:jobs:shard:sharedTrunk:)``), then
/// changed by ``Overrides`` under the one policy rule (``PolicyLookup``) and the one baseline
/// rule (``settleBaseline()``, ``settleBaseline(requested:in:)``).
public struct RunPlan: Sendable {
  /// In report order; the baseline among them.
  public var policies: [NamedPolicy]
  /// The policy paired differences are taken against.
  public var baseline: String
  public var users: Int
  public var replications: Int
  public var seed: UInt64
  /// Shard K of N of the work items (`run --shard K/N`), or `nil` for the whole run.
  public var shard: (index: Int, count: Int)?
  /// Worker threads; results are identical for every count.
  public var jobs: Int
  /// Whether users share their life before the first message across policies (the engine's
  /// shared trunk; results are identical either way).
  public var sharedTrunk: Bool
  /// Users per work item; shards of one run must share it.
  public var blockSize: Int

  /// The plan a scenario file describes: its policies, baseline, users, replications and seed.
  public init(
    scenario: Scenario, jobs: Int = 1, shard: (index: Int, count: Int)? = nil,
    sharedTrunk: Bool = true, blockSize: Int = RunOptions.defaultBlockSize
  ) {
    policies = scenario.policies
    baseline = scenario.baseline
    users = scenario.users
    replications = scenario.replications
    seed = scenario.seed
    self.shard = shard
    self.jobs = jobs
    self.sharedTrunk = sharedTrunk
    self.blockSize = blockSize
  }

  /// The engine's options for this plan.
  public var options: RunOptions {
    var options = RunOptions(
      users: users, replications: replications, seed: seed, jobs: jobs, blockSize: blockSize,
      shard: shard)
    options.sharedTrunk = sharedTrunk
    return options
  }

  /// `scenario` as this plan runs it: its policies, baseline, users, replications and seed
  /// replaced by the plan's, for the reports, partial results and manifests that describe the
  /// run.
  public func planned(_ scenario: Scenario) -> Scenario {
    var planned = scenario
    planned.policies = policies
    planned.baseline = baseline
    planned.users = users
    planned.replications = replications
    planned.seed = seed
    return planned
  }
}

extension RunPlan {
  // The one baseline rule, for `run`, `merge`, `trace`, sweeps and robustness studies:
  //
  // - A baseline asked for always runs: kept if compared, else added first when it names a
  //   policy (``PolicyLookup``), else refused. A run asks for `--baseline`, else the scenario
  //   file's (README: "the baseline is always run"); a sweep for its first policy; a merge
  //   for the baseline its shards recorded.
  // - A robustness study's `policies` list asks for none (it compares exactly those of the
  //   scenario's policies): the scenario's baseline if listed, else the first listed.

  /// The baseline rule when none is asked for (a study's `policies`): the scenario's if
  /// compared, else the first compared policy.
  ///
  /// - Precondition: `policies` is not empty.
  public mutating func settleBaseline() {
    precondition(!policies.isEmpty, "a plan compares at least one policy")
    if !policies.contains(where: { $0.name == baseline }) { baseline = policies[0].name }
  }

  /// The baseline rule for a baseline asked for: `requested` always runs, added first when
  /// the compared policies leave it out; refused when it names no policy of `scenario` and
  /// no preset.
  public mutating func settleBaseline(
    requested: String, in scenario: Scenario
  ) throws(Problem) {
    if !policies.contains(where: { $0.name == requested }) {
      guard let policy = PolicyLookup.policy(named: requested, in: scenario) else {
        throw Problem(
          field: .baseline, kind: .unknownBaseline(requested, compared: policies.map(\.name)))
      }
      policies.insert(policy, at: 0)
    }
    baseline = requested
  }
}
