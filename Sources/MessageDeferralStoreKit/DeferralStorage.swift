import MessageDeferral

#if canImport(Foundation)
  import Foundation
#endif

/// What the controller keeps across launches: the policy's own memory and the eventual-flush
/// clock.
public struct DeferralState: Sendable, Equatable {
  /// What the policy remembers (the first time a message of each reason was seen, the user's
  /// last opens).
  public var policy: PersistedPolicyState
  /// Per reason lane: since when a message of that lane has been waiting unshown, for the
  /// eventual-flush rule (``MessageDeferralController/Options/eventualFlush``); `nil`: none.
  public var heldSince: [Double?]

  public init(
    policy: PersistedPolicyState = PersistedPolicyState(),
    heldSince: [Double?] = Array(repeating: nil, count: Reason.laneCount)
  ) {
    self.policy = policy
    self.heldSince = heldSince
  }
}

/// Where the controller keeps a ``DeferralState`` across launches. Written after the events
/// that change it (a delivery, a display, a scene activation), never per screen.
@MainActor
public protocol DeferralStorage: AnyObject {
  /// What the last process saved; `nil` on a fresh install.
  func loadState() -> DeferralState?
  func saveState(_ state: DeferralState)
}

/// Keeps the state in memory: for tests, previews, and the example (one instance shared by
/// the controllers of successive simulated processes).
@MainActor
public final class InMemoryDeferralStorage: DeferralStorage {
  public private(set) var state: DeferralState?
  /// How many times the state was written.
  public private(set) var saves = 0
  public init(state: DeferralState? = nil) { self.state = state }
  public func loadState() -> DeferralState? { state }
  public func saveState(_ state: DeferralState) {
    self.state = state
    saves += 1
  }
}

#if canImport(Foundation)
  /// Keeps the state in `UserDefaults` under one key: a dictionary of number arrays (`lanes`
  /// and `first_seen`: the reason lanes with a first-seen time and those times; `held_lanes`
  /// and `held_since` likewise; `opens`). Nothing personal: times and lane numbers only.
  @MainActor
  public final class UserDefaultsDeferralStorage: DeferralStorage {
    let defaults: UserDefaults
    public let key: String

    public init(defaults: UserDefaults = .standard, key: String = "MessageDeferralStoreKit.state") {
      self.defaults = defaults
      self.key = key
    }

    public func loadState() -> DeferralState? {
      guard let stored = defaults.dictionary(forKey: key) else { return nil }
      func lanes(_ lanesKey: String, _ timesKey: String) -> [Double?] {
        var result: [Double?] = Array(repeating: nil, count: Reason.laneCount)
        let lanes = stored[lanesKey] as? [Int] ?? []
        let times = stored[timesKey] as? [Double] ?? []
        for (lane, time) in zip(lanes, times) where (0..<Reason.laneCount).contains(lane) {
          result[lane] = time
        }
        return result
      }
      return DeferralState(
        policy: PersistedPolicyState(
          firstSeen: lanes("lanes", "first_seen"), opens: stored["opens"] as? [Double] ?? []),
        heldSince: lanes("held_lanes", "held_since"))
    }

    public func saveState(_ state: DeferralState) {
      func pairs(_ times: [Double?]) -> (lanes: [Int], times: [Double]) {
        let found = times.enumerated().compactMap { lane, time in time.map { (lane, $0) } }
        return (found.map(\.0), found.map(\.1))
      }
      let seen = pairs(state.policy.firstSeen)
      let held = pairs(state.heldSince)
      let stored: [String: Any] = [
        "lanes": seen.lanes, "first_seen": seen.times, "held_lanes": held.lanes,
        "held_since": held.times, "opens": state.policy.opens,
      ]
      defaults.set(stored, forKey: key)
    }
  }
#endif
