/// A deferral policy as data: every way the systems being compared differ, as one value.
///
/// One ``Coordinator`` runs any configuration; the named systems of the README's policy table are
/// presets (``PolicyCatalog``), and scenario files define others with the same keys
/// (`scenarios/README.md`, "policies"). Times are seconds.
public struct PolicyConfiguration: Equatable, Sendable {
  /// What each screen kind's appearance does to the global "can present" switch (the
  /// article's `canPresent`), indexed by ``ScreenKind/index``.
  public var gate: [GateRule]
  /// The switch at process start (the article: `false`).
  public var gateAtLaunch: Bool
  /// Per-reason exceptions: on these screen kinds this reason may (or may not) be shown
  /// whatever the switch says.
  public var gateOverrides: [GateOverride]

  /// Which events attempt a flush.
  public var triggers: Triggers
  /// The calls to the SDK's `showStoreMessages(for:)` (with ``Triggers/checkpoint``): each
  /// screen kind whose appearance makes one, with the reasons that call passes. At most one per
  /// kind.
  public var checkpoints: [Checkpoint]
  /// Reasons any trigger may show (checkpoint calls further narrowed by their own reasons);
  /// `nil`: all.
  public var reasonFilter: Set<Reason>?

  /// The order in which pending messages are considered.
  public var ordering: Ordering
  /// Whether a flush first checks that a scene is foreground-active and does nothing
  /// otherwise (the article's `guard let scene = activeScene()`), instead of attempting.
  public var requiresActiveScene: Bool
  /// Whether a flush displays one message, waits for its result, then the next (Adapty's
  /// `await`), instead of calling display on all at once.
  public var sequentialBatch: Bool
  /// Whether a checkpoint call made while a sequential batch runs is refused (Adapty's
  /// `storeMessageShowInProgress`).
  public var refusesConcurrentShow: Bool
  /// What a failed display does.
  public var onFailure: FailureHandling
  /// Whether a display attempt that finds no active scene ends the batch (Adapty's
  /// `sceneUnavailable`).
  public var stopsBatchWithoutScene: Bool
  /// Whether a successfully displayed message leaves the queue.
  public var removesDisplayed: Bool
  /// Whether a successful display removes every queued copy of the message (matched by
  /// identity: RevenueCat's `hashValue`, Adapty's `==`), not only the copy shown.
  public var removesEveryCopy: Bool
  /// Whether a checkpoint call empties the queue once its displays are requested, shown or
  /// not (RevenueCat before 5.6.0: `deferredMessages.removeAll()` after every call).
  public var clearsAfterCall: Bool
  /// Whether messages are displayed one at a time in queue order: the next is considered only
  /// after the previous display succeeded, and a failed or scene-less one blocks the rest
  /// until its retry (OpenIAP's `for await message in Message.messages` loop).
  public var displaysOneAtATime: Bool
  /// Whether a scene becoming active attempts a flush (for messages that could not be
  /// shown without one).
  public var retriesOnSceneActivation: Bool
  /// Retry with backoff after a failure or a missing scene: first after `initial`, doubling
  /// up to `maximum` (OpenIAP: 0.5 s to 2 s). `nil`: no timed retry.
  public var retryBackoff: Backoff?

  /// Per-reason ceilings: a message waiting longer is forced (counted as `fallback_fired`).
  public var ceilings: [Reason: Double]
  /// What the ceilings are timed from.
  public var ceilingClock: CeilingClock
  /// How a message past its ceiling is forced.
  public var forcing: Forcing
  /// For price-increase consent: force once `deadline − deadlineMargin` has passed, whatever
  /// the ceiling (the renewal date is known to any app). `nil`: not used.
  public var deadlineMargin: Double?
  /// Whether the policy knows a consent message's deadline (the renewal date, from the app's
  /// own subscription status). `false`: every delivered message is treated as having none, so
  /// no deadline margin and no deadline in ``Ordering/urgency``.
  public var knowsDeadlines: Bool

  /// Whether a message delivered again while still queued is ignored (Adapty).
  public var deduplicates: Bool
  /// Whether messages with a reason the SDK does not recognise can be shown (RevenueCat
  /// cannot).
  public var showsUnknownReasons: Bool
  /// At most this many display attempts per break (a screen appearance or scene activation
  /// starts one); `nil`: all. A failed display counts as an attempt: the break is not retried,
  /// so a presentation that keeps failing cannot loop within one break. A message past its
  /// ceiling and grace (forced at once) is not held back.
  public var sheetsPerBreak: Int?
  /// Time from a cold launch until the listener exists; what StoreKit delivers before is shown
  /// by StoreKit itself (see ``ListenerDelay``).
  public var listenerDelay: ListenerDelay
  /// For price-increase consent: when it stops waiting for a calm screen, from its deadline
  /// and the app's own record of this user's opens (``UrgentConsent``). `nil`: not used.
  /// Set after `init`, like the other keys presets change.
  public var urgentConsent: UrgentConsent? = nil

  public init(
    gate: [GateRule] = Array(repeating: .open, count: 8),
    gateAtLaunch: Bool = true, gateOverrides: [GateOverride] = [],
    triggers: Triggers = [.delivery], checkpoints: [Checkpoint] = [],
    reasonFilter: Set<Reason>? = nil, ordering: Ordering = .arrival,
    requiresActiveScene: Bool = true, sequentialBatch: Bool = false,
    refusesConcurrentShow: Bool = false, onFailure: FailureHandling = .keepInPlace,
    stopsBatchWithoutScene: Bool = false, removesDisplayed: Bool = true,
    removesEveryCopy: Bool = false, clearsAfterCall: Bool = false,
    displaysOneAtATime: Bool = false,
    retriesOnSceneActivation: Bool = false, retryBackoff: Backoff? = nil,
    ceilings: [Reason: Double] = [:], ceilingClock: CeilingClock = .inProcessArrival,
    forcing: Forcing = .immediate, deadlineMargin: Double? = nil, knowsDeadlines: Bool = true,
    deduplicates: Bool = false, showsUnknownReasons: Bool = true, sheetsPerBreak: Int? = nil,
    listenerDelay: ListenerDelay = .none
  ) {
    precondition(gate.count == ScreenKind.allCases.count, "One gate rule per screen kind")
    self.gate = gate
    self.gateAtLaunch = gateAtLaunch
    self.gateOverrides = gateOverrides
    self.triggers = triggers
    self.checkpoints = checkpoints
    self.reasonFilter = reasonFilter
    self.ordering = ordering
    self.requiresActiveScene = requiresActiveScene
    self.sequentialBatch = sequentialBatch
    self.refusesConcurrentShow = refusesConcurrentShow
    self.onFailure = onFailure
    self.stopsBatchWithoutScene = stopsBatchWithoutScene
    self.removesDisplayed = removesDisplayed
    self.removesEveryCopy = removesEveryCopy
    self.clearsAfterCall = clearsAfterCall
    self.displaysOneAtATime = displaysOneAtATime
    self.retriesOnSceneActivation = retriesOnSceneActivation
    self.retryBackoff = retryBackoff
    self.ceilings = ceilings
    self.ceilingClock = ceilingClock
    self.forcing = forcing
    self.deadlineMargin = deadlineMargin
    self.knowsDeadlines = knowsDeadlines
    self.deduplicates = deduplicates
    self.showsUnknownReasons = showsUnknownReasons
    self.sheetsPerBreak = sheetsPerBreak
    self.listenerDelay = listenerDelay
  }

  /// The checkpoint call made at the appearance of `kind`, if any.
  public func checkpoint(for kind: ScreenKind) -> Checkpoint? {
    checkpoints.first { $0.kind == kind }
  }

  /// The gate rule for a screen kind.
  public func gate(for kind: ScreenKind) -> GateRule { gate[kind.index] }

  /// A gate table from a dictionary; kinds not named get `otherwise`.
  public static func gateTable(
    _ rules: [ScreenKind: GateRule], otherwise: GateRule
  )
    -> [GateRule]
  {
    ScreenKind.allCases.map { rules[$0] ?? otherwise }
  }

  /// A copy changed by `change`: a preset declared as another one with a few keys set
  /// (`PolicyCatalog+ModelledPresets.swift`, `+OurPresets.swift`).
  public func with(_ change: (inout PolicyConfiguration) -> Void) -> PolicyConfiguration {
    var copy = self
    change(&copy)
    return copy
  }
}

/// What a screen's appearance does to the "can present" switch.
public enum GateRule: String, Sendable, Equatable, CaseIterable {
  /// Sets it to true (and, with ``Triggers/gateAssignment``, flushes).
  case open
  /// Sets it to false (and, with ``Triggers/gateAssignment``, flushes — a no-op).
  case closed
  /// Leaves it as it was: no assignment, so no flush either.
  case unchanged
}

/// A per-reason exception to the gate on one screen kind.
public struct GateOverride: Sendable, Equatable, Hashable {
  public var reason: Reason
  public var kind: ScreenKind
  public var allowed: Bool
  public init(reason: Reason, kind: ScreenKind, allowed: Bool) {
    self.reason = reason
    self.kind = kind
    self.allowed = allowed
  }
}

/// The events that attempt a flush.
public struct Triggers: OptionSet, Sendable, Hashable {
  public let rawValue: UInt8
  public init(rawValue: UInt8) { self.rawValue = rawValue }

  /// A message delivered (the article's flush in `enqueue`).
  public static let delivery = Triggers(rawValue: 1 << 0)
  /// A screen appearance that assigns the switch, open or closed (the article's `didSet`).
  public static let gateAssignment = Triggers(rawValue: 1 << 1)
  /// Any screen appearance.
  public static let screenAppearance = Triggers(rawValue: 1 << 2)
  /// The appearance of a checkpoint screen (the SDKs' `showStoreMessages`).
  public static let checkpoint = Triggers(rawValue: 1 << 3)

  /// Names, in a fixed order, for files and errors.
  public static let named: [(name: String, trigger: Triggers)] = [
    ("delivery", .delivery), ("gate_assignment", .gateAssignment),
    ("screen_appearance", .screenAppearance), ("checkpoint", .checkpoint),
  ]
}

/// The order in which pending messages are considered.
public enum Ordering: String, Sendable, Equatable, CaseIterable {
  /// First delivered, first shown.
  case arrival
  /// The article's array: consent and billing inserted at index 0 (newest of them first),
  /// others appended; failures appended at the back.
  case article
  /// Lanes: consent, then billing, then everything else; FIFO within a lane.
  case priority
  /// Most urgent first: the earliest of consent deadline and ceiling due time; ties by the
  /// closer consent deadline, then by arrival.
  case urgency
}

/// What a failed display does.
public enum FailureHandling: String, Sendable, Equatable, CaseIterable {
  /// The message stays where it was in the queue.
  case keepInPlace = "keep_in_place"
  /// The message moves to the back of the queue (the article's `pending.append`).
  case appendToBack = "append_to_back"
}

/// A retry schedule: `initial`, then doubling up to `maximum`.
public struct Backoff: Sendable, Equatable {
  public var initial: Double
  public var maximum: Double
  public init(initial: Double, maximum: Double) {
    self.initial = initial
    self.maximum = maximum
  }
}

/// What a ceiling is timed from.
public enum CeilingClock: String, Sendable, Equatable, CaseIterable {
  /// From the message's arrival in this process (the article's `since: Date()`): restarts
  /// after every relaunch.
  case inProcessArrival = "in_process_arrival"
  /// From the first time the app ever saw a message of this reason, persisted by the app
  /// across relaunches.
  case firstDelivery = "first_delivery"
}

/// How a message past its ceiling is forced.
public enum Forcing: Sendable, Equatable {
  /// At once, on whatever screen (a timer fires at the due time).
  case immediate
  /// At the next appearance of a screen that is not the splash, onboarding, paywall or
  /// checkout; if none comes within `grace` (counted from the later of the due time and the
  /// message's arrival in this process), at once, except over an onboarding or checkout
  /// screen, which only ever gets it at its next screen.
  case boundaryFirst(grace: Double)
}
