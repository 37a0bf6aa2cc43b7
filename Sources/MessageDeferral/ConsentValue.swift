/// The value-aware test of ``UrgentConsent`` (the member `value` of the policy key
/// `urgent_consent`, set by `deadline-aware-value`): a consent stops waiting for a calm screen
/// once the expected loss of waiting is larger than the cost of a sheet over the current
/// screen,
///
///     P(no later opportunity before the deadline) × renewal  >  costs[current kind].
///
/// P comes from the app's own record of this user's opens (``UrgentConsent/rememberedOpens``):
/// - within ``UrgentConsent/nearDeadline`` of the deadline, 1 (no later open can be counted
///   on);
/// - with fewer than ``UrgentConsent/minimumOpens`` opens remembered, or no gap yet,
///   ``freshNoReturn`` (the app's own figure for a user with no history: the share of new
///   installs who leave during their first session and never come back, from its analytics);
/// - otherwise the share of the remembered gaps at least as long as the time left, smoothed
///   by half a count, (k + ½) / (m + 1) for k of m gaps: the user's own chance that the next
///   open comes too late, never quite 0 with a short history.
///
/// The amounts are the app's own (the units of a scenario's `value` section); the preset's
/// are the default scenario's (``PolicyConfiguration/deadlineAwareValue``). A sweep varies
/// one as `policy.urgent_consent.value.renewal`.
public struct ConsentValue: Sendable, Equatable {
  /// What keeping one renewal is worth (a scenario's `value.consent_deadline_missed`).
  public var renewal: Double
  /// The cost of a sheet over a screen of each kind, indexed by ``ScreenKind/index`` (0: free).
  public var costs: [Double]
  /// The chance that a user with too little history does not come back before the deadline.
  public var freshNoReturn: Double

  public init(renewal: Double, costs: [ScreenKind: Double], freshNoReturn: Double) {
    self.renewal = renewal
    self.costs = ScreenKind.allCases.map { costs[$0] ?? 0 }
    self.freshNoReturn = freshNoReturn
  }

  /// The cost of a sheet over `kind`; 0 with no screen (nothing to interrupt).
  public func cost(over kind: ScreenKind?) -> Double { kind.map { costs[$0.index] } ?? 0 }
}

extension _OpenHistory {
  /// The gaps between consecutive remembered opens, oldest first.
  var gaps: [Double] { times.indices.dropFirst().map { times[$0] - times[$0 - 1] } }
}

extension Coordinator {
  /// P(no later opportunity before `deadline`) at time `time` (see ``ConsentValue``), given
  /// the remembered `gaps` (``_OpenHistory/gaps``, computed once by the caller).
  func chanceOfNoReturn(
    before deadline: Double, at time: Double, gaps: [Double], rule: UrgentConsent,
    value: ConsentValue
  ) -> Double {
    let left = deadline - time
    if left <= rule.nearDeadline { return 1 }
    if opens.times.count < rule.minimumOpens || gaps.isEmpty { return value.freshNoReturn }
    let longer = gaps.reduce(0) { $0 + ($1 >= left ? 1 : 0) }
    return (Double(longer) + 0.5) / Double(gaps.count + 1)
  }

  /// The first time from which waiting costs more than a sheet over the current screen: the
  /// chance only rises as the deadline nears, in steps at `deadline − gap` for each remembered
  /// gap and at `deadline − nearDeadline`, so the earliest step that tips the balance.
  func valueUrgentTime(deadline: Double, rule: UrgentConsent, value: ConsentValue) -> Double {
    let cost = value.cost(over: currentKind)
    let gaps = opens.gaps
    let steps =
      ([-Double.infinity, deadline - rule.nearDeadline] + gaps.map { deadline - $0 }).sorted()
    for step in steps
    where chanceOfNoReturn(before: deadline, at: step, gaps: gaps, rule: rule, value: value)
      * value.renewal > cost
    {
      return step
    }
    return .infinity
  }
}
