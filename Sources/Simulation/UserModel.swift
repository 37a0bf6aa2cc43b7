import MessageDeferral

/// What can happen to a simulated user; the payload of the engine's event queue.
///
/// Small and trivially copyable: the queue holds structs, no closures or classes per event.
struct _Event: Sendable {
  enum Kind: UInt8, Sendable {
    /// The user opens the app (cold launch or warm resume).
    case open
    /// The window scene becomes foreground-active (stale unless `epoch` is the foreground's).
    case sceneActive
    /// The dwell on the current screen ends (stale unless `epoch` is the screen's).
    case screenEnd
    /// StoreKit's fetch completes and it delivers what it holds.
    case fetch
    /// The App Store issues message `index`.
    case issue
    /// Message `index` expires (resolved outside the app).
    case expire
    /// The result of a display attempt of message `index` reaches the policy.
    case displayResult
    /// The sheet on screen is dismissed.
    case sheetEnd
    /// The timer the policy asked for fires (stale unless `epoch` is the timer's).
    case policyTimer
  }

  var kind: Kind
  /// Result code for `displayResult`: 0 success, 1 no active scene, 2 presentation failed.
  var code: UInt8 = 0
  var epoch: UInt32 = 0
  var index: Int32 = 0
}

/// One message issued to the user, and what became of it.
struct _MessageRecord: Sendable {
  enum State: UInt8, Sendable { case pending, displayed, expired }

  var reason: Reason
  var issuedAt: Double
  /// Consent deadline (infinity when none).
  var deadline: Double
  var expiresAt: Double
  var state: State = .pending
  var displayedAt = Double.nan
  /// Delivered to the current process already.
  var deliveredInProcess = false
  var deliveredAt = Double.nan
  var attempts: Int32 = 0
  var forced = false
  /// Screen it was shown over (-1: not shown).
  var screen: Int32 = -1
}

/// Who a user is: drawn from the App Store stream, so every policy sees the same users.
struct _UserProfile: Sendable {
  var isNew: Bool
  var installAt: Double
  var subscriber: Bool
  var lapsed: Bool
}
