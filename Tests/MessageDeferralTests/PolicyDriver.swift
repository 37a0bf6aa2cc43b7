import TestSupport

@testable import MessageDeferral

/// A small simulated engine for property tests: it drives one ``Coordinator`` through a random
/// but valid life (cold launches, screens, the scene going on and off, messages issued and
/// delivered, redeliveries, display results, timers, process deaths), checking properties
/// after every event. Everything random comes from one seed, printed with every problem:
/// `PolicyDriver(preset:seed:)` replays that life exactly.
///
/// What it models, as DESIGN §2 and the brief describe the engine:
/// - `.processLaunched` then the splash (`.screenAppeared(.launch)`) at each cold launch; the
///   App Store then delivers every message not yet displayed, one by one, before or after the
///   scene becomes active.
/// - A warm resume may deliver them all again ("at every return to the foreground"), so
///   messages still queued in the process are delivered twice.
/// - Each requested display gets a result at the same instant, in request order, possibly
///   after another same-instant event: `.noActiveScene` when the scene is not active, else
///   `.presentationFailed` with `failureRate`, else success.
/// - Timers fire at `wakeAt` while the app is in the foreground; in the background the app
///   is suspended, and a timer that came due fires at the resume.
/// - A message displayed successfully is never delivered again.
struct PolicyDriver {
  /// One handled event, for replay.
  struct Step: Equatable {
    var time: Double
    var event: PolicyEvent
    var answer: Answer
  }

  let name: String
  let configuration: PolicyConfiguration
  let seed: UInt64
  private(set) var coordinator: Coordinator
  private var actions = PolicyActions()
  /// A copy told only the events it heeds (``Coordinator/heeds``), caught up from ``digest``
  /// before each one (``Coordinator/catchUp(with:since:)``): its answers, and its state once
  /// caught up, must be the coordinator's. `heardMark`: the digest's count after the last
  /// event it was told.
  private var inattentive: Coordinator
  private var digest = PolicyEventDigest()
  private var heardMark: UInt64 = 0
  private var rng: SplitMix64
  var failureRate = 0.2

  // The world.
  private(set) var now = 0.0
  private(set) var alive = false
  private var foreground = false
  private var sceneActive = false
  private var screen: ScreenKind?
  private var wakeAt: Double?
  private var inFlight: [DisplayRequest] = []

  /// What the driver knows about one issued message. Ids are 1, 2, 3... in issue order, so
  /// records live in an array (hashing is slow in debug builds).
  struct Record {
    var message: Message
    /// Not yet displayed successfully.
    var outstanding = true
    /// Successful displays.
    var successes = 0
    /// Deliveries made while a copy of the message was still queued.
    var duplicatesWhileQueued = 0
    /// Deliveries to this process.
    var copies = 0
    /// Order of the first delivery to this process; -1 when not delivered to it.
    var arrivalSeq = -1
  }

  // The App Store.
  private(set) var records: [Record] = []
  /// To be delivered to this process (at launch, or again at a resume).
  private var fetchQueue: [MessageID] = []
  private var anyOutstanding = false

  // Bookkeeping for the properties.
  private var arrivals = 0
  /// The article's `canPresent`, as its table sets it.
  private var articleGate = false
  private var regularThisBreak = 0
  private var runLastSeq = -1
  private var runIDs: Set<MessageID> = []
  /// Every event and its answer, when `recordsLog` (for replays).
  private(set) var log: [Step] = []
  var recordsLog = false
  /// Display requests so far, and how many of them were forced.
  private(set) var displayCount = 0
  private(set) var forcedCount = 0
  /// The coordinator's queue after the last event, by id.
  private var queuedIDs: [MessageID] = []
  /// Scratch space for the conservation check.
  private var queuedCount: [Int] = []
  private var fetchCount: [Int] = []
  private(set) var problems: [String] = []

  init(preset: PolicyCatalog.Preset, seed: UInt64) {
    name = preset.name
    configuration = preset.configuration
    self.seed = seed
    coordinator = Coordinator(configuration: preset.configuration)
    inattentive = coordinator
    // One stream per seed, the same for every preset: lives differ only where the policies'
    // answers make them differ (common random numbers, as in the engine).
    rng = SplitMix64(seed: seed)
  }

  var isArrivalOrdered: Bool { configuration.ordering == .arrival }

  /// Ids of the messages not yet displayed, in issue order.
  var outstandingIDs: [MessageID] { records.filter(\.outstanding).map(\.message.id) }

  /// The issued message with this id.
  func issued(_ id: MessageID) -> Message { records[Int(id) - 1].message }

  mutating func problem(_ text: String) {
    if problems.count < 5 { problems.append("seed \(seed) \(name) t=\(now): \(text)") }
  }

  // MARK: Events

  mutating func send(_ event: PolicyEvent) {
    let inFlightBefore = inFlight.count
    // The same event to a copy that has forgotten its last scan (``_Schedule``): reusing the
    // scan must change no answer and no state.
    var unscheduled = coordinator
    unscheduled.schedule = _Schedule()
    var unscheduledActions = PolicyActions()
    unscheduled.handle(event, at: now, into: &unscheduledActions)
    coordinator.handle(event, at: now, into: &actions)
    if Answer(unscheduledActions) != Answer(actions)
      || unscheduledActions.displays != actions.displays
      || unscheduled.pending != coordinator.pending || unscheduled.counters != coordinator.counters
    {
      problem(
        "after \(event): \(Answer(actions)) with the last scan reused, "
          + "\(Answer(unscheduledActions)) without")
    }
    checkInattentive(event)
    if recordsLog { log.append(Step(time: now, event: event, answer: Answer(actions))) }
    displayCount += actions.displays.count
    for request in actions.displays where request.forced { forcedCount += 1 }
    check(after: event, inFlightBefore: inFlightBefore)
    inFlight.append(contentsOf: actions.displays)
    wakeAt = actions.wakeAt
  }

  /// The same event to ``inattentive`` if it heeds it (else its answer is no display and no
  /// timer): the answer must be the coordinator's (in `actions`), and so must everything it
  /// keeps once caught up.
  mutating func checkInattentive(_ event: PolicyEvent) {
    if inattentive.heeds.contains(PolicyEventKinds(event)) {
      inattentive.catchUp(with: digest, since: heardMark)
      var answer = PolicyActions()
      inattentive.handle(event, at: now, into: &answer)
      heardMark = digest.count + 1
      if Answer(answer) != Answer(actions) || answer.displays != actions.displays {
        problem(
          "after \(event): \(Answer(actions)) told everything, \(Answer(answer)) told only "
            + "what it heeds")
      }
    } else if !actions.displays.isEmpty || actions.wakeAt != nil {
      problem("\(event), not heeded, answered \(Answer(actions))")
    }
    if coordinator.heeds != coordinator.currentHeeds {
      problem(
        "after \(event): heeds \(coordinator.heeds.rawValue), its state says "
          + "\(coordinator.currentHeeds.rawValue)")
    }
    digest.record(event)
    var probe = inattentive
    probe.catchUp(with: digest, since: heardMark)
    if probe.canPresent != coordinator.canPresent || probe.sceneActive != coordinator.sceneActive
      || probe.currentKind != coordinator.currentKind
      || probe.shownThisBreak != coordinator.shownThisBreak
      || probe.failedThisBreak != coordinator.failedThisBreak
      || probe.pending != coordinator.pending || probe.counters != coordinator.counters
      || probe.batch != coordinator.batch || probe.heeds != coordinator.heeds
      || probe.persistedState != coordinator.persistedState
    {
      problem("after \(event): told only what it heeds, caught up, it keeps something else")
    }
  }

  mutating func launch() {
    alive = true
    foreground = true
    sceneActive = false
    screen = nil
    articleGate = false
    regularThisBreak = 0
    for index in records.indices {
      records[index].copies = 0
      records[index].arrivalSeq = -1
    }
    fetchQueue = outstandingIDs
    send(.processLaunched)
    show(.launch)
  }

  mutating func terminate() {
    precondition(inFlight.isEmpty, "Results are reported before time moves on")
    alive = false
    foreground = false
    sceneActive = false
    fetchQueue = []
    send(.processTerminated)
    if !coordinator.pending.isEmpty { problem("messages queued after the process died") }
    if wakeAt != nil { problem("a timer asked for by a dead process") }
    wakeAt = nil
  }

  mutating func show(_ kind: ScreenKind) {
    screen = kind
    switch kind {
    case .launch, .onboarding, .paywall, .checkout, .immersive: articleGate = false
    case .home, .settings: articleGate = true
    case .content: break
    }
    regularThisBreak = 0
    send(.screenAppeared(kind))
  }

  mutating func activate() {
    sceneActive = true
    regularThisBreak = 0
    send(.sceneActivated)
  }

  mutating func goToBackground() {
    sceneActive = false
    foreground = false
    send(.sceneDeactivated)
  }

  mutating func resume() {
    foreground = true
    if rng.chance(0.5) { fetchQueue += outstandingIDs }
  }

  mutating func deliver(_ id: MessageID) {
    let index = Int(id) - 1
    var message = records[index].message
    message.deliveredAt = now
    if queuedIDs.contains(id) { records[index].duplicatesWhileQueued += 1 }
    records[index].copies += 1
    if records[index].arrivalSeq < 0 {
      records[index].arrivalSeq = arrivals
      arrivals += 1
    }
    send(.delivered(message))
  }

  mutating func issue() {
    let reasons: [Reason] = [
      .priceIncreaseConsent, .billingIssue, .winBackOffer, .generic,
      .unknown(rawValue: 1 + rng.below(3)),
    ]
    let reason = reasons[rng.pick(weights: Self.reasonWeights)]
    let deadline = reason == .priceIncreaseConsent ? now + rng.uniform(0.5 * day..<30 * day) : nil
    let id = MessageID(records.count + 1)
    let message = Message(
      id: id, reason: reason, firstIssuedAt: now, deliveredAt: now, deadline: deadline)
    records.append(Record(message: message))
    anyOutstanding = true
    deliver(id)
  }

  mutating func redeliverOne() {
    let candidates = outstandingIDs
    guard !candidates.isEmpty else { return }
    deliver(candidates[rng.below(candidates.count)])
  }

  mutating func processResult() {
    let request = inFlight.removeFirst()
    let id = request.message.id
    if !sceneActive {
      send(.displayFailed(id, .noActiveScene))
    } else if rng.chance(failureRate) {
      send(.displayFailed(id, .presentationFailed))
    } else {
      let index = Int(id) - 1
      records[index].successes += 1
      records[index].outstanding = false
      anyOutstanding = records.contains { $0.outstanding }
      fetchQueue.removeAll { $0 == id }
      if configuration.removesDisplayed {
        // Each delivery makes at most one queue entry, and an entry leaves on success; with
        // de-duplication a message is queued once, so it is shown once.
        let bound = configuration.deduplicates ? 1 : 1 + records[index].duplicatesWhileQueued
        if records[index].successes > bound {
          problem("message \(id) displayed \(records[index].successes) times (bound \(bound))")
        }
      }
      send(.displaySucceeded(id))
    }
  }

  mutating func drainResults() {
    while !inFlight.isEmpty { processResult() }
  }

  // MARK: Random life

  static let screenKinds: [ScreenKind] = [
    .launch, .onboarding, .paywall, .checkout, .immersive, .home, .settings, .content,
  ]
  static let screenWeights: [Double] = [0.3, 2, 1, 0.7, 1.5, 3, 1, 3]
  static let reasonWeights: [Double] = [3, 2, 1, 2, 1]
  static let dwellWeights: [Double] = [5, 2, 0.6]
  static let backgroundWeights: [Double] = [3, 2, 1]
  /// Activate, fetch, screen, issue: without and with messages to fetch.
  static let launchingWeights: [[Double]] = [[5, 0, 1, 0.5], [5, 3, 1, 0.5]]
  static let launchingActions: [Action] = [.activate, .fetch, .screen, .issue]
  /// Screen, fetch, issue, redeliver, background: by (something to fetch, something to redeliver).
  static let activeWeights: [[Double]] = [
    [6, 0, 2, 0, 1.5], [6, 0, 2, 1, 1.5], [6, 3, 2, 0, 1.5], [6, 3, 2, 1, 1.5],
  ]
  static let activeActions: [Action] = [.screen, .fetch, .issue, .redeliver, .background]

  /// A length for this life, drawn from its own stream.
  mutating func randomLength(in range: Range<Int>) -> Int {
    range.lowerBound + rng.below(range.count)
  }

  mutating func randomKind() -> ScreenKind {
    Self.screenKinds[rng.pick(weights: Self.screenWeights)]
  }
  mutating func tinyGap() -> Double { rng.uniform(0.05..<1) }
  mutating func dwellGap() -> Double {
    switch rng.pick(weights: Self.dwellWeights) {
    case 0: rng.uniform(1..<60)
    case 1: rng.uniform(60..<1800)
    default: rng.uniform(hour..<14 * hour)
    }
  }
  mutating func backgroundGap() -> Double {
    switch rng.pick(weights: Self.backgroundWeights) {
    case 0: rng.uniform(10..<600)
    case 1: rng.uniform(hour..<12 * hour)
    default: rng.uniform(day..<4 * day)
    }
  }

  enum Action {
    case activate, fetch, screen, issue, redeliver, background, resume, terminate
  }

  /// One step of a random life.
  mutating func step() {
    if !inFlight.isEmpty {
      if rng.chance(0.85) || !foreground {
        processResult()
        return
      }
      // Another event at the same instant, queued before the results.
      switch rng.below(3) {
      case 0: issue()
      case 1: show(randomKind())
      default: redeliverOne()
      }
      return
    }
    guard alive else {
      now += backgroundGap()
      launch()
      return
    }
    let action: Action
    let gap: Double
    if foreground && !sceneActive {
      let weights = Self.launchingWeights[fetchQueue.isEmpty ? 0 : 1]
      action = Self.launchingActions[rng.pick(weights: weights)]
      gap = tinyGap()
    } else if foreground {
      let weights = Self.activeWeights[(fetchQueue.isEmpty ? 0 : 2) + (anyOutstanding ? 1 : 0)]
      action = Self.activeActions[rng.pick(weights: weights)]
      gap = action == .fetch ? tinyGap() : dwellGap()
    } else {
      action = rng.chance(0.75) ? .resume : .terminate
      gap = backgroundGap()
    }
    if foreground, let wake = wakeAt, wake <= now + gap {
      now = max(now, wake)
      send(.timerFired)
      return
    }
    now += gap
    switch action {
    case .activate: activate()
    case .fetch: deliver(fetchQueue.removeFirst())
    case .screen: show(randomKind())
    case .issue: issue()
    case .redeliver: redeliverOne()
    case .background: goToBackground()
    case .resume: resume()
    case .terminate: terminate()
    }
  }

  /// Ends the random life: results are in, the process is killed and relaunched, every
  /// message not yet displayed is delivered, the scene becomes active and an immersive
  /// screen stays up while timers fire (no failures from here on). Returns the number of
  /// display requests made in this phase.
  mutating func finishOnAnImmersiveScreen() -> Int {
    drainResults()
    failureRate = 0
    if alive {
      if foreground {
        now += 1
        goToBackground()
      }
      now += 60
      terminate()
    }
    now += 60
    launch()
    let start = displayCount
    while !fetchQueue.isEmpty {
      now += 0.1
      deliver(fetchQueue.removeFirst())
      drainResults()
    }
    now += 0.5
    activate()
    drainResults()
    now += 1
    show(.immersive)
    drainResults()
    var firings = 0
    while let wake = wakeAt, firings < 1000 {
      now = max(now, wake)
      send(.timerFired)
      drainResults()
      firings += 1
    }
    if firings == 1000 { problem("timers never settle") }
    return displayCount - start
  }

  /// Then the user goes home again and again (a break each time), results succeeding.
  mutating func finishAtHome() {
    let rounds = outstandingIDs.count + 3
    for _ in 0..<rounds {
      now += 60
      show(.home)
      drainResults()
    }
  }

  // MARK: Properties checked after every event

  mutating func check(after event: PolicyEvent, inFlightBefore: Int) {
    if let wake = actions.wakeAt, !(wake > now) {
      problem("after \(event): wakeAt \(wake) is not in the future")
    }
    let pending = coordinator.pending.map(\.id)
    let displays = actions.displays
    if !displays.isEmpty {
      // A call that empties the queue afterwards displays what was queued before it.
      let queued = configuration.clearsAfterCall ? queuedIDs + pending : pending
      checkDisplays(displays, after: event, inFlightBefore: inFlightBefore, pending: queued)
    }
    queuedIDs = pending
    checkConservation(pending: pending, after: event)
  }

  mutating func checkDisplays(
    _ displays: ContiguousArray<DisplayRequest>, after event: PolicyEvent, inFlightBefore: Int,
    pending: [MessageID]
  ) {
    if name == "never" { problem("never displayed \(displays.map(\.message.id))") }
    for request in displays {
      let id = request.message.id
      let original = issued(id)
      // A policy that does not know deadlines sees none.
      let deadline = configuration.knowsDeadlines ? original.deadline : nil
      if original.reason != request.message.reason || deadline != request.message.deadline {
        problem("after \(event): display of a message that differs from the one issued (\(id))")
      }
      if !pending.contains(id) { problem("after \(event): display of \(id), which is not queued") }
      if configuration.requiresActiveScene, !sceneActive {
        problem("after \(event): display of \(id) without an active scene")
      }
      if !configuration.showsUnknownReasons, !request.message.reason.isKnown {
        problem("after \(event): display of \(id), of an unknown reason")
      }
      switch name {
      case "screen-gate", "screen-gate-ceiling":
        if name == "screen-gate", request.forced { problem("screen-gate forced \(id)") }
        if !request.forced, !articleGate {
          problem("after \(event): \(id) shown with the article's canPresent false")
        }
      case "deadline-aware", "deadline-aware-value", "deadline-aware-v1", "deadline-blind":
        if !request.forced {
          if screen != .home, screen != .settings, screen != .content {
            problem(
              "after \(event): \(id) shown unforced over \(screen.map(\.rawValue) ?? "no screen")")
          }
          regularThisBreak += 1
          if regularThisBreak > 1 {
            problem("after \(event): a second unforced sheet in one break")
          }
        }
      default: break
      }
    }
    if configuration.sequentialBatch, displays.count > 1 || inFlightBefore > 0 {
      problem(
        "after \(event): \(displays.count) displays with \(inFlightBefore) in flight in a sequential batch"
      )
    }
    if isArrivalOrdered { checkArrivalOrder(displays, after: event) }
  }

  /// FIFO: the displays one event asks for (with a sequential batch: one call of the SDK,
  /// continued by results) are in order of arrival in this process. Messages delivered more
  /// than once to this process (no de-duplication) are skipped: their copies sit at
  /// different places.
  mutating func checkArrivalOrder(
    _ displays: ContiguousArray<DisplayRequest>, after event: PolicyEvent
  ) {
    var continuesBatch = false
    if configuration.sequentialBatch {
      switch event {
      case .displaySucceeded, .displayFailed: continuesBatch = true
      default: break
      }
    }
    if !continuesBatch {
      runLastSeq = -1
      runIDs = []
    }
    for request in displays {
      let id = request.message.id
      let seq = records[Int(id) - 1].arrivalSeq
      guard records[Int(id) - 1].copies == 1, !runIDs.contains(id), seq >= 0 else { continue }
      runIDs.insert(id)
      if seq <= runLastSeq { problem("after \(event): \(id) shown out of arrival order") }
      runLastSeq = seq
    }
  }

  /// Every message delivered to this process and not displayed is queued; every other one
  /// not displayed is waiting to be delivered again; nothing else is queued.
  mutating func checkConservation(pending: [MessageID], after event: PolicyEvent) {
    guard alive else { return }
    // Counts indexed by id, in scratch arrays: sets and generic `contains` are slow in debug.
    queuedCount.removeAll(keepingCapacity: true)
    queuedCount.append(contentsOf: repeatElement(0, count: records.count))
    fetchCount.removeAll(keepingCapacity: true)
    fetchCount.append(contentsOf: repeatElement(0, count: records.count))
    for id in pending { queuedCount[Int(id) - 1] += 1 }
    for id in fetchQueue { fetchCount[Int(id) - 1] += 1 }
    for index in records.indices {
      let id = index + 1
      let queued = queuedCount[index]
      if records[index].outstanding {
        if records[index].copies > 0 {
          // A policy that empties its queue after each call loses the rest until redelivery.
          if queued == 0, !configuration.clearsAfterCall {
            problem("after \(event): \(id) delivered, not displayed, not queued")
          }
        } else if fetchCount[index] == 0 {
          problem("after \(event): \(id) neither queued nor awaiting redelivery")
        }
      }
      if queued > 0, records[index].copies == 0 {
        problem("after \(event): \(id) queued but not delivered to this process")
      }
      if configuration.deduplicates, queued > 1 {
        problem("after \(event): \(id) queued \(queued) times despite de-duplication")
      }
    }
  }
}
