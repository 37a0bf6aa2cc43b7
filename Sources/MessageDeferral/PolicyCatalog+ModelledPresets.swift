/// The presets that reproduce a system an app may run today: StoreKit's default, the article's
/// coordinator, the SDKs' manual modes (each older SDK release after the current one), and a
/// listener that never displays. Each doc comment names the source it follows.
extension PolicyCatalog {
  /// The systems modelled, in the README's order.
  public static let modelledPresets: [Preset] = [
    .storeKitAuto, .screenGate, .screenGateCeiling, .adaptyManual, .revenueCatManual,
    .revenueCatManualLegacy, .openIAP, .never,
  ]
}

extension PolicyCatalog.Preset {
  /// `storekit-auto`: StoreKit's default, no listener. Each message is shown as soon as it is
  /// delivered and a scene is active, over whatever screen; a message delivered before the
  /// scene is active, or whose display failed, is shown when the scene next becomes active.
  /// With no listener there is nothing to attach late: `listener_delay` 0.
  public static let storeKitAuto = Self(
    name: "storekit-auto",
    summary: "StoreKit's default: shown on delivery over whatever screen, once a scene is active",
    doc:
      "StoreKit's default: shown as soon as delivered and a scene is active, over "
      + "whatever screen",
    chart: .init(colour: 1, variant: 0),
    shipping: .asIs("nothing to do: StoreKit shows every message on delivery"),
    configuration: PolicyConfiguration(
      triggers: [.delivery], requiresActiveScene: true, onFailure: .keepInPlace,
      retriesOnSceneActivation: true, deduplicates: true, listenerDelay: .none))

  /// `screen-gate`: the article's `StoreMessageCoordinator` as written. Consent and billing
  /// inserted at index 0 (the newest of them first), others appended; `canPresent` assigned on
  /// screen appearance by the article's table (``PolicyConfiguration/articleGate``), `false`
  /// at process start; a flush on every assignment and every enqueue, only with an active
  /// scene; all pending shown in order; a failed one appended at the back; no retry when the
  /// scene later becomes active; no de-duplication; pending lost with the process. The
  /// coordinator is created at app start, so it listens from launch (`listener_delay` 0).
  public static let screenGate = Self(
    name: "screen-gate",
    summary: "The article's StoreMessageCoordinator as written: per-screen canPresent table",
    doc:
      "the article's `StoreMessageCoordinator` as written: a per-screen `canPresent` "
      + "table, consent and billing inserted at index 0, a failed display appended at "
      + "the back, no retry on scene activation",
    chart: .init(colour: 2, variant: 0),
    shipping: .library,
    configuration: PolicyConfiguration(
      gate: PolicyConfiguration.articleGate, gateAtLaunch: false,
      triggers: [.delivery, .gateAssignment], ordering: .article, requiresActiveScene: true,
      onFailure: .appendToBack, retriesOnSceneActivation: false, listenerDelay: .none))

  /// `screen-gate-ceiling`: `screen-gate` plus the article's per-reason ceilings: consent
  /// waiting longer than 12 h is shown at once even on an immersive screen (a fallback
  /// fired). Waiting is timed from the in-process arrival (the Japanese version's
  /// `since: Date()`), so it restarts after a relaunch. The article gives no numbers for
  /// billing and generic: they are parameters (`ceilings` in a custom policy), none here.
  public static let screenGateCeiling = Self(
    name: "screen-gate-ceiling",
    summary: "screen-gate plus a 12 h consent ceiling timed from in-process arrival",
    doc:
      "the same plus a 12 h consent ceiling timed from arrival in the process "
      + "(restarts after a relaunch)",
    chart: .init(colour: 2, variant: 1),
    shipping: .library,
    configuration: screenGate.configuration.with {
      $0.ceilings = [.priceIncreaseConsent: 12 * 3600]
      $0.ceilingClock = .inProcessArrival
      $0.forcing = .immediate
    })

  /// `adapty-manual`: Adapty `storeMessagesHandling: .manual`, following
  /// adaptyteam/AdaptySDK-iOS `Sources/StoreKit/StoreKitMessageManager.swift` (commit
  /// 04c18d081c3a47049e00a0fdbb513febd0eb7095) and `Sources/StoreKit/Adapty+StoreMessages.swift`
  /// (commit 12d09db50096a872f8d07fa63d18a5363ac36178). The manager listens from activation,
  /// in memory, and ignores a message already pending (`==`); `showStoreMessages(for: nil)`
  /// (every type, unknown ones as `storekit_<raw>`) at every appearance of `home`; shown one
  /// by one with `await`, every copy removed on success (`removeAll { $0 == message }`); a
  /// failed display is logged and kept and the batch goes on, but an unavailable scene ends
  /// it; a call while a batch runs is refused (`storeMessageShowInProgress`).
  ///
  /// `listener_delay`: lognormal, median 300 ms, σ 0.5 — an assumption: the manager is
  /// created during `Adapty.activate`, which apps call in
  /// `application(_:didFinishLaunchingWithOptions:)` and which is asynchronous.
  public static let adaptyManual = Self(
    name: "adapty-manual",
    summary: "Adapty storeMessagesHandling .manual: one by one at home, de-duplicated",
    doc:
      "Adapty `.manual`: de-duplicated, shown one by one at `home`, an unavailable "
      + "scene ends the batch, a concurrent call is refused",
    chart: .init(colour: 3, variant: 0),
    shipping: .sdkMode(
      "Adapty with storeMessagesHandling .manual: call Adapty.showStoreMessages(for: nil) "
        + "each time home appears"),
    configuration: PolicyConfiguration(
      triggers: [.checkpoint], checkpoints: [Checkpoint(.home)], ordering: .arrival,
      requiresActiveScene: false, sequentialBatch: true, refusesConcurrentShow: true,
      onFailure: .keepInPlace, stopsBatchWithoutScene: true, removesDisplayed: true,
      removesEveryCopy: true, deduplicates: true, showsUnknownReasons: true,
      listenerDelay: .lognormal(median: 0.3, sigma: 0.5)))

  /// `revenuecat-manual`: RevenueCat `showStoreMessagesAutomatically: false` from purchases-ios
  /// 5.6.0 on, following RevenueCat/purchases-ios `Sources/Support/StoreMessagesHelper.swift`
  /// at commit df33158600f06b96e0b6bdee3fe5f2f248bf01f5 (5.6.0, unchanged to
  /// ff486da380002b66ba57efd9910f62db7ad2c225). Messages appended to an in-memory list, no
  /// de-duplication; `showStoreMessages(for: Set(StoreMessageType.allCases))` at every
  /// appearance of `home` calls display on every listed message of a recognised type, all in
  /// one call; a message whose display succeeded is removed afterwards, every copy (matched
  /// by `hashValue`); one filtered out or failed stays; a reason without a `StoreMessageType`
  /// (unknown) is never shown. For earlier releases see ``revenueCatManualLegacy``.
  ///
  /// `listener_delay`: lognormal, median 100 ms, σ 0.5 — an assumption: the listener task
  /// starts when `Purchases.configure` builds its orchestrator
  /// (`PurchasesOrchestrator.swift`, `deferMessagesIfNeeded()`), in
  /// `application(_:didFinishLaunchingWithOptions:)`.
  public static let revenueCatManual = Self(
    name: "revenuecat-manual",
    summary: "RevenueCat 5.6+ manual: all at home, shown ones removed, failed ones kept",
    doc:
      "RevenueCat `showStoreMessagesAutomatically: false`, purchases-ios 5.6.0 and "
      + "later: all shown at `home`, a shown message removed (every copy), a failed or "
      + "filtered one kept, unknown reasons never shown",
    chart: .init(colour: 4, variant: 0),
    shipping: .sdkMode(
      "RevenueCat 5.6+ with showStoreMessagesAutomatically false: call "
        + "Purchases.shared.showStoreMessages(for: Set(StoreMessageType.allCases)) each time "
        + "home appears"),
    configuration: PolicyConfiguration(
      triggers: [.checkpoint],
      checkpoints: [Checkpoint(.home, reasons: PolicyConfiguration.revenueCatTypes)],
      ordering: .arrival, requiresActiveScene: false, onFailure: .keepInPlace,
      removesDisplayed: true, removesEveryCopy: true, deduplicates: false,
      showsUnknownReasons: false, listenerDelay: .lognormal(median: 0.1, sigma: 0.5)))

  /// `revenuecat-manual-legacy`: RevenueCat `showStoreMessagesAutomatically: false` from
  /// purchases-ios 4.27.0 (commit 773fd84a65, "StoreKit In App messages support") to 5.5.x,
  /// following `Sources/Support/StoreMessagesHelper.swift` at the parent of commit
  /// df33158600f06b96e0b6bdee3fe5f2f248bf01f5. As ``revenueCatManual`` up to the end of the
  /// call, which then runs `deferredMessages.removeAll()`: whatever was not shown (filtered
  /// out, failed, of a type it does not know) is lost with the shown ones. Win-back has no
  /// `StoreMessageType` before 5.6.0 (commit c814d0e3acc94218ef4c96faa228e44b887e22f0), so
  /// the call's types are consent, billing and generic. Same `listener_delay` as
  /// `revenuecat-manual`.
  public static let revenueCatManualLegacy = Self(
    name: "revenuecat-manual-legacy",
    summary: "RevenueCat 4.27-5.5 manual: all at home, then removeAll(); no win-back type",
    doc:
      "the same before 5.6.0 (4.27.0–5.5.x): the list emptied after every call "
      + "(failed and filtered ones lost), no win-back type",
    chart: .init(colour: 4, variant: 1),
    shipping: .sdkMode(
      "RevenueCat 4.27-5.5 with showStoreMessagesAutomatically false: call "
        + "Purchases.shared.showStoreMessages(for:) each time home appears"),
    configuration: revenueCatManual.configuration.with {
      $0.checkpoints = [Checkpoint(.home, reasons: PolicyConfiguration.revenueCatLegacyTypes)]
      $0.removesDisplayed = false
      $0.removesEveryCopy = false
      $0.clearsAfterCall = true
    })

  /// `openiap`: react-native-iap / expo-iap on OpenIAP, following hyodotdev/openiap
  /// `packages/apple/Sources/OpenIapModule.swift` at commit
  /// 11dbb07e1888a129f364ef86ac29079e1ff2cd35 (`startMessageListener`,
  /// `displayStoreKitMessage`). One message at a time: the loop reads the next message of
  /// `Message.messages` only after the previous `display(in:)` returned; while no scene is
  /// foreground-active, or after a failed display, it sleeps 0.5 s doubling to 2 s and tries
  /// again (each message starts at 0.5 s), so a stuck message holds back the rest. Every reason
  /// is displayed.
  ///
  /// **Setup condition.** The listener exists only when the app registered a billing-issue
  /// listener (`subscriptionBillingIssueListener`) after `initConnection`; otherwise
  /// OpenIAP never reads `Message.messages` and StoreKit shows every message itself: the app
  /// behaves as `storekit-auto`.
  ///
  /// `listener_delay`: lognormal, median 2 s, σ 0.5 — an assumption: `initConnection` runs
  /// from JavaScript once the bundle has loaded (e.g. the `useIAP` hook of the root view).
  public static let openIAP = Self(
    name: "openiap",
    summary:
      "OpenIAP: one at a time on delivery, retry 0.5 s doubling to 2 s; only with a "
      + "billing-issue listener registered, else as storekit-auto",
    doc:
      "OpenIAP / react-native-iap: one message at a time on delivery, retry with "
      + "backoff 0.5 s doubling to 2 s. **Only when the app registered a billing-issue "
      + "listener** (`subscriptionBillingIssueListener`) after `initConnection`; "
      + "otherwise OpenIAP never listens and the app behaves as `storekit-auto`",
    chart: .init(colour: 0, variant: 0),
    shipping: .sdkMode(
      "OpenIAP / react-native-iap: register subscriptionBillingIssueListener after "
        + "initConnection"),
    configuration: PolicyConfiguration(
      triggers: [.delivery], ordering: .arrival, requiresActiveScene: true,
      onFailure: .keepInPlace, displaysOneAtATime: true,
      retryBackoff: Backoff(initial: 0.5, maximum: 2),
      listenerDelay: .lognormal(median: 2, sigma: 0.5)))

  /// `never`: a listener that never displays. The worst case for consent, and what OpenIAP
  /// did from 2.1.0 (PR #99, commit f2caa3bf5e8d7bb3c57f22564a1553e7ae513147) until 2.3.0
  /// (PR #222, commit a9b7db4e, which added `displayStoreKitMessage`): its loop consumed
  /// `Message.messages` and displayed nothing. It listens from launch (`listener_delay` 0),
  /// so StoreKit shows nothing either.
  public static let never = Self(
    name: "never",
    summary: "A listener that never displays: the worst case for consent",
    doc: "a listener that never displays (OpenIAP 2.1.0 to 2.2.x did this)",
    chart: .init(colour: 6, variant: 0),
    shipping: .library,
    configuration: PolicyConfiguration(
      triggers: [], requiresActiveScene: true, listenerDelay: .none))
}

extension PolicyConfiguration {
  /// The article's table (sources/000), every kind stated. Listed there: launch ("splash"),
  /// onboarding, checkout ("purchase / checkout") and immersive close the switch; home and
  /// settings open it. Not listed, so `screen-gate`'s choices (`scenarios/sweeps/
  /// article-unlisted-kinds.json` shows what each changes):
  /// - `paywall` **closed**: read as part of "purchase / checkout" (a sheet over a paywall is
  ///   an interruption); opening it instead shows consent sooner at the cost of paywall
  ///   interruptions.
  /// - `content` **unchanged**: the coordinator assigns `canPresent` only on the screens its
  ///   table names, so a content screen keeps what the previous screen set.
  public static let articleGate = gateTable(
    [
      .launch: .closed, .onboarding: .closed, .paywall: .closed, .checkout: .closed,
      .immersive: .closed, .home: .open, .settings: .open, .content: .unchanged,
    ], otherwise: .unchanged)

  /// The types RevenueCat's `StoreMessageType` names from 5.6.0 (win-back added in commit
  /// c814d0e3acc94218ef4c96faa228e44b887e22f0): `Set(StoreMessageType.allCases)`.
  public static let revenueCatTypes: Set<Reason> = [
    .priceIncreaseConsent, .billingIssue, .winBackOffer, .generic,
  ]

  /// The types RevenueCat's `StoreMessageType` names before 5.6.0: no win-back, so a win-back
  /// message has no type and is never shown.
  public static let revenueCatLegacyTypes: Set<Reason> = [
    .priceIncreaseConsent, .billingIssue, .generic,
  ]
}
