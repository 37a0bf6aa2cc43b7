/// This project's presets: `deadline-aware`, its value-aware variant, its first version (kept
/// for comparison) and a variant for an app that does not know the consent deadline. Each doc
/// comment gives the reasoning, rule by rule.
extension PolicyCatalog {
  /// Ours, in the README's order: the current policy, then its variants.
  public static let ourPresets: [Preset] = [
    .deadlineAware, .deadlineAwareValue, .deadlineAwareV1, .deadlineBlind,
  ]
}

extension PolicyCatalog.Preset {
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
  public static let deadlineAware = Self(
    name: "deadline-aware",
    summary: "Ours: calm screens; an urgent consent (deadline near, user may not return) at once",
    doc:
      "ours: `deadline-aware-v1`'s calm screens, plus a rule for consent when the "
      + "renewal is at stake. A consent is *urgent* on a fresh install (fewer than two "
      + "opens remembered: nothing says the user comes back), two days before its "
      + "deadline, or once the time left is under 3 times the longest gap between the "
      + "user's last 8 opens (the app records its own opens and keeps them across "
      + "relaunches). An urgent consent takes the first moment that is not onboarding, "
      + "a paywall or checkout (its delivery, the splash, a match, a scene activation): "
      + "the moments StoreKit's default uses, so it loses no renewal the default keeps "
      + "except one only a sheet over onboarding could keep. A user who opens the app "
      + "every few hours is held for a calm screen as before; other reasons keep v1's "
      + "rules. Knobs: `urgent_consent` in [`scenarios/README.md`](scenarios/README.md)",
    chart: .init(colour: 5, variant: 0),
    shipping: .library,
    configuration: deadlineAwareV1.configuration.with {
      $0.deadlineMargin = nil
      $0.urgentConsent = UrgentConsent(
        nearDeadline: 2 * 86400, returnFactor: 3, rememberedOpens: 8, minimumOpens: 2,
        spares: [.onboarding, .paywall, .checkout])
    })

  /// `deadline-aware-value`: `deadline-aware` with the value-aware test of ``ConsentValue``:
  /// a consent stops waiting once P(no later opportunity before the deadline) × what a
  /// renewal is worth exceeds the cost of a sheet over the current screen, on any screen
  /// (no kind is spared; a high cost spares it). P comes from the app's own record of the
  /// user's last 8 opens: 1 within two days of the deadline, 0.1 with fewer than two opens
  /// (a fresh install), else the smoothed share of remembered gaps longer than the time left.
  ///
  /// The amounts, in USD, follow the default scenario's `value` section and are assumptions:
  /// a renewal 25 (its `consent_deadline_missed`); onboarding 1.8 (a completed onboarding, 6,
  /// × the 30% who quit after a sheet); paywall 0.6 (10% of paywall views reach checkout ×
  /// an interrupted checkout's 6); checkout 6; immersive 3 (not priced there: a named cost);
  /// the splash and calm screens 0. A fresh install's 0.1 is the share of new installs who
  /// leave during onboarding and never come back (about 20% leave × half never return), a
  /// figure an app reads from its own analytics. So, unlike `deadline-aware`, it interrupts
  /// a fresh install's onboarding (0.1 × 25 = 2.5 > 1.8) where that keeps the renewal.
  public static let deadlineAwareValue = Self(
    name: "deadline-aware-value",
    summary: "deadline-aware weighing the expected lost renewal against the screen's cost",
    doc:
      "ours, value-aware: `deadline-aware` where a consent stops waiting once the "
      + "expected loss of waiting exceeds the cost of a sheet over the current screen: "
      + "P(no later open before the deadline) × what a renewal is worth against the "
      + "screen's cost, both from the scenario's `value` section unless the policy sets "
      + "its own (default scenario: a renewal 25 USD against onboarding 1.8, paywall "
      + "0.6, checkout 6, immersive 0; the splash and calm screens 0; without a `value` "
      + "section, immersive 3). P is the app's own estimate from its record of the user's last 8 "
      + "opens: the smoothed share of remembered gaps longer than the time left, 1 "
      + "within two days of the deadline, 0.1 on a fresh install (the share of new "
      + "installs who leave onboarding for good). So it interrupts a fresh install's "
      + "onboarding (0.1 × 25 > 1.8) to keep the renewal that `deadline-aware` gives "
      + "up. Knobs: `urgent_consent.value` in "
      + "[`scenarios/README.md`](scenarios/README.md)",
    chart: .init(colour: 5, variant: 2),
    shipping: .library,
    configuration: deadlineAware.configuration.with {
      $0.urgentConsent?.spares = []
      $0.urgentConsent?.value = .defaults
    })

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
  public static let deadlineAwareV1 = Self(
    name: "deadline-aware-v1",
    summary: "Ours, first version: natural breaks, one sheet per break, persisted ceilings",
    doc:
      "ours, first version (kept for comparison): natural breaks only, one sheet per "
      + "break, most urgent first, ceilings persisted across relaunches, a screen "
      + "boundary before mid-screen forcing; it lost renewals `storekit-auto` keeps "
      + "(issue #21)",
    chart: .init(colour: 5, variant: 1),
    shipping: .library,
    configuration: PolicyConfiguration(
      gate: PolicyConfiguration.gateTable(
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
      sheetsPerBreak: 1))

  /// `deadline-blind`: `deadline-aware` for an app that does not know the consent deadline.
  /// StoreKit's `Message` carries only its reason; the renewal date comes from the app's own
  /// subscription status (`Product.SubscriptionInfo.RenewalInfo`), reliably only with one
  /// subscription group. So: no deadline margin, no deadline in the urgency order, and no
  /// `urgent_consent` (null): that rule times urgency from the deadline, which this app does
  /// not know; the ceilings alone force consent. Everything else is `deadline-aware`'s.
  public static let deadlineBlind = Self(
    name: "deadline-blind",
    summary: "deadline-aware without the renewal date: ceilings alone force consent",
    doc:
      "`deadline-aware` without the consent deadline (StoreKit's message carries "
      + "none): ceilings alone force consent, and no `urgent_consent` (it times urgency "
      + "from the deadline)",
    chart: .init(colour: 1, variant: 1),
    shipping: .library,
    configuration: deadlineAware.configuration.with {
      $0.knowsDeadlines = false
      $0.deadlineMargin = nil
      $0.urgentConsent = nil
    })
}
