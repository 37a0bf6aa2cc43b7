import MessageDeferral
import MessageDeferralStoreKit
import Simulation
import StoreKitShim

/// One simulated life as the engine ran it: its trace and its messages' reasons and deadlines.
struct SimulatedLife {
  var user: Int
  var steps: [TraceStep]
  /// Each message's reason and consent deadline, by its index within the user.
  var reasons: [Int: Reason]
  var deadlines: [Int: Double]
  var horizon: Double
  /// The scenario's screen kinds, by index.
  var kinds: [ScreenKind]
}

/// A display decision with its outcome, as the engine made it or as the controller made it.
struct Decision: Equatable, CustomStringConvertible {
  enum Outcome: Equatable { case shown, presentationFailed, noActiveScene }
  var time: Double
  var message: Int
  var forced: Bool
  var outcome: Outcome
  var description: String {
    "t=\(time) message \(message) forced=\(forced) \(outcome)"
  }
}

/// Runs lives of `world` under `policy` through the engine, every step recorded
/// (``Engine/trace(_:policy:seed:replication:user:)``: the same code path as a run).
func simulateLives(
  _ world: CompiledScenario, policy: PolicyConfiguration, users: Range<Int>, seed: UInt64
) -> [SimulatedLife] {
  users.map { user in
    let steps = Engine.trace(world, policy: policy, seed: seed, replication: 0, user: user).steps
    var reasons: [Int: Reason] = [:]
    var deadlines: [Int: Double] = [:]
    for step in steps where step.message >= 0 {
      if let reason = step.reason { reasons[step.message] = reason }
      if let deadline = step.deadline { deadlines[step.message] = deadline }
    }
    return SimulatedLife(
      user: user, steps: steps, reasons: reasons, deadlines: deadlines,
      horizon: world.scenario.horizon, kinds: world.scenario.screens.map(\.kind))
  }
}

/// The engine's display decisions in a life, each with the outcome traced right after it.
func engineDecisions(_ life: SimulatedLife) -> [Decision] {
  var decisions: [Decision] = []
  var index = 0
  let steps = life.steps
  while index < steps.count {
    defer { index += 1 }
    guard steps[index].what == .policy,
      case .display(let displays)? = steps[index].decision?.choice
    else { continue }
    // attemptDisplay traces one step per request, in order, right after the decision.
    for (offset, display) in displays.enumerated() {
      let result = steps[index + 1 + offset]
      let outcome: Decision.Outcome
      switch result.what {
      case .displayFailed: outcome = .presentationFailed
      case .displayFailedNoScene: outcome = .noActiveScene
      default: outcome = .shown
      }
      decisions.append(
        Decision(
          time: steps[index].time, message: display.message, forced: display.forced,
          outcome: outcome))
    }
    index += displays.count
  }
  return decisions
}

/// What an adapter rule of the replay does: the app's side of the controller, scripted from a
/// simulated life. `breakRule` changes one rule on purpose (to show the test can fail).
enum ReplayFault: String, Sendable, CaseIterable {
  case none
  /// The app starts the listener at launch, ignoring the SDK's configure delay.
  case listenerAtLaunch = "listener-at-launch"
  /// The app reports the scene active at its open, before the scene really is active.
  case sceneActiveAtOpen = "scene-active-at-open"
}

/// Replays `life` through a ``MessageDeferralController`` on the shim: a scripted clock, a
/// scene whose activation follows the trace, StoreKit's deliveries, and the engine's display
/// failures. Returns the controller's display decisions.
@MainActor
func replay(
  _ life: SimulatedLife, policy: PolicyConfiguration, fault: ReplayFault = .none
) async -> [Decision] {
  let store = ShimAppStore()
  return await ShimStoreKit.$appStore.withValue(store) {
    await replay(life, policy: policy, store: store, fault: fault)
  }
}

@MainActor
private func replay(
  _ life: SimulatedLife, policy: PolicyConfiguration, store: ShimAppStore, fault: ReplayFault
) async -> [Decision] {
  let steps = life.steps
  let clock = ManualDeferralClock(now: 0)
  let storage = InMemoryDeferralStorage()
  let scene = UIWindowScene(activationState: .unattached)
  let record = _ReplayRecord()
  // The engine's outcome of each policy display attempt that reached StoreKit, per message.
  for decision in engineDecisions(life) where decision.outcome != .noActiveScene {
    record.script[decision.message, default: []].append(decision.outcome)
  }
  scene.displayHandler = { message in
    guard var queue = record.script[message.shimIdentity], !queue.isEmpty else {
      record.unscripted = true
      return
    }
    let outcome = queue.removeFirst()
    record.script[message.shimIdentity] = queue
    if outcome == .presentationFailed { throw ShimDisplayError.presentationFailed }
  }
  var controller: MessageDeferralController?
  var listenerAt: Double?
  let shipped = ShippedPolicy(name: "replayed", configuration: policy)

  func launch(at time: Double, stepIndex: Int) {
    let next = MessageDeferralController(
      policy: shipped, storage: storage, clock: clock,
      options: MessageDeferralController.Options(eventualFlush: nil))
    record.numbers = []
    next.log = { entry in
      guard entry.event == .messageDisplayed || entry.event == .messageDisplayFailed,
        let number = entry.messageNumber
      else { return }
      let outcome: Decision.Outcome =
        switch entry.failure {
        case nil: .shown
        case .noActiveScene?: .noActiveScene
        case .presentationFailed?: .presentationFailed
        }
      record.decisions.append(
        Decision(
          time: entry.time, message: record.numbers[number], forced: entry.forced,
          outcome: outcome))
    }
    controller = next
    // When this process's listener exists: StoreKit's default answered a delivery before it
    // (the trace says when it became ready); else it was ready before any delivery.
    listenerAt = time
    if fault != .listenerAtLaunch {
      var index = stepIndex + 1
      while index < steps.count, steps[index].what != .coldLaunch {
        if case .storeKit(displays: _, listenerReadyAt: let ready)? = steps[index].decision?.choice
        {
          listenerAt = ready
          break
        }
        index += 1
      }
    }
  }

  func startListenerIfDue(by time: Double) async {
    guard let at = listenerAt, at <= time, let controller else { return }
    listenerAt = nil
    controller.start()
    while !store.hasListener { await Task.yield() }
  }

  for (index, step) in steps.enumerated() {
    // Events at a step's own time come first: the engine queued them before any timer then.
    clock.advance(to: step.time, including: false)
    await startListenerIfDue(by: step.time)
    switch step.what {
    case .coldLaunch:
      if controller != nil { store.endListening() }
      scene.activationState = .foregroundInactive
      launch(at: step.time, stepIndex: index)
      await startListenerIfDue(by: step.time)
      if fault == .sceneActiveAtOpen {
        scene.activationState = .foregroundActive
        controller?.sceneDidBecomeActive(scene)
      }
    case .warmResume:
      scene.activationState = .foregroundInactive
      if fault == .sceneActiveAtOpen {
        scene.activationState = .foregroundActive
        controller?.sceneDidBecomeActive(scene)
      }
    case .sceneActivated:
      scene.activationState = .foregroundActive
      if fault != .sceneActiveAtOpen { controller?.sceneDidBecomeActive(scene) }
    case .screenAppeared:
      let screenKind = step.screen >= 0 ? life.kinds[step.screen] : .content
      controller?.screenAppeared(screenKind, name: "screen-\(step.screen)")
    case .background:
      scene.activationState = .background
      controller?.sceneDidEnterBackground()
    case .terminated:
      store.endListening()
      controller = nil
      listenerAt = nil
    case .delivered:
      guard let controller else { continue }
      let message = step.message
      let reason = life.reasons[message] ?? .generic
      if reason == .priceIncreaseConsent, let deadline = life.deadlines[message] {
        controller.renewalDate = deadline
      }
      let shim = StoreKitMessage(reason: shimReason(reason), shimIdentity: message)
      if store.hasListener, !record.numbers.contains(message) { record.numbers.append(message) }
      await store.send(shim)
    default:
      continue
    }
  }
  clock.advance(to: life.horizon)
  store.endListening()
  if record.unscripted {
    record.decisions.append(Decision(time: .nan, message: -1, forced: false, outcome: .shown))
  }
  return record.decisions
}

/// What a replay gathers, shared with the controller's and the scene's callbacks.
@MainActor
private final class _ReplayRecord {
  /// The engine's outcomes still to give, per message.
  var script: [Int: [Decision.Outcome]] = [:]
  /// A display the engine did not make reached StoreKit.
  var unscripted = false
  var decisions: [Decision] = []
  /// This process's message numbers (the controller's) to the engine's message indices.
  var numbers: [Int] = []
}

func shimReason(_ reason: Reason) -> StoreKitMessage.Reason {
  switch reason {
  case .priceIncreaseConsent: .priceIncreaseConsent
  case .billingIssue: .billingIssue
  case .winBackOffer: .winBackOffer
  case .generic: .generic
  case .unknown(let raw): StoreKitMessage.Reason(rawValue: raw)
  }
}
