extension PolicyConfiguration {
  /// `storekit-auto`: StoreKit's default, no listener. Each message is shown as soon as it is
  /// delivered and a scene is active, over whatever screen; a message delivered before the
  /// scene is active, or whose display failed, is shown when the scene next becomes active.
  /// With no listener there is nothing to attach late: `listener_delay` 0.
  public static let storeKitAuto = PolicyConfiguration(
    triggers: [.delivery], requiresActiveScene: true, onFailure: .keepInPlace,
    retriesOnSceneActivation: true, deduplicates: true, listenerDelay: .none)

  /// The article's table (sources/000), every kind stated. Listed there: launch ("splash"),
  /// onboarding, checkout ("purchase / checkout") and immersive close the switch; home and
  /// settings open it. Not listed, so this preset's choices (`scenarios/sweeps/
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

  /// `screen-gate`: the article's `StoreMessageCoordinator` as written. Consent and billing
  /// inserted at index 0 (the newest of them first), others appended; `canPresent` assigned on
  /// screen appearance by the article's table, `false` at process start; a flush on every
  /// assignment and every enqueue, only with an active scene; all pending shown in order; a
  /// failed one appended at the back; no retry when the scene later becomes active; no
  /// de-duplication; pending lost with the process. The coordinator is created at app start,
  /// so it listens from launch (`listener_delay` 0).
  public static let screenGate = PolicyConfiguration(
    gate: articleGate, gateAtLaunch: false, triggers: [.delivery, .gateAssignment],
    ordering: .article, requiresActiveScene: true, onFailure: .appendToBack,
    retriesOnSceneActivation: false, listenerDelay: .none)

  /// `screen-gate-ceiling`: `screen-gate` plus the article's per-reason ceilings: consent
  /// waiting longer than 12 h is shown at once even on an immersive screen (a fallback
  /// fired). Waiting is timed from the in-process arrival (the Japanese version's
  /// `since: Date()`), so it restarts after a relaunch. The article gives no numbers for
  /// billing and generic: they are parameters (`ceilings` in a custom policy), none here.
  public static let screenGateCeiling: PolicyConfiguration = {
    var config = screenGate
    config.ceilings = [.priceIncreaseConsent: 12 * 3600]
    config.ceilingClock = .inProcessArrival
    config.forcing = .immediate
    return config
  }()

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
  public static let adaptyManual = PolicyConfiguration(
    triggers: [.checkpoint], checkpoints: [Checkpoint(.home)], ordering: .arrival,
    requiresActiveScene: false, sequentialBatch: true, refusesConcurrentShow: true,
    onFailure: .keepInPlace, stopsBatchWithoutScene: true, removesDisplayed: true,
    removesEveryCopy: true, deduplicates: true, showsUnknownReasons: true,
    listenerDelay: .lognormal(median: 0.3, sigma: 0.5))

  /// The types RevenueCat's `StoreMessageType` names from 5.6.0 (win-back added in commit
  /// c814d0e3acc94218ef4c96faa228e44b887e22f0): `Set(StoreMessageType.allCases)`.
  public static let revenueCatTypes: Set<Reason> = [
    .priceIncreaseConsent, .billingIssue, .winBackOffer, .generic,
  ]

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
  public static let revenueCatManual = PolicyConfiguration(
    triggers: [.checkpoint], checkpoints: [Checkpoint(.home, reasons: revenueCatTypes)],
    ordering: .arrival, requiresActiveScene: false, onFailure: .keepInPlace,
    removesDisplayed: true, removesEveryCopy: true, deduplicates: false,
    showsUnknownReasons: false, listenerDelay: .lognormal(median: 0.1, sigma: 0.5))

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
  public static let openIAP = PolicyConfiguration(
    triggers: [.delivery], ordering: .arrival, requiresActiveScene: true,
    onFailure: .keepInPlace, displaysOneAtATime: true,
    retryBackoff: Backoff(initial: 0.5, maximum: 2),
    listenerDelay: .lognormal(median: 2, sigma: 0.5))

  /// `never`: a listener that never displays. The worst case for consent, and what OpenIAP
  /// did from 2.1.0 (PR #99, commit f2caa3bf5e8d7bb3c57f22564a1553e7ae513147) until 2.3.0
  /// (PR #222, commit a9b7db4e, which added `displayStoreKitMessage`): its loop consumed
  /// `Message.messages` and displayed nothing. It listens from launch (`listener_delay` 0),
  /// so StoreKit shows nothing either.
  public static let never = PolicyConfiguration(
    triggers: [], requiresActiveScene: true, listenerDelay: .none)

  /// `deadline-aware-v1`: the first version of this project's own policy, kept for
  /// comparison (issue #21: it lost renewals that `storekit-auto` keeps, as `screen-gate`
  /// does). Built to beat the others on onboarding interruptions *and* consent latency at
  /// once, using only what a real app knows.
  ///
  /// The reasoning, rule by rule:
  /// - **A natural break first.** Messages are shown when a screen that no sheet interrupts
  ///   (home, settings, content) appears, or is current when a message arrives or the scene
  ///   becomes active. Launch, onboarding, paywall, checkout and immersive screens close the
  ///   gate, so the article's case (consent over the third onboarding screen) cannot happen
  ///   before a hard ceiling. Unlike the SDKs' single checkpoint (`home`), every calm screen
  ///   counts, which keeps latency short.
  /// - **One sheet per break.** Two system sheets in a row feel like a wall; the next break
  ///   comes soon in any app where messages are shown at all. (A message past its hard
  ///   ceiling is not held back by this limit.)
  /// - **The most urgent first.** Ordered by the earlier of the consent deadline (the renewal
  ///   date StoreKit gives any app) and the ceiling due time, so consent outranks a generic
  ///   message and a near deadline outranks a far one (also when two consent messages share
  ///   their reason's ceiling).
  /// - **Retry on scene activation**, so a failed or scene-less attempt is not stranded until
  ///   the next screen change.
  /// - **Ceilings timed from first delivery and persisted** across relaunches (the app
  ///   stores the first time it saw a message of each reason): a relaunch does not restart
  ///   the wait, unlike `screen-gate-ceiling`. Consent: 24 h, or two days before its
  ///   deadline, whichever is earlier. Billing: 24 h. Others: 7 days.
  /// - **Force at a screen boundary before forcing mid-screen.** Past its ceiling a message
  ///   is shown at the next appearance of any screen but the splash, onboarding, paywall and
  ///   checkout; only if none comes within 6 h (from the later of the due time and its arrival
  ///   in this process) is it forced at once, wherever the user is, except on an onboarding or
  ///   checkout screen: those last minutes, and the next screen takes it. So a message delivered
  ///   already late (a returning subscriber reinstalling days after the campaign, or a
  ///   relaunch) waits the few minutes onboarding takes instead of landing on it.
  /// - De-duplicated; unknown reasons are shown like generic ones.
  public static let deadlineAwareV1 = PolicyConfiguration(
    gate: gateTable(
      [.home: .open, .settings: .open, .content: .open], otherwise: .closed),
    gateAtLaunch: false,
    triggers: [.delivery, .screenAppearance], ordering: .urgency, requiresActiveScene: true,
    onFailure: .keepInPlace, retriesOnSceneActivation: true,
    ceilings: [
      .priceIncreaseConsent: 24 * 3600, .billingIssue: 24 * 3600,
      .winBackOffer: 7 * 86400, .generic: 7 * 86400,
    ],
    ceilingClock: .firstDelivery, forcing: .boundaryFirst(grace: 6 * 3600),
    deadlineMargin: 2 * 86400, deduplicates: true, showsUnknownReasons: true,
    sheetsPerBreak: 1)

  /// `deadline-aware`: this project's own policy. It interrupts no onboarding, paywall or
  /// checkout, far fewer immersive screens than StoreKit's default, and gives up no renewal
  /// the default keeps except where only a sheet over onboarding could have kept it; it uses
  /// only what a real app knows: the message's reason, the renewal date of its own
  /// subscription (the consent deadline), the current screen, and its own record of this
  /// user's opens.
  ///
  /// The reasoning, rule by rule (the first three as `deadline-aware-v1`):
  /// - **A natural break first.** Messages are shown when a calm screen (home, settings,
  ///   content) appears, or is current when a message arrives or the scene becomes active;
  ///   every other kind closes the gate.
  /// - **One sheet per break**, **the most urgent first** (by the earliest of deadline,
  ///   ceiling and urgency time), **retry on scene activation**, de-duplicated, unknown
  ///   reasons shown like generic ones.
  /// - **Ceilings timed from first delivery and persisted**: consent and billing 24 h, others
  ///   7 days; past its ceiling a message is shown at the next screen that is not the splash,
  ///   onboarding, paywall or checkout, and after 6 h more anywhere but onboarding or
  ///   checkout. (v1's fixed two-day consent margin is replaced by the next rule.)
  /// - **A renewal is worth an interruption when it is at stake.** What v1 lost against
  ///   StoreKit's default were users with one chance left, above all fresh installs whose
  ///   consent the default put on the splash and who then left during onboarding for good;
  ///   and users whose next open comes after the deadline. So a consent becomes *urgent*
  ///   (``UrgentConsent``): while the app remembers fewer than two opens (a fresh install:
  ///   nothing says the user comes back); two days before the deadline; or once the time left
  ///   is under 3 times the longest gap between the user's last 8 opens (the app keeps their
  ///   times across relaunches; the longest of 7 gaps is about the user's own 7-in-8 time
  ///   away, and while three of them fit before the deadline the user is almost sure to be
  ///   back, on a calm screen, in time).
  /// - **An urgent consent takes the first moment that is not onboarding, a paywall or
  ///   checkout**: its delivery, any other screen, the scene's activation, or the instant it
  ///   becomes urgent: over the splash or an immersive screen, mid-screen if need be. Those are
  ///   the moments StoreKit's default uses. Onboarding and checkout last minutes and the next
  ///   screen takes it. The paywall is spared too: measured on the bundled scenarios, a sheet
  ///   there (mostly right after a fresh install's onboarding) kept no renewal that the next
  ///   screen did not, at several times the default's paywall interruptions.
  /// - **Otherwise, the calm screen.** A user who opens the app every few hours has a short
  ///   longest gap and a far deadline: held for a calm screen as v1 holds it. Other reasons
  ///   keep v1's rules.
  ///
  /// Does *not* hold: a renewal the default keeps only by a sheet over onboarding (a fresh
  /// install whose consent arrives after the splash, then leaves onboarding for good) is lost.
  /// On the bundled scenarios every renewal it loses that the default keeps is of that kind:
  /// with no returning subscriber among new installs both miss exactly as many. Trading an
  /// onboarding interruption for such a renewal is `deadline-aware-value`'s choice.
  public static let deadlineAware: PolicyConfiguration = {
    var config = deadlineAwareV1
    config.deadlineMargin = nil
    config.urgentConsent = UrgentConsent(
      nearDeadline: 2 * 86400, returnFactor: 3, rememberedOpens: 8, minimumOpens: 2,
      spares: [.onboarding, .paywall, .checkout])
    return config
  }()
}
