import MessageDeferral

/// How the policy being simulated hears the world: its coordinator, and StoreKit's own handling
/// before a late listener exists.
extension UserSimulator {
  /// Tells the policy about `event` and carries out its answer: display attempts (whose
  /// results come back through the event queue, at the same time, after what is already
  /// queued for it) and its timer.
  mutating func tell(_ event: PolicyEvent, tally: inout Tally) {
    if inTrunk {
      // No policy can act before a delivery: each lane hears this when the trunk forks, and
      // the timer is cancelled as by any answer that asks for none.
      logForLanes(event)
      world.timerEpoch &+= 1
      return
    }
    if grouped {
      tellGroup(event, tally: &tally)
      return
    }
    if lane.listenerDelay != nil, routeBeforeListener(event, tally: &tally) { return }
    lane.coordinator.handle(event, at: world.now, into: &actions)
    traceDecision()
    for request in actions.displays {
      attemptDisplay(request, tally: &tally)
    }
    if let wake = actions.wakeAt {
      world.timerEpoch &+= 1
      world.queue.push(
        time: max(wake, world.now), payload: _Event(kind: .policyTimer, epoch: world.timerEpoch))
    } else {
      world.timerEpoch &+= 1  // cancels any earlier timer
    }
  }

  /// With a listener that attaches late (``PolicyConfiguration/listenerDelay``): a cold launch
  /// draws when it exists; a message delivered before then, and the results of its displays,
  /// go to StoreKit's own handling (`storekit-auto`) instead of the policy; the launch,
  /// termination and scene changes go to both. Returns whether the policy must not see it.
  mutating func routeBeforeListener(_ event: PolicyEvent, tally: inout Tally) -> Bool {
    guard let delay = lane.listenerDelay else { return false }
    let (toStoreKit, policySkips) = lane.route(
      event, at: world.now, delay: delay, stream: &policyStream)
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
      attemptDisplay(request, tally: &tally)
    }
    return policySkips
  }
}
