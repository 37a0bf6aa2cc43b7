/// What started a flush.
enum _Trigger: Equatable {
  case delivery
  /// A screen appearance that assigned the switch.
  case gateAssignment(ScreenKind)
  /// A checkpoint screen appeared: the SDK's `showStoreMessages` is called.
  case checkpoint(ScreenKind)
  /// Any other screen appearance.
  case boundary(ScreenKind)
  case sceneActivation
  case timer

  /// The kind of the screen that just appeared, when this is a screen appearance.
  var appearedKind: ScreenKind? {
    switch self {
    case .gateAssignment(let kind), .checkpoint(let kind), .boundary(let kind): kind
    default: nil
    }
  }
}

/// One queued message and what the policy tracks about it.
struct _Entry: Sendable {
  var message: Message
  /// Arrival in this process (the article's `since: Date()`).
  var arrivedAt: Double
  /// A display was requested and its result has not come back.
  var inFlight = false
  /// When a timed retry is due (OpenIAP's backoff); infinity when none is scheduled.
  var nextRetryAt = Double.infinity
  var retryDelay: Double

  init(message: Message, arrivedAt: Double, retryDelay: Double) {
    self.message = message
    self.arrivedAt = arrivedAt
    self.retryDelay = retryDelay
  }
}

struct _Candidate: Sendable {
  var id: MessageID
  var forced: Bool
  /// Past its ceiling and any grace: shown at once, whatever the per-break limit says.
  var overdue: Bool
  var urgency: Double
  /// The consent deadline (infinity for other reasons): breaks ties of `urgency`.
  var deadline: Double
}

extension Coordinator {
  /// Attempts a flush: selects the messages this trigger may show and asks to display them.
  mutating func flush(at now: Double, trigger: _Trigger, into actions: inout PolicyActions) {
    if batch != nil {
      if case .checkpoint = trigger, configuration.refusesConcurrentShow,
        hasSelection(for: trigger)
      {
        counters.refusedShowCalls += 1
      }
      return
    }
    if configuration.requiresActiveScene, !sceneActive {
      if configuration.retryBackoff != nil { scheduleRetries(at: now) }
      return
    }
    guard store.count > 0 else { return }

    let limit = configuration.sheetsPerBreak.map { max(0, $0 - shownThisBreak) } ?? Int.max
    // Nothing to select when no entry may be shown regularly and none is due yet: the common
    // screen event of a closed gate costs no scan of the queue.
    if !mayShowRegularly(trigger), now < attentionTime() { return }

    // Work on a local copy of the scratch buffer so `self` can be read inside the loop.
    var selected = candidates
    candidates = []
    selected.removeAll(keepingCapacity: true)
    select(at: now, trigger: trigger, into: &selected)
    candidates = selected
    guard !candidates.isEmpty else { return }
    if configuration.ordering == .urgency {
      // Stable: equal urgency goes to the closer consent deadline (two consent messages share
      // their reason's ceiling), then keeps queue (arrival) order.
      let indexed = candidates.enumerated().sorted {
        ($0.element.urgency, $0.element.deadline, $0.offset)
          < ($1.element.urgency, $1.element.deadline, $1.offset)
      }
      candidates = ContiguousArray(indexed.map(\.element))
    }
    if candidates.count > limit {
      // The per-break limit holds back regular and boundary-forced sheets, never an overdue
      // one: past ceiling and grace a message is shown at once, wherever the user is. (Held
      // back, it waited with no timer set until the next break.)
      var kept = 0
      for var candidate in candidates where candidate.overdue || kept < limit {
        // Beyond the limit only as overdue: a fallback, whatever the screen.
        if kept >= limit { candidate.forced = true }
        candidates[kept] = candidate
        kept += 1
      }
      candidates.removeLast(candidates.count - kept)
      guard kept > 0 else { return }
    }

    if configuration.sequentialBatch {
      batch = ContiguousArray(candidates.map(\.id))
      forcedInBatch = Set(candidates.filter(\.forced).map(\.id))
      emitNextInBatch(into: &actions)
    } else {
      for candidate in candidates { emit(candidate.id, forced: candidate.forced, into: &actions) }
    }
  }

  /// Appends, in queue order, the entries this trigger may show now. Not `mutating`: the
  /// closure borrows `self`; in `flush` (mutating) it captured a copy of the whole coordinator
  /// for every entry.
  func select(at now: Double, trigger: _Trigger, into selected: inout ContiguousArray<_Candidate>) {
    let regularAllowed = isRegularTrigger(trigger)
    var headSeen = false
    store.forEach { entry in
      if configuration.displaysOneAtATime {
        // Only the head of the queue is ever considered (see `displaysOneAtATime`).
        guard !headSeen else { return }
        headSeen = true
      }
      guard !entry.inFlight else { return }
      let reason = entry.message.reason
      if !configuration.showsUnknownReasons, !reason.isKnown { return }
      let due = dueTime(of: entry)
      var overdue = isOverdue(entry, due: due, at: now)
      var forced = isForced(entry, due: due, at: now, trigger: trigger)
      let regular =
        regularAllowed && passesFilter(reason, trigger: trigger) && gateAllows(reason)
        && !isSleepingHead(entry, at: now)
      if isUrgent(entry, at: now) {
        // An urgent consent goes now, past the per-break limit; forced where the calm-screen
        // rule would not have shown it.
        overdue = true
        if !regular { forced = true }
      }
      guard forced || overdue || regular || entry.nextRetryAt <= now else { return }
      let deadline =
        reason == .priceIncreaseConsent ? (entry.message.deadline ?? .infinity) : .infinity
      selected.append(
        _Candidate(
          id: entry.message.id, forced: forced, overdue: overdue,
          urgency: min(due, deadline, urgentTime(of: entry)), deadline: deadline))
    }
  }

  /// False when this trigger shows no entry as a regular display (only as forced, overdue,
  /// urgent or due for retry), whatever its reason: the trigger is not a regular one, or the
  /// gate is closed and no override opens it on the current screen. True: it may.
  func mayShowRegularly(_ trigger: _Trigger) -> Bool {
    guard isRegularTrigger(trigger) else { return false }
    if canPresent { return true }
    guard let kind = currentKind else { return false }
    return gateOpeningKinds & (1 << UInt16(kind.index)) != 0
  }

  /// A time before which no queued entry is due, urgent or due for a retry (so only a regular
  /// display can select one): ``_Schedule/attentionAt`` while the schedule is current, the
  /// infinite future when nothing can ever be due, else `-infinity` (unknown: scan).
  func attentionTime() -> Double {
    guard mayNeedTimer else { return .infinity }
    return scheduleIsCurrent ? schedule.attentionAt : -.infinity
  }

  /// Whether ``schedule`` was computed from the entries, first-seen times and opens held now
  /// (and, when a consent's urgency depends on it, on the current screen).
  var scheduleIsCurrent: Bool {
    schedule.isValid && schedule.storeVersion == store.version
      && schedule.memoryVersion == memoryVersion
      && (!urgencyReadsScreen || schedule.kind == currentKind)
  }

  /// ``nextWake(after:)``, from ``schedule`` while it is current and `now` lies between the
  /// scan and the wake it found (no wake time in between: the same answer); otherwise scans.
  mutating func wakeTime(after now: Double) -> Double? {
    // Most users of a simulated population hold nothing: no wake, nothing to remember.
    guard store.count > 0 else { return nil }
    if !scheduleIsCurrent || !(now >= schedule.scannedAt) || now >= schedule.wakeAt {
      schedule = scan(at: now)
    }
    return schedule.wakeAt < .infinity ? schedule.wakeAt : nil
  }

  /// Whether a trigger may show messages that are not forced or due for retry.
  func isRegularTrigger(_ trigger: _Trigger) -> Bool {
    let triggers = configuration.triggers
    switch trigger {
    case .delivery: return triggers.contains(.delivery)
    case .gateAssignment: return triggers.contains(.gateAssignment)
    case .checkpoint: return triggers.contains(.checkpoint)
    case .boundary: return triggers.contains(.screenAppearance)
    case .sceneActivation: return configuration.retriesOnSceneActivation
    case .timer: return false
    }
  }

  /// Whether `reason` passes the policy's reason filter and, at a checkpoint, that call's
  /// reasons.
  func passesFilter(_ reason: Reason, trigger: _Trigger) -> Bool {
    if let filter = configuration.reasonFilter, !filter.contains(reason) { return false }
    if case .checkpoint(let kind) = trigger, let reasons = checkpointReasons[kind.index] {
      return reasons.contains(reason)
    }
    return true
  }

  /// Whether the gate lets `reason` be shown on the current screen.
  func gateAllows(_ reason: Reason) -> Bool {
    if let kind = currentKind {
      for override in configuration.gateOverrides
      where override.reason == reason && override.kind == kind {
        return override.allowed
      }
    }
    return canPresent
  }

  /// When `entry` must be forced: its ceiling (from the configured clock) or, for consent,
  /// its deadline minus the margin; infinity when neither applies.
  func dueTime(of entry: _Entry) -> Double {
    let reason = entry.message.reason
    var due = Double.infinity
    // An unknown reason falls back to the generic ceiling (the unknown lane's), unless a
    // ceiling names it.
    let ceiling =
      reason.isKnown || !ceilingsNameUnknownReasons
      ? laneCeilings[reason.laneIndex]
      : configuration.ceilings[reason] ?? configuration.ceilings[.generic]
    if let ceiling {
      let start: Double
      switch configuration.ceilingClock {
      case .inProcessArrival: start = entry.arrivedAt
      case .firstDelivery: start = firstSeen[reason.laneIndex] ?? entry.arrivedAt
      }
      due = start + ceiling
    }
    if reason == .priceIncreaseConsent, let margin = configuration.deadlineMargin,
      let deadline = entry.message.deadline
    {
      due = min(due, deadline - margin)
    }
    return due
  }

  func isForced(_ entry: _Entry, due: Double, at now: Double, trigger: _Trigger) -> Bool {
    guard due <= now else { return false }
    switch configuration.forcing {
    case .immediate:
      return true
    case .boundaryFirst:
      if now >= overdueTime(entry, due: due) { return Self.acceptsOverdueForcing(currentKind) }
      guard let kind = trigger.appearedKind else { return false }
      return Self.acceptsBoundaryForcing(kind)
    }
  }

  /// Under ``Forcing/boundaryFirst(grace:)`` even an overdue message is not forced over an
  /// onboarding or checkout screen: both last minutes, and the next screen takes it.
  static func acceptsOverdueForcing(_ kind: ScreenKind?) -> Bool {
    kind != .onboarding && kind != .checkout
  }

  /// Screen kinds at whose appearance a message past its ceiling is forced under
  /// ``Forcing/boundaryFirst(grace:)``: not onboarding, paywall or checkout, and not the
  /// splash either, which a natural break follows within seconds.
  static func acceptsBoundaryForcing(_ kind: ScreenKind) -> Bool {
    kind != .onboarding && kind != .paywall && kind != .checkout && kind != .launch
  }

  /// When a message due at `due` is forced at once, whatever the screen: with
  /// ``Forcing/immediate`` at `due`; with ``Forcing/boundaryFirst(grace:)`` once the grace
  /// has passed both since `due` and since the message arrived in this process, so a message
  /// delivered already past due (at a relaunch, or late for its deadline) still gets its grace
  /// to meet a boundary instead of landing on whatever screen is current.
  func overdueTime(_ entry: _Entry, due: Double) -> Double {
    switch configuration.forcing {
    case .immediate: return due
    case .boundaryFirst(let grace): return max(due, entry.arrivedAt) + grace
    }
  }

  /// Whether a message is forced at once, whatever the trigger (see ``overdueTime(_:due:)``).
  func isOverdue(_ entry: _Entry, due: Double, at now: Double) -> Bool {
    guard due <= now, now >= overdueTime(entry, due: due) else { return false }
    if case .boundaryFirst = configuration.forcing {
      return Self.acceptsOverdueForcing(currentKind)
    }
    return true
  }

  mutating func emit(_ id: MessageID, forced: Bool, into actions: inout PolicyActions) {
    guard let message = store.markInFlight(id: id) else { return }
    shownThisBreak += 1
    actions.displays.append(DisplayRequest(message: message, forced: forced))
  }

  mutating func emitNextInBatch(into actions: inout PolicyActions) {
    while var remaining = batch, !remaining.isEmpty {
      let id = remaining.removeFirst()
      batch = remaining
      if store.contains(id) {
        batchCurrent = id
        emit(id, forced: forcedInBatch.contains(id), into: &actions)
        return
      }
    }
    batch = nil
    batchCurrent = nil
  }

  /// After a display result: moves a sequential batch on (or stops it).
  mutating func continueBatch(
    after id: MessageID, failure: DisplayFailure?, at now: Double, into actions: inout PolicyActions
  ) {
    guard batch != nil, batchCurrent == id else { return }
    if failure == .noActiveScene, configuration.stopsBatchWithoutScene {
      batch = nil
      batchCurrent = nil
      return
    }
    emitNextInBatch(into: &actions)
  }

  /// OpenIAP: every queued message without a scheduled retry gets one (only the head when
  /// ``PolicyConfiguration/displaysOneAtATime``).
  mutating func scheduleRetries(at now: Double) {
    guard let backoff = configuration.retryBackoff else { return }
    var headSeen = false
    let headOnly = configuration.displaysOneAtATime
    store.updateAll { entry in
      if headOnly {
        guard !headSeen else { return }
        headSeen = true
      }
      if !entry.inFlight, entry.nextRetryAt == .infinity || entry.nextRetryAt <= now {
        entry.nextRetryAt = now + entry.retryDelay
        entry.retryDelay = min(entry.retryDelay * 2, backoff.maximum)
      }
    }
  }

  /// The earliest future time at which something is due: a ceiling, the end of a boundary
  /// grace, a consent becoming urgent, or a retry.
  func nextWake(after now: Double) -> Double? {
    let wake = scan(at: now).wakeAt
    return wake < .infinity ? wake : nil
  }

  /// One pass over the queue: the next wake after `now` and the earliest due, urgent or retry
  /// time (``_Schedule``).
  func scan(at now: Double) -> _Schedule {
    var earliest = Double.infinity
    var attention = Double.infinity
    store.forEach { entry in
      guard !entry.inFlight else { return }
      attention = min(attention, entry.nextRetryAt)
      if entry.nextRetryAt > now { earliest = min(earliest, entry.nextRetryAt) }
      let urgentAt = urgentTime(of: entry)
      attention = min(attention, urgentAt)
      if urgentAt > now, urgentAt < .infinity { earliest = min(earliest, urgentAt) }
      let due = dueTime(of: entry)
      attention = min(attention, due)
      guard due < .infinity else { return }
      let forceAt = overdueTime(entry, due: due)
      if forceAt > now { earliest = min(earliest, forceAt) }
    }
    return _Schedule(
      storeVersion: store.version, memoryVersion: memoryVersion, kind: currentKind,
      scannedAt: now, attentionAt: attention, wakeAt: earliest)
  }
}

/// What one scan of a coordinator's queue found (``Coordinator/scan(at:)``), valid while the
/// entries, the first-seen times and the remembered opens it read are unchanged (the
/// versions), and, for the value-aware consent rule, the screen.
///
/// Both times are absolute, so later events reuse them: `wakeAt` is the answer of
/// ``Coordinator/nextWake(after:)`` for every time from `scannedAt` up to (not including)
/// `wakeAt`, since no wake time lies between; before `attentionAt` no entry is forced,
/// overdue, urgent or due for a retry. Does *not* hold: anything about an entry in flight.
struct _Schedule: Sendable {
  /// False until a first scan.
  var isValid = false
  var storeVersion: UInt64 = 0
  var memoryVersion: UInt64 = 0
  var kind: ScreenKind?
  var scannedAt = Double.infinity
  /// The earliest due time, urgent time or retry time of an entry not in flight (a NaN one
  /// never is due, and never lowers it).
  var attentionAt = -Double.infinity
  /// The earliest wake time after `scannedAt`; infinity: none.
  var wakeAt = Double.infinity

  init() {}

  init(
    storeVersion: UInt64, memoryVersion: UInt64, kind: ScreenKind?, scannedAt: Double,
    attentionAt: Double, wakeAt: Double
  ) {
    isValid = true
    self.storeVersion = storeVersion
    self.memoryVersion = memoryVersion
    self.kind = kind
    self.scannedAt = scannedAt
    self.attentionAt = attentionAt
    self.wakeAt = wakeAt
  }
}
