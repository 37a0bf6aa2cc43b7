/// What a coordinator keeps across process launches, so an app can store it and give it back
/// to the coordinator of its next process.
///
/// Two pieces, both things a real app knows (``Coordinator``): the first time the app saw a
/// message of each reason lane (``CeilingClock/firstDelivery``) and the times of the user's
/// last opens (``UrgentConsent``). Everything else a coordinator holds is reset by
/// ``PolicyEvent/processLaunched``, so a fresh coordinator that restores this value and then
/// hears the launch is in the state of one that lived through the termination.
public struct PersistedPolicyState: Sendable, Equatable {
  /// Per reason lane (``Reason/laneIndex``, ``Reason/laneCount`` entries): when the app first
  /// saw a message of that lane still unshown; `nil`: none.
  public var firstSeen: [Double?]
  /// The remembered opens (scene activations), oldest first.
  public var opens: [Double]

  public init(
    firstSeen: [Double?] = Array(repeating: nil, count: Reason.laneCount), opens: [Double] = []
  ) {
    self.firstSeen = firstSeen
    self.opens = opens
  }
}

extension Coordinator {
  /// What this coordinator would keep across a relaunch.
  public var persistedState: PersistedPolicyState {
    PersistedPolicyState(firstSeen: firstSeen, opens: Array(opens.times))
  }

  /// Takes over `state` (from an earlier process). Call before the first event. Entries beyond
  /// the lane count are ignored, missing ones are `nil`; only the last opens this policy
  /// remembers are kept.
  public mutating func restore(_ state: PersistedPolicyState) {
    for lane in 0..<Reason.laneCount {
      firstSeen[lane] = lane < state.firstSeen.count ? state.firstSeen[lane] : nil
    }
    opens = _OpenHistory(capacity: opens.capacity)
    for time in state.opens.suffix(opens.capacity) where time.isFinite { opens.record(time) }
    memoryVersion &+= 1
  }
}
