import MessageDeferral

/// What the controller tells an app's analytics, one record per event: each display attempt of
/// an App Store message and each screen view, in the generic event schema `deferral-sim fit`
/// reads (``jsonLine(user:)``).
///
/// Nothing personal is logged: times, the reason, the screen's kind and name (the app's own
/// screen names), waits, whether a display was forced, failures. No message text, no
/// product, no price, no account. The `user` of ``jsonLine(user:)`` is whatever pseudonymous
/// id the app's analytics already uses.
public struct DeferralLogRecord: Sendable, Equatable {
  /// What happened.
  public enum Event: String, Sendable, CaseIterable {
    /// A screen appeared (`fit`'s screen view).
    case screenView = "screen_view"
    /// The app left the foreground (`fit`'s session end).
    case background = "app_background"
    /// An App Store message was displayed.
    case messageDisplayed = "store_message_displayed"
    /// A display attempt failed (no active scene, or `display(in:)` threw).
    case messageDisplayFailed = "store_message_display_failed"
    /// What the user did with a sheet, once the app learns it
    /// (``MessageDeferralController/recordResponse(_:for:)``): the row `deferral-sim
    /// fit-responses` reads.
    case messageResponse = "store_message_response"
  }

  /// What a user did with a sheet, as the app learns it: for a price-increase consent from the
  /// subscription's renewal information (agreed, declined, or still pending when the sheet
  /// closed), for a billing issue from the next successful renewal, for a win-back offer from
  /// the transaction that redeems it.
  public enum Response: String, Sendable, CaseIterable {
    case accepted, declined, closed, fixed
    case notFixed = "not_fixed"
    case redeemed
    case notRedeemed = "not_redeemed"
  }

  public var event: Event
  /// Unix time, seconds.
  public var time: Double
  /// The current screen's name and kind (`nil` before the first screen).
  public var screen: String?
  public var screenKind: ScreenKind?
  /// For messages: the reason (`price_increase_consent`, ..., `unknown_<raw>`).
  public var reason: Reason?
  /// For messages: when StoreKit delivered it to this process.
  public var deliveredAt: Double?
  /// For messages: seconds from delivery to this attempt.
  public var waitedSeconds: Double?
  /// For messages: shown past its ceiling or deadline (a fallback), or by the eventual flush.
  public var forced: Bool = false
  /// For messages: shown by the eventual-flush rule, not by the policy.
  public var eventualFlush: Bool = false
  /// For failed displays: why.
  public var failure: DisplayFailure?
  /// For messages: failed attempts before this one in this process.
  public var failuresBefore: Int = 0
  /// For messages: this process's number of the message (0 for the first distinct message
  /// StoreKit delivered since launch), to tell a message's attempts apart.
  public var messageNumber: Int?
  /// For ``Event/messageResponse``: what the user did.
  public var response: Response? = nil

  public init(
    event: Event, time: Double, screen: String? = nil, screenKind: ScreenKind? = nil,
    reason: Reason? = nil, deliveredAt: Double? = nil, waitedSeconds: Double? = nil,
    forced: Bool = false, eventualFlush: Bool = false, failure: DisplayFailure? = nil,
    failuresBefore: Int = 0, messageNumber: Int? = nil
  ) {
    self.event = event
    self.time = time
    self.screen = screen
    self.screenKind = screenKind
    self.reason = reason
    self.deliveredAt = deliveredAt
    self.waitedSeconds = waitedSeconds
    self.forced = forced
    self.eventualFlush = eventualFlush
    self.failure = failure
    self.failuresBefore = failuresBefore
    self.messageNumber = messageNumber
  }

  /// One line of JSON in the generic schema (`user_id`, `timestamp`, `event`, `screen`, then
  /// the message's fields): a screen view is what `fit` counts; a message row is activity.
  public func jsonLine(user: String) -> String {
    var members: [ConfigValue.Member] = [
      .init(key: "user_id", value: .string(user)),
      .init(key: "timestamp", value: .number(time)),
      .init(key: "event", value: .string(event.rawValue)),
    ]
    if let screen { members.append(.init(key: "screen", value: .string(screen))) }
    if let screenKind {
      members.append(.init(key: "screen_kind", value: .string(screenKind.rawValue)))
    }
    if let reason { members.append(.init(key: "reason", value: .string(reason.name))) }
    if let deliveredAt { members.append(.init(key: "delivered_at", value: .number(deliveredAt))) }
    if let waitedSeconds {
      members.append(.init(key: "waited_seconds", value: .number(waitedSeconds)))
    }
    if event == .messageDisplayed || event == .messageDisplayFailed {
      members.append(.init(key: "forced", value: .bool(forced)))
      members.append(.init(key: "eventual_flush", value: .bool(eventualFlush)))
      members.append(.init(key: "failures_before", value: .number(Double(failuresBefore))))
      if let messageNumber {
        members.append(.init(key: "message_number", value: .number(Double(messageNumber))))
      }
    }
    if let failure { members.append(.init(key: "failure", value: .string(failure.rawValue))) }
    if let response { members.append(.init(key: "response", value: .string(response.rawValue))) }
    // One line: the pretty printer's line breaks removed (strings are escaped, so safe).
    return _compact(ConfigValue.object(members))
  }
}

/// JSON text on one line, members in order.
func _compact(_ value: ConfigValue) -> String {
  switch value {
  case .array(let items): return "[" + items.map(_compact).joined(separator: ",") + "]"
  case .object(let members):
    return "{"
      + members.map { ConfigValue.quoted($0.key) + ":" + _compact($0.value) }.joined(
        separator: ",") + "}"
  case .number(let number):
    // Times need their fraction: jsonText writes whole numbers as integers, others in full.
    return ConfigValue.number(number).jsonText()
  default: return value.jsonText()
  }
}
