/// What outcomes are worth, in the user's own units (dollars, euros, points): the optional
/// `value` section of a scenario file (scenarios/README.md, "Value"). Every amount is at
/// least 0 and is a worth (onboarding) or a cost (the others); an absent key counts as 0.
public struct ValueModel: Sendable, Equatable {
  /// The unit the amounts are in, shown next to values (`"USD"`, `"points"`...).
  public var unit: String
  /// Worth of one new user completing onboarding (for example trial-to-paid share × first-year
  /// revenue).
  public var onboardingCompleted: Double
  /// Cost of one consent deadline missed: a renewal that came before the price-increase
  /// consent was shown, so the subscription lapses (for example price × expected further
  /// months).
  public var consentDeadlineMissed: Double
  /// Cost of one billing-issue message still pending at the horizon (neither displayed nor
  /// expired; an expired one was resolved outside the app): an unresolved billing problem.
  public var billingIssueUnresolved: Double
  /// Cost of one visit to a checkout screen with a sheet over it (abandon share × basket).
  public var checkoutInterrupted: Double
  /// Cost of one visit to an immersive screen with a sheet over it.
  public var immersiveInterrupted: Double
  /// With a response model (``Scenario/responses``): cost of one renewal lost (a consent
  /// declined, or not agreed by its deadline in the app or outside it); `nil`: the amount of
  /// ``consentDeadlineMissed``.
  public var renewalLost: Double? = nil
  /// With a response model: worth of one win-back offer redeemed from a sheet.
  public var winBackRedeemed = 0.0

  /// What one renewal lost costs: ``renewalLost``, or ``consentDeadlineMissed`` without it.
  public var renewalLostAmount: Double { renewalLost ?? consentDeadlineMissed }

  public init(
    unit: String, onboardingCompleted: Double = 0, consentDeadlineMissed: Double = 0,
    billingIssueUnresolved: Double = 0, checkoutInterrupted: Double = 0,
    immersiveInterrupted: Double = 0
  ) {
    self.unit = unit
    self.onboardingCompleted = onboardingCompleted
    self.consentDeadlineMissed = consentDeadlineMissed
    self.billingIssueUnresolved = billingIssueUnresolved
    self.checkoutInterrupted = checkoutInterrupted
    self.immersiveInterrupted = immersiveInterrupted
  }

  /// The keys of the section, in file order, with the amount each one names.
  public static var amountKeys: [(key: String, amount: WritableKeyPath<ValueModel, Double>)] {
    [
      ("onboarding_completed", \.onboardingCompleted),
      ("consent_deadline_missed", \.consentDeadlineMissed),
      ("billing_issue_unresolved", \.billingIssueUnresolved),
      ("checkout_interrupted", \.checkoutInterrupted),
      ("immersive_interrupted", \.immersiveInterrupted),
    ]
  }
}

extension _ScenarioDecoder {
  /// The optional `value` section: `unit` (a string) and amounts at least 0.
  mutating func readValue(_ node: JSONNode, at path: String) -> ValueModel? {
    let keys: [_Key] =
      [
        .optional("unit"), .optional("sources"), .optional("renewal_lost"),
        .optional("win_back_redeemed"),
      ] + ValueModel.amountKeys.map { .optional($0.key) }
    guard let object = readObject(node, at: path, keys: keys, what: "what outcomes are worth")
    else { return nil }
    var model = ValueModel(unit: "value")
    if let unit = object["unit"] {
      guard let text = readString(unit, at: object.path("unit"), example: "\"USD\"") else {
        return nil
      }
      model.unit = text
    }
    if let sources = object["sources"] {
      guard case .object = sources.value else {
        report(
          object.path("sources"), sources,
          "must be an object of notes by key, got \(sources.typeName); for example "
            + "{\"onboarding_completed\": \"trial-to-paid 12% (our dashboard)\"}")
        return nil
      }
    }
    var valid = true
    // Every amount: a number at least 0. The last two count only with a `responses` section.
    let amounts = ValueModel.amountKeys.map(\.key) + ["renewal_lost", "win_back_redeemed"]
    for key in amounts {
      guard let entry = object[key] else { continue }
      guard case .number(let number, _) = entry.value, number >= 0, number.isFinite else {
        report(
          object.path(key), entry,
          "must be a number at least 0 in the section's unit, got \(Self.shown(entry)); "
            + "costs are given as positive amounts, for example 4.5")
        valid = false
        continue
      }
      if let amount = ValueModel.amountKeys.first(where: { $0.key == key })?.amount {
        model[keyPath: amount] = number
      } else if key == "renewal_lost" {
        model.renewalLost = number
      } else {
        model.winBackRedeemed = number
      }
    }
    return valid ? model : nil
  }
}
