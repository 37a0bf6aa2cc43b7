import MessageDeferral
import MessageDeferralStoreKit
import StoreKitShim

@testable import Simulation

/// One simulated life as the engine ran it: its trace and its messages' reasons and deadlines.
struct SimulatedLife {
  var user: Int
  var steps: [TraceStep]
  var reasons: [Reason]
  /// Consent deadlines (infinity: none).
  var deadlines: [Double]
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

/// Runs lives of `world` under `policy` through the engine, with a recording sink (the same
/// code path as a run: ``Engine/trace(_:policy:seed:replication:user:)`` does the same).
func simulateLives(
  _ world: CompiledScenario, policy: PolicyConfiguration, users: Range<Int>, seed: UInt64
) -> [SimulatedLife] {
  var simulator = UserSimulator(world: world, sink: TraceRecorder())
  var lives: [SimulatedLife] = []
  lives.reserveCapacity(users.count)
  for user in users {
    simulator.sink = TraceRecorder()
    var tally = Tally(screenCount: world.scenario.screens.count)
    simulator.run(
      seed: seed, replication: 0, user: user, policyIndex: 0, policy: policy, tally: &tally)
    lives.append(
      SimulatedLife(
        user: user, steps: simulator.sink.steps, reasons: simulator.messages.map(\.reason),
        deadlines: simulator.messages.map(\.deadline), horizon: world.scenario.horizon,
        kinds: world.scenario.screens.map(\.kind)))
  }
  return lives
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
enum ReplayFault: Sendable {
  case none
  /// The app starts the listener at launch, ignoring the SDK's configure delay.
  case listenerAtLaunch
  /// The app reports the scene active at its open, before the scene really is active.
  case sceneActiveAtOpen
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
  // The engine's outcome of each policy display attempt that reached StoreKit, per message.
  var script: [Int: [Decision.Outcome]] = [:]
  for decision in engineDecisions(life) where decision.outcome != .noActiveScene {
    script[decision.message, default: []].append(decision.outcome)
  }
  var unscripted = false
  scene.displayHandler = { message in
    guard var queue = script[message.shimIdentity], !queue.isEmpty else {
      unscripted = true
      return
    }
    let outcome = queue.removeFirst()
    script[message.shimIdentity] = queue
    if outcome == .presentationFailed { throw ShimDisplayError.presentationFailed }
  }
  var decisions: [Decision] = []
  var controller: MessageDeferralController?
  /// This process's message numbers (the controller's) to the engine's message indices.
  var numbers: [Int] = []
  var listenerAt: Double?
  let shipped = ShippedPolicy(name: "replayed", configuration: policy)

  func launch(at time: Double, stepIndex: Int) {
    let next = MessageDeferralController(
      policy: shipped, storage: storage, clock: clock,
      options: MessageDeferralController.Options(eventualFlush: nil))
    numbers = []
    next.log = { record in
      guard record.event == .messageDisplayed || record.event == .messageDisplayFailed,
        let number = record.messageNumber
      else { return }
      let outcome: Decision.Outcome =
        switch record.failure {
        case nil: .shown
        case .noActiveScene?: .noActiveScene
        case .presentationFailed?: .presentationFailed
        }
      decisions.append(
        Decision(
          time: record.time, message: numbers[number], forced: record.forced, outcome: outcome))
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
      let deadline = life.deadlines[message]
      if life.reasons[message] == .priceIncreaseConsent, deadline.isFinite {
        controller.renewalDate = deadline
      }
      let shim = StoreKitMessage(reason: shimReason(life.reasons[message]), shimIdentity: message)
      if store.hasListener, !numbers.contains(message) { numbers.append(message) }
      await store.send(shim)
    default:
      continue
    }
  }
  clock.advance(to: life.horizon)
  store.endListening()
  if unscripted {
    decisions.append(Decision(time: .nan, message: -1, forced: false, outcome: .shown))
  }
  return decisions
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
