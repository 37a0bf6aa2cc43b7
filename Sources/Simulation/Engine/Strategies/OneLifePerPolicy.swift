import MessageDeferral

/// One life per policy: the policy being simulated (``UserSimulator/lane``) hears every event of
/// its own life. The oracle of the shared trunk (`--no-shared-trunk`), and how a branch runs
/// after a fork.
enum _OwnLane: _Hearing {
  static func tell<Sink: SimulationSink>(
    _ event: PolicyEvent, in simulator: inout UserSimulator<Sink>, tally: inout Tally
  ) {
    simulator.tellLane(event, tally: &tally, _OwnLane.self)
  }

  @inline(__always)
  static func record<Sink: SimulationSink>(
    _ seconds: Double, histogram: UInt8, lane: Int, in simulator: inout UserSimulator<Sink>,
    tally: inout Tally
  ) {
    simulator.recordDurationInTally(seconds, histogram: histogram, lane: lane, tally: &tally)
  }

  @inline(__always)
  static func step<Sink: SimulationSink>(
    _ step: TraceStep, in simulator: inout UserSimulator<Sink>
  ) {
    simulator.sink.step(step)
  }

  static var stopsBeforeDelivery: Bool { false }
}

extension UserSimulator {
  /// Runs user `user` of replication `replication` under `policy`, adding what happened to
  /// `tally`.
  mutating func run(
    seed: UInt64, replication: Int, user: Int, policyIndex: Int, policy: PolicyConfiguration,
    tally: inout Tally, eventBudget: Int = EngineLimits.eventsPerUser
  ) {
    run(
      seed: seed, replication: replication, user: user, policyIndex: policyIndex,
      lane: _PolicyLane(policy), tally: &tally, eventBudget: eventBudget)
  }

  /// As ``run(seed:replication:user:policyIndex:policy:tally:eventBudget:)``, from a lane
  /// built beforehand (a worker builds one per policy and copies it for each user).
  mutating func run(
    seed: UInt64, replication: Int, user: Int, policyIndex: Int, lane: _PolicyLane,
    tally: inout Tally, eventBudget: Int = EngineLimits.eventsPerUser
  ) {
    precondition(eventBudget > 0, "An event budget must be positive")
    beginUser(seed: seed, replication: replication, user: user)
    self.policyIndex = policyIndex
    self.lane = lane
    sink.begin(replication: replication, user: user, policy: policyIndex)
    drawProfileAndMessages()
    tally.users += 1
    let before = segmentSnapshot(tally)
    var budget = eventBudget
    _ = simulate(from: nil, tally: &tally, budget: &budget, _OwnLane.self)
    finishUser(tally: &tally, since: before, countsUser: true, outcomes: true)
  }

  /// Tells the policy being simulated (``lane``) about `event` and carries out its answer:
  /// display attempts (whose results come back through the event queue, at the same time,
  /// after what is already queued for it) and its timer.
  mutating func tellLane<H: _Hearing>(_ event: PolicyEvent, tally: inout Tally, _: H.Type) {
    if lane.hasListenerDelay, routeBeforeListener(event, tally: &tally, H.self) { return }
    lane.coordinator.handle(event, at: world.now, into: &actions)
    traceDecision()
    for request in actions.displays {
      attemptDisplay(request, tally: &tally, H.self)
    }
    // No wake cancels any earlier timer.
    H.setTimer(actions.wakeAt.map { .wake(max($0, world.now)) } ?? .cancel, in: &self)
  }

  /// With a listener that attaches late (``PolicyConfiguration/listenerDelay``): a cold launch
  /// draws when it exists; a message delivered before then, and the results of its displays,
  /// go to StoreKit's own handling (`storekit-auto`) instead of the policy; the launch,
  /// termination and scene changes go to both. Returns whether the policy must not see it.
  mutating func routeBeforeListener<H: _Hearing>(
    _ event: PolicyEvent, tally: inout Tally, _: H.Type
  ) -> Bool {
    guard lane.hasListenerDelay else { return false }
    let (toStoreKit, policySkips) = lane.route(event, at: world.now, stream: &policyStream)
    guard toStoreKit else { return false }
    // StoreKit's default asks for no timer; the policy's timer is left as it is.
    lane.storeKitDefault.handle(event, at: world.now, into: &actions)
    if Sink.recordsSteps, case .delivered = event {
      sink.step(
        TraceStep(
          time: world.now, screen: world.currentScreen, what: .policy, message: -1, reason: nil,
          decision: TraceDecision(
            .storeKit(
              displays: !actions.displays.isEmpty, listenerReadyAt: lane.listenerReadyAt))))
    }
    for request in actions.displays {
      attemptDisplay(request, tally: &tally, H.self)
    }
    return policySkips
  }
}
