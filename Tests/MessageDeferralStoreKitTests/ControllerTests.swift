import Foundation
import MessageDeferral
import MessageDeferralStoreKit
import StoreKitShim
import Testing

@Suite("MessageDeferralController on the shim")
@MainActor
struct ControllerTests {
  /// Runs `body` with its own App Store (messages are per test).
  func withStore(_ body: (ShimAppStore) async -> Void) async {
    let store = ShimAppStore()
    await ShimStoreKit.$appStore.withValue(store) { await body(store) }
  }

  func listen(_ controller: MessageDeferralController, _ store: ShimAppStore) async {
    controller.start()
    while !store.hasListener { await Task.yield() }
  }

  @Test("one listener: a second start does nothing, and each message is heard once")
  func startTwice() async {
    await withStore { store in
      let clock = ManualDeferralClock(now: 100)
      let controller = MessageDeferralController(
        policy: ShippedPolicy(
          name: "never", configuration: PolicyCatalog.Preset.never.configuration),
        storage: InMemoryDeferralStorage(), clock: clock)
      await listen(controller, store)
      controller.start()
      #expect(controller.isListening)
      #expect(await store.send(StoreKitMessage(reason: .generic, shimIdentity: 1)))
      #expect(controller.pendingCount == 1)
      #expect(store.shownByStoreKit.isEmpty)
    }
  }

  @Test("without a usable policy no listener starts: StoreKit shows the message itself")
  func fallbackIsStoreKitDefault() async {
    await withStore { store in
      let controller = MessageDeferralController(
        policy: .storeKitDefault(because: "test"), storage: InMemoryDeferralStorage(),
        clock: ManualDeferralClock())
      controller.start()
      await Task.yield()
      #expect(!controller.isListening)
      #expect(controller.fallbackReason == "test")
      #expect(!(await store.send(StoreKitMessage(reason: .generic, shimIdentity: 1))))
      #expect(store.shownByStoreKit.count == 1)
    }
  }

  @Test("a failed display is reported back and the message shown at the next calm screen")
  func failedDisplayRetried() async {
    await withStore { store in
      let clock = ManualDeferralClock(now: 0)
      let controller = MessageDeferralController(
        policy: ShippedPolicy(
          name: "deadline-aware", configuration: PolicyCatalog.Preset.deadlineAware.configuration),
        storage: InMemoryDeferralStorage(), clock: clock)
      var records: [DeferralLogRecord] = []
      controller.log = { records.append($0) }
      let scene = UIWindowScene(activationState: .foregroundActive)
      var failNext = true
      scene.displayHandler = { _ in
        if failNext {
          failNext = false
          throw ShimDisplayError.presentationFailed
        }
      }
      controller.screenAppeared(.launch, name: "splash")
      controller.sceneDidBecomeActive(scene)
      await listen(controller, store)
      controller.screenAppeared(.home, name: "home")
      await store.send(StoreKitMessage(reason: .generic, shimIdentity: 7))
      clock.advance(to: 1)
      controller.screenAppeared(.content, name: "article")
      clock.advance(to: 2)
      let messages = records.filter { $0.reason != nil }
      #expect(messages.map(\.event) == [.messageDisplayFailed, .messageDisplayed])
      #expect(messages.first?.failure == .presentationFailed)
      #expect(messages.last?.screen == "article")
      #expect(messages.last?.failuresBefore == 1)
      #expect(controller.pendingCount == 0)
    }
  }

  @Test("a response is logged with the last sheet's screen and wait, as fit-responses reads it")
  func responseRecord() async {
    await withStore { store in
      let clock = ManualDeferralClock(now: 100)
      let controller = MessageDeferralController(
        policy: ShippedPolicy(
          name: "screen-gate", configuration: PolicyCatalog.Preset.screenGate.configuration),
        storage: InMemoryDeferralStorage(), clock: clock)
      var records: [DeferralLogRecord] = []
      controller.log = { records.append($0) }
      let scene = UIWindowScene(activationState: .foregroundActive)
      // Nothing shown yet: a response has no sheet to belong to.
      controller.recordResponse(.accepted, for: .priceIncreaseConsent)
      #expect(records.isEmpty)
      controller.screenAppeared(.onboarding, name: "welcome")
      controller.sceneDidBecomeActive(scene)
      await listen(controller, store)
      await store.send(StoreKitMessage(reason: .priceIncreaseConsent, shimIdentity: 4))
      clock.advance(to: 130)
      controller.screenAppeared(.home, name: "home")
      clock.advance(to: 131)
      controller.recordResponse(.declined, for: .priceIncreaseConsent)
      let response = records.last
      #expect(response?.event == .messageResponse)
      #expect(response?.screenKind == .home && response?.screen == "home")
      #expect(response?.waitedSeconds.map { abs($0 - 30) < 1e-9 } == true)
      let line = response?.jsonLine(user: "u") ?? ""
      #expect(line.contains(#""event":"store_message_response""#))
      #expect(line.contains(#""response":"declined""#))
      #expect(line.contains(#""screen_kind":"home""#))
    }
  }

  @Test("the eventual flush shows what a policy would hold forever, across launches")
  func eventualFlush() async {
    await withStore { store in
      let clock = ManualDeferralClock(now: 0)
      let storage = InMemoryDeferralStorage()
      let scene = UIWindowScene(activationState: .foregroundActive)
      let options = MessageDeferralController.Options(eventualFlush: 86_400)
      var first: MessageDeferralController? = MessageDeferralController(
        policy: ShippedPolicy(
          name: "never", configuration: PolicyCatalog.Preset.never.configuration), storage: storage,
        clock: clock, options: options)
      first!.sceneDidBecomeActive(scene)
      await listen(first!, store)
      await store.send(StoreKitMessage(reason: .billingIssue, shimIdentity: 3))
      store.endListening()
      first = nil
      // A relaunch a day later: StoreKit delivers the message again.
      clock.advance(to: 86_500)
      let second = MessageDeferralController(
        policy: ShippedPolicy(
          name: "never", configuration: PolicyCatalog.Preset.never.configuration), storage: storage,
        clock: clock, options: options)
      var records: [DeferralLogRecord] = []
      second.log = { records.append($0) }
      second.sceneDidBecomeActive(scene)
      await listen(second, store)
      await store.send(StoreKitMessage(reason: .billingIssue, shimIdentity: 3))
      second.screenAppeared(.home, name: "home")
      clock.advance(to: 86_501)
      #expect(scene.shownMessages.map(\.shimIdentity) == [3])
      #expect(records.last?.eventualFlush == true)
      #expect(second.pendingCount == 0)
      #expect(storage.state?.heldSince.allSatisfy { $0 == nil } == true)
    }
  }

  @Test("UserDefaults storage keeps what the policy remembers")
  func userDefaultsRoundTrip() {
    let defaults = UserDefaults(suiteName: "MessageDeferralStoreKitTests")!
    let storage = UserDefaultsDeferralStorage(
      defaults: defaults, key: "state-\(UInt32.random(in: 0...UInt32.max))")
    var state = DeferralState()
    state.policy.firstSeen[1] = 12.5
    state.policy.opens = [1, 2, 3.25]
    state.heldSince[4] = 7
    storage.saveState(state)
    #expect(storage.loadState() == state)
    defaults.removeObject(forKey: storage.key)
  }

  @Test("a log record is one line of JSON in the generic schema fit reads")
  func logLine() {
    let record = DeferralLogRecord(
      event: .messageDisplayed, time: 1_700_000_000.25, screen: "home", screenKind: .home,
      reason: .priceIncreaseConsent, deliveredAt: 1_699_999_990, waitedSeconds: 10.25,
      forced: true, messageNumber: 0)
    let line = record.jsonLine(user: "u1")
    #expect(!line.contains("\n"))
    #expect(
      line.hasPrefix(
        #"{"user_id":"u1","timestamp":1700000000.25,"event":"store_message_displayed","screen":"home""#
      ))
    #expect(line.contains(#""reason":"price_increase_consent""#))
    #expect(line.contains(#""forced":true"#))
  }
}
