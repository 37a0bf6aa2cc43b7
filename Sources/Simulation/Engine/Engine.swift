import Dispatch
import MessageDeferral
import Synchronization

/// How much to simulate, and on how many threads.
public struct RunOptions: Sendable {
  public var users: Int
  public var replications: Int
  public var seed: UInt64
  /// Worker threads (at least 1). Results do not depend on it.
  public var jobs: Int
  /// Users per work item. Fixed independently of `jobs`, so the split of work, and with it
  /// every result, is the same whatever the thread count.
  public var blockSize: Int
  /// Run only shard `index` of `count`: the work items whose number modulo `count` is
  /// `index` (items are (replication, block of users) pairs, see ``Engine/itemCount(_:)``).
  /// `nil`: all of them.
  public var shard: (index: Int, count: Int)?
  /// Whether to count the GSL variates drawn, by kind, into ``Tally/variates`` (for
  /// `deferral-bench`'s RNG floor). Results are otherwise identical; off by default.
  public var countsVariates: Bool
  /// The most events one user's life under one policy may take before the run stops with
  /// ``EngineError/eventBudgetExceeded(replication:user:simulatedTime:horizon:screen:policy:)``.
  public var eventBudgetPerUser = EngineLimits.eventsPerUser
  /// Whether each user's life is simulated once up to the first delivery of a message and
  /// then forked per policy (the default), or once per policy from the start
  /// (`--no-shared-trunk`: the reference the shared trunk is tested against). Results are
  /// byte-identical; only the time differs. ``Tally/variates`` count what was actually drawn,
  /// so they differ (the trunk's draws go to the first policy's tally).
  public var sharedTrunk = true
  /// With the shared trunk, whether a forked user's branches are simulated in groups while
  /// the policies answer alike (the default; see ``UserSimulator/runGroups(fork:tallies:)``)
  /// or once per policy. Results are byte-identical; `deferral-bench` counts the variates of
  /// a run without groups for its floor with a branch per policy.
  public var branchGroups = true

  /// Users per work item unless a run says otherwise.
  public static let defaultBlockSize = 512

  public init(
    users: Int, replications: Int, seed: UInt64, jobs: Int,
    blockSize: Int = RunOptions.defaultBlockSize,
    shard: (index: Int, count: Int)? = nil, countsVariates: Bool = false
  ) {
    precondition(shard.map { $0.count >= 1 && $0.index >= 0 && $0.index < $0.count } ?? true)
    self.users = users
    self.replications = replications
    self.seed = seed
    self.jobs = max(1, jobs)
    self.blockSize = max(1, blockSize)
    self.shard = shard
    self.countsVariates = countsVariates
  }
}

/// Where a run is, for a progress line.
public struct RunProgress: Sendable {
  public var itemsDone: Int
  public var itemsTotal: Int
  public var events: Int
  public var replicationsDone: Int
  public var replicationsTotal: Int

  public init(
    itemsDone: Int, itemsTotal: Int, events: Int, replicationsDone: Int, replicationsTotal: Int
  ) {
    self.itemsDone = itemsDone
    self.itemsTotal = itemsTotal
    self.events = events
    self.replicationsDone = replicationsDone
    self.replicationsTotal = replicationsTotal
  }
}

/// What a run produced: one ``Tally`` per (replication, policy).
public struct RunResult: Sendable {
  public var policies: [NamedPolicy]
  /// `tallies[replication][policy]`.
  public var tallies: [[Tally]]
  /// What the shared trunk shared (zero without it): how the work was done, not a result.
  public var trunk = TrunkStatistics()

  public init(policies: [NamedPolicy], tallies: [[Tally]]) {
    self.policies = policies
    self.tallies = tallies
  }
  public var events: Int {
    tallies.reduce(0) { sum, row in row.reduce(sum) { $0 + $1.events } }
  }
}

/// A bug found while running: never a user error.
public enum EngineError: Error, CustomStringConvertible, Equatable {
  /// A message was neither displayed, expired nor pending at the horizon.
  case conservationViolated(policy: String, reason: String, replication: Int, detail: String)
  /// One user's life took more than ``EngineLimits/eventsPerUser`` events: something loops.
  case eventBudgetExceeded(
    replication: Int, user: Int, simulatedTime: Double, horizon: Double, screen: String?,
    policy: String = "")

  public var description: String {
    switch self {
    case .conservationViolated(let policy, let reason, let replication, let detail):
      "internal error: messages not conserved for policy '\(policy)', reason '\(reason)', "
        + "replication \(replication): \(detail). This is a bug; please report it with the scenario."
    case .eventBudgetExceeded(
      let replication, let user, let time, let horizon, let screen, let policy):
      "user \(user) of replication \(replication)\(policy.isEmpty ? "" : " under '\(policy)'") "
        + "took more events than a run allows and stopped at simulated time "
        + "\(DurationText.format(time)) of \(DurationText.format(horizon))\(screen.map { " on screen '\($0)'" } ?? ""): something in "
        + "the scenario loops without time advancing (screens with near-zero dwell times that "
        + "lead to one another, or messages issued every few milliseconds); lengthen those "
        + "dwell times or intervals."
    }
  }
}

/// Bounds that keep every accepted scenario finite.
public enum EngineLimits {
  /// The most events one user's life under one policy may take. The bundled scenarios use a
  /// few hundred to a few thousand; a life that needs more is looping (see
  /// ``EngineError/eventBudgetExceeded(replication:user:simulatedTime:horizon:screen:policy:)``).
  public static let eventsPerUser = 10_000_000
}

/// What the workers of a run share, behind a mutex.
struct _SharedRunState: ~Copyable {
  var tallies: [[Tally]]
  /// The first user whose life exceeded the event budget; the run stops taking items then.
  var failure: EngineError?
  var nextItem = 0
  var itemsDone = 0
  var events = 0
  var blocksDone: [Int]
  var trunk = TrunkStatistics()
  /// Items done but not merged yet, waiting for every earlier item of the shard: tallies are
  /// merged in item order, as one worker would, so a histogram's `Double` sum (whose last bits
  /// depend on the order of additions) is the same whatever `jobs`. Workers take items in
  /// order, so this holds about `jobs` items at most.
  var waiting: [Int: [Tally]] = [:]
  /// The next item to merge: the shard's first, then every `shard.count`-th.
  var nextMerge = 0
}

/// The Monte Carlo engine: every policy on the same users (common random numbers), users
/// independent, spread over workers.
public enum Engine {
  /// Runs `policies` on `options.users` users × `options.replications` replications.
  ///
  /// Work is split into (replication, block of users) items taken by `options.jobs` workers;
  /// each worker runs every policy on each user of its item, so all policies see the same
  /// users. Tallies merge exactly (integers) and in item order (a histogram's `Double` sum),
  /// so the result is identical, bit for bit, for every `jobs`.
  /// Checks conservation (issued = displayed + expired + pending) per reason and policy.
  public static func run(
    _ world: CompiledScenario, policies: [NamedPolicy], options: RunOptions,
    progress: (@Sendable (RunProgress) -> Void)? = nil
  ) throws(EngineError) -> RunResult {
    try run(
      world, policies: policies, options: options, makeSink: { _ in NoSink() },
      finishSink: { _, _ in }, progress: progress)
  }

  /// As ``run(_:policies:options:progress:)``, with a sink per work item: `makeSink(item)`
  /// before the item's users run, `finishSink(&sink, item)` after. Items are numbered
  /// `replication × blocks + block` (users `block × blockSize ..< (block + 1) × blockSize`);
  /// a caller that needs a fixed order (`messages.csv`) orders by item number.
  public static func run<Sink: SimulationSink>(
    _ world: CompiledScenario, policies: [NamedPolicy], options: RunOptions,
    makeSink: @Sendable (Int) -> Sink, finishSink: @Sendable (inout Sink, Int) -> Void,
    progress: (@Sendable (RunProgress) -> Void)? = nil
  ) throws(EngineError) -> RunResult {
    let screenCount = world.scenario.screens.count
    let blocks = (options.users + options.blockSize - 1) / options.blockSize
    let itemsTotal = blocks * options.replications
    let itemsInShard =
      options.shard.map { shard in (0..<itemsTotal).filter { $0 % shard.count == shard.index }.count
      }
      ?? itemsTotal
    let shared = Mutex(
      _SharedRunState(
        tallies: Array(
          repeating: Array(repeating: Tally(screenCount: screenCount), count: policies.count),
          count: options.replications),
        blocksDone: Array(repeating: 0, count: options.replications),
        nextMerge: options.shard?.index ?? 0))
    let configurations = policies.map(\.configuration)
    // With one policy there is nothing to share: the trunk would only add copies.
    let shares = options.sharedTrunk && configurations.count > 1

    DispatchQueue.concurrentPerform(iterations: min(options.jobs, max(1, itemsTotal))) { _ in
      // Each worker compiles the scenario and copies the configurations into storage of its
      // own: copying a coordinator (at every fork) or a sampler retains their collections,
      // and a reference count written by both threads bounces its cache line between the
      // cores, slowing every read beside it (`jobs2_parallel_efficiency` 0.91 -> 0.975 in
      // `deferral-bench`). Both are deterministic, so results are unchanged.
      let world = CompiledScenario(world.scenario)
      let configurations = configurations.map { $0.withOwnStorage() }
      var simulator = UserSimulator(scenario: world, sink: makeSink(-1))
      if options.countsVariates { simulator.startCountingVariates() }
      let lanes = configurations.map(_PolicyLane.init)
      if shares { simulator.prepareLanes(configurations) }
      simulator.groupsAllowed = options.branchGroups
      var local = configurations.map { _ in Tally(screenCount: screenCount) }
      var trunk = Tally(screenCount: screenCount)
      while true {
        let item = shared.withLock { state -> Int? in
          if let shard = options.shard {
            while state.nextItem < itemsTotal, state.nextItem % shard.count != shard.index {
              state.nextItem += 1
            }
          }
          guard state.nextItem < itemsTotal else { return nil }
          defer { state.nextItem += 1 }
          return state.nextItem
        }
        guard let item else { break }
        let replication = item / blocks
        let block = item % blocks
        let first = block * options.blockSize
        let last = min(options.users, first + options.blockSize)
        for index in local.indices { local[index] = Tally(screenCount: screenCount) }
        trunk = Tally(screenCount: screenCount)
        simulator.sink = makeSink(item)
        // The policy whose life of the current user ran out of its event budget.
        var failed: Int?
        users: for user in first..<last {
          if shares {
            failed = simulator.runShared(
              seed: options.seed, replication: replication, user: user, tallies: &local,
              trunk: &trunk, eventBudget: options.eventBudgetPerUser)
            if failed != nil { break users }
            continue
          }
          for policy in configurations.indices {
            simulator.run(
              seed: options.seed, replication: replication, user: user, policyIndex: policy,
              lane: lanes[policy], tally: &local[policy], eventBudget: options.eventBudgetPerUser)
            if simulator.budgetExceeded != nil {
              failed = policy
              break users
            }
          }
        }
        if let failed,
          case .eventBudgetExceeded(let r, let u, let t, let h, let s, _) = simulator.budgetExceeded
        {
          let failure = EngineError.eventBudgetExceeded(
            replication: r, user: u, simulatedTime: t, horizon: h, screen: s,
            policy: policies[failed].name)
          shared.withLock { state in
            if state.failure == nil { state.failure = failure }
            state.nextItem = itemsTotal
          }
        }
        if shares {
          // The trunk is part of every policy's life; its draws were made once.
          for policy in local.indices {
            if policy == 1 { trunk.variates = VariateCounts() }
            local[policy].merge(trunk)
          }
        }
        finishSink(&simulator.sink, item)
        let statistics = simulator.trunk.statistics
        simulator.trunk.statistics = TrunkStatistics()
        let report = shared.withLock { state -> RunProgress in
          state.waiting[item] = local
          while let ready = state.waiting.removeValue(forKey: state.nextMerge) {
            let readyReplication = state.nextMerge / blocks
            for policy in ready.indices {
              state.tallies[readyReplication][policy].merge(ready[policy])
            }
            state.nextMerge += options.shard?.count ?? 1
          }
          state.trunk.merge(statistics)
          state.itemsDone += 1
          state.blocksDone[replication] += 1
          state.events += local.reduce(0) { $0 + $1.events }
          return RunProgress(
            itemsDone: state.itemsDone, itemsTotal: itemsInShard, events: state.events,
            replicationsDone: state.blocksDone.filter { $0 == blocks }.count,
            replicationsTotal: options.replications)
        }
        progress?(report)
      }
    }
    let (tallies, failure, trunk) = shared.withLock { ($0.tallies, $0.failure, $0.trunk) }
    if let failure { throw failure }
    var result = RunResult(policies: policies, tallies: tallies)
    result.trunk = trunk
    try checkConservation(result)
    return result
  }

  /// The number of work items a run has (see ``run(_:policies:options:makeSink:finishSink:progress:)``).
  public static func itemCount(_ options: RunOptions) -> Int {
    (options.users + options.blockSize - 1) / options.blockSize * options.replications
  }

  /// One user's life under one policy, every step recorded: what `deferral-sim trace` shows.
  /// The same code path as a run (the simulator with a recording sink), so what it shows is
  /// what a run counts.
  public static func trace(
    _ world: CompiledScenario, policy: PolicyConfiguration, seed: UInt64, replication: Int,
    user: Int
  ) -> (steps: [TraceStep], outcomes: [MessageOutcome], tally: Tally) {
    let traced = boundedTrace(
      world, policy: policy, seed: seed, replication: replication, user: user,
      keepingSteps: .max)
    return (traced.steps, traced.outcomes, traced.tally)
  }

  /// ``trace(_:policy:seed:replication:user:)`` under a run's event budget (`eventBudget`
  /// events, as ``RunOptions/eventBudgetPerUser``), keeping at most `keepingSteps` steps: a
  /// looping life stops where a run would, with the error a run would throw, and its memory
  /// is bounded. (The hook `trace` needs; the simulation is the same.)
  public static func boundedTrace(
    _ world: CompiledScenario, policy: PolicyConfiguration, seed: UInt64, replication: Int,
    user: Int, eventBudget: Int = EngineLimits.eventsPerUser, keepingSteps: Int
  ) -> (
    steps: [TraceStep], outcomes: [MessageOutcome], tally: Tally, droppedSteps: Int,
    budgetExceeded: EngineError?
  ) {
    var recorder = TraceRecorder()
    recorder.maximumSteps = keepingSteps
    var simulator = UserSimulator(scenario: world, sink: recorder)
    var tally = Tally(screenCount: world.scenario.screens.count)
    simulator.run(
      seed: seed, replication: replication, user: user, policyIndex: 0, policy: policy,
      tally: &tally, eventBudget: eventBudget)
    return (
      simulator.sink.steps, simulator.sink.outcomes, tally, simulator.sink.droppedSteps,
      simulator.budgetExceeded
    )
  }

  /// Issued = displayed + expired + pending, per replication, policy and reason.
  static func checkConservation(_ result: RunResult) throws(EngineError) {
    for (replication, row) in result.tallies.enumerated() {
      for (policy, tally) in row.enumerated() {
        for lane in 0..<Reason.laneCount {
          let accounted = tally.displayed[lane] + tally.expired[lane] + tally.pending[lane]
          if tally.issued[lane] != accounted {
            throw .conservationViolated(
              policy: result.policies[policy].name, reason: laneName(lane),
              replication: replication,
              detail: "issued \(tally.issued[lane]) but displayed \(tally.displayed[lane]) + "
                + "expired \(tally.expired[lane]) + pending \(tally.pending[lane]) = \(accounted)")
          }
        }
      }
    }
  }

  /// The report name of a reason lane (all unknown raw values share lane 4).
  public static func laneName(_ lane: Int) -> String {
    lane < Reason.known.count ? Reason.known[lane].name : "unknown"
  }
}
