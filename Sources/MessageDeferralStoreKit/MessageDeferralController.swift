import MessageDeferral

// The controller an app runs: StoreKit 2's messages fed to the same Coordinator the simulator
// runs. This is the one file that touches StoreKit and UIKit: the real frameworks where
// StoreKit's Message API exists (iOS, Mac Catalyst, visionOS), StoreKitShim elsewhere.
#if canImport(StoreKit) && canImport(UIKit)
  import StoreKit
  import UIKit
  /// StoreKit's `Message` (not MessageDeferral's).
  public typealias StoreKitMessage = StoreKit.Message
#else
  import StoreKitShim
  /// StoreKit's `Message` (here the shim's; not MessageDeferral's).
  public typealias StoreKitMessage = StoreKitShim.Message
#endif

/// Runs an exported deferral policy inside the app: listens to `Message.messages`, hears the
/// screens and scene changes the app reports, and displays each message when the policy says,
/// through `display(in:)` on the foreground-active `UIWindowScene` or SwiftUI's
/// `DisplayMessageAction`.
///
/// Create one at launch, report what the user does, start the listener when the app is ready:
///
///     // UIKit: in the app delegate or first scene delegate
///     let deferral = MessageDeferralController(
///       policyFile: Bundle.main.path(forResource: "recommended-policy", ofType: "json"))
///     deferral.start()
///     // in each view controller's viewDidAppear
///     deferral.screenAppeared(.home, name: "home")
///     // in the scene delegate
///     func sceneDidBecomeActive(_ scene: UIScene) {
///       if let scene = scene as? UIWindowScene { deferral.sceneDidBecomeActive(scene) }
///     }
///     func sceneDidEnterBackground(_ scene: UIScene) { deferral.sceneDidEnterBackground() }
///
/// (SwiftUI: the `deferralScene(_:)` and `deferralScreen(_:name:controller:)` modifiers.)
///
/// The adapter rules, each what the simulator's engine does (the conformance test replays
/// simulated lives through this class and compares every display and its time):
/// - **Launch**: creating the controller is the process launch (``PolicyEvent/processLaunched``);
///   what the policy remembers across launches comes back from the ``DeferralStorage``.
/// - **Listener**: one `for await` loop over `Message.messages`, from ``start()`` (a second
///   call does nothing). A message StoreKit has before then is StoreKit's to show.
/// - **Screens and scene**: ``screenAppeared(_:name:)``, ``sceneDidBecomeActive(_:)``,
///   ``sceneDidEnterBackground()`` are told to the coordinator at once, at the clock's time.
/// - **Displays**: attempted in the order the policy asks; with no foreground-active scene
///   (or none reported), the attempt fails as `no_active_scene` without calling StoreKit; a
///   thrown error is a `presentation_failed`. Results are told to the policy in order once the
///   app is idle (a zero-delay timer) or before an event at a later time, so messages StoreKit
///   hands over at one moment are all heard first (results of results follow in that pass).
/// - **Timers**: the policy's wake time becomes one main-actor timer (replaced by each answer,
///   cancelled by an answer that asks for none).
/// - **Deadline**: a price-increase consent's deadline is ``renewalDate``, which the app sets
///   from the subscription's renewal date (or ``readRenewalDate(subscriptionGroupID:)``).
/// - **Eventual flush** (not in the simulator; off with `eventualFlush: nil`): a message of a
///   reason that has waited ``Options/eventualFlush`` since the app first received one unshown
///   (kept across launches) is shown at the next screen or scene activation, whatever the
///   policy says. So no policy hides a message forever. Without a usable policy file the
///   controller starts no listener at all: StoreKit shows every message itself.
@MainActor
public final class MessageDeferralController {
  /// Choices of the adapter itself, not of the policy.
  public struct Options: Sendable, Equatable {
    /// The eventual-flush limit in seconds; `nil`: off (as simulated). Default 7 days.
    public var eventualFlush: Double?
    public init(eventualFlush: Double? = 7 * 86_400) { self.eventualFlush = eventualFlush }
  }

  /// The policy running (or StoreKit's default, with its ``ShippedPolicy/fallbackReason``).
  public let policy: ShippedPolicy
  public let options: Options
  /// The consent deadline: the subscription's renewal date, on the clock's timeline (Unix
  /// seconds on a device). Read at each delivery of a price-increase consent.
  public var renewalDate: Double?
  /// SwiftUI's display action; when set, displays go through it instead of `display(in:)`.
  public var displayAction: DisplayMessageAction?
  /// Called with every record for the app's analytics (``DeferralLogRecord``).
  public var log: (@MainActor (DeferralLogRecord) -> Void)?
  /// Called just before a message is displayed, with whether it is forced (to pause video).
  public var willDisplay: (@MainActor (StoreKitMessage, _ forced: Bool) -> Void)?

  let clock: any DeferralClock
  let storage: any DeferralStorage
  var coordinator: Coordinator?
  var actions = PolicyActions()
  /// Display results not yet told to the coordinator, from `resultsHead` on.
  var results: ContiguousArray<(id: MessageID, failure: DisplayFailure?)> = []
  var resultsHead = 0
  var draining = false
  /// When the waiting results were produced, and the idle timer that tells them.
  var resultsTime = -Double.infinity
  var drainTimer: (any DeferralTimer)?
  var timer: (any DeferralTimer)?
  var timerAt: Double?
  var listener: Task<Void, Never>?
  var scene: UIWindowScene?
  var sceneActive = false
  var screen: (name: String, kind: ScreenKind)?
  /// This process's numbering of the messages StoreKit delivered (the same message again gets
  /// its number again).
  var identities: [StoreKitMessage: MessageID] = [:]
  var messages: [StoreKitMessage] = []
  var deliveredAt: [Double] = []
  var failures: [Int] = []
  /// Per reason lane: the moment of the last sheet shown (screen and wait), for
  /// ``recordResponse(_:for:)``.
  var lastShown: [Int: (screen: String?, kind: ScreenKind?, waited: Double)] = [:]
  var state: DeferralState
  /// What was last written to the storage.
  var savedState: DeferralState
  var stateMayHaveChanged = false
  var displayedSinceSave = false
  /// The earliest ``DeferralState/heldSince``, so a screen checks the flush with one compare.
  var earliestHeld = Double.infinity

  /// A controller running `policy`; its creation is the process launch.
  public init(
    policy: ShippedPolicy, storage: any DeferralStorage, clock: any DeferralClock,
    options: Options = Options()
  ) {
    self.policy = policy
    self.options = options
    self.storage = storage
    self.clock = clock
    state = storage.loadState() ?? DeferralState()
    savedState = state
    earliestHeld = state.heldSince.compactMap { $0 }.min() ?? .infinity
    if let configuration = policy.configuration {
      var coordinator = Coordinator(configuration: configuration)
      coordinator.restore(state.policy)
      self.coordinator = coordinator
      tell(.processLaunched)
    }
  }

  #if canImport(Foundation)
    /// A controller running the policy file at `policyFile` (StoreKit's default, with the
    /// reason in ``policy``, when it is missing or unusable), state in `UserDefaults`, the
    /// system clock.
    public convenience init(policyFile: String?, options: Options = Options()) {
      self.init(
        policy: .load(path: policyFile), storage: UserDefaultsDeferralStorage(),
        clock: SystemDeferralClock(), options: options)
    }
  #endif

  /// Why the policy file is not used, if it is not (then StoreKit shows messages itself).
  public var fallbackReason: String? { policy.fallbackReason }

  /// Starts the one listener (`for await message in Message.messages`). A second call does
  /// nothing; under StoreKit's default (no usable policy) nothing is started.
  public func start() {
    guard listener == nil, coordinator != nil else { return }
    listener = Task { @MainActor [weak self] in
      for await message in StoreKitMessage.messages {
        guard let self else { return }
        self.receive(message)
      }
    }
  }

  /// Whether the listener was started.
  public var isListening: Bool { listener != nil }

  /// Messages the policy holds now.
  public var pendingCount: Int { coordinator?.pendingCount ?? 0 }

  // MARK: What the app reports

  /// A screen appeared (UIKit: `viewDidAppear`; SwiftUI: `deferralScreen`).
  /// Logs what the user did with the last sheet of `reason` shown in this process, with that
  /// sheet's screen and wait (a `store_message_response` record for `deferral-sim
  /// fit-responses`), when the app learns it: StoreKit's `display(in:)` does not say. Does
  /// nothing when no sheet of `reason` was shown in this process or no `log` is set.
  public func recordResponse(_ response: DeferralLogRecord.Response, for reason: Reason) {
    guard let shown = lastShown[reason.laneIndex] else { return }
    var record = DeferralLogRecord(
      event: .messageResponse, time: clock.now, screen: shown.screen, screenKind: shown.kind,
      reason: reason, waitedSeconds: shown.waited)
    record.response = response
    log?(record)
  }

  public func screenAppeared(_ kind: ScreenKind, name: String) {
    screen = (name, kind)
    log?(DeferralLogRecord(event: .screenView, time: clock.now, screen: name, screenKind: kind))
    tell(.screenAppeared(kind))
    flushEventually()
  }

  /// The scene became foreground-active (`sceneDidBecomeActive`): displays go to `scene`.
  public func sceneDidBecomeActive(_ scene: UIWindowScene) {
    self.scene = scene
    sceneDidBecomeActive()
  }

  /// The scene became foreground-active, for an app that displays through ``displayAction``.
  public func sceneDidBecomeActive() {
    sceneActive = true
    tell(.sceneActivated)
    flushEventually()
  }

  /// The app left the foreground (`sceneDidEnterBackground`, or `sceneWillResignActive`).
  public func sceneDidEnterBackground() {
    sceneActive = false
    log?(
      DeferralLogRecord(
        event: .background, time: clock.now, screen: screen?.name, screenKind: screen?.kind))
    tell(.sceneDeactivated)
  }

  // MARK: Messages

  func receive(_ message: StoreKitMessage) {
    guard coordinator != nil else { return }
    let now = clock.now
    let id: MessageID
    if let known = identities[message] {
      id = known
    } else {
      id = MessageID(messages.count)
      identities[message] = id
      messages.append(message)
      deliveredAt.append(now)
      failures.append(0)
    }
    deliveredAt[Int(id)] = now
    let reason = Self.reason(of: message)
    let lane = reason.laneIndex
    if state.heldSince[lane] == nil {
      state.heldSince[lane] = now
      earliestHeld = min(earliestHeld, now)
      stateMayHaveChanged = true
    }
    tell(
      .delivered(
        Message(
          id: id, reason: reason, firstIssuedAt: now, deliveredAt: now,
          deadline: reason == .priceIncreaseConsent ? renewalDate : nil)))
  }

  /// MessageDeferral's reason for StoreKit's.
  static func reason(of message: StoreKitMessage) -> Reason {
    let reason = message.reason
    if reason == .priceIncreaseConsent { return .priceIncreaseConsent }
    if reason == .generic { return .generic }
    if #available(iOS 16.4, macCatalyst 16.4, visionOS 1.0, *), reason == .billingIssue {
      return .billingIssue
    }
    if #available(iOS 18.0, macCatalyst 18.0, visionOS 2.0, *), reason == .winBackOffer {
      return .winBackOffer
    }
    return .unknown(rawValue: reason.rawValue)
  }

  // MARK: The policy's answers

  /// Tells the coordinator `event` and carries out its answer. Display results wait until
  /// the app is next idle (a zero-delay timer), or until an event at a later time: so several
  /// messages StoreKit hands over at one moment are all heard before any result, as the
  /// simulator's engine orders them.
  func tell(_ event: PolicyEvent) {
    if resultsHead < results.count, clock.now > resultsTime { drain() }
    answer(event)
    scheduleDrain()
    persistIfNeeded()
  }

  /// Tells the coordinator the waiting display results, in order, and carries out its answers
  /// (whose results are told in the same pass, after those already waiting).
  func drain() {
    guard !draining else { return }
    draining = true
    drainTimer?.cancel()
    drainTimer = nil
    while resultsHead < results.count {
      let result = results[resultsHead]
      resultsHead += 1
      answer(
        result.failure.map { .displayFailed(result.id, $0) } ?? .displaySucceeded(result.id))
    }
    results.removeAll(keepingCapacity: true)
    resultsHead = 0
    draining = false
    persistIfNeeded()
  }

  func scheduleDrain() {
    guard resultsHead < results.count, drainTimer == nil, !draining else { return }
    resultsTime = clock.now
    drainTimer = clock.schedule(at: resultsTime) { [weak self] in
      self?.drainTimer = nil
      self?.drain()
    }
  }

  func answer(_ event: PolicyEvent) {
    guard coordinator != nil else { return }
    let now = clock.now
    coordinator!.handle(event, at: now, into: &actions)
    for request in actions.displays {
      attempt(request.message.id, forced: request.forced, eventual: false, at: now)
    }
    let wake = actions.wakeAt
    if wake != timerAt {
      timer?.cancel()
      timer = nil
      timerAt = wake
      if let wake {
        timer = clock.schedule(at: wake) { [weak self] in self?.timerFired() }
      }
    }
    switch event {
    case .delivered, .sceneActivated: stateMayHaveChanged = true
    case .displaySucceeded:
      stateMayHaveChanged = true
      displayedSinceSave = true
    default: break
    }
  }

  func timerFired() {
    timer = nil
    timerAt = nil
    tell(.timerFired)
  }

  /// One display attempt; its result waits in `results` (an eventual flush's failure is not
  /// told: the policy did not ask for that display).
  func attempt(_ id: MessageID, forced: Bool, eventual: Bool, at now: Double) {
    let index = Int(id)
    let message = messages[index]
    var record = DeferralLogRecord(
      event: .messageDisplayed, time: now, screen: screen?.name, screenKind: screen?.kind,
      reason: Self.reason(of: message), deliveredAt: deliveredAt[index],
      waitedSeconds: now - deliveredAt[index], forced: forced || eventual,
      eventualFlush: eventual, failuresBefore: failures[index], messageNumber: index)
    var failure: DisplayFailure?
    if !sceneActive || (displayAction == nil && scene?.activationState != .foregroundActive) {
      failure = .noActiveScene
    } else {
      willDisplay?(message, forced || eventual)
      do {
        if let displayAction {
          try displayAction(message)
        } else if let scene {
          try message.display(in: scene)
        }
      } catch {
        failure = .presentationFailed
      }
    }
    if let failure {
      failures[index] += 1
      record.event = .messageDisplayFailed
      record.failure = failure
    }
    if failure == nil, let reason = record.reason, let waited = record.waitedSeconds {
      lastShown[reason.laneIndex] = (screen?.name, screen?.kind, waited)
    }
    log?(record)
    if !eventual || failure == nil { results.append((id, failure)) }
  }

  /// Saves what the policy and the flush rule keep across launches, when an event that may
  /// change it was told (once per burst of events, so a flush of many messages saves once).
  func persistIfNeeded() {
    guard stateMayHaveChanged, !draining, let coordinator else { return }
    stateMayHaveChanged = false
    if displayedSinceSave {
      displayedSinceSave = false
      var held = Array(repeating: false, count: Reason.laneCount)
      for message in coordinator.pending { held[message.reason.laneIndex] = true }
      for lane in 0..<Reason.laneCount where !held[lane] { state.heldSince[lane] = nil }
      earliestHeld = state.heldSince.compactMap { $0 }.min() ?? .infinity
    }
    state.policy = coordinator.persistedState
    if state != savedState {
      storage.saveState(state)
      savedState = state
    }
  }

  /// The eventual-flush rule: every message of a reason waiting past the limit is shown now.
  func flushEventually() {
    guard let limit = options.eventualFlush, let coordinator else { return }
    let now = clock.now
    guard earliestHeld + limit <= now, sceneActive else { return }
    var due: [MessageID] = []
    for message in coordinator.pending where !coordinator.isAwaitingResult(message.id) {
      if let since = state.heldSince[message.reason.laneIndex], since + limit <= now {
        due.append(message.id)
      }
    }
    guard !due.isEmpty else { return }
    for id in due { attempt(id, forced: true, eventual: true, at: now) }
    scheduleDrain()
  }
}

#if canImport(StoreKit) && canImport(UIKit)
  extension MessageDeferralController {
    /// Sets ``renewalDate`` from StoreKit: the expiration date of the current transaction of
    /// the subscription group's first verified status (an auto-renewable subscription renews
    /// then). Not verified on this project's Linux CI (see README, "Ship it").
    public func readRenewalDate(subscriptionGroupID: String) async {
      guard let statuses = try? await Product.SubscriptionInfo.status(for: subscriptionGroupID)
      else { return }
      for status in statuses {
        if case .verified(let transaction) = status.transaction,
          let expiration = transaction.expirationDate
        {
          renewalDate = expiration.timeIntervalSince1970
          return
        }
      }
    }
  }
#endif
