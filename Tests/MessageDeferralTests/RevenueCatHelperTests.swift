import MessageDeferral
import Testing

/// RevenueCat's own tests of `StoreMessagesHelper`, translated case by case.
///
/// Source: RevenueCat/purchases-ios `Tests/StoreKitUnitTests/StoreMessagesHelperTests.swift` at
/// commit df33158600f06b96e0b6bdee3fe5f2f248bf01f5 (5.6.0; the file is unchanged at
/// ff486da380002b66ba57efd9910f62db7ad2c225). There a mock provider hands the helper the
/// messages, `showStoreMessages(types:)` is called and each mock message counts its
/// `display(in:)` calls. Here the messages are delivered to a ``Coordinator`` running
/// `revenuecat-manual`, a `home` appearance is the call, and each requested display is one
/// `display(in:)` call (the mock's display never throws: every result is a success).
@Suite("RevenueCat StoreMessagesHelperTests (5.6.0)")
struct RevenueCatHelperTests {
  /// `revenuecat-manual` with a second call site: `home` passes the preset's types, `settings`
  /// only `generic` (the tests pass different `types` to successive calls).
  static func policy(settingsTypes: Set<Reason> = [.generic]) -> Harness {
    var config = PolicyCatalog.Preset.revenueCatManual.configuration
    config.checkpoints.append(Checkpoint(.settings, reasons: settingsTypes))
    var policy = Harness(config)
    policy.startSession(at: 0, on: .onboarding)
    // The tests' two messages: `.generic` first, then `.priceIncreaseConsent`.
    policy.deliver(message(1, .generic), at: 10)
    policy.deliver(message(2, .priceIncreaseConsent), at: 11)
    return policy
  }

  /// Displays requested at `kind`, each answered with a success (the mock never throws).
  static func call(_ policy: inout Harness, at kind: ScreenKind, time: Double) -> [MessageID] {
    let shown = policy.screen(kind, at: time).shown
    for id in shown { policy.succeed(id, at: time) }
    return shown
  }

  /// `testShowMessagesAfterDeferMessagesAndNotShowingMessagesAutomaticallyShowsAllDeferredMessages`
  @Test func showsAllDeferredMessages() {
    var policy = Self.policy()
    #expect(Self.call(&policy, at: .home, time: 20) == [1, 2])
  }

  /// `testShowMessagesAfterDeferMessagesAndNotShowingMessagesAutomaticallyShowsSpecifiedMessages`
  @Test func showsSpecifiedMessages() {
    var policy = Self.policy()
    #expect(Self.call(&policy, at: .settings, time: 20) == [1])
  }

  /// `testShowMessagesAfterDeferMessagesAndShowingMessagesAutomaticallyDoesNotShowMessages`:
  /// with `showStoreMessagesAutomatically: true` the helper defers nothing (StoreKit shows
  /// them, `storekit-auto`), so a later call at `home` displays nothing.
  @Test func showingAutomaticallyDoesNotDeferMessages() {
    var policy = Harness(preset: "storekit-auto")
    policy.startSession(at: 0, on: .onboarding)
    #expect(policy.deliver(message(1, .generic), at: 10) == Answer(shown: [1]))
    #expect(policy.deliver(message(2, .priceIncreaseConsent), at: 11) == Answer(shown: [2]))
    policy.succeed(1, at: 11)
    policy.succeed(2, at: 11)
    #expect(policy.screen(.home, at: 20) == .nothing)
  }

  /// `testShowMessagesAfterDeferMessagesAndNoMessagesDoesNothing`
  @Test func noMessagesDoesNothing() {
    var policy = Harness(preset: "revenuecat-manual")
    policy.startSession(at: 0, on: .onboarding)
    #expect(policy.screen(.home, at: 20) == .nothing)
    #expect(policy.pendingIDs.isEmpty)
  }

  /// `testShowMessagesAfterShowMessagesDoesNotCallDisplayMultipleTimes`: the assertion this
  /// project had the other way round before (a shown message displayed again at every call).
  @Test func secondCallDoesNotDisplayAgain() {
    var policy = Self.policy()
    #expect(Self.call(&policy, at: .home, time: 20) == [1, 2])
    #expect(Self.call(&policy, at: .home, time: 30) == [])
    #expect(policy.pendingIDs.isEmpty)
  }

  /// `testShowingStoreMessagesDoesntMarkUnshownMessagesAsShown` (added by commit df33158600):
  /// a call for `generic` only, then one for every type.
  @Test func unshownMessagesAreNotMarkedShown() {
    var policy = Self.policy()
    #expect(Self.call(&policy, at: .settings, time: 20) == [1])
    #expect(policy.pendingIDs == [2])
    #expect(Self.call(&policy, at: .home, time: 30) == [2])
  }
}

/// The same cases on `revenuecat-manual-legacy`, where they differ: before 5.6.0 the helper
/// ended every call with `deferredMessages.removeAll()` (RevenueCat/purchases-ios
/// `Sources/Support/StoreMessagesHelper.swift` at the parent of commit
/// df33158600f06b96e0b6bdee3fe5f2f248bf01f5; the test file there has the first five cases).
@Suite("RevenueCat StoreMessagesHelper before 5.6.0")
struct RevenueCatLegacyHelperTests {
  static func legacy(settingsTypes: Set<Reason> = [.generic]) -> Harness {
    var config = PolicyCatalog.Preset.revenueCatManualLegacy.configuration
    config.checkpoints.append(Checkpoint(.settings, reasons: settingsTypes))
    var policy = Harness(config)
    policy.startSession(at: 0, on: .onboarding)
    policy.deliver(message(1, .generic), at: 10)
    policy.deliver(message(2, .priceIncreaseConsent), at: 11)
    return policy
  }

  @Test func showsAllThenForgetsThem() {
    var policy = Self.legacy()
    #expect(RevenueCatHelperTests.call(&policy, at: .home, time: 20) == [1, 2])
    #expect(policy.pendingIDs.isEmpty)
    #expect(RevenueCatHelperTests.call(&policy, at: .home, time: 30) == [])
  }

  /// The case commit df33158600 added fails here: consent, filtered out of the first call,
  /// is lost with it.
  @Test func aFilteredOutMessageIsLost() {
    var policy = Self.legacy()
    #expect(RevenueCatHelperTests.call(&policy, at: .settings, time: 20) == [1])
    #expect(policy.pendingIDs.isEmpty)
    #expect(RevenueCatHelperTests.call(&policy, at: .home, time: 30) == [])
    #expect(policy.coordinator.counters.clearedAfterCall == 2)
  }

  /// A failed display is lost too (the `catch` only logs; `removeAll()` follows).
  @Test func aFailedMessageIsLost() {
    var policy = Self.legacy()
    #expect(policy.screen(.home, at: 20) == Answer(shown: [1, 2]))
    policy.fail(1, .presentationFailed, at: 20)
    policy.succeed(2, at: 20)
    #expect(policy.pendingIDs.isEmpty)
    #expect(policy.screen(.home, at: 30) == .nothing)
  }

  /// Win-back has no `StoreMessageType` before 5.6.0 (commit c814d0e3ac added it): never
  /// shown, and gone after the call.
  @Test func winBackIsNotRecognised() {
    var policy = Harness(preset: "revenuecat-manual-legacy")
    policy.startSession(at: 0, on: .onboarding)
    policy.deliver(message(1, .winBackOffer), at: 10)
    #expect(policy.screen(.home, at: 20) == .nothing)
    #expect(policy.pendingIDs.isEmpty)
  }
}
