import MessageDeferral
import TestSupport
import Testing

/// ``PolicyListener/keepsNothingAcrossLaunch`` (a coordinator's answer): what lets a shared trunk's lanes hear the trunk's log only
/// from its last launch or termination. A coordinator that heard a random history without
/// messages, and one that heard only that history's tail from its last launch or
/// termination, then answer the same random life (deliveries, display results, timers, screens,
/// launches) alike, event for event, counters included.
@Suite("Forgetting at launch")
struct ForgetsAtLaunchTests {
  static let reasons: [Reason] = [
    .priceIncreaseConsent, .billingIssue, .winBackOffer, .generic, .unknown(rawValue: 9),
  ]

  /// A random event that carries no message: what a trunk logs before the first delivery.
  static func quietEvent(_ random: inout SplitMix64) -> PolicyEvent {
    switch random.below(6) {
    case 0: .processLaunched
    case 1: .processTerminated
    case 2: .sceneActivated
    case 3: .sceneDeactivated
    default: .screenAppeared(ScreenKind.allCases[random.below(ScreenKind.allCases.count)])
    }
  }

  static func isReset(_ event: PolicyEvent) -> Bool {
    switch event {
    case .processLaunched, .processTerminated: true
    default: false
    }
  }

  @Test(arguments: PolicyCatalog.presets.map(\.name))
  func aCoordinatorThatForgetsAnswersAsOneThatHeardEverything(_ name: String) throws {
    let configuration = try #require(PolicyCatalog.presets.first { $0.name == name })
      .configuration
    var compared = 0
    for seed in UInt64(1)...30 {
      var random = SplitMix64(seed: seed)
      var history: [PolicyEvent] = [.processLaunched]
      for _ in 0..<random.below(40) { history.append(Self.quietEvent(&random)) }
      // Often the fork comes right after a launch, before any screen: what the tail's
      // coordinator has not heard then matters most (the gate, the scene).
      let forkAtLaunch = random.chance(0.5)
      if forkAtLaunch { history.append(.processLaunched) }
      let lastReset = try #require(history.lastIndex(where: Self.isReset))
      var full = Coordinator(configuration: configuration)
      var tail = Coordinator(configuration: configuration)
      var actions = PolicyActions()
      var time = 0.0
      for (index, event) in history.enumerated() {
        time += random.uniform(1..<600)
        full.handle(event, at: time, into: &actions)
        #expect(actions.displays.isEmpty && actions.wakeAt == nil, "acted before a message")
        if index >= lastReset { tail.handle(event, at: time, into: &actions) }
      }
      // A policy that remembers opens must hear everything: it says so.
      #expect(full.keepsNothingAcrossLaunch == (configuration.urgentConsent == nil))
      guard full.keepsNothingAcrossLaunch else { continue }
      compared += 1
      var fullActions = PolicyActions()
      var tailActions = PolicyActions()
      var inFlight: [MessageID] = []
      var nextID: MessageID = 0
      for step in 0..<300 {
        time += random.uniform(1..<3600)
        var event = Self.quietEvent(&random)
        switch step == 0 && forkAtLaunch ? 0 : random.below(8) {
        case 0, 1:
          nextID += 1
          let reason = Self.reasons[random.below(Self.reasons.count)]
          let deadline =
            reason == .priceIncreaseConsent ? time + random.uniform(3600..<1_728_000) : nil
          event = .delivered(
            Message(
              id: nextID, reason: reason, firstIssuedAt: time - 60, deliveredAt: time,
              deadline: deadline))
        case 2 where !inFlight.isEmpty:
          let id = inFlight.remove(at: random.below(inFlight.count))
          event =
            random.chance(0.8) ? .displaySucceeded(id) : .displayFailed(id, .presentationFailed)
        case 3:
          event = .timerFired
        default:
          break
        }
        full.handle(event, at: time, into: &fullActions)
        tail.handle(event, at: time, into: &tailActions)
        guard fullActions.displays == tailActions.displays, fullActions.wakeAt == tailActions.wakeAt
        else {
          Issue.record("\(name), seed \(seed), step \(step): \(event) answered differently")
          break
        }
        inFlight += fullActions.displays.map(\.message.id)
      }
      #expect(full.counters == tail.counters, "\(name), seed \(seed)")
      #expect(full.pendingCount == tail.pendingCount, "\(name), seed \(seed)")
    }
    // Every preset that forgets was compared on every seed (else this checked nothing).
    #expect(compared == (configuration.urgentConsent == nil ? 30 : 0))
  }
}
