import MessageDeferral
import Reports
import Simulation

/// One run a tune evaluates: some policies on `users` × `replications` users with `seed`, in
/// the scenario or in one world of its study. A policy's tallies in a run do not depend on the
/// policies beside it (each takes the same tallies as in a run of its own), so a run of more
/// policies answers any run of some of them on the same users.
public struct TuneRun: Sendable {
  /// Which part of the tune asks for the run.
  public enum Phase: Sendable, Equatable {
    /// Round `n` (0, 1, ...) of successive halving.
    case round(Int)
    /// Local step `n` (0, 1, ...) after the halving.
    case local(Int)
    /// Replication `replication` of the selection, asked with `survivors` contenders left.
    case selection(replication: Int, survivors: Int)
    /// The tuned policy against the presets on new users (``TuneSearch/verify(_:)``).
    case verification

    /// How files and messages name it: `round 1`, `selection 12`, `verification`.
    public var text: String {
      switch self {
      case .round(let round): "round \(round + 1)"
      case .local(let step): "local \(step + 1)"
      case .selection(let replication, _): "selection \(replication + 1)"
      case .verification: "verification"
      }
    }
  }

  public var phase: Phase
  /// The world's index in ``TuneSearch/worlds``; `nil`: the scenario.
  public var world: Int?
  public var policies: [NamedPolicy]
  public var users: Int
  public var replications: Int
  public var seed: UInt64

  /// `base` with this run's policies (the first one the baseline), users, replications and
  /// seed: the world the run simulates.
  public func scenario(in base: Scenario) -> Scenario {
    var world = base
    world.policies = policies
    world.baseline = policies[0].name
    world.users = users
    world.replications = replications
    world.seed = seed
    return world
  }

  /// What identifies the run in a state or part file.
  public var key: TuneRunKey {
    TuneRunKey(
      phase: phase.text, world: world, policies: policies.map(\.name), users: users,
      replications: replications, seed: String(seed))
  }

  /// User lives the run simulates (every policy's).
  public var lives: Int { users * replications * policies.count }
}

/// A ``TuneRun`` as the files of a tune over shards write it.
public struct TuneRunKey: Codable, Sendable, Equatable {
  /// ``TuneRun/Phase/text``.
  public var phase: String
  public var world: Int?
  public var policies: [String]
  public var users: Int
  public var replications: Int
  /// The run seed as a string of digits (as a partial result writes it).
  public var seed: String

  /// Whether a recorded run with this key answers `run`: the same world, users,
  /// replications and seed, and every policy `run` asks for among its own.
  func answers(_ run: TuneRun) -> Bool {
    world == run.world && users == run.users && replications == run.replications
      && seed == String(run.seed) && run.policies.allSatisfy { policies.contains($0.name) }
  }

  /// `run 3 (round 2, world 5: 4 policies, 2000 users × 1)` for messages.
  var summary: String {
    "\(phase)\(world.map { ", world \($0 + 1)" } ?? ""): \(policies.count) policies, "
      + "\(users) users × \(replications)"
  }
}

/// What the tune took from a run: the objective per replication and policy, and each
/// constraint's pooled metric per policy (``TuneSearch/reduce(_:in:)``).
public struct TuneRecord: Sendable, Equatable {
  public var run: TuneRunKey
  /// `values[replication][policy]`, policies in ``TuneRunKey/policies`` order.
  public var values: [[Double]]
  /// `constraints[policy][constraint]`; `nil` where the metric has no value.
  public var constraints: [[Double?]]
}

/// The evaluations a tune over shards has recorded so far, read instead of simulated
/// (``TuneSearch/replay``).
public struct TuneReplay: Sendable {
  public let records: [TuneRecord]
  /// The records' indices by the users they ran (world, users, replications, seed).
  private let index: [Users: [Int]]

  private struct Users: Hashable {
    var world: Int?
    var users: Int
    var replications: Int
    var seed: String
  }

  public init(records: [TuneRecord]) {
    self.records = records
    index = Dictionary(grouping: records.indices) { position in
      let run = records[position].run
      return Users(
        world: run.world, users: run.users, replications: run.replications, seed: run.seed)
    }
  }

  /// The evaluation of `run` from the first record that answers it (its policies' columns, in
  /// `run`'s order); throws ``TuneStageNeeded`` when none does.
  ///
  /// - Complexity: O(p · q) for the p policies of `run` and q of the records on its users.
  func evaluation(of run: TuneRun) throws -> (values: [[Double]], constraints: [[Double?]]) {
    let users = Users(
      world: run.world, users: run.users, replications: run.replications, seed: String(run.seed))
    guard
      let record = index[users]?.lazy.map({ self.records[$0] }).first(where: {
        $0.run.answers(run)
      })
    else {
      throw TuneStageNeeded(run: run)
    }
    let columns = run.policies.map { policy in record.run.policies.firstIndex(of: policy.name)! }
    return (
      record.values.map { row in columns.map { row[$0] } }, columns.map { record.constraints[$0] }
    )
  }
}

/// Thrown by a replayed tune (``TuneSearch/replay``) at the first evaluation not recorded: the
/// run the next stage must simulate.
public struct TuneStageNeeded: Error, Sendable {
  public var run: TuneRun
}

/// A tune over shards (`tune --shard K/N`, then `merge`): the tune cut into stages whose work
/// is known before the stage starts, each stage runs that shard exactly as a run's work items
/// do, so the files are those of ``TuneSearch/run(progress:)`` whatever the split.
///
/// Each stage is found by replaying the whole tune on the evaluations recorded so far
/// (``TuneReplay``): the first evaluation not recorded names the stage. Round r of the halving
/// is one stage (its run in every world); the selection is run `ahead` replications at a time
/// for every contender still in the race (its first stage at least the first-stage
/// replications), and the replay consumes them one replication at a time, exactly as the
/// procedure would have asked, because a policy's tallies do not depend on the policies beside
/// it and replication r's users are the selection seed plus r whoever runs them. What a
/// contender eliminated before a replication run ahead would not have received is simulated
/// and not used (counted apart: ``TuneState``'s lives). The last stage is the verification.
extension TuneSearch {
  /// What comes next after the stages recorded: the runs of the next stage, or the tune's
  /// outcome when every evaluation is recorded (the verification is then the last stage).
  public enum Next: Sendable {
    case stage([TuneRun])
    case done(Outcome)
  }

  /// Replays the tune on `records` (with `ahead` selection replications a stage).
  ///
  /// - Precondition: `ahead` ≥ 1.
  public func next(after records: [TuneRecord], ahead: Int) throws -> Next {
    precondition(ahead >= 1, "a selection stage runs at least one replication")
    var replayed = self
    replayed.replay = TuneReplay(records: records)
    do {
      return .done(try replayed.run())
    } catch let needed as TuneStageNeeded {
      return .stage(stage(for: needed.run, ahead: ahead))
    }
  }

  /// The stage that starts with `run`: the same run in every world, and for the selection,
  /// the replications `ahead` of it (at least to the end of the first stage, at most to
  /// ``IndifferenceZoneSelection/maximumReplications``; one when one contender is left).
  func stage(for run: TuneRun, ahead: Int) -> [TuneRun] {
    let worldIndices: [Int?] = worlds.isEmpty ? [nil] : worlds.indices.map { $0 }
    var replications: [(phase: TuneRun.Phase, seed: UInt64)] = [(run.phase, run.seed)]
    if case .selection(let first, let survivors) = run.phase, survivors >= 2 {
      let wanted = max(ahead, selection.initialReplications - first)
      let last = min(first + wanted, selection.maximumReplications) - 1
      if last > first {
        replications = (first...last).map {
          (.selection(replication: $0, survivors: survivors), run.seed &+ UInt64($0 - first))
        }
      }
    }
    return replications.flatMap { replication in
      worldIndices.map { world in
        var each = run
        each.phase = replication.phase
        each.seed = replication.seed
        each.world = world
        return each
      }
    }
  }

  /// The verification stage's run for the tuned `best` (``verificationScenario(_:)``).
  public func verificationRun(_ best: NamedPolicy) -> TuneRun {
    let world = verificationScenario(best)
    return TuneRun(
      phase: .verification, world: nil, policies: world.policies, users: world.users,
      replications: world.replications, seed: world.seed)
  }

  /// The world `run` simulates (``TuneRun/scenario(in:)`` of its world; the verification's
  /// own baseline).
  public func scenario(of run: TuneRun) -> Scenario {
    var world = run.scenario(in: run.world.map { worlds[$0] } ?? scenario)
    if run.phase == .verification { world.baseline = "tuned" }
    return world
  }

  /// Simulates `runs` (shard `shard` of each one's work items, or all), returning each run's
  /// tallies (`[run][replication][policy]`).
  public func simulate(
    _ runs: [TuneRun], shard: (index: Int, count: Int)?,
    blockSize: Int = RunOptions.defaultBlockSize,
    progress: ((Int) -> Void)? = nil
  ) throws -> [[[Tally]]] {
    var tallies: [[[Tally]]] = []
    for (index, run) in runs.enumerated() {
      progress?(index)
      let world = scenario(of: run)
      let plan = RunPlan(scenario: world, jobs: jobs, shard: shard, blockSize: blockSize)
      tallies.append(try Experiment.run(plan, on: CompiledScenario(world)).tallies)
    }
    return tallies
  }

  /// The records of a stage's runs from their merged tallies.
  public func records(of runs: [TuneRun], tallies: [[[Tally]]]) -> [TuneRecord] {
    zip(runs, tallies).map { run, tallies in
      let (values, constraints) = reduce(tallies, in: scenario(of: run))
      return TuneRecord(run: run.key, values: values, constraints: constraints)
    }
  }
}
