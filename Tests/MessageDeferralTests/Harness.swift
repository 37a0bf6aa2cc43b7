import MessageDeferral

/// What a coordinator answered to one event, in a shape that compares in one `#expect`.
struct Answer: Equatable, CustomStringConvertible {
  /// The ids of the requested displays, in order.
  var shown: [MessageID] = []
  /// The ids of the requested displays that are forced (past a ceiling), in order.
  var forced: [MessageID] = []
  var wakeAt: Double?

  init(shown: [MessageID] = [], forced: [MessageID] = [], wakeAt: Double? = nil) {
    self.shown = shown
    self.forced = forced
    self.wakeAt = wakeAt
  }

  init(_ actions: PolicyActions) {
    shown = actions.displays.map(\.message.id)
    forced = actions.displays.filter(\.forced).map(\.message.id)
    wakeAt = actions.wakeAt
  }

  /// Nothing to display, no timer.
  static let nothing = Answer()

  var description: String {
    "shown \(shown) forced \(forced) wakeAt \(wakeAt.map { "\($0)" } ?? "nil")"
  }
}

/// Drives one ``Coordinator`` through a script of events, the way the engine does.
struct Harness {
  var coordinator: Coordinator
  private var actions = PolicyActions()
  /// Every request answered so far, for checks on the full message.
  private(set) var requests: [DisplayRequest] = []

  init(_ configuration: PolicyConfiguration) {
    coordinator = Coordinator(configuration: configuration)
  }

  init(preset name: String) {
    guard let preset = PolicyCatalog.preset(named: name) else {
      preconditionFailure("No preset named \(name)")
    }
    self.init(preset.configuration)
  }

  /// Handles `event` at `time` and returns the answer.
  @discardableResult
  mutating func send(_ event: PolicyEvent, at time: Double) -> Answer {
    coordinator.handle(event, at: time, into: &actions)
    requests.append(contentsOf: actions.displays)
    return Answer(actions)
  }

  @discardableResult mutating func launch(at time: Double) -> Answer {
    send(.processLaunched, at: time)
  }
  @discardableResult mutating func terminate(at time: Double) -> Answer {
    send(.processTerminated, at: time)
  }
  @discardableResult mutating func activate(at time: Double) -> Answer {
    send(.sceneActivated, at: time)
  }
  @discardableResult mutating func deactivate(at time: Double) -> Answer {
    send(.sceneDeactivated, at: time)
  }
  @discardableResult mutating func screen(_ kind: ScreenKind, at time: Double) -> Answer {
    send(.screenAppeared(kind), at: time)
  }
  @discardableResult mutating func deliver(_ message: Message, at time: Double) -> Answer {
    var delivered = message
    delivered.deliveredAt = time
    return send(.delivered(delivered), at: time)
  }
  @discardableResult mutating func succeed(_ id: MessageID, at time: Double) -> Answer {
    send(.displaySucceeded(id), at: time)
  }
  @discardableResult mutating func fail(
    _ id: MessageID, _ failure: DisplayFailure = .presentationFailed, at time: Double
  ) -> Answer {
    send(.displayFailed(id, failure), at: time)
  }
  @discardableResult mutating func timer(at time: Double) -> Answer {
    send(.timerFired, at: time)
  }

  /// Launch, splash, scene active, then a screen of `kind`: the usual start of a session.
  mutating func startSession(at time: Double, on kind: ScreenKind = .home) {
    launch(at: time)
    screen(.launch, at: time)
    activate(at: time + 0.5)
    screen(kind, at: time + 1)
  }

  /// Ids queued now, in the order the policy considers them.
  var pendingIDs: [MessageID] { coordinator.pending.map(\.id) }
}

/// A message as StoreKit would hand it over; `deliveredAt` is set by ``Harness/deliver(_:at:)``.
func message(
  _ id: MessageID, _ reason: Reason, issuedAt: Double = 0, deadline: Double? = nil
) -> Message {
  Message(
    id: id, reason: reason, firstIssuedAt: issuedAt, deliveredAt: issuedAt, deadline: deadline)
}

let hour = 3600.0
let day = 86400.0
