import MessageDeferral

/// What one policy does to the world in answer to one event: the displays it attempts, in
/// order (StoreKit's own, before a late listener exists, first), and what becomes of its timer.
/// Two policies whose displays are equal leave the simulated world in the same state (a group
/// keeps each member's timer apart, ``_BranchGroups/timerEpoch``).
struct _PolicyEffect: Equatable {
  enum Timer: Equatable {
    /// The timer is left as it is (the event went to StoreKit's own handling only).
    case keep
    /// Any earlier timer is cancelled.
    case cancel
    /// A timer fires at this time (already no earlier than the event).
    case wake(Double)
  }

  var displays: ContiguousArray<DisplayRequest> = []
  var timer = Timer.keep
}

/// The branches of a forked user, simulated in groups (``UserSimulator/runGroups(fork:tallies:)``).
struct _BranchGroups {
  /// The policies of the group being simulated, the first one's answers applied to the world.
  /// With one member left the group runs as a plain branch (``UserSimulator/tellLane``).
  var members: [Int] = []
  /// Groups still to simulate from the fork: policies that parted from a group.
  var pending: [[Int]] = []
  /// The durations a group recorded into histograms, in order: replayed into every member's
  /// tally, so that each histogram's floating-point sum is formed in its own run's order.
  var durations: [(histogram: UInt8, lane: UInt8, seconds: Double)] = []
  /// An empty tally of the scenario (the start of every group's ``tally``).
  var empty: Tally
  /// The journey steps of the group being simulated, for a sink that takes journeys from
  /// groups (``SimulationSink/recordsJourneyInGroups``): given to each member that is still in
  /// the group at the horizon (``UserSimulator/finishGroup``), after the trunk's.
  var journey: [TraceStep] = []
  /// What the group's events did to the screen and the scene, for the members that were not
  /// asked about some of them (``PolicyListener/heeds``).
  var digest = PolicyEventDigest()
  /// Indexed by policy, for the group's members: what the member's lane heeds after the last
  /// event it heard, and the ``digest``'s count then (its mark).
  var heeds: [PolicyEventKinds] = []
  var heard: [UInt64] = []
  /// What some member heeds: the union of ``heeds`` over ``members`` as of the last event told
  /// to the group (after a member's own timer, a superset of it). An event of a kind outside it
  /// is heeded by no member, so every answer is the unasked one and nobody parts:
  /// ``UserSimulator/tellGroup(_:tally:_:)`` then asks nobody.
  var anyHeeds: PolicyEventKinds = .all
  /// Indexed by policy: the epoch of the member's live timer (0: none). A timer is the
  /// policy's, not the world's: members whose answers differ only in their timers stay in
  /// one group, each with its own timer event (``UserSimulator/setMemberTimer(_:_:)``), which
  /// only that member hears (``UserSimulator/tellGroupTimer(_:tally:)``).
  var timerEpoch: [UInt32] = []
  /// Indexed by policy: the timer a member answered with while an event is told, carried
  /// out after the group's displays (as its own life sets its timer after its displays).
  var timers: [_PolicyEffect.Timer] = []
  /// Indexed by policy: the member's timer events in this group's life, which count as
  /// events for that member only (added to its tally in ``UserSimulator/finishGroup``).
  var timerEvents: [Int] = []

  init(screenCount: Int) {
    empty = Tally(screenCount: screenCount)
  }
}

/// A group of policies simulated once (``UserSimulator/runGroups(fork:tallies:)``): every
/// member's lane answers each event, the first member's answer is carried out; with one member
/// left, it hears as a plain branch. Durations wait in ``_BranchGroups/durations`` for every
/// member's tally.
enum _GroupHearing: _Hearing {
  static func tell<Sink: SimulationSink>(
    _ event: PolicyEvent, in simulator: inout UserSimulator<Sink>, tally: inout Tally
  ) {
    if simulator.groups.members.count > 1 {
      simulator.tellGroup(event, tally: &tally, _GroupHearing.self)
    } else {
      simulator.tellSoleMember(event, tally: &tally, _GroupHearing.self)
    }
  }

  static func record<Sink: SimulationSink>(
    _ seconds: Double, histogram: UInt8, lane: Int, in simulator: inout UserSimulator<Sink>,
    tally: inout Tally
  ) {
    simulator.groups.durations.append((histogram, UInt8(lane), seconds))
  }

  /// Only journey steps reach a group (``UserSimulator/groupsBranches``): kept until the
  /// group ends, for the members still in it then.
  static func step<Sink: SimulationSink>(
    _ step: TraceStep, in simulator: inout UserSimulator<Sink>
  ) {
    simulator.groups.journey.append(step)
  }

  static var stopsBeforeDelivery: Bool { false }

  /// A group of one sets its member's own timer (a larger group sets each member's in
  /// ``UserSimulator/tellGroup(_:tally:_:)``).
  static func setTimer<Sink: SimulationSink>(
    _ timer: _PolicyEffect.Timer, in simulator: inout UserSimulator<Sink>
  ) {
    simulator.setMemberTimer(simulator.groups.members[0], timer)
  }

  /// A member's timer: live while it is the member's last (a member that left the group has
  /// none); heard by that member alone, and counted as its event alone.
  static func timerFired<Sink: SimulationSink>(
    _ event: _Event, in simulator: inout UserSimulator<Sink>, tally: inout Tally
  ) -> Bool {
    let owner = Int(event.index)
    guard event.epoch != 0, simulator.groups.timerEpoch[owner] == event.epoch else {
      return false
    }
    simulator.groups.timerEpoch[owner] = 0
    simulator.groups.timerEvents[owner] += 1
    if simulator.groups.members.count > 1 {
      simulator.tellGroupTimer(owner, tally: &tally)
    } else {
      simulator.tellSoleMember(.timerFired, tally: &tally, _GroupHearing.self)
    }
    return false
  }
}

/// A forked user's branches, shared lazily: policies stay in one group, whose world is
/// simulated once, while every member answers every event with the same effect on the world
/// (``_PolicyEffect``: the same display attempts; each member keeps its own timer, an event only
/// it hears, so answers that differ only in their timers do not part). Each member's lane hears
/// every event, with its own policy stream (``_Trunk/policySlot(_:)``, as in its own branch). At the
/// first event where a member answers differently from the group's first member, the member
/// leaves the group: the group goes on with the first member's answer, and the members that
/// left are simulated again from the fork, as a group of their own (which may part again).
/// Every group simulation keeps its first member to the horizon, so a user costs at most one
/// simulation per policy from the fork, as unshared branches did, and usually far fewer.
///
/// Used only with sinks that record nothing per policy (``NoSink``), or only one policy's
/// journey (``JourneySink``: each group's journey steps go, after the trunk's, to its members
/// still in it at the horizon): steps and outcomes are per policy and in policy order, so other
/// recording sinks take the branch-per-policy path.
extension UserSimulator {
  /// Whether branches are simulated in groups with this sink: one that records nothing per
  /// policy, or only journeys it may take from groups (``SimulationSink/recordsJourneyInGroups``).
  static var groupsBranches: Bool {
    !(Sink.recordsSteps || Sink.recordsOutcomes)
      && (!Sink.recordsJourney || Sink.recordsJourneyInGroups)
  }

  /// The bank slot of policy `policy`'s stream while its group runs.
  func workSlot(_ policy: Int) -> Int { trunk.policySlot(trunk.lanes.count + policy) }

  /// Simulates the branches of a user forked at `fork` (the state as ``saveFork(budget:)``
  /// kept it) in groups, adding each policy's branch to `tallies[policy]`. Returns `false`
  /// when a group ran out of its event budget (``budgetExceeded`` set): the caller then finds
  /// the policy that did, branch by branch.
  mutating func runGroups(fork: _Event, tallies: inout [Tally]) -> Bool {
    let count = trunk.lanes.count
    if branchLanes.count != count { branchLanes = trunk.lanes }
    groups.pending.removeAll(keepingCapacity: true)
    groups.pending.append(Array(0..<count))
    if groups.heeds.count != count {
      groups.heeds = Array(repeating: .all, count: count)
      groups.heard = Array(repeating: 0, count: count)
      groups.timerEpoch = Array(repeating: 0, count: count)
      groups.timers = Array(repeating: .cancel, count: count)
      groups.timerEvents = Array(repeating: 0, count: count)
    }
    // The first group's lognormal and alias-table draws are kept, and the groups after it,
    // restarting from the same fork, take them while they draw the same (``_DrawTape``: exact,
    // checked draw by draw).
    streams.recordTapes()
    defer {
      streams.stopTapes()
      streams.takeTapeCounts(into: &trunk.statistics)
    }
    var first = true
    while let group = groups.pending.popLast() {
      if !first {
        restoreFork()
        streams.replayTapes()
      }
      first = false
      trunk.statistics.branches += 1
      let generator = policyStream.generator
      var anyHeeds: PolicyEventKinds = []
      for policy in group {
        branchLanes[policy] = trunk.lanes[policy]
        trunk.bank.restore(generator, from: trunk.policySlot(policy))
        trunk.bank.save(generator, to: workSlot(policy))
        groups.heeds[policy] = Self.heeds(of: &branchLanes[policy])
        groups.heard[policy] = 0
        anyHeeds.formUnion(groups.heeds[policy])
      }
      groups.digest.reset()
      groups.members = group
      groups.anyHeeds = anyHeeds
      // No timer yet: the fork's queue holds none (the trunk asks for none).
      for policy in 0..<count {
        groups.timerEpoch[policy] = 0
        groups.timerEvents[policy] = 0
      }
      if group.count == 1 { swap(&lane, &branchLanes[group[0]]) }
      // What the group's life adds to a tally, apart from the durations.
      var tally = groups.empty
      groups.durations.removeAll(keepingCapacity: true)
      if Sink.recordsJourney { groups.journey.removeAll(keepingCapacity: true) }
      var budget = trunk.budget
      let before = segmentSnapshot(tally)
      _ = simulate(from: fork, tally: &tally, budget: &budget, _GroupHearing.self)
      trunk.statistics.branchEvents += tally.events + groups.timerEvents.reduce(0, +)
      if budgetExceeded != nil { return false }
      finishGroup(&tally, since: before, tallies: &tallies)
    }
    return true
  }

  /// At the horizon: the group's life, finished once, added to every member's tally (the
  /// variates, drawn once, to the first member's only).
  mutating func finishGroup(
    _ tally: inout Tally, since before: _SegmentSnapshot, tallies: inout [Tally]
  ) {
    // Consent latencies by segment are durations too: recorded into each member below (into
    // the group's tally they would clone a histogram shared with the empty tally, only to be
    // thrown away).
    finishUser(
      tally: &tally, since: before, countsUser: false, outcomes: false, consentLatencies: false)
    let segment = UserSegment.of(isNew: world.profile.isNew, subscriber: world.profile.subscriber)
      .rawValue
    if Sink.recordsJourney {
      // The group's world was each remaining member's from the fork: its journey is the
      // trunk's steps, then the group's.
      for policy in groups.members where sink.wantsJourney(of: policy) {
        beginOutput(policy: policy)
        for step in groups.journey { sink.step(step) }
      }
    }
    for (rank, policy) in groups.members.enumerated() {
      if rank == 1 { tally.variates = VariateCounts() }
      tallies[policy].merge(tally)
      tallies[policy].events += groups.timerEvents[policy]
      for duration in groups.durations {
        let lane = Int(duration.lane)
        if duration.histogram == 0 {
          tallies[policy].latency[lane].record(duration.seconds)
        } else {
          tallies[policy].hold[lane].record(duration.seconds)
        }
      }
      for record in world.messages
      where record.reason == .priceIncreaseConsent && record.state == .displayed {
        tallies[policy].segments[segment].consentLatency.record(
          record.displayedAt - record.issuedAt)
      }
    }
  }

  /// ``tell(_:tally:)`` for a group: every member's lane that heeds the event answers (one that
  /// does not answers no display and no timer unasked, and is caught up from the group's
  /// ``_BranchGroups/digest`` when next asked); members whose displays differ from the first
  /// member's leave the group (to be simulated again from the fork); the first member's
  /// displays are carried out, then each member's own timer is set. A group left with one
  /// member goes on as a plain branch.
  mutating func tellGroup<H: _Hearing>(_ event: PolicyEvent, tally: inout Tally, _: H.Type) {
    // Only a launch draws from a policy stream (a late listener's delay).
    let draws: Bool
    if case .processLaunched = event { draws = true } else { draws = false }
    let kind = PolicyEventKinds(event)
    // No member heeds it: every member answers unasked (no display; no timer, and it had
    // none: an idle coordinator's last answer cancelled it), all alike, and is caught up from
    // the digest when next asked.
    guard groups.anyHeeds.contains(kind) else {
      groups.digest.record(event)
      return
    }
    let generator = policyStream.generator
    let now = world.now
    let before = groups.digest.count
    let mark = before &+ 1
    var kept = 0
    var parted = false
    var anyHeeds: PolicyEventKinds = []
    // Whether the first member was not asked: its answer is then no display.
    var leadUnasked = false
    for rank in groups.members.indices {
      let policy = groups.members[rank]
      let unasked = !groups.heeds[policy].contains(kind)
      if !unasked {
        if groups.heard[policy] != before {
          branchLanes[policy].catchUp(with: groups.digest, since: groups.heard[policy])
        }
        trunk.bank.swapIn(generator, from: workSlot(policy), when: draws)
        // Unconditionally, and into one place: see ``catchUpLanes()`` on swiftc -Onone.
        Self.answer(
          event, at: now, lane: &branchLanes[policy], stream: &policyStream, actions: &actions,
          effect: &memberEffect, heeds: &groups.heeds[policy])
        trunk.bank.swapOut(generator, to: workSlot(policy), when: draws)
        groups.heard[policy] = mark
        groups.timers[policy] = memberEffect.timer
      } else {
        assert(groups.timerEpoch[policy] == 0, "An unasked member has a timer")
        groups.timers[policy] = .keep
      }
      let alike: Bool
      if rank == 0 {
        leadUnasked = unasked
        if !unasked { swap(&leadEffect, &memberEffect) }
        alike = true
      } else if unasked {
        alike = leadUnasked || leadEffect.displays.isEmpty
      } else {
        alike =
          leadUnasked
          ? memberEffect.displays.isEmpty : memberEffect.displays == leadEffect.displays
      }
      if alike {
        groups.members[kept] = policy
        kept += 1
        anyHeeds.formUnion(groups.heeds[policy])
      } else {
        if !parted { groups.pending.append([]) }
        parted = true
        groups.pending[groups.pending.count - 1].append(policy)
        groups.timerEpoch[policy] = 0
      }
    }
    groups.digest.record(event)
    groups.anyHeeds = anyHeeds
    if parted { groups.members.removeLast(groups.members.count - kept) }
    if kept == 1 { becomeSole() }
    if !leadUnasked {
      for request in leadEffect.displays {
        attemptDisplay(request, tally: &tally, H.self)
      }
    }
    // After the displays, as each member's own life sets its timer.
    for policy in groups.members {
      setMemberTimer(policy, groups.timers[policy])
    }
  }

  /// A member's timer fired in a group of more than one: only that member hears it (the
  /// others' lives have no such event). Without a display the group stays whole; with one, the
  /// group goes on with its first member: the owner leaves it, or, when the owner is the first
  /// member, every other member does.
  mutating func tellGroupTimer(_ owner: Int, tally: inout Tally) {
    let event = PolicyEvent.timerFired
    if groups.heard[owner] != groups.digest.count {
      branchLanes[owner].catchUp(with: groups.digest, since: groups.heard[owner])
    }
    // A timer draws nothing from the policy stream (only a launch does): no swap.
    Self.answer(
      event, at: world.now, lane: &branchLanes[owner], stream: &policyStream, actions: &actions,
      effect: &memberEffect, heeds: &groups.heeds[owner])
    groups.digest.record(event)
    groups.heard[owner] = groups.digest.count
    guard !memberEffect.displays.isEmpty else {
      groups.anyHeeds.formUnion(groups.heeds[owner])
      setMemberTimer(owner, memberEffect.timer)
      return
    }
    let leads = groups.members[0] == owner
    if leads {
      groups.pending.append(Array(groups.members.dropFirst()))
      for policy in groups.members.dropFirst() { groups.timerEpoch[policy] = 0 }
      groups.members.removeLast(groups.members.count - 1)
    } else {
      groups.pending.append([owner])
      groups.members.removeAll { $0 == owner }
    }
    groups.anyHeeds = groups.members.reduce(into: []) { $0.formUnion(groups.heeds[$1]) }
    if groups.members.count == 1 { becomeSole() }
    guard leads else { return }
    swap(&leadEffect, &memberEffect)
    for request in leadEffect.displays {
      attemptDisplay(request, tally: &tally, _GroupHearing.self)
    }
    setMemberTimer(owner, leadEffect.timer)
  }

  /// The group is down to one member: its lane moves to ``lane`` (caught up) and its stream to
  /// the policy stream, and it hears as a plain branch from now on.
  mutating func becomeSole() {
    let policy = groups.members[0]
    if groups.heard[policy] != groups.digest.count {
      branchLanes[policy].catchUp(with: groups.digest, since: groups.heard[policy])
    }
    swap(&lane, &branchLanes[policy])
    trunk.bank.restore(policyStream.generator, from: workSlot(policy))
  }

  /// Carries out member `policy`'s timer answer: a wake is an event of its own, with an epoch
  /// no other timer has (from the world's count) and the policy as its index.
  mutating func setMemberTimer(_ policy: Int, _ timer: _PolicyEffect.Timer) {
    switch timer {
    case .keep:
      break
    case .cancel:
      groups.timerEpoch[policy] = 0
    case .wake(let time):
      world.timerEpoch &+= 1
      groups.timerEpoch[policy] = world.timerEpoch
      world.queue.push(
        time: time,
        payload: _Event(kind: .policyTimer, epoch: world.timerEpoch, index: Int32(policy)))
    }
  }

  /// ``tell(_:tally:)`` for a group of one (its lane in ``lane``): a plain branch, except that an
  /// event the lane does not heed is not told (its answer: no display, and no timer, which it
  /// had none of), its timer is its own (``_GroupHearing/setTimer(_:in:)``), and the lane is
  /// caught up from the group's digest when next told.
  mutating func tellSoleMember<H: _Hearing>(_ event: PolicyEvent, tally: inout Tally, _: H.Type) {
    let policy = groups.members[0]
    guard groups.heeds[policy].contains(PolicyEventKinds(event)) else {
      assert(groups.timerEpoch[policy] == 0, "An unasked member has a timer")
      groups.digest.record(event)
      return
    }
    if groups.heard[policy] != groups.digest.count {
      lane.catchUp(with: groups.digest, since: groups.heard[policy])
    }
    groups.digest.record(event)
    groups.heard[policy] = groups.digest.count
    tellLane(event, tally: &tally, H.self)
    groups.heeds[policy] = Self.heeds(of: &lane)
  }

  /// What `lane` heeds (``_PolicyLane/heeds``), read in place: a lane read out of an array
  /// by value is copied, every reference it holds retained and released.
  static func heeds(of lane: inout _PolicyLane) -> PolicyEventKinds { lane.heeds }

  /// What `lane` does in answer to `event` at `now`, as ``tell(_:tally:)`` and
  /// ``routeBeforeListener(_:tally:)`` would do it, without touching the world; then what it
  /// heeds (`heeds`).
  static func answer(
    _ event: PolicyEvent, at now: Double, lane: inout _PolicyLane, stream: inout RandomStream,
    actions: inout PolicyActions, effect: inout _PolicyEffect, heeds: inout PolicyEventKinds
  ) {
    defer { heeds = lane.heeds }
    if !effect.displays.isEmpty { effect.displays.removeAll(keepingCapacity: true) }
    if lane.hasListenerDelay {
      let (toStoreKit, policySkips) = lane.route(event, at: now, stream: &stream)
      if toStoreKit {
        lane.storeKitDefault.handle(event, at: now, into: &actions)
        // `effect.displays` is empty here: take the buffer rather than copy it.
        if !actions.displays.isEmpty { swap(&effect.displays, &actions.displays) }
      }
      if policySkips {
        effect.timer = .keep
        return
      }
    }
    lane.coordinator.handle(event, at: now, into: &actions)
    if !actions.displays.isEmpty {
      // Usually the only displays: take the buffer rather than copy it (both keep capacity).
      if effect.displays.isEmpty {
        swap(&effect.displays, &actions.displays)
      } else {
        effect.displays.append(contentsOf: actions.displays)
      }
    }
    if let wake = actions.wakeAt {
      effect.timer = .wake(max(wake, now))
    } else {
      effect.timer = .cancel
    }
  }
}
