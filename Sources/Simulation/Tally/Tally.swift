import MessageDeferral

/// Everything measured for one policy in one replication (or a part of one): counts, exact
/// integer sums and latency histograms.
///
/// Every field merges by addition of integers (sums of durations are kept in whole
/// milliseconds) or by ``LatencyHistogram/merge(_:)``, so merging is exact and independent of
/// order: results do not depend on `--jobs`, on scheduling, or on how a run is sharded.
/// Memory is fixed by the scenario's screen count, never by the number of users.
@dynamicMemberLookup
public struct Tally: Sendable, Equatable {
  /// Per screen (index in the scenario): visits, and visits with at least one sheet over them.
  public var screenVisits: [Int] = []
  public var screenInterrupted: [Int] = []
  /// Per screen: time it was the screen in the foreground (sheets over it included), summed in
  /// whole milliseconds per stay.
  public var screenMilliseconds: [Int64] = []
  /// Per screen: price-increase consent sheets shown over it, and those accepted (with a
  /// response model, ``Scenario/responses``; zero without one).
  public var screenConsentShown: [Int] = []
  public var screenConsentAccepted: [Int] = []

  /// The counts summed on merge (``TallyCounters``), read and written as if they were the
  /// tally's own properties (`tally.users += 1`).
  public var counters = TallyCounters()
  /// Per reason lane (``Reason/laneIndex``): issued, displayed, expired, pending at the end.
  public var issued = PerReason<Int>(lanes: [])
  public var displayed = PerReason<Int>(lanes: [])
  public var expired = PerReason<Int>(lanes: [])
  public var pending = PerReason<Int>(lanes: [])
  /// Per reason lane: latency from first issuance to display.
  public var latency = PerReason<LatencyHistogram>(lanes: [])
  /// Per reason lane: the hold, from the message's first delivery to the app (the first moment
  /// any policy could have shown it) to display: the wait the policy itself added, apart from
  /// how long the user stayed away from the app.
  public var hold = PerReason<LatencyHistogram>(lanes: [])
  /// Per reason lane: sum of latencies in whole milliseconds (for exact means).
  public var latencySumMilliseconds = PerReason<Int64>(lanes: [])

  /// The most sheets in one break (the largest over merged tallies, not a sum).
  public var maxSheetsPerBreak = 0
  /// Seconds the users spent in the app, summed in whole seconds (for user-days figures).
  public var simulatedSeconds: Int64 = 0
  /// Per ``UserSegment`` (by raw value): the headline figures of that segment's users.
  public var segments: [SegmentTally] = []
  /// GSL variates drawn, by kind; zero unless the run counted them
  /// (``RunOptions/countsVariates``).
  public var variates = VariateCounts()

  /// An empty tally of a scenario with `screenCount` screens: every field at zero, with its
  /// entries (per screen, per reason lane, per segment; ``_TallyFields``).
  public init(screenCount: Int) {
    var shaper = _ShapeFields(screens: screenCount, reshapes: true)
    let empty = self
    Self._visitFields(&self, empty, &shaper)
  }

  /// Whether every per-screen field has `screens` entries and every per-lane, per-segment and
  /// per-variate-kind field its own count: what ``merge(_:)`` needs of a tally read from a file.
  public func hasShape(screens: Int) -> Bool {
    var copy = self
    var check = _ShapeFields(screens: screens, reshapes: false)
    Self._visitFields(&copy, self, &check)
    return check.fits
  }

  /// Adds `other` into `self`, field by field (``_TallyFields``). Exact and commutative.
  public mutating func merge(_ other: Tally) {
    precondition(screenVisits.count == other.screenVisits.count, "Tallies of different scenarios")
    var merge = _MergeFields()
    Self._visitFields(&self, other, &merge)
  }
}

extension Tally {
  /// A counter of ``counters``, as if it were the tally's own property.
  @inlinable
  public subscript(dynamicMember counter: WritableKeyPath<TallyCounters, Int>) -> Int {
    get { counters[keyPath: counter] }
    _modify { yield &counters[keyPath: counter] }
  }
}

/// The counts a ``Tally`` sums on merge, declared once (``_CounterBlock``): each property's
/// name is its JSON key in partial files, and merge, checked merge and the checks of a tally
/// read from a file go over all of them. Every count is at most ``Tally/maximumCount`` in a
/// file.
public struct TallyCounters: Sendable, Equatable, _CounterBlock {
  public var onboardingRunsStarted = 0
  public var onboardingRunsCompleted = 0
  public var onboardingRunsInterrupted = 0
  /// New users who started onboarding, and those who completed it by the horizon.
  public var newUsersOnboarding = 0
  public var newUsersCompleted = 0
  public var users = 0
  /// Consent messages whose deadline passed (within the horizon) before they were displayed.
  public var consentDeadlineMisses = 0
  /// Consent messages whose deadline fell within the horizon (the denominator of the miss rate).
  public var consentDeadlinesDue = 0
  public var fallbackFired = 0
  public var displayAttempts = 0
  public var displayFailures = 0
  /// Sheets shown over a screen (each message shown at most once).
  public var sheets = 0
  /// Breaks (maximal runs of consecutive sheets) and the sheets in them.
  public var breaks = 0
  public var sheetsInBreaks = 0
  public var events = 0
  // Responses (``Scenario/responses``; all zero without a response model).
  /// Consent sheets accepted, declined, and closed without a choice.
  public var consentAccepted = 0
  public var consentDeclined = 0
  public var consentClosed = 0
  /// Of the consents whose deadline fell within the horizon: renewals kept (accepted in the app
  /// by the deadline, or agreed outside the app by it), and those kept outside the app.
  public var consentKept = 0
  public var consentKeptOutside = 0
  /// Billing-issue sheets that fixed the payment; billing issues recovered by the horizon (fixed
  /// from a sheet, or resolved outside the app: expired).
  public var billingFixed = 0
  public var billingRecovered = 0
  /// Win-back offers redeemed from a sheet.
  public var winBackRedeemed = 0

  public init() {}

  static let fieldNames = _counterFieldNames(of: Self.self)
}

extension Tally {
  /// Sheets of reason lane `lane` whose user did what the message asks (with a response model):
  /// consents accepted, billing issues fixed, win-backs redeemed; generic and unknown messages
  /// count as seen when displayed.
  public func responded(lane: Int) -> Int {
    switch lane {
    case Reason.priceIncreaseConsent.laneIndex: counters.consentAccepted
    case Reason.billingIssue.laneIndex: counters.billingFixed
    case Reason.winBackOffer.laneIndex: counters.winBackRedeemed
    default: displayed[lane]
    }
  }

  /// The report name of a reason lane (``Engine/laneName(_:)``), for the layers that format a
  /// tally without running the engine.
  public static func laneName(_ lane: Int) -> String { Engine.laneName(lane) }
}
