/// What hears a user's world, event by event, and answers with what to display and when to be
/// woken: a policy's coordinator, or StoreKit's own handling (a coordinator too). The one
/// interface through which a simulated world, or an app, tells a policy what happens; whoever
/// runs a world asks a listener what it needs to know through this protocol, never through a
/// coordinator's state.
public protocol PolicyListener {
  /// Handles `event` at time `now` and writes the answer into `actions` (cleared first).
  mutating func handle(_ event: PolicyEvent, at now: Double, into actions: inout PolicyActions)

  /// Whether the next process launch or termination leaves this listener as it would leave it
  /// whatever it heard before: from that event on, its answers depend only on what it hears
  /// from then. What does not hold: a listener that answers `false` may still forget; `false`
  /// only says it cannot promise to.
  var keepsNothingAcrossLaunch: Bool { get }

  /// The kinds of event this listener must hear now. To any other event it would answer no
  /// display and no timer, and what that event would change in it is only what a
  /// ``PolicyEventDigest`` records, so whoever runs the world may skip telling it and call
  /// ``catchUp(with:since:)`` before it next tells it anything. What it heeds can change only
  /// when it hears an event. ``PolicyEventKinds/all``: tell it everything.
  var heeds: PolicyEventKinds { get }

  /// Brings the listener up to date after the events `digest` recorded after `mark`, none of
  /// which it heeds (``heeds``, as it was when it last heard an event) and none of which it
  /// was told.
  mutating func catchUp(with digest: PolicyEventDigest, since mark: UInt64)
}

extension Coordinator: PolicyListener {
  /// True when the coordinator holds nothing, remembers no opens (``UrgentConsent``), has seen
  /// no message and runs no batch. Every other piece of its state is reset by a launch or a
  /// termination (``handle(_:at:into:)``), and with nothing held no event changes its counters.
  public var keepsNothingAcrossLaunch: Bool {
    store.count == 0 && opens.capacity == 0 && batch == nil
      && firstSeen.allSatisfy { $0 == nil }
  }
}
