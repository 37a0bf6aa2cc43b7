/// Presets that keep an older SDK release, or a weaker assumption, beside the current one.
extension PolicyConfiguration {
  /// The types RevenueCat's `StoreMessageType` names before 5.6.0: no win-back, so a win-back
  /// message has no type and is never shown.
  public static let revenueCatLegacyTypes: Set<Reason> = [
    .priceIncreaseConsent, .billingIssue, .generic,
  ]

  /// `revenuecat-manual-legacy`: RevenueCat `showStoreMessagesAutomatically: false` from
  /// purchases-ios 4.27.0 (commit 773fd84a65, "StoreKit In App messages support") to 5.5.x,
  /// following `Sources/Support/StoreMessagesHelper.swift` at the parent of commit
  /// df33158600f06b96e0b6bdee3fe5f2f248bf01f5. As ``revenueCatManual`` up to the end of the
  /// call, which then runs `deferredMessages.removeAll()`: whatever was not shown (filtered
  /// out, failed, of a type it does not know) is lost with the shown ones. Win-back has no
  /// `StoreMessageType` before 5.6.0 (commit c814d0e3acc94218ef4c96faa228e44b887e22f0), so
  /// the call's types are consent, billing and generic. Same `listener_delay` as
  /// `revenuecat-manual`.
  public static let revenueCatManualLegacy: PolicyConfiguration = {
    var config = revenueCatManual
    config.checkpoints = [Checkpoint(.home, reasons: revenueCatLegacyTypes)]
    config.removesDisplayed = false
    config.removesEveryCopy = false
    config.clearsAfterCall = true
    return config
  }()

  /// `deadline-blind`: `deadline-aware` for an app that does not know the consent deadline.
  /// StoreKit's `Message` carries only its reason; the renewal date comes from the app's own
  /// subscription status (`Product.SubscriptionInfo.RenewalInfo`), reliably only with one
  /// subscription group. So: no deadline margin, no deadline in the urgency order, and no
  /// `urgent_consent` (null): that rule times urgency from the deadline, which this app does
  /// not know; the ceilings alone force consent. Everything else is `deadline-aware`'s.
  public static let deadlineBlind: PolicyConfiguration = {
    var config = deadlineAware
    config.knowsDeadlines = false
    config.deadlineMargin = nil
    config.urgentConsent = nil
    return config
  }()

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
  public static let deadlineAwareValue: PolicyConfiguration = {
    var config = deadlineAware
    config.urgentConsent?.spares = []
    config.urgentConsent?.value = .defaults
    return config
  }()
}

extension PolicyConfiguration {
  /// A copy whose collections have storage of their own, shared with no other value. Workers
  /// of a run each take one: a coordinator copied at every fork retains the configuration's
  /// collections, and a reference count written by two threads bounces its cache line between
  /// their cores (slowing every read near it).
  public func withOwnStorage() -> PolicyConfiguration {
    var copy = self
    copy.gate = gate.map { $0 }
    copy.gateOverrides = gateOverrides.map { $0 }
    copy.checkpoints = checkpoints.map { checkpoint in
      var own = checkpoint
      own.reasons = checkpoint.reasons.map { Set($0.map { $0 }) }
      return own
    }
    copy.reasonFilter = reasonFilter.map { Set($0.map { $0 }) }
    copy.ceilings = Dictionary(uniqueKeysWithValues: ceilings.map { ($0.key, $0.value) })
    copy.urgentConsent = urgentConsent.map { rule in
      var own = rule
      own.spares = Set(rule.spares.map { $0 })
      own.value = rule.value.map { value in
        var ownValue = value
        ownValue.costs = value.costs.map { $0 }
        return ownValue
      }
      return own
    }
    return copy
  }
}
