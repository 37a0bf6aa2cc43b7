import TestSupport
import Testing

@testable import MessageDeferral
@testable import Simulation

/// A lane with a late listener (``_PolicyLane/hasListenerDelay``) told only the events it heeds
/// (``_PolicyLane/heeds``) and caught up from a digest before each (``_PolicyLane/catchUp``),
/// against a copy told everything, as a group's members and a sole member are told
/// (``UserSimulator/answer``): the same answers, the same draws, and, once caught up, the same
/// state in both coordinators (the policy's and StoreKit's own handling, which hears no screen).
@Suite("A late listener's lane told only what it heeds")
struct LateListenerAttentionTests {
  /// Every preset, each with a late listener: its own where it has one, else the first
  /// modelled one's (so that every kind of coordinator, timers and remembered opens included,
  /// is routed).
  static let lateConfigurations: [(name: String, configuration: PolicyConfiguration)] = {
    let delay = PolicyCatalog.presets.first { !$0.configuration.listenerDelay.isZero }!
      .configuration.listenerDelay
    return PolicyCatalog.presets.map { preset in
      var configuration = preset.configuration
      if configuration.listenerDelay.isZero { configuration.listenerDelay = delay }
      return (preset.name, configuration)
    }
  }()

  @Test(arguments: 0..<lateConfigurations.count)
  func answersAndStateAreTheWholeLanesOverRandomLives(index: Int) {
    let (name, configuration) = Self.lateConfigurations[index]
    var skipped = 0
    var heard = 0
    for seed in UInt64(1)...12 {
      var driver = LaneDriver(configuration: configuration, name: name, seed: seed)
      driver.live(steps: 400)
      #expect(driver.problems.isEmpty, "\(driver.problems)")
      skipped += driver.skipped
      heard += driver.heard
    }
    // The lives reach both ways of hearing: events skipped, and events heard.
    #expect(skipped > 0, "no event was skipped: the attention went untested")
    #expect(heard > 0)
  }
}

/// One random life told to two lanes of one policy with a late listener: `full` hears every
/// event, `inattentive` only what it heeds (see ``LateListenerAttentionTests``). Each lane draws
/// from its own stream, seeded alike.
struct LaneDriver: ~Copyable {
  let name: String
  let seed: UInt64
  var full: _PolicyLane
  var inattentive: _PolicyLane
  var fullStream: RandomStream
  var inattentiveStream: RandomStream
  var digest = PolicyEventDigest()
  var heardMark: UInt64 = 0
  var actions = PolicyActions()
  var rng: SplitMix64

  var now = 0.0
  var alive = false
  var sceneActive = false
  var wakeAt: Double?
  var inFlight: [DisplayRequest] = []
  var outstanding: [Message] = []
  var nextID = 1
  private(set) var problems: [String] = []
  private(set) var skipped = 0
  private(set) var heard = 0

  init(configuration: PolicyConfiguration, name: String, seed: UInt64) {
    self.name = name
    self.seed = seed
    full = _PolicyLane(configuration)
    inattentive = full
    precondition(full.hasListenerDelay)
    fullStream = RandomStream(seed: seed, replication: 0, user: 0, purpose: .policy)
    inattentiveStream = RandomStream(seed: seed, replication: 0, user: 0, purpose: .policy)
    rng = SplitMix64(seed: seed)
  }

  mutating func problem(_ text: String) {
    if problems.count < 5 { problems.append("\(name) seed \(seed) t=\(now): \(text)") }
  }

  /// Tells `event` to both lanes, compares the answers and the caught-up state, and carries
  /// out the whole lane's answer (displays in flight, the timer).
  mutating func send(_ event: PolicyEvent) {
    var fullEffect = _PolicyEffect()
    var fullHeeds = PolicyEventKinds.all
    UserSimulator<NoSink>.answer(
      event, at: now, lane: &full, stream: &fullStream, actions: &actions, effect: &fullEffect,
      heeds: &fullHeeds)
    if inattentive.heeds.contains(PolicyEventKinds(event)) {
      heard += 1
      inattentive.catchUp(with: digest, since: heardMark)
      var effect = _PolicyEffect()
      var heeds = PolicyEventKinds.all
      UserSimulator<NoSink>.answer(
        event, at: now, lane: &inattentive, stream: &inattentiveStream, actions: &actions,
        effect: &effect, heeds: &heeds)
      heardMark = digest.count + 1
      if effect != fullEffect {
        problem("after \(event): \(fullEffect) told everything, \(effect) told what it heeds")
      }
    } else {
      skipped += 1
      // Unasked, a lane answers no display and keeps its timer: it must have none to keep.
      if !fullEffect.displays.isEmpty || wakeAt != nil {
        problem(
          "\(event), not heeded, answered \(fullEffect) with timer \(String(describing: wakeAt))")
      }
      if case .wake = fullEffect.timer { problem("\(event), not heeded, asked for a timer") }
    }
    digest.record(event)
    var probe = inattentive
    probe.catchUp(with: digest, since: heardMark)
    if let difference = Self.difference(probe, full) {
      problem("after \(event): told only what it heeds, caught up, its \(difference) differs")
    }
    if fullStream.uniform() != inattentiveStream.uniform() {
      problem("after \(event): the lanes' streams parted")
    }
    inFlight.append(contentsOf: fullEffect.displays)
    switch fullEffect.timer {
    case .keep: break
    case .cancel: wakeAt = nil
    case .wake(let time): wakeAt = time
    }
  }

  /// The first part of the state in which the lanes differ, or `nil`.
  static func difference(_ a: borrowing _PolicyLane, _ b: borrowing _PolicyLane) -> String? {
    if a.listenerReadyAt != b.listenerReadyAt { return "listener time" }
    if let part = difference(a.coordinator, b.coordinator) { return "policy's \(part)" }
    if let part = difference(a.storeKitDefault, b.storeKitDefault) {
      return "StoreKit's own \(part)"
    }
    return nil
  }

  static func difference(_ a: Coordinator, _ b: Coordinator) -> String? {
    if a.canPresent != b.canPresent { return "gate" }
    if a.sceneActive != b.sceneActive { return "scene" }
    if a.currentKind != b.currentKind { return "screen" }
    if a.shownThisBreak != b.shownThisBreak || a.failedThisBreak != b.failedThisBreak {
      return "break"
    }
    if a.pending != b.pending { return "queue" }
    if a.counters != b.counters { return "counters" }
    if a.batch != b.batch { return "batch" }
    if a.heeds != b.heeds { return "heeds" }
    if a.persistedState != b.persistedState { return "persisted state" }
    return nil
  }

  // MARK: A random life

  /// Results come back at once, in request order, with a scene that may have just gone.
  mutating func drainResults() {
    while !inFlight.isEmpty {
      let request = inFlight.removeFirst()
      let id = request.message.id
      if !sceneActive {
        send(.displayFailed(id, .noActiveScene))
      } else if rng.chance(0.2) {
        send(.displayFailed(id, .presentationFailed))
      } else {
        outstanding.removeAll { $0.id == id }
        send(.displaySucceeded(id))
      }
    }
  }

  /// Moves time on by `gap`, firing a timer that comes due first.
  mutating func advance(by gap: Double) {
    if let wake = wakeAt, wake <= now + gap {
      now = max(now, wake)
      wakeAt = nil
      send(.timerFired)
      drainResults()
    }
    now += gap
  }

  mutating func deliver(_ message: Message) {
    var copy = message
    copy.deliveredAt = now
    send(.delivered(copy))
  }

  mutating func live(steps: Int) {
    let kinds = ScreenKind.allCases
    let reasons: [Reason] = [.priceIncreaseConsent, .billingIssue, .winBackOffer, .generic]
    for _ in 0..<steps {
      // Tiny gaps put deliveries before the listener exists; long ones pass ceilings.
      let gap = rng.chance(0.5) ? rng.uniform(0.01..<1) : rng.uniform(1..<(3 * 86_400))
      advance(by: gap)
      guard alive else {
        alive = true
        sceneActive = false
        send(.processLaunched)
        send(.screenAppeared(.launch))
        drainResults()
        continue
      }
      switch rng.below(10) {
      case 0, 1, 2:
        send(.screenAppeared(kinds[rng.below(kinds.count)]))
      case 3:
        sceneActive.toggle()
        send(sceneActive ? .sceneActivated : .sceneDeactivated)
      case 4:
        let reason = reasons[rng.below(reasons.count)]
        let deadline =
          reason == .priceIncreaseConsent ? now + rng.uniform(86_400..<(20 * 86_400)) : nil
        let message = Message(
          id: MessageID(nextID), reason: reason, firstIssuedAt: now, deliveredAt: now,
          deadline: deadline)
        nextID += 1
        outstanding.append(message)
        deliver(message)
      case 5:
        if !outstanding.isEmpty { deliver(outstanding[rng.below(outstanding.count)]) }
      case 6:
        if rng.chance(0.5) {
          sceneActive = false
          send(.sceneDeactivated)
        }
      case 7:
        alive = false
        sceneActive = false
        wakeAt = nil
        send(.processTerminated)
      default:
        if !sceneActive {
          sceneActive = true
          send(.sceneActivated)
        }
      }
      drainResults()
    }
  }
}
