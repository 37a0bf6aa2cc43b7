/// Something that happened that a deferral policy may react to.
public enum PolicyEvent: Sendable, Equatable {
  /// A new process started (cold launch); in-memory state starts empty.
  case processLaunched
  /// The process was terminated; in-memory state is lost (persisted state is kept).
  case processTerminated
  /// StoreKit handed a message to the app.
  case delivered(Message)
  /// A screen of this kind appeared.
  case screenAppeared(ScreenKind)
  /// The window scene became foreground-active.
  case sceneActivated
  /// The window scene stopped being foreground-active (the app left the foreground).
  case sceneDeactivated
  /// A display requested earlier succeeded.
  case displaySucceeded(MessageID)
  /// A display requested earlier failed.
  case displayFailed(MessageID, DisplayFailure)
  /// The timer the policy asked for (``PolicyActions/wakeAt``) fired.
  case timerFired
}

/// Why a display attempt failed.
public enum DisplayFailure: String, Sendable, Equatable {
  /// No window scene was foreground-active.
  case noActiveScene = "no_active_scene"
  /// A scene was active but presentation failed (multi-window iPad, a scene in transition).
  case presentationFailed = "presentation_failed"
}

/// One display the policy asks for.
public struct DisplayRequest: Sendable, Equatable {
  public var message: Message
  /// Whether the message is shown because it passed its ceiling (a fallback fired).
  public var forced: Bool
  public init(message: Message, forced: Bool) {
    self.message = message
    self.forced = forced
  }
}

/// What a policy answers to an event: displays to attempt now, in order, and when to be woken.
///
/// The caller owns one value and passes it to every ``Coordinator/handle(_:at:into:)``, which
/// clears and refills it, so no allocation happens per event once it has grown.
public struct PolicyActions: Sendable {
  /// Displays to attempt now, in this order. The caller reports each result back with
  /// ``PolicyEvent/displaySucceeded(_:)`` or ``PolicyEvent/displayFailed(_:_:)``.
  public var displays: ContiguousArray<DisplayRequest> = []
  /// When the policy wants ``PolicyEvent/timerFired`` (replacing any earlier request);
  /// `nil`: no timer.
  public var wakeAt: Double?

  public init() {}

  public mutating func reset() {
    if !displays.isEmpty { displays.removeAll(keepingCapacity: true) }
    wakeAt = nil
  }
}

/// Counters a coordinator keeps about its own behaviour (for reports and tests).
public struct CoordinatorCounters: Sendable, Equatable {
  /// Checkpoint calls refused because a batch was running (Adapty's
  /// `storeMessageShowInProgress`).
  public var refusedShowCalls = 0
  /// Deliveries ignored as duplicates of a queued message.
  public var duplicatesIgnored = 0
  /// Queued messages lost with the process.
  public var lostWithProcess = 0
  /// Queued messages dropped by a call that empties the queue
  /// (``PolicyConfiguration/clearsAfterCall``), shown or not.
  public var clearedAfterCall = 0
  public init() {}
}

/// Runs one ``PolicyConfiguration``: fed events, it answers with actions.
///
/// Pure and deterministic: it has no clock (time is passed in), no randomness and no thread;
/// the same events at the same times give the same actions. It uses only what a real app can
/// know: the messages StoreKit delivered (reason, identity, the consent deadline that the
/// renewal date gives), the current screen kind, the scene state, its own clock, and what
/// it chose to persist (the first time it saw a message of each reason, and the times of
/// the user's last few opens, each a scene activation).
public struct Coordinator: Sendable {
  /// What never changes after ``init(configuration:)``, behind one reference: a copy of the
  /// coordinator (a lane for each user, a fork, a group's member) retains it once instead of
  /// each of the configuration's arrays and sets.
  let fixed: _CoordinatorFixed

  public var configuration: PolicyConfiguration {
    _read { yield fixed.configuration }
  }
  public internal(set) var counters = CoordinatorCounters()

  var store: _PendingStore
  /// The article's `canPresent`.
  var canPresent: Bool
  var sceneActive = false
  var currentKind: ScreenKind?
  /// Sheets requested since the last break began (a failed one included: it spends the
  /// break's ``PolicyConfiguration/sheetsPerBreak`` allowance too).
  var shownThisBreak = 0
  /// Of those, the ones whose display failed; only ``holdReason()`` reads it.
  var failedThisBreak = 0
  /// The remaining messages of a sequential batch, in order; `nil` when none runs.
  var batch: ContiguousArray<MessageID>?
  /// The message of the running sequential batch awaiting its result.
  var batchCurrent: MessageID?
  /// The messages of the running batch that are forced (past their ceiling).
  var forcedInBatch: Set<MessageID> = []
  /// Persisted across process deaths: first time a message of each reason lane was seen.
  var firstSeen: [Double?] = Array(repeating: nil, count: Reason.laneCount)
  /// Persisted across process deaths: the user's recent opens (``UrgentConsent``).
  var opens: _OpenHistory
  /// Scratch space for selecting candidates, kept to avoid allocating per flush.
  var candidates: ContiguousArray<_Candidate> = []
  /// What the last scan of the queue found (the next wake, the earliest time anything is due),
  /// reused by the events after it while nothing it read has changed (``_Schedule``).
  var schedule = _Schedule()
  /// Counts the changes to ``firstSeen`` and ``opens`` (the store counts its own): a
  /// ``schedule`` read them.
  var memoryVersion: UInt64 = 0
  /// Which events this coordinator must hear now (``PolicyListener/heeds``;
  /// ``currentHeeds`` says which): stored, because a simulator asks after every answer of every
  /// policy, and a computed property of this large value, called from another module, is
  /// called on a copy of it.
  public private(set) var heeds: PolicyEventKinds = .all

  /// Whether anything can ever be due (ceilings, a deadline margin, retries): when not, no
  /// timer is ever needed and ``nextWake(after:)`` returns at once.
  let mayNeedTimer: Bool
  /// Bit `kind.index` set: that kind is a checkpoint (a set lookup without hashing).
  let checkpointMask: UInt16
  /// ``_CoordinatorFixed/checkpointReasons``.
  var checkpointReasons: [Set<Reason>?] {
    _read { yield fixed.checkpointReasons }
  }
  /// ``_CoordinatorFixed/laneCeilings``.
  var laneCeilings: [Double?] {
    _read { yield fixed.laneCeilings }
  }
  /// Whether a ceiling names an unknown reason: then an unknown reason's ceiling is looked up
  /// by its raw value (``dueTime(of:)``), not read from ``laneCeilings``.
  let ceilingsNameUnknownReasons: Bool
  /// Bit `kind.index` set: some gate override lets a reason be shown on that kind with the
  /// gate closed (off: on that kind every reason follows the gate).
  let gateOpeningKinds: UInt16
  /// Bit `kind.index` set: an urgent consent spares that kind (``UrgentConsent/spares``).
  let sparedKinds: UInt16
  /// Whether a consent's urgent time depends on the current screen (``ConsentValue``).
  let urgencyReadsScreen: Bool
  /// Bit `kind.index` set: that kind's appearance assigns the gate (its rule is not
  /// ``GateRule/unchanged``); and, of those, the kinds that open it (``catchUp(with:since:)``).
  let gateAssigningKinds: UInt16
  let gateOpeningRules: UInt16

  public init(configuration: PolicyConfiguration) {
    mayNeedTimer =
      !configuration.ceilings.isEmpty || configuration.deadlineMargin != nil
      || configuration.retryBackoff != nil || configuration.urgentConsent != nil
    checkpointMask = configuration.checkpoints.reduce(0) { $0 | 1 << UInt16($1.kind.index) }
    let ceilings = configuration.ceilings
    fixed = _CoordinatorFixed(
      configuration: configuration,
      checkpointReasons: ScreenKind.allCases.map { configuration.checkpoint(for: $0)?.reasons },
      laneCeilings: (0..<Reason.laneCount).map { lane in
        if let reason = Reason.known.first(where: { $0.laneIndex == lane }) {
          return ceilings[reason]
        }
        return ceilings[.generic]  // the unknown lane
      })
    ceilingsNameUnknownReasons = ceilings.keys.contains { !$0.isKnown }
    gateOpeningKinds = configuration.gateOverrides.reduce(0) {
      $1.allowed ? $0 | 1 << UInt16($1.kind.index) : $0
    }
    sparedKinds = (configuration.urgentConsent?.spares ?? []).reduce(0) {
      $0 | 1 << UInt16($1.index)
    }
    urgencyReadsScreen = configuration.urgentConsent?.value != nil
    gateAssigningKinds = ScreenKind.allCases.reduce(0) {
      configuration.gate(for: $1) == .unchanged ? $0 : $0 | 1 << UInt16($1.index)
    }
    gateOpeningRules = ScreenKind.allCases.reduce(0) {
      configuration.gate(for: $1) == .open ? $0 | 1 << UInt16($1.index) : $0
    }
    self.store = _PendingStore(ordering: configuration.ordering)
    self.canPresent = configuration.gateAtLaunch
    self.opens = _OpenHistory(capacity: configuration.urgentConsent?.rememberedOpens ?? 0)
    heeds = currentHeeds
  }

  /// Messages queued now, in the order the policy would consider them.
  public var pending: [Message] { store.entries.map(\.message) }

  /// How many messages are queued now.
  public var pendingCount: Int { store.count }

  /// Why queued messages are not being shown right now, in a few words (for traces).
  public func holdReason() -> String {
    if batch != nil { return "a batch is running" }
    if configuration.requiresActiveScene, !sceneActive { return "no active scene" }
    if configuration.triggers.isEmpty { return "this policy never displays" }
    if let limit = configuration.sheetsPerBreak, shownThisBreak >= limit {
      let shown = shownThisBreak - failedThisBreak
      guard failedThisBreak > 0 else { return "already \(shown) sheet(s) this break" }
      // A failed display is no sheet the user saw, but it used the break's allowance.
      return (shown > 0 ? "already \(shown) sheet(s) and " : "")
        + "\(failedThisBreak) failed display(s) this break (limit \(limit)); "
        + "waits for the next break"
    }
    let kind = currentKind.map(\.rawValue) ?? "no screen"
    if configuration.triggers == [.checkpoint] {
      let names = configuration.checkpoints.map(\.kind).sorted().map(\.rawValue)
        .joined(separator: ", ")
      return "waits for the next checkpoint call (\(names)); on \(kind)"
    }
    if !canPresent { return "gate closed on \(kind)" }
    if !configuration.showsUnknownReasons { return "unknown reasons are never shown" }
    // Said in full, so a hold after a failed display on a calm screen reads as what it is.
    var triggers = Triggers.named.filter { configuration.triggers.contains($0.trigger) }
      .map(\.name)
    if configuration.retriesOnSceneActivation { triggers.append("scene_activation") }
    if configuration.retryBackoff != nil { triggers.append("retry timer") }
    return "waits for a trigger (\(triggers.joined(separator: ", "))); on \(kind)"
  }

  /// Handles `event` at time `now` and writes the answer into `actions` (cleared first).
  public mutating func handle(
    _ event: PolicyEvent, at now: Double, into actions: inout PolicyActions
  ) {
    actions.reset()
    switch event {
    case .processLaunched, .processTerminated:
      counters.lostWithProcess += store.count
      store.removeAll()
      canPresent = configuration.gateAtLaunch
      sceneActive = false
      currentKind = nil
      batch = nil
      batchCurrent = nil
      shownThisBreak = 0
      failedThisBreak = 0

    case .delivered(var message):
      if !configuration.knowsDeadlines { message.deadline = nil }
      if configuration.deduplicates, store.contains(message.id) {
        counters.duplicatesIgnored += 1
      } else {
        let lane = message.reason.laneIndex
        if firstSeen[lane] == nil {
          firstSeen[lane] = now
          memoryVersion &+= 1
        }
        store.enqueue(_Entry(message: message, arrivedAt: now, retryDelay: initialRetryDelay))
      }
      flush(at: now, trigger: .delivery, into: &actions)

    case .screenAppeared(let kind):
      currentKind = kind
      shownThisBreak = 0
      failedThisBreak = 0
      let rule = configuration.gate(for: kind)
      switch rule {
      case .open: canPresent = true
      case .closed: canPresent = false
      case .unchanged: break
      }
      var trigger: _Trigger = .boundary(kind)
      if checkpointMask & (1 << UInt16(kind.index)) != 0,
        configuration.triggers.contains(.checkpoint)
      {
        trigger = .checkpoint(kind)
      } else if rule != .unchanged, configuration.triggers.contains(.gateAssignment) {
        trigger = .gateAssignment(kind)
      }
      flush(at: now, trigger: trigger, into: &actions)
      if case .checkpoint = trigger, configuration.clearsAfterCall { clearAfterCall() }

    case .sceneActivated:
      if !sceneActive, opens.capacity > 0 {
        opens.record(now)
        memoryVersion &+= 1
      }
      sceneActive = true
      shownThisBreak = 0
      failedThisBreak = 0
      flush(at: now, trigger: .sceneActivation, into: &actions)

    case .sceneDeactivated:
      sceneActive = false

    case .displaySucceeded(let id):
      let removed: _Entry?
      if configuration.removesDisplayed {
        removed = store.remove(id: id)
        if configuration.removesEveryCopy { while store.remove(id: id) != nil {} }
      } else {
        store.update(id: id) { $0.inFlight = false }
        removed = nil
      }
      if let removed, configuration.ceilingClock == .firstDelivery {
        let lane = removed.message.reason.laneIndex
        if !store.containsLane(lane), firstSeen[lane] != nil {
          firstSeen[lane] = nil
          memoryVersion &+= 1
        }
      }
      continueBatch(after: id, failure: nil, at: now, into: &actions)
      if configuration.displaysOneAtATime { flush(at: now, trigger: .delivery, into: &actions) }

    case .displayFailed(let id, let failure):
      if failedThisBreak < shownThisBreak { failedThisBreak += 1 }
      switch configuration.onFailure {
      case .keepInPlace:
        store.update(id: id) { $0.inFlight = false }
      case .appendToBack:
        if var entry = store.remove(id: id) {
          entry.inFlight = false
          store.append(entry)
        }
      }
      if let backoff = configuration.retryBackoff {
        store.update(id: id) { entry in
          entry.nextRetryAt = now + entry.retryDelay
          entry.retryDelay = min(entry.retryDelay * 2, backoff.maximum)
        }
      }
      continueBatch(after: id, failure: failure, at: now, into: &actions)

    case .timerFired:
      flush(at: now, trigger: .timer, into: &actions)
    }
    if mayNeedTimer { actions.wakeAt = wakeTime(after: now) }
    heeds = currentHeeds
  }

  var initialRetryDelay: Double { configuration.retryBackoff?.initial ?? .infinity }
}

/// A coordinator's configuration and the tables derived from it: immutable, shared by every
/// copy of the coordinator (``Coordinator/fixed``).
final class _CoordinatorFixed: Sendable {
  let configuration: PolicyConfiguration
  /// The reasons of the checkpoint call at each kind, indexed by ``ScreenKind/index``
  /// (`nil`: every reason, or no checkpoint there).
  let checkpointReasons: [Set<Reason>?]
  /// The ceiling of each reason lane, indexed by ``Reason/laneIndex`` (`nil`: none), so a
  /// queued message's due time needs no hashing of its reason. The unknown lane holds the
  /// generic ceiling, which every unknown reason falls back to.
  let laneCeilings: [Double?]

  init(
    configuration: PolicyConfiguration, checkpointReasons: [Set<Reason>?],
    laneCeilings: [Double?]
  ) {
    self.configuration = configuration
    self.checkpointReasons = checkpointReasons
    self.laneCeilings = laneCeilings
  }
}
