import MessageDeferral

/// How a way of running the world (a strategy) hears it: what the world calls where a policy is
/// told something and where a duration is recorded, and whether the world stops before its
/// first delivery. A strategy is a type, passed to the world's functions as `H.self`, so each
/// strategy's world code is specialized at compile time: no mode flag is tested per event.
///
/// The strategies: ``_OwnLane`` (the policy being simulated hears every event: one life per
/// policy, and a branch after a fork), ``_TrunkHearing`` (the shared trunk: nobody hears yet,
/// each policy's lane gets a log) and ``_GroupHearing`` (a group of policies simulated once).
protocol _Hearing {
  /// Tells whoever listens in this strategy about `event`, and carries out the answer through
  /// the world's own functions (``UserSimulator/attemptDisplay(_:tally:_:)``,
  /// ``UserSimulator/setTimer(_:)``).
  static func tell<Sink: SimulationSink>(
    _ event: PolicyEvent, in simulator: inout UserSimulator<Sink>, tally: inout Tally)

  /// Records `seconds` into the latency (`histogram` 0) or hold (1) histogram of `lane`.
  static func record<Sink: SimulationSink>(
    _ seconds: Double, histogram: UInt8, lane: Int, in simulator: inout UserSimulator<Sink>,
    tally: inout Tally)

  /// Gives `step` of the user's life (``UserSimulator/trace(_:message:_:)``) to the sink, or
  /// keeps it for the sinks of every policy.
  static func step<Sink: SimulationSink>(_ step: TraceStep, in simulator: inout UserSimulator<Sink>)

  /// Whether the world stops before handling an event that delivers a message
  /// (``UserSimulator/deliversMessage(_:)``) and returns it: where a shared trunk forks.
  static var stopsBeforeDelivery: Bool { get }

  /// Carries out the timer of the answer ``tell(_:in:tally:)`` got from the lane in
  /// ``UserSimulator/lane``. The world keeps one timer (``UserSimulator/setTimer(_:)``); a
  /// group keeps one per member.
  static func setTimer<Sink: SimulationSink>(
    _ timer: _PolicyEffect.Timer, in simulator: inout UserSimulator<Sink>)

  /// A policy timer `event` (``_Event/Kind/policyTimer``) reached its time: tells whoever
  /// asked for it, if it is still live. Returns whether it counts as an event of the tally
  /// being simulated (a group counts a member's timers for that member alone).
  static func timerFired<Sink: SimulationSink>(
    _ event: _Event, in simulator: inout UserSimulator<Sink>, tally: inout Tally
  ) -> Bool
}

/// One timer for the life being simulated: the world's (``_World/timerEpoch``).
extension _Hearing {
  @inline(__always)
  static func setTimer<Sink: SimulationSink>(
    _ timer: _PolicyEffect.Timer, in simulator: inout UserSimulator<Sink>
  ) {
    simulator.setTimer(timer)
  }

  static func timerFired<Sink: SimulationSink>(
    _ event: _Event, in simulator: inout UserSimulator<Sink>, tally: inout Tally
  ) -> Bool {
    guard event.epoch == simulator.world.timerEpoch else { return false }
    simulator.tell(.timerFired, tally: &tally, Self.self)
    return true
  }
}

/// The world's side of hearing: where it tells, records, and what a policy's answer may do.
extension UserSimulator {
  /// Tells the listening policies about `event` (as strategy `H` has them listen).
  @inline(__always)
  mutating func tell<H: _Hearing>(_ event: PolicyEvent, tally: inout Tally, _: H.Type) {
    H.tell(event, in: &self, tally: &tally)
  }

  /// Records a duration into `tally`'s latency (`histogram` 0) or hold (1) histogram of `lane`,
  /// as strategy `H` records them.
  @inline(__always)
  mutating func recordDuration<H: _Hearing>(
    _ seconds: Double, histogram: UInt8, lane: Int, tally: inout Tally, _: H.Type
  ) {
    H.record(seconds, histogram: histogram, lane: lane, in: &self, tally: &tally)
  }

  /// Records a duration into `tally` itself (what a strategy that does not defer them does).
  mutating func recordDurationInTally(
    _ seconds: Double, histogram: UInt8, lane: Int, tally: inout Tally
  ) {
    if histogram == 0 {
      tally.latency[lane].record(seconds)
    } else {
      tally.hold[lane].record(seconds)
    }
  }

  /// A policy's timer: `.wake(t)` schedules it (any earlier one is cancelled), `.cancel`
  /// cancels it, `.keep` leaves it.
  mutating func setTimer(_ timer: _PolicyEffect.Timer) {
    switch timer {
    case .keep:
      break
    case .cancel:
      world.timerEpoch &+= 1
    case .wake(let time):
      world.timerEpoch &+= 1
      world.queue.push(time: time, payload: _Event(kind: .policyTimer, epoch: world.timerEpoch))
    }
  }
}
