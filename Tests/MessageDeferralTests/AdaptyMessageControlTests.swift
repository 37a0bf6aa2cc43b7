import Testing

@testable import MessageDeferral

/// The queue-relevant cases of Adapty's own tests, translated.
///
/// Source: adaptyteam/AdaptySDK-iOS `Tests/Adapty/StoreKit/StoreMessageControlTests.swift` at
/// commit 12d09db50096a872f8d07fa63d18a5363ac36178, against `StoreKitMessageManager`
/// (`Sources/StoreKit/StoreKitMessageManager.swift`, commit
/// 04c18d081c3a47049e00a0fdbb513febd0eb7095). Left out as not about the queue: configuration
/// builder and JSON coding of the handling mode, error user-info texts, callback queues.
@Suite("Adapty StoreMessageControlTests")
struct AdaptyMessageControlTests {
  /// `adapty-manual` with a second call site at `settings` passing `types`.
  static func policy(settingsTypes: Set<Reason>?) -> Harness {
    var config = PolicyCatalog.Preset.adaptyManual.configuration
    config.checkpoints.append(Checkpoint(.settings, reasons: settingsTypes))
    var policy = Harness(config)
    policy.startSession(at: 0, on: .onboarding)
    policy.deliver(message(1, .priceIncreaseConsent), at: 10)
    policy.deliver(message(2, .generic), at: 11)
    policy.deliver(message(3, .billingIssue), at: 12)
    return policy
  }

  /// "Known message types use stable raw values" and "StoreKit(16.0+/16.4+/18.0+) reasons map
  /// to AdaptyStoreMessageType".
  @Test(arguments: [
    (Reason.generic, "generic"), (.priceIncreaseConsent, "price_increase_consent"),
    (.billingIssue, "billing_issue"), (.winBackOffer, "win_back_offer"),
  ])
  func knownReasonsUseStableNames(reason: Reason, name: String) {
    #expect(reason.adaptyName == name)
    #expect(Reason(name: name) == reason)
  }

  /// "Unknown StoreKit reasons map losslessly to AdaptyStoreMessageType" (12345, 67890), and
  /// `show(matching: nil)` selects them like any other.
  @Test(arguments: [(12345, "storekit_12345"), (67890, "storekit_67890")])
  func unknownReasonsMapLosslessly(raw: Int, name: String) {
    #expect(Reason.unknown(rawValue: raw).adaptyName == name)
    #expect(Reason(name: name) == .unknown(rawValue: raw))
    var policy = Harness(preset: "adapty-manual")
    policy.startSession(at: 0, on: .onboarding)
    policy.deliver(message(1, .unknown(rawValue: raw)), at: 5)
    #expect(policy.screen(.home, at: 10) == Answer(shown: [1]))
  }

  /// "StoreMessages errors map to generic codes", `operationInProgress` (3201, "Another store
  /// message show operation is already in progress."): a call while a batch runs is refused.
  @Test func aCallDuringABatchIsRefused() {
    var policy = Self.policy(settingsTypes: nil)
    #expect(policy.screen(.home, at: 20) == Answer(shown: [1]))
    #expect(policy.screen(.settings, at: 20.5) == .nothing)
    #expect(policy.coordinator.counters.refusedShowCalls == 1)
  }

  /// The selection is computed before the in-progress check (`guard !selection.isEmpty else
  /// { return }`), so a call selecting nothing returns quietly: no refusal. (The translation of
  /// "Cancelled empty presentation still succeeds": an empty call succeeds.)
  @Test func anEmptyCallIsNoRefusal() {
    var policy = Self.policy(settingsTypes: [.winBackOffer])
    #expect(policy.screen(.home, at: 20) == Answer(shown: [1]))
    #expect(policy.screen(.settings, at: 20.5) == .nothing)
    #expect(policy.coordinator.counters.refusedShowCalls == 0)
  }

  /// `resolverFailure` (3202, "No foreground-active UIWindowScene is available to display
  /// store messages."): `sceneUnavailable` is thrown out of the loop, so the batch ends and
  /// the rest stay pending.
  @Test func noSceneEndsTheCall() {
    var policy = Self.policy(settingsTypes: nil)
    #expect(policy.screen(.home, at: 20) == Answer(shown: [1]))
    #expect(policy.fail(1, .noActiveScene, at: 20) == .nothing)
    #expect(policy.pendingIDs == [1, 2, 3])
  }

  /// `show(matching: filter)`: only the filtered types, one by one; the rest stay pending
  /// (the types are per call).
  @Test func aCallShowsOnlyItsTypes() {
    var policy = Self.policy(settingsTypes: [.billingIssue, .generic])
    #expect(policy.screen(.settings, at: 20) == Answer(shown: [2]))
    #expect(policy.succeed(2, at: 20) == Answer(shown: [3]))
    #expect(policy.succeed(3, at: 20) == .nothing)
    #expect(policy.pendingIDs == [1])
    #expect(policy.screen(.home, at: 30) == Answer(shown: [1]))
  }

  /// "Missing manager makes presentation a no-op" / "returns empty snapshot": before any
  /// message reached the manager, a call displays nothing. (Messages StoreKit delivers before
  /// the manager exists are StoreKit's to show: `ListenerDelayTests` in SimulationTests.)
  @Test func aCallWithNothingPendingIsANoOp() {
    var policy = Harness(preset: "adapty-manual")
    policy.startSession(at: 0, on: .home)
    #expect(policy.screen(.home, at: 5) == .nothing)
    #expect(policy.coordinator.counters.refusedShowCalls == 0)
  }
}
