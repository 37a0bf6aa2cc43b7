/// Behaviours of particular SDK versions that act on the whole queue after a call or a display.
extension Coordinator {
  /// RevenueCat before 5.6.0: after `showStoreMessages(for:)` the helper empties its list,
  /// so whatever was not shown (filtered out, failed, of a type it does not know) is lost.
  /// Results still to come for the call's displays find nothing left to update.
  mutating func clearAfterCall() {
    counters.clearedAfterCall += store.count
    store.removeAll()
  }

  /// Under ``PolicyConfiguration/displaysOneAtATime``, whether `entry` (the head) is waiting
  /// for its timed retry: OpenIAP's loop sleeps between attempts and nothing but the end of
  /// the sleep wakes it, so a delivery or a screen does not show it early.
  func isSleepingHead(_ entry: _Entry, at now: Double) -> Bool {
    configuration.displaysOneAtATime && entry.nextRetryAt.isFinite && entry.nextRetryAt > now
  }
}

extension Coordinator {
  /// Whether a display of message `id` was requested by this coordinator and its result has
  /// not come back (for an engine that runs two coordinators side by side).
  public func isAwaitingResult(_ id: MessageID) -> Bool {
    store.contains { $0.message.id == id && $0.inFlight }
  }
}

extension Coordinator {
  /// Whether a call would select anything: Adapty checks for an empty selection before it
  /// refuses a call made while another runs (`guard !selection.isEmpty else { return }`
  /// precedes `guard !isShowing`), so a call that selects nothing is no refusal.
  func hasSelection(for trigger: _Trigger) -> Bool {
    store.contains { entry in
      let reason = entry.message.reason
      return (configuration.showsUnknownReasons || reason.isKnown)
        && passesFilter(reason, trigger: trigger)
    }
  }
}
