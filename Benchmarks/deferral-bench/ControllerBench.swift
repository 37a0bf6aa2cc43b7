import MessageDeferral
import MessageDeferralStoreKit
import StoreKitShim

/// `deferral-bench controller`: the shipped controller's main-thread cost per screen event and
/// per flush with 1, 10 and 1,000 pending messages, side by side with the article's
/// coordinator (its `Array` queue with inserts at the front, ``ArticleQueue``, and its
/// `canPresent` switch flushing on every assignment), on the StoreKit shim.
///
/// - Screen event: the user moves between two screens that hold messages back (immersive and
///   checkout), so nothing is shown and the pending messages stay: the cost of hearing a screen.
/// - Flush: a calm screen (`home`) shows every pending message (`screen-gate`, the article's
///   policy, in both), results told back; the refill before each flush is not timed.
@MainActor
enum ControllerBench {
  struct Row {
    var what: String
    var pending: Int
    var side: String
    var nanoseconds: Double
  }

  /// The article's `StoreMessageCoordinator`, as the benchmark needs it: enqueue, `canPresent`
  /// assigned from its table on each screen, a flush on every assignment when allowed that
  /// displays every pending message in the scene.
  @MainActor
  struct ArticleCoordinator {
    var pending = ArticleQueue<StoreKitMessage>()
    let scene: UIWindowScene
    var canPresent = false {
      didSet { flush() }
    }

    @inline(never)
    mutating func screenAppeared(_ kind: ScreenKind) {
      switch kind {
      case .launch, .onboarding, .paywall, .checkout, .immersive: canPresent = false
      case .home, .settings: canPresent = true
      case .content: break
      }
    }

    mutating func flush() {
      guard canPresent, scene.activationState == .foregroundActive else { return }
      for message in pending.takeAll() {
        do { try message.display(in: scene) } catch { pending.append(message) }
      }
    }
  }

  static func run(repetitions: Int) async -> [Row] {
    var rows: [Row] = []
    for pending in [1, 10, 1000] {
      let events = pending >= 1000 ? 2_000 : 100_000
      for policyName in ["screen-gate", "deadline-aware"] {
        let nanoseconds = await screenEvents(
          policy: policyName, pending: pending, events: events, repetitions: repetitions)
        rows.append(
          Row(
            what: "screen_event", pending: pending, side: "controller_\(policyName)",
            nanoseconds: nanoseconds))
      }
      rows.append(
        Row(
          what: "screen_event", pending: pending, side: "coordinator_deadline-aware",
          nanoseconds: coordinatorScreenEvents(
            pending: pending, events: events, repetitions: repetitions)))
      rows.append(
        Row(
          what: "screen_event", pending: pending, side: "article_coordinator",
          nanoseconds: articleScreenEvents(
            pending: pending, events: events, repetitions: repetitions)))
      rows.append(
        Row(
          what: "flush", pending: pending, side: "controller_screen-gate",
          nanoseconds: await flushes(pending: pending, repetitions: repetitions)))
      rows.append(
        Row(
          what: "flush", pending: pending, side: "article_coordinator",
          nanoseconds: articleFlushes(pending: pending, repetitions: repetitions)))
    }
    return rows
  }

  /// A controller with `pending` generic messages held, listening on `store`.
  static func controller(
    policy: String, pending: Int, store: ShimAppStore, clock: ManualDeferralClock,
    scene: UIWindowScene
  ) async -> MessageDeferralController {
    let controller = MessageDeferralController(
      policy: ShippedPolicy(
        name: policy, configuration: PolicyCatalog.preset(named: policy)!.configuration),
      storage: InMemoryDeferralStorage(), clock: clock,
      options: MessageDeferralController.Options(eventualFlush: nil))
    controller.screenAppeared(.launch, name: "splash")
    controller.sceneDidBecomeActive(scene)
    controller.screenAppeared(.immersive, name: "player")
    controller.start()
    while !store.hasListener { await Task.yield() }
    for index in 0..<pending {
      await store.send(StoreKitMessage(reason: .generic, shimIdentity: index))
    }
    precondition(controller.pendingCount == pending, "messages must stay held for the bench")
    return controller
  }

  static func screenEvents(
    policy: String, pending: Int, events: Int, repetitions: Int
  ) async
    -> Double
  {
    let store = ShimAppStore()
    return await ShimStoreKit.$appStore.withValue(store) {
      let clock = ManualDeferralClock(now: 1_000)
      let scene = UIWindowScene(activationState: .foregroundActive)
      scene.displayHandler = { _ in }
      let controller = await Self.controller(
        policy: policy, pending: pending, store: store, clock: clock, scene: scene)
      var samples: [Double] = []
      for _ in 0..<repetitions {
        let start = Measure.nanoseconds()
        for event in 0..<events {
          controller.screenAppeared(
            event & 1 == 0 ? .checkout : .immersive, name: event & 1 == 0 ? "cart" : "player")
        }
        samples.append(Double(Measure.nanoseconds() - start) / Double(events))
      }
      precondition(controller.pendingCount == pending, "a screen event showed a message")
      store.endListening()
      return Measure.median(samples)
    }
  }

  static func articleScreenEvents(pending: Int, events: Int, repetitions: Int) -> Double {
    let scene = UIWindowScene(activationState: .foregroundActive)
    scene.displayHandler = { _ in }
    var coordinator = ArticleCoordinator(scene: scene)
    for index in 0..<pending {
      coordinator.pending.enqueue(
        StoreKitMessage(reason: .generic, shimIdentity: index), reason: .generic)
    }
    var samples: [Double] = []
    for _ in 0..<repetitions {
      let start = Measure.nanoseconds()
      for event in 0..<events {
        coordinator.screenAppeared(event & 1 == 0 ? .checkout : .immersive)
      }
      samples.append(Double(Measure.nanoseconds() - start) / Double(events))
    }
    precondition(coordinator.pending.count == pending, "a screen event showed a message")
    return Measure.median(samples)
  }

  /// The bare ``Coordinator`` under `deadline-aware`, without the controller around it.
  static func coordinatorScreenEvents(pending: Int, events: Int, repetitions: Int) -> Double {
    var coordinator = Coordinator(configuration: PolicyCatalog.Preset.deadlineAware.configuration)
    var actions = PolicyActions()
    coordinator.handle(.processLaunched, at: 1_000, into: &actions)
    coordinator.handle(.screenAppeared(.launch), at: 1_000, into: &actions)
    coordinator.handle(.sceneActivated, at: 1_000, into: &actions)
    coordinator.handle(.screenAppeared(.immersive), at: 1_000, into: &actions)
    for index in 0..<pending {
      let message = MessageDeferral.Message(
        id: MessageID(index), reason: .generic, firstIssuedAt: 1_000, deliveredAt: 1_000)
      coordinator.handle(.delivered(message), at: 1_000, into: &actions)
    }
    var samples: [Double] = []
    for _ in 0..<repetitions {
      let start = Measure.nanoseconds()
      for event in 0..<events {
        coordinator.handle(
          .screenAppeared(event & 1 == 0 ? .checkout : .immersive), at: 1_000, into: &actions)
      }
      samples.append(Double(Measure.nanoseconds() - start) / Double(events))
    }
    precondition(coordinator.pendingCount == pending, "a screen event showed a message")
    return Measure.median(samples)
  }

  static func flushes(pending: Int, repetitions: Int) async -> Double {
    let store = ShimAppStore()
    return await ShimStoreKit.$appStore.withValue(store) {
      let clock = ManualDeferralClock(now: 1_000)
      let scene = UIWindowScene(activationState: .foregroundActive)
      scene.displayHandler = { _ in }
      let controller = await Self.controller(
        policy: "screen-gate", pending: 0, store: store, clock: clock, scene: scene)
      var samples: [Double] = []
      var identity = 0
      for _ in 0..<max(repetitions, 5) {
        controller.screenAppeared(.immersive, name: "player")
        for _ in 0..<pending {
          identity += 1
          await store.send(StoreKitMessage(reason: .generic, shimIdentity: identity))
        }
        let start = Measure.nanoseconds()
        controller.screenAppeared(.home, name: "home")
        clock.advance(to: clock.now)  // the idle turn: results told back
        samples.append(Double(Measure.nanoseconds() - start))
        precondition(controller.pendingCount == 0, "the flush left messages")
      }
      store.endListening()
      return Measure.median(samples)
    }
  }

  static func articleFlushes(pending: Int, repetitions: Int) -> Double {
    let scene = UIWindowScene(activationState: .foregroundActive)
    scene.displayHandler = { _ in }
    var coordinator = ArticleCoordinator(scene: scene)
    var samples: [Double] = []
    for _ in 0..<max(repetitions, 5) {
      coordinator.screenAppeared(.immersive)
      for index in 0..<pending {
        coordinator.pending.enqueue(
          StoreKitMessage(reason: .generic, shimIdentity: index), reason: .generic)
      }
      let start = Measure.nanoseconds()
      coordinator.screenAppeared(.home)
      samples.append(Double(Measure.nanoseconds() - start))
      precondition(coordinator.pending.isEmpty, "the flush left messages")
    }
    return Measure.median(samples)
  }

  /// Prints the table, the ratio to the article, and the 1 µs target at 10 pending.
  static func report(_ rows: [Row]) -> Bool {
    print("what,pending,side,ns,ratio_to_article")
    for row in rows {
      let article = rows.first {
        $0.what == row.what && $0.pending == row.pending && $0.side == "article_coordinator"
      }
      let ratio = article.map { row.nanoseconds / $0.nanoseconds } ?? 1
      print(
        "\(row.what),\(row.pending),\(row.side),\(Format.significant(row.nanoseconds)),"
          + Format.significant(ratio))
    }
    let target = rows.filter { $0.what == "screen_event" && $0.pending == 10 }
      .filter { $0.side.hasPrefix("controller") }
    let worst = target.map(\.nanoseconds).max() ?? .infinity
    print(
      "controller_screen_event_ns_10_pending: \(Format.significant(worst)) "
        + "(target <= 1000 ns: \(worst <= 1000 ? "met" : "missed"))")
    return worst <= 1000
  }
}
