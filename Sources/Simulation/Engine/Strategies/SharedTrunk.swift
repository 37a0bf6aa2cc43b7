import MessageDeferral

/// How much a run shared (``RunOptions/sharedTrunk``), for `deferral-bench`: integers, merged
/// exactly, so the same whatever `--jobs`. All zero when nothing was shared.
public struct TrunkStatistics: Sendable, Equatable {
  /// Users simulated on a trunk (each once for every policy).
  public var users = 0
  /// Of those, the users whose life forked: a message reached the app.
  public var forked = 0
  /// The fork times of the forked users, summed in whole milliseconds.
  public var forkMilliseconds: Int64 = 0
  /// Live events handled on trunks (once for every policy) and in branches (once per policy):
  /// the work done, where a tally counts every policy's whole world.
  public var trunkEvents = 0
  public var branchEvents = 0
  /// Branch simulations run from the forks: one per policy and forked user without groups,
  /// one per group of policies that answered alike with them
  /// (``UserSimulator/runGroups(fork:tallies:)``).
  public var branches = 0
  /// Lognormal and alias-table draws of the branch groups after a user's first taken from the
  /// first group's tape (``_DrawTape``: exact), and those drawn because they did not match.
  public var drawsReplayed = 0
  public var drawsMissed = 0

  public init() {}

  /// Adds `other` into `self`.
  public mutating func merge(_ other: TrunkStatistics) {
    users += other.users
    forked += other.forked
    forkMilliseconds += other.forkMilliseconds
    trunkEvents += other.trunkEvents
    branchEvents += other.branchEvents
    branches += other.branches
    drawsReplayed += other.drawsReplayed
    drawsMissed += other.drawsMissed
  }
}

/// What a worker keeps to run users on a shared trunk: each policy's lane, the policy events
/// the lanes have not heard yet, the trunk's steps, and the state copied at the fork.
struct _Trunk {
  /// Each policy's lane before any user (built once per worker).
  var pristine: [_PolicyLane] = []
  /// Each policy's lane for the current user, told everything up to ``log``.
  var lanes: [_PolicyLane] = []
  /// Whether ``lanes`` were reset for the current user (done only when needed).
  var lanesStarted = false
  /// What the trunk would have told the policies and the lanes have not heard yet, with when.
  var log: [(event: PolicyEvent, time: Double)] = []
  /// The trunk's steps, for a sink that records them: each policy's sink gets them first.
  var steps: [TraceStep] = []
  /// What the user's logged events did to the screen and the scene (every one since the user
  /// began), and its count when the lanes last heard the log: a lane that heeds none of the
  /// logged kinds is caught up from it instead of hearing the log (``catchUpLanes()``).
  var digest = PolicyEventDigest()
  var lanesMark: UInt64 = 0

  // The state at the fork, restored before each policy's branch.
  var world = _World()
  var budget = 0
  /// Slots 0 ..< ``_WorldStreams/count``: the world's streams at the fork; then one slot per
  /// policy for its own stream (``policySlot(_:)``), and one per policy while its group runs
  /// (``UserSimulator/workSlot(_:)``).
  var bank = _GeneratorBank()
  /// What this worker shared since the engine last took it.
  var statistics = TrunkStatistics()

  /// The longest ``log`` kept before the lanes hear it: bounds memory on a long trunk.
  static let logCapacity = 4096

  /// The bank slot of policy `policy`'s own stream at the fork.
  func policySlot(_ policy: Int) -> Int { _WorldStreams.count + policy }
}

/// The shared trunk's hearing: no policy hears anything yet (no coordinator can act before a
/// message reaches the app), what each would hear is logged for its lane, and the world stops
/// before its first delivery (the fork).
enum _TrunkHearing: _Hearing {
  static func tell<Sink: SimulationSink>(
    _ event: PolicyEvent, in simulator: inout UserSimulator<Sink>, tally: inout Tally
  ) {
    if case .delivered = event {
      preconditionFailure("A shared trunk must fork before a delivery (deliversMessage)")
    }
    // Each lane hears this when the trunk forks; the timer is cancelled as by any answer that
    // asks for none.
    simulator.logForLanes(event)
    simulator.setTimer(.cancel)
  }

  static func record<Sink: SimulationSink>(
    _ seconds: Double, histogram: UInt8, lane: Int, in simulator: inout UserSimulator<Sink>,
    tally: inout Tally
  ) {
    // Durations are those of displayed messages: none before the first delivery.
    preconditionFailure("A shared trunk recorded a duration before any delivery")
  }

  /// On a shared trunk a step belongs to every policy: it waits for each one's sink.
  static func step<Sink: SimulationSink>(
    _ step: TraceStep, in simulator: inout UserSimulator<Sink>
  ) {
    simulator.trunk.steps.append(step)
  }

  static var stopsBeforeDelivery: Bool { true }
}

/// One user, simulated once while no policy can tell the lives apart and then once per
/// policy. With common random numbers a user's life is the same under every policy until a
/// message is first delivered to the app: before that no coordinator holds anything, so none
/// displays a sheet or asks for a timer (a ``Coordinator`` acts only on what it holds). So the
/// trunk runs the life once, logging what the policies would hear; just before the first
/// delivery it forks: each policy's lane hears the log, and the state (streams included) is
/// copied into each policy's branch. A user who never receives a message is simulated once.
/// With a sink that records nothing per policy, the branches are themselves shared while
/// policies answer alike (``runGroups(fork:tallies:)``).
///
/// Every policy's tally gets what it would get from its own run, in the same order: the trunk's
/// part goes into a trunk tally that the engine adds to every policy's, the branch's part into
/// the policy's tally; sinks get each policy's steps and outcomes in the order of its own run.
extension UserSimulator {
  /// Builds the lanes of `configurations`, in order: the policies of every ``runShared``.
  mutating func prepareLanes(_ configurations: [PolicyConfiguration]) {
    trunk.pristine = configurations.map(_PolicyLane.init)
    trunk.lanes = trunk.pristine
    trunk.bank.reserve(_WorldStreams.count + 2 * configurations.count)
    groups = _BranchGroups(screenCount: compiled.scenario.screens.count)
  }

  /// Runs user `user` of `replication` under every policy of ``prepareLanes(_:)``: the shared
  /// part into `trunkTally`, each policy's branch into `tallies[policy]`. Returns the policy
  /// whose life ran out of `eventBudget` (``budgetExceeded`` says where), or `nil`.
  mutating func runShared(
    seed: UInt64, replication: Int, user: Int, tallies: inout [Tally],
    trunk trunkTally: inout Tally,
    eventBudget: Int
  ) -> Int? {
    precondition(eventBudget > 0, "An event budget must be positive")
    beginUser(seed: seed, replication: replication, user: user)
    trunk.lanesStarted = false
    trunk.log.removeAll(keepingCapacity: true)
    trunk.steps.removeAll(keepingCapacity: true)
    trunk.digest.reset()
    trunk.lanesMark = 0
    drawProfileAndMessages()
    trunkTally.users += 1
    let before = segmentSnapshot(trunkTally)
    var budget = eventBudget
    let eventsBefore = trunkTally.events
    let fork = simulate(from: nil, tally: &trunkTally, budget: &budget, _TrunkHearing.self)
    trunk.statistics.users += 1
    trunk.statistics.trunkEvents += trunkTally.events - eventsBefore
    // The trunk is every policy's life so far: the first policy's run would stop here too.
    if budgetExceeded != nil { return 0 }
    guard let fork else {
      // Never delivered anything: the same life, and the same outcomes, under every policy.
      finishUser(tally: &trunkTally, since: before, countsUser: true, outcomes: false)
      if Sink.recordsSteps || Sink.recordsJourney || Sink.recordsOutcomes {
        for policy in trunk.pristine.indices
        where !Sink.recordsJourneyInGroups || sink.wantsJourney(of: policy) {
          beginOutput(policy: policy)
          if Sink.recordsOutcomes { emitOutcomes() }
        }
      }
      return nil
    }
    trunk.statistics.forked += 1
    trunk.statistics.forkMilliseconds += Int64((world.now * 1000).rounded())
    addToSegment(since: before, tally: &trunkTally, countsUser: true)
    if streams.countsVariates { drainVariateCounts(into: &trunkTally) }
    catchUpLanes()
    saveFork(budget: budget)
    if Self.groupsBranches && groupsAllowed {
      if runGroups(fork: fork, tallies: &tallies) { return nil }
      // A group ran out of its budget: find the first policy that does, branch by branch.
      budgetExceeded = nil
      restoreFork()
    }
    return runBranches(fork: fork, tallies: &tallies)
  }

  /// Simulates each policy's branch from the fork at `fork`, one after another, into
  /// `tallies[policy]`. Returns the policy whose branch ran out of its event budget, or `nil`.
  mutating func runBranches(fork: _Event, tallies: inout [Tally]) -> Int? {
    for policy in trunk.lanes.indices {
      if policy > 0 { restoreFork() }
      lane = trunk.lanes[policy]
      trunk.bank.restore(&policyStream, from: trunk.policySlot(policy))
      beginOutput(policy: policy)
      let branchBefore = segmentSnapshot(tallies[policy])
      var branchBudget = trunk.budget
      let eventsBefore = tallies[policy].events
      _ = simulate(
        from: fork, tally: &tallies[policy], budget: &branchBudget, _OwnLane.self)
      trunk.statistics.branchEvents += tallies[policy].events - eventsBefore
      trunk.statistics.branches += 1
      if budgetExceeded != nil { return policy }
      finishUser(tally: &tallies[policy], since: branchBefore, countsUser: false, outcomes: true)
    }
    return nil
  }

  /// Starts policy `policy`'s output for this user: the sink's `begin`, then the trunk's steps.
  mutating func beginOutput(policy: Int) {
    policyIndex = policy
    sink.begin(replication: replication, user: user, policy: policy)
    if Sink.recordsSteps || Sink.recordsJourney {
      for step in trunk.steps { sink.step(step) }
    }
  }

  /// Logs what the policies would hear now (see ``tell(_:tally:)``); a full log is heard.
  mutating func logForLanes(_ event: PolicyEvent) {
    trunk.log.append((event, world.now))
    trunk.digest.record(event)
    if trunk.log.count >= _Trunk.logCapacity { catchUpLanes() }
  }

  /// Every lane hears the log (resetting the lanes for this user first), which is emptied.
  mutating func catchUpLanes() {
    // The lanes take turns with the policy stream: each one's state is swapped in and out by
    // its generator, unconditionally. (Borrowing the non-copyable stream in these loops, or
    // swapping only for the lanes that draw, sends swiftc 6.3.1's -Onone pipeline into an
    // endless loop in MovedAsyncVarDebugInfoPropagator.)
    let generator = policyStream.generator
    if !trunk.lanesStarted {
      trunk.lanesStarted = true
      // `policyStream` is still as seeded for this user: nothing drew from it on the trunk.
      for policy in trunk.lanes.indices {
        trunk.lanes[policy] = trunk.pristine[policy]
        trunk.bank.save(generator, to: trunk.policySlot(policy))
      }
    }
    guard !trunk.log.isEmpty else { return }
    // The last launch or termination: a coordinator that forgets at launch
    // (``PolicyListener/keepsNothingAcrossLaunch``) needs to hear only what follows (a user's log holds
    // every session up to the fork; most of it is skipped).
    let lastReset =
      trunk.log.lastIndex { entry in
        switch entry.event {
        case .processLaunched, .processTerminated: true
        default: false
        }
      } ?? 0
    for policy in trunk.lanes.indices {
      trunk.bank.restore(generator, from: trunk.policySlot(policy))
      Self.replay(
        trunk.log, lastReset: lastReset, digest: trunk.digest, since: trunk.lanesMark,
        into: &trunk.lanes[policy], stream: &policyStream, actions: &actions)
      trunk.bank.save(generator, to: trunk.policySlot(policy))
    }
    trunk.log.removeAll(keepingCapacity: true)
    trunk.lanesMark = trunk.digest.count
  }

  /// Tells `lane` the logged events as ``tell(_:tally:)`` would have, with the listener's
  /// bookkeeping of ``routeBeforeListener(_:tally:)`` for events that carry no message: a
  /// launch draws when the listener exists; a launch, a termination and scene changes reach
  /// StoreKit's own handling too. A coordinator that forgets at launch hears the log from
  /// `lastReset` (the last launch or termination) on; every launch still draws, in order (the
  /// coordinators draw nothing, so the draws need not interleave with them). Traps if anything
  /// answers with a display or a timer: a policy that can act before its first message needs
  /// the trunk to fork earlier. A lane that heeds none of the kinds a trunk logs (launches,
  /// terminations, screens, scene changes; ``_PolicyLane/heeds``) is caught up from `digest`
  /// (the log's events are those it recorded after `mark`) instead.
  static func replay(
    _ log: [(event: PolicyEvent, time: Double)], lastReset: Int, digest: PolicyEventDigest,
    since mark: UInt64, into lane: inout _PolicyLane, stream: inout RandomStream,
    actions: inout PolicyActions
  ) {
    let logged: PolicyEventKinds = [
      .processLaunched, .processTerminated, .screenAppeared, .sceneActivated, .sceneDeactivated,
    ]
    if lane.heeds.isDisjoint(with: logged) {
      lane.catchUp(with: digest, since: mark)
      return
    }
    if lane.hasListenerDelay {
      let start = firstHeard(by: lane.storeKitDefault, lastReset: lastReset)
      for index in log.indices {
        let (event, time) = log[index]
        // The branch's and the group's routing rule (a launch draws, whatever `start`).
        let (toStoreKit, _) = lane.route(event, at: time, stream: &stream)
        guard toStoreKit, index >= start else { continue }
        lane.storeKitDefault.handle(event, at: time, into: &actions)
        precondition(actions.displays.isEmpty, "StoreKit displayed before any delivery")
      }
    }
    let start = firstHeard(by: lane.coordinator, lastReset: lastReset)
    for (event, time) in log[start...] {
      lane.coordinator.handle(event, at: time, into: &actions)
      precondition(
        actions.displays.isEmpty && actions.wakeAt == nil,
        "A policy acted before its first message; run with --no-shared-trunk and report it")
    }
  }

  /// The first entry of the log that `listener` must hear: the last launch or termination
  /// (`lastReset`) when it keeps nothing across it, else the first.
  static func firstHeard<Listener: PolicyListener>(by listener: Listener, lastReset: Int) -> Int {
    listener.keepsNothingAcrossLaunch ? lastReset : 0
  }

  /// Keeps the state at the fork (the event budget left included) for every branch.
  mutating func saveFork(budget: Int) {
    trunk.world = world
    trunk.budget = budget
    streams.save(to: trunk.bank, from: 0)
  }

  /// Puts the state back as it was at the fork.
  mutating func restoreFork() {
    world = trunk.world
    streams.restore(from: trunk.bank, from: 0)
  }
}
