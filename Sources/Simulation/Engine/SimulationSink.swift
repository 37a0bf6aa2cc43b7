import MessageDeferral

/// What happened at one step of a traced user's life.
public enum TraceWhat: String, Sendable {
  case coldLaunch = "cold launch"
  case warmResume = "warm resume"
  case sceneActivated = "scene active"
  case screenAppeared = "screen"
  case background = "background"
  case terminated = "process terminated"
  case churned = "never returns"
  case issued = "issued"
  case delivered = "delivered"
  case expired = "expired"
  case displayed = "displayed"
  case displayedForced = "displayed (forced)"
  case displayFailed = "display failed"
  case displayFailedNoScene = "display failed: no active scene"
  case displayNoOp = "display: nothing shown"
  case sheetsDismissed = "sheets dismissed"
  case quitAfterSheet = "quits after sheet"
  /// The policy's answer to the step before.
  case policy = "policy"
}

/// One row of a trace.
public struct TraceStep: Sendable {
  public var time: Double
  /// The current screen (index), or -1 before the first.
  public var screen: Int
  public var what: TraceWhat
  /// The message concerned (index within the user), or -1.
  public var message: Int
  public var reason: Reason?
  /// What the policy (or StoreKit's default) decided when told of this step, for a
  /// ``TraceWhat/policy`` row; `nil` otherwise. Reports renders it as words.
  public var decision: TraceDecision?
  /// The consent deadline of the message concerned, when it has one (what the app knows from
  /// the renewal date: the conformance replay passes it to the shipped controller).
  public var deadline: Double? = nil
  /// For a display row (``TraceWhat/displayed``, ``TraceWhat/displayedForced``): what the user
  /// did with the sheet (`none` without a response model).
  public var response: SheetResponse = .none
}

/// What a policy answered in a traced step: a record, with times in seconds; the words a
/// reader sees are written by Reports (`TraceText`).
public struct TraceDecision: Sendable, Equatable {
  /// What was decided.
  public enum Choice: Sendable, Equatable {
    /// Display these messages now.
    case display([TracedDisplay])
    /// Hold `count` messages (0: nothing is held), for `reason` (the coordinator's own
    /// account of its gate, scene or trigger; empty when nothing is held).
    case hold(count: Int, reason: String)
    /// Before the app's listener is ready, StoreKit's default handles a delivered message:
    /// displays it or holds it; the listener is ready at `listenerReadyAt`.
    case storeKit(displays: Bool, listenerReadyAt: Double)
  }

  public var choice: Choice
  /// When the policy asked to be woken, if it did.
  public var wakeAt: Double?

  public init(_ choice: Choice, wakeAt: Double? = nil) {
    self.choice = choice
    self.wakeAt = wakeAt
  }
}

/// One display a traced decision asked for: the message's index within the user, and
/// whether the display was forced (a fallback).
public struct TracedDisplay: Sendable, Equatable {
  public var message: Int
  public var forced: Bool

  public init(message: Int, forced: Bool) {
    self.message = message
    self.forced = forced
  }
}

/// What became of one message at the horizon: a row of `messages.csv`.
public struct MessageOutcome: Sendable {
  public var message: Int
  public var reason: Reason
  public var issuedAt: Double
  public var deliveredAt: Double?
  public var displayedAt: Double?
  /// Screen it was shown over (index).
  public var screen: Int?
  public var forced: Bool
  public var attempts: Int
  public var outcome: Fate
  /// What the user did with its sheet (``ResponseModel``): `none` when not shown or without a
  /// response model.
  public var response = SheetResponse.none

  /// What became of a message by the horizon; the raw value is its text in `messages.csv`.
  public enum Fate: String, Sendable, CaseIterable {
    case displayed
    case expired
    case pending
  }
}

/// Receives what a simulated user does. The engine is generic over it, so a sink that
/// records nothing (``NoSink``) costs nothing: the checks are on static constants.
public protocol SimulationSink: SendableMetatype {
  /// Whether every step is wanted (`deferral-sim trace`).
  static var recordsSteps: Bool { get }
  /// Whether each message's outcome is wanted (`messages.csv`).
  static var recordsOutcomes: Bool { get }
  mutating func step(_ step: TraceStep)
  /// Called at the horizon for each message of the user just simulated.
  mutating func outcome(_ outcome: MessageOutcome, policy: Int, replication: Int, user: Int)
  /// Whether the journey steps (launches, resumes, screens, backgrounds) are wanted without
  /// the rest (`run --events-log`, `fit`'s predictive check). Default: false.
  static var recordsJourney: Bool { get }
  /// Called before each (replication, user, policy) is simulated. Default: nothing.
  mutating func begin(replication: Int, user: Int, policy: Int)
  /// Whether the journeys may come from shared branches (``recordsJourney`` without steps or
  /// outcomes): each policy's journey of a forked user is then given whole when the group
  /// simulation that keeps the policy to the horizon ends, so a user's policies come in the
  /// order their groups end, not in policy order. True only for a sink that keeps one
  /// policy's rows (``JourneySink``). Default: false (every policy's branch of its own).
  static var recordsJourneyInGroups: Bool { get }
  /// Whether policy `policy`'s journey is wanted at all, for a sink that takes journeys from
  /// groups: the others' are not given. Default: every policy's.
  func wantsJourney(of policy: Int) -> Bool
}

extension SimulationSink {
  public static var recordsJourney: Bool { false }
  public static var recordsJourneyInGroups: Bool { false }
  public func wantsJourney(of policy: Int) -> Bool { true }
  public mutating func begin(replication: Int, user: Int, policy: Int) {}
}

extension TraceWhat {
  /// The steps an analytics log would see: launches, resumes, screens and backgrounds.
  var isJourney: Bool {
    switch self {
    case .coldLaunch, .warmResume, .screenAppeared, .background: true
    default: false
    }
  }

  /// What `events.csv` makes of the step: whether it opens a session (a cold launch, a warm
  /// resume), and the row it writes: a screen view (`false`: a screen appearing, or the screen
  /// a warm resume returns to), a return to the background (`true`), or none (`nil`).
  public var eventsLogRow: (opensSession: Bool, background: Bool?) {
    switch self {
    case .coldLaunch: (true, nil)
    case .warmResume: (true, false)
    case .screenAppeared: (false, false)
    case .background: (false, true)
    default: (false, nil)
    }
  }
}

/// The sink of a plain run: records nothing.
public struct NoSink: SimulationSink {
  public init() {}
  public static var recordsSteps: Bool { false }
  public static var recordsOutcomes: Bool { false }
  public mutating func step(_ step: TraceStep) {}
  public mutating func outcome(_ outcome: MessageOutcome, policy: Int, replication: Int, user: Int)
  {}
}

/// A sink that keeps everything in memory: for one user's trace (never for a whole run).
public struct TraceRecorder: SimulationSink {
  public var steps: [TraceStep] = []
  public var outcomes: [MessageOutcome] = []
  /// At most this many steps are kept (a looping life's first ones); the rest are counted in
  /// ``droppedSteps``, so a trace's memory is bounded whatever the life.
  public var maximumSteps = Int.max
  public var droppedSteps = 0
  public init() {}
  public static var recordsSteps: Bool { true }
  public static var recordsOutcomes: Bool { true }
  public mutating func step(_ step: TraceStep) {
    if steps.count < maximumSteps { steps.append(step) } else { droppedSteps += 1 }
  }
  public mutating func outcome(_ outcome: MessageOutcome, policy: Int, replication: Int, user: Int)
  {
    outcomes.append(outcome)
  }
}

extension UserSimulator {
  /// Records a step of the user's life for the sink, as strategy `H` routes steps.
  @inline(__always)
  mutating func trace<H: _Hearing>(_ what: TraceWhat, message: Int, _: H.Type) {
    guard Sink.recordsSteps || (Sink.recordsJourney && what.isJourney) else { return }
    var step = TraceStep(
      time: world.now, screen: world.currentScreen, what: what, message: message,
      reason: message >= 0 ? world.messages[message].reason : nil)
    if message >= 0, world.messages[message].deadline.isFinite {
      step.deadline = world.messages[message].deadline
    }
    if what == .displayed || what == .displayedForced {
      step.response = world.messages[message].response
    }
    H.step(step, in: &self)
  }

  /// Gives the sink what became of each message of the user just simulated (`messages.csv`).
  mutating func emitOutcomes() {
    for (index, record) in world.messages.enumerated() {
      sink.outcome(
        MessageOutcome(
          message: index, reason: record.reason, issuedAt: record.issuedAt,
          deliveredAt: record.deliveredAt.isNaN ? nil : record.deliveredAt,
          displayedAt: record.state == .displayed ? record.displayedAt : nil,
          screen: record.screen >= 0 ? Int(record.screen) : nil, forced: record.forced,
          attempts: Int(record.attempts),
          outcome: record.state == .displayed
            ? .displayed : record.state == .expired ? .expired : .pending,
          response: record.response),
        policy: policyIndex, replication: replication, user: user)
    }
  }

  /// Adds the policy's answer to the last recorded step (tracing only).
  mutating func traceDecision() {
    guard Sink.recordsSteps else { return }
    // Nothing to say when nothing is held, shown or scheduled.
    if actions.displays.isEmpty, actions.wakeAt == nil, lane.coordinator.pendingCount == 0 {
      return
    }
    let choice: TraceDecision.Choice
    if !actions.displays.isEmpty {
      choice = .display(
        actions.displays.map { TracedDisplay(message: Int($0.message.id), forced: $0.forced) })
    } else {
      let held = lane.coordinator.pendingCount
      choice = .hold(count: held, reason: held > 0 ? lane.coordinator.holdReason() : "")
    }
    sink.step(
      TraceStep(
        time: world.now, screen: world.currentScreen, what: .policy, message: -1, reason: nil,
        decision: TraceDecision(choice, wakeAt: actions.wakeAt)))
  }
}
