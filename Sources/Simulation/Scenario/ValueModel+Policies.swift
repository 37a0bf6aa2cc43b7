import MessageDeferral

/// The amounts a value-aware policy weighs (``ConsentValue``, the member `value` of
/// `urgent_consent`, which `deadline-aware-value` sets) come from the scenario's `value`
/// section unless the policy sets its own: the policy then prices a sheet in the same units,
/// and by the same amounts, as the run's `value_per_1k_users` that ranks it.
///
/// | the policy's amount | the scenario's |
/// | --- | --- |
/// | `renewal` | `value.consent_deadline_missed` |
/// | `costs.onboarding` | `onboarding.quit_after_sheet_probability` × `value.onboarding_completed` |
/// | `costs.checkout` | `value.checkout_interrupted` |
/// | `costs.immersive` | `value.immersive_interrupted` |
///
/// The other amounts (`costs.paywall`, `fresh_no_return`) have no counterpart in the `value`
/// section and stay the policy's. Without a `value` section every amount is the policy's (the
/// preset's are those of the default scenario, ``ConsentValue/defaults``).
extension Scenario {
  /// The amounts of ``ConsentValue`` the `value` section sets, each with its key in the
  /// policy's `urgent_consent.value` object; empty without a `value` section.
  public var consentAmounts: [(key: [String], amount: Double)] {
    guard let value else { return [] }
    return [
      (["renewal"], value.consentDeadlineMissed),
      (
        ["costs", ScreenKind.onboarding.rawValue],
        onboarding.quitAfterSheetProbability * value.onboardingCompleted
      ),
      (["costs", ScreenKind.checkout.rawValue], value.checkoutInterrupted),
      (["costs", ScreenKind.immersive.rawValue], value.immersiveInterrupted),
    ]
  }

  /// `policy` priced by this scenario: every amount of its value-aware test that `definition`
  /// (the policy's object as the file wrote it; `nil` for a preset given by name) does not set
  /// is taken from the `value` section. A policy with no value-aware test, or a scenario with
  /// no `value` section, is returned as it is.
  public func priced(_ policy: NamedPolicy, definition: ConfigValue?) -> NamedPolicy {
    guard var rule = policy.configuration.urgentConsent, var test = rule.value else {
      return policy
    }
    let written = definition?["urgent_consent"]?["value"]
    for (key, amount) in consentAmounts where written?.value(at: key[...]) == nil {
      test[amount: key] = amount
    }
    rule.value = test
    var priced = policy
    priced.configuration.urgentConsent = rule
    return priced
  }

  /// What `policy`'s value-aware test weighs, for the terminal and the manifest: `nil` without
  /// one, else `renewal 25, sheets over onboarding 1.8, paywall 0.6, checkout 6, immersive 0
  /// USD` followed by which of them equal the scenario's `value` section.
  public func pricingNote(for policy: NamedPolicy) -> String? {
    guard let test = policy.configuration.urgentConsent?.value else { return nil }
    let unit = value.map { " \($0.unit)" } ?? ""
    let named: [ScreenKind] = [.onboarding, .paywall, .checkout, .immersive]
    let costs = ScreenKind.allCases.filter { test.costs[$0.index] != 0 || named.contains($0) }
      .map { "\($0.rawValue) \(Self.amountText(test.costs[$0.index]))" }
    var note =
      "\(policy.name) weighs a renewal at \(Self.amountText(test.renewal))\(unit) against sheets "
      + "over \(costs.joined(separator: ", "))\(unit)"
    if value == nil { return note + " (its own amounts; the scenario has no value section)" }
    let same = amountsFromScenario(of: policy)
    switch same.count {
    case consentAmounts.count: note += " (from the scenario's value section)"
    case 0: note += " (its own amounts, not the scenario's value section)"
    default: note += " (\(same.joined(separator: ", ")) from the scenario's value section)"
    }
    return note
  }

  /// The amounts of `policy`'s value-aware test that equal this scenario's (by their last key:
  /// `renewal`, `onboarding`, `checkout`, `immersive`); empty without a test or a `value`
  /// section.
  public func amountsFromScenario(of policy: NamedPolicy) -> [String] {
    guard let test = policy.configuration.urgentConsent?.value else { return [] }
    return consentAmounts.filter { key, amount in test[amount: key] == amount }.map {
      $0.key.last!
    }
  }

  /// An amount at up to 4 significant figures, without trailing zeros (`1.8`, `0.6`, `25`).
  static func amountText(_ amount: Double) -> String {
    let rounded = (amount * 10_000).rounded() / 10_000
    if rounded == rounded.rounded(), abs(rounded) < 1e15 { return String(Int(rounded)) }
    return "\(rounded)"
  }
}

extension ConsentValue {
  /// The amount at a key of ``Scenario/consentAmounts`` (`["renewal"]` or `["costs", kind]`).
  fileprivate subscript(amount key: [String]) -> Double {
    get {
      guard key.count == 2, let kind = ScreenKind(rawValue: key[1]) else { return renewal }
      return costs[kind.index]
    }
    set {
      if key.count == 2, let kind = ScreenKind(rawValue: key[1]) {
        costs[kind.index] = newValue
      } else {
        renewal = newValue
      }
    }
  }
}

extension ConfigValue {
  /// The value at a path of object keys; `nil` when a key is missing or a step is not an
  /// object.
  func value(at path: ArraySlice<String>) -> ConfigValue? {
    guard let head = path.first else { return self }
    return self[head]?.value(at: path.dropFirst())
  }
}
