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
    /// The timer the policy asked for fires (stale unless `epoch` is the timer's). In a group
    /// of policies (``UserSimulator/runGroups(fork:tallies:)``) each member has its own timer,
    /// and `index` is the member's policy.
    case policyTimer
  }

  /// What a display attempt came to: the payload of a `displayResult` event.
  enum DisplayResult: UInt8, Sendable {
    /// The sheet went up (or StoreKit showed nothing for a message no longer pending).
    case succeeded
    /// No foreground-active scene.
    case noActiveScene
    /// The presentation failed (the scenario's display failure probability).
    case presentationFailed

    /// What the policy hears of it.
    func event(for id: MessageID) -> PolicyEvent {
      switch self {
      case .succeeded: .displaySucceeded(id)
      case .noActiveScene: .displayFailed(id, .noActiveScene)
      case .presentationFailed: .displayFailed(id, .presentationFailed)
      }
    }
  }

  var kind: Kind
  /// For `displayResult`: what the attempt came to.
  var result = DisplayResult.succeeded
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
  /// The ``_World/process`` it was last delivered to: delivered to the current process already
  /// when equal to it (0: never delivered).
  var deliveredInProcess: UInt32 = 0
  /// Its place in issue-time order (``UserSimulator/issueOrder``).
  var arrivalRank: Int32 = 0
  var deliveredAt = Double.nan
  var attempts: Int32 = 0
  var forced = false
  /// Screen it was shown over (``noScreen``: not shown).
  var screen = Int32(noScreen)
  /// The uniform its response is read from (``ResponseModel/response(to:u:kind:early:waitedDays:)``),
  /// drawn at issuance; 0 without a response model.
  var responseDraw = 0.0
  /// What the user did with its sheet (`none` until shown, or without a response model).
  var response = SheetResponse.none
}

/// Who a user is: drawn from the App Store stream, so every policy sees the same users.
struct _UserProfile: Sendable {
  var isNew: Bool
  var installAt: Double
  var subscriber: Bool
  var lapsed: Bool
}

/// Everything a simulated user's life is at an instant: the clock, the process, the scene and
/// the screen, onboarding and sheets, what StoreKit holds, the messages issued and the events
/// pending. The random streams, which are GSL generators and not values, are beside it
/// (``_WorldStreams``). A plain value whose collections are copy-on-write, so that a fork is an
/// assignment (`saved = world`) and a branch starts with `world = saved`; a field added to the
/// user's state belongs here, and every fork copies it.
struct _World: Sendable {
  var profile = _UserProfile(isNew: false, installAt: 0, subscriber: false, lapsed: false)
  var now = 0.0
  var processAlive = false
  var inForeground = false
  var sceneActive = false
  var churned = false
  var foregroundEpoch: UInt32 = 0
  var screenEpoch: UInt32 = 0
  /// The live policy timer's epoch; in a group of policies, the count from which each
  /// member's timer takes a new epoch (``UserSimulator/setMemberTimer(_:_:)``).
  var timerEpoch: UInt32 = 0
  var currentScreen = noScreen
  /// The current screen's place in the session: 1 for the first after the splash (or the one
  /// a warm resume reopens), counting every screen shown since but the splash.
  var sessionPosition = 0
  /// The screen shown just before the current one in this session (the splash not counted;
  /// ``noScreen`` for a session's first screen): it picks a `transitions_after` table.
  var previousScreen = noScreen
  /// The user's sessions so far in the horizon, the current one included, and the phase
  /// number they put the user in (``CompiledScenario/phaseFrom``). Counted only with `lifecycle`.
  var sessionIndex: Int32 = 0
  var phase = 0
  /// When the current screen's dwell ends (infinity while paused or in background).
  var screenEndsAt = Double.infinity
  /// Dwell left on the current screen while a sheet covers it.
  var pausedRemaining = Double.nan
  var visitInterrupted = false
  var foregroundSince = 0.0
  /// Since when the current screen has been in the foreground (NaN: not counting).
  var screenSince = Double.nan

  // Onboarding.
  var onboardingRunActive = false
  var onboardingRunInterrupted = false
  var startedOnboarding = false
  var completedOnboarding = false

  // Sheets.
  var sheetsWaiting = 0
  var sheetShowing = false
  var sheetsThisBreak = 0
  var quitAfterSheets = false

  // What StoreKit still holds for this process (see UserSimulator+Arrivals.swift).
  /// The process's number: a message was delivered to this process when its
  /// ``_MessageRecord/deliveredInProcess`` equals it. A cold launch takes the next one.
  var process: UInt32 = 1
  /// How many messages, in issue-time order, have an issue time at or before the last
  /// ``UserSimulator/advanceArrivals()``.
  var arrived = 0
  /// Of those, the ones still pending, and the ones pending and not yet delivered to this
  /// process.
  var arrivedPending = 0
  var arrivedUndelivered = 0

  // The pending events and the messages.
  var queue = EventQueue<_Event>(minimumCapacity: 64)
  /// Every message issued to the user, by index (``_Event/index``).
  var messages: ContiguousArray<_MessageRecord> = []
  /// The messages' indices in issue-time order (ties in index order), fixed once they are
  /// drawn: how ``UserSimulator/advanceArrivals()`` keeps count of what StoreKit holds without
  /// a scan.
  var issueOrder: ContiguousArray<Int32> = []

  /// The world of a user who has not started yet, keeping the collections' capacity.
  mutating func reset() {
    queue.removeAll(keepingCapacity: true)
    messages.removeAll(keepingCapacity: true)
    issueOrder.removeAll(keepingCapacity: true)
    self = _World(queue: queue, messages: messages, issueOrder: issueOrder)
  }
}

/// What one policy keeps about a user: its coordinator and, with a late listener
/// (``PolicyConfiguration/listenerDelay``), StoreKit's own handling beside it. A plain value,
/// copied at a fork like ``_World``.
struct _PolicyLane: Sendable {
  var coordinator: Coordinator
  /// The policy's ``PolicyConfiguration/listenerDelay``; `nil` when always zero (no draw).
  /// Read only at a launch (``route(_:at:stream:)``): a sampler is a large value, and reading
  /// the optional copies it whole.
  let listenerDelay: Sampler?
  /// Whether ``listenerDelay`` is set: what the paths taken at every event test.
  let hasListenerDelay: Bool
  /// When this process's listener exists; what is delivered before goes to `storeKitDefault`.
  var listenerReadyAt = 0.0
  /// StoreKit showing what it delivered before the listener existed (`storekit-auto`).
  var storeKitDefault: Coordinator

  /// The lane of a user who has not started yet. Built once per worker and policy and copied
  /// for each user (a copy shares its storage until it changes).
  init(_ configuration: PolicyConfiguration) {
    coordinator = Coordinator(configuration: configuration)
    listenerDelay =
      configuration.listenerDelay.isZero
      ? nil : Sampler(DistributionSpec(configuration.listenerDelay))
    hasListenerDelay = listenerDelay != nil
    storeKitDefault = Coordinator(
      configuration: PolicyCatalog.Preset.storeKitAuto.configuration.withOwnStorage())
  }

  /// What the lane must hear now (``PolicyListener/heeds``): its coordinator's; with a late
  /// listener, what either coordinator heeds, and every launch (it draws when the listener
  /// will exist, ``route(_:at:stream:)``). An event outside it reaches neither coordinator as
  /// anything it heeds, wherever the routing would send it, and leaves the lane's own state
  /// (``listenerReadyAt``) as it is.
  var heeds: PolicyEventKinds {
    guard hasListenerDelay else { return coordinator.heeds }
    return coordinator.heeds.union(storeKitDefault.heeds).union(.processLaunched)
  }

  /// Brings the coordinators up to date after events the lane was not told (``heeds``): the
  /// policy's hears every kind of event the digest records; StoreKit's own handling, with a
  /// late listener, hears no screen (``route(_:at:stream:)``).
  mutating func catchUp(with digest: PolicyEventDigest, since mark: UInt64) {
    coordinator.catchUp(with: digest, since: mark)
    if hasListenerDelay { storeKitDefault.catchUpWithoutScreens(with: digest, since: mark) }
  }

  /// With a late listener (``hasListenerDelay``): where `event` goes at `now`. A cold launch
  /// draws when the listener will exist (from `stream`); a message delivered before then, and
  /// the results of its displays, go to StoreKit's own handling instead of the policy; the
  /// launch, termination and scene changes go to both. The one routing rule of a branch
  /// (``UserSimulator/routeBeforeListener(_:tally:)``), a group (``UserSimulator/answer``) and
  /// the lanes' catch-up at a fork (``UserSimulator/replay``).
  mutating func route(
    _ event: PolicyEvent, at now: Double, stream: inout RandomStream
  ) -> (toStoreKit: Bool, policySkips: Bool) {
    switch event {
    case .processLaunched:
      guard let delay = listenerDelay else {
        preconditionFailure("A lane without a late listener routes nothing")
      }
      listenerReadyAt = now + delay.draw(&stream, at: now)
      return (true, false)
    case .processTerminated, .sceneActivated, .sceneDeactivated:
      return (true, false)
    case .delivered:
      let early = now < listenerReadyAt
      return (early, early)
    case .displaySucceeded(let id), .displayFailed(let id, _):
      let ours = storeKitDefault.isAwaitingResult(id)
      return (ours, ours)
    case .screenAppeared, .timerFired:
      return (false, false)
    }
  }
}
