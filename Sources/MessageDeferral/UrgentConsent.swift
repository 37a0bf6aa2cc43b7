/// When a price-increase consent stops waiting for a calm screen (the policy key
/// `urgent_consent`): the renewal is at stake, so it is shown at the first moment the current
/// screen is not one of ``spares``, over the splash or an immersive screen if need be.
///
/// It uses only what a real app knows: the consent's deadline (the renewal date StoreKit gives
/// any app for its own subscription) and the app's own record of when this user opened it
/// (the last ``rememberedOpens`` scene activations, persisted across relaunches like the
/// first-seen times of ``CeilingClock/firstDelivery``). A consent becomes urgent at
///
///     deadline − max(nearDeadline, returnFactor × longest gap between the remembered opens)
///
/// and at once while fewer than ``minimumOpens`` opens are remembered (by default two: on a
/// fresh install the app cannot tell whether the user comes back). The longest of the last *n* gaps is about the user's
/// own 1 − 1/*n* quantile of time away; while the time left is several of those, the user is
/// almost sure to come back, and on a calm screen, before the deadline; once it is not, the
/// next open may come too late, and this one is taken.
///
/// Does *not* hold: any effect on other reasons (they keep their ceilings), or on a consent
/// without a deadline.
public struct UrgentConsent: Sendable, Equatable {
  /// Within this long of the deadline a consent is urgent, whatever the history says.
  public var nearDeadline: Double
  /// A consent is urgent once the time left is less than this many times the longest gap
  /// between the remembered opens.
  public var returnFactor: Double
  /// How many recent opens (scene activations) the app keeps: at least 2 (one gap).
  public var rememberedOpens: Int
  /// While fewer opens than this are remembered, a consent is urgent at once: the history is
  /// too short to trust. 0 or 1: never for want of history (with no gap known, only
  /// ``nearDeadline`` applies). At most ``rememberedOpens``.
  public var minimumOpens: Int
  /// Screen kinds an urgent consent still never interrupts: the next screen takes it.
  public var spares: Set<ScreenKind>
  /// When set, the value-aware test replaces `returnFactor` and the fresh-install rule: urgent
  /// once the expected loss of waiting exceeds the cost of a sheet over the current screen
  /// (``ConsentValue``). `nil`: the rule above.
  public var value: ConsentValue? = nil

  /// The limits the policy reader enforces on ``rememberedOpens``.
  public static let rememberedOpensRange = 2...64

  public init(
    nearDeadline: Double, returnFactor: Double, rememberedOpens: Int, minimumOpens: Int = 2,
    spares: Set<ScreenKind> = [.onboarding, .paywall, .checkout]
  ) {
    precondition(
      Self.rememberedOpensRange.contains(rememberedOpens), "rememberedOpens must be 2...64")
    precondition(
      (0...rememberedOpens).contains(minimumOpens), "minimumOpens must be 0...rememberedOpens")
    self.nearDeadline = nearDeadline
    self.returnFactor = returnFactor
    self.rememberedOpens = rememberedOpens
    self.minimumOpens = minimumOpens
    self.spares = spares
  }
}

/// The app's own record of this user's recent opens: the last `capacity` open times, oldest
/// first, and the longest gap between consecutive ones. Kept across process deaths.
///
/// - Complexity: ``record(_:)`` is O(`capacity`), at most one per foreground session.
struct _OpenHistory: Sendable {
  private(set) var times: ContiguousArray<Double> = []
  let capacity: Int
  /// The longest gap between consecutive remembered opens; `nil` with fewer than two.
  private(set) var longestGap: Double?

  init(capacity: Int) {
    self.capacity = capacity
    times.reserveCapacity(capacity)
  }

  mutating func record(_ time: Double) {
    guard capacity > 0 else { return }
    if times.count == capacity { times.removeFirst() }
    times.append(time)
    var longest: Double?
    for index in times.indices.dropFirst() {
      let gap = times[index] - times[index - 1]
      longest = max(longest ?? gap, gap)
    }
    longestGap = longest
  }
}

extension Coordinator {
  /// When `entry` becomes urgent under ``PolicyConfiguration/urgentConsent``: `-infinity`
  /// (urgent now) while fewer than ``UrgentConsent/minimumOpens`` opens are remembered;
  /// `infinity` when the rule is off, the reason is not consent, or there is no deadline.
  /// With ``UrgentConsent/value``, the first time waiting costs more than a sheet over the
  /// current screen (``valueUrgentTime(deadline:rule:value:)``).
  func urgentTime(of entry: _Entry) -> Double {
    guard let rule = configuration.urgentConsent, entry.message.reason == .priceIncreaseConsent,
      let deadline = entry.message.deadline
    else { return .infinity }
    if let value = rule.value {
      return valueUrgentTime(deadline: deadline, rule: rule, value: value)
    }
    if opens.times.count < rule.minimumOpens { return -.infinity }
    return deadline - max(rule.nearDeadline, rule.returnFactor * (opens.longestGap ?? 0))
  }

  /// Whether `entry` is urgent now and the current screen is not one the rule spares.
  func isUrgent(_ entry: _Entry, at now: Double) -> Bool {
    guard configuration.urgentConsent != nil, urgentTime(of: entry) <= now else { return false }
    guard let kind = currentKind else { return true }
    return sparedKinds & (1 << UInt16(kind.index)) == 0
  }
}
