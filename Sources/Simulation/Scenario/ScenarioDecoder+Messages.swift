import MessageDeferral

// The `messages` section: how the App Store issues each reason.

extension _ScenarioDecoder {
  /// Each recurring reason with its default audience (scenarios/README.md, "messages": billing to subscribers,
  /// win-back to lapsed users).
  static let recurringReasons: [(key: String, reason: Reason, audience: Audience)] = [
    ("billing_issue", .billingIssue, .subscribers),
    ("win_back_offer", .winBackOffer, .lapsed),
    ("generic", .generic, .all),
  ]

  mutating func readMessages(
    _ node: JSONNode, at path: String, horizon: Double?
  ) -> MessageProcesses? {
    messageHorizon = horizon
    let keys: [_Key] =
      [.optional("price_increase_consent")] + Self.recurringReasons.map { .optional($0.key) }
      + [.optional("unknown"), .optional("campaigns"), .optional("billing_renewals")]
    guard
      let object = readObject(node, at: path, keys: keys, what: "how the App Store issues messages")
    else { return nil }
    var valid = true
    var consent: ConsentCampaign?
    if let consentNode = object["price_increase_consent"] {
      consent = readConsent(
        consentNode, at: object.path("price_increase_consent"), horizon: horizon)
      if consent == nil { valid = false }
    }
    // Reason order, not file order: reordering keys in a file must not change a run.
    var recurring: [RecurringMessages] = []
    for (key, reason, audience) in Self.recurringReasons {
      guard let recurringNode = object[key] else { continue }
      if let messages = readRecurring(
        recurringNode, at: object.path(key), reason: reason, defaultAudience: audience)
      {
        recurring.append(messages)
      } else {
        valid = false
      }
    }
    if let unknownNode = object["unknown"] {
      if let unknown = readUnknownReasons(unknownNode, at: object.path("unknown")) {
        recurring += unknown
      } else {
        valid = false
      }
    }
    var campaigns: [MessageCampaign] = []
    if let campaignsNode = object["campaigns"] {
      if let read = readCampaigns(campaignsNode, at: object.path("campaigns"), horizon: horizon) {
        campaigns = read
      } else {
        valid = false
      }
    }
    var billing: BillingRenewals?
    if let billingNode = object["billing_renewals"] {
      billing = readBillingRenewals(billingNode, at: object.path("billing_renewals"))
      if billing == nil { valid = false }
    }
    return valid
      ? MessageProcesses(
        consent: consent, recurring: recurring, campaigns: campaigns, billingRenewals: billing)
      : nil
  }

  mutating func readConsent(_ node: JSONNode, at path: String, horizon: Double?) -> ConsentCampaign?
  {
    let keys: [_Key] = [
      .required("campaign_start", "\"3d\""),
      .required("rollout_window", "\"2d\""),
      .required("audience_share", "0.8"),
      .required("deadline", "{\"uniform\": {\"low\": \"7d\", \"high\": \"30d\"}}"),
      .optional("expiry"), .optional("local_time"),
    ]
    guard let object = readObject(node, at: path, keys: keys, what: "a price-increase campaign")
    else {
      return nil
    }
    var start = field(object, "campaign_start") {
      $0.readDuration($1, at: $2, minimum: .zero, example: "\"3d\"")
    }
    if let value = start, let horizon, value >= horizon {
      report(
        object.path("campaign_start"), object["campaign_start"],
        "must be before the horizon (\(DurationText.format(horizon))), got "
          + "\(Self.shown(object["campaign_start"]!)); otherwise no consent message is ever issued")
      start = nil
    }
    let window = field(object, "rollout_window") {
      $0.readDuration($1, at: $2, minimum: .zero, example: "\"2d\"")
    }
    let share = field(object, "audience_share") { $0.readProbability($1, at: $2) }
    let deadline = field(object, "deadline") {
      $0.readDistribution(
        $1, at: $2, example: "{\"uniform\": {\"low\": \"7d\", \"high\": \"30d\"}}")
    }
    let expiry = readExpiry(object)
    let localTime = readLocalTime(object)
    guard let start, let window, let share, let deadline, let expiry, let localTime else {
      return nil
    }
    var campaign = ConsentCampaign(
      start: start, rolloutWindow: window, audienceShare: share, deadline: deadline, expiry: expiry)
    campaign.localTime = localTime
    return campaign
  }

  /// `expiry`: absent or `null` for never (`.some(nil)`), else a distribution; `nil` if invalid.
  mutating func readExpiry(_ object: _Object) -> DistributionSpec?? {
    guard let node = object["expiry"] else { return .some(nil) }
    if case .null = node.value { return .some(nil) }
    guard
      let spec = readDistribution(
        node, at: object.path("expiry"),
        example: "{\"exponential\": {\"mean\": \"3d\"}} (or null: never)")
    else { return nil }
    return .some(spec)
  }

  mutating func readRecurring(
    _ node: JSONNode, at path: String, reason: Reason, defaultAudience: Audience,
    extraKeys: [_Key] = []
  ) -> RecurringMessages? {
    let keys: [_Key] =
      extraKeys + [
        .optional("audience"), .required("mean_interval", "\"120d\""), .optional("expiry"),
      ]
    guard let object = readObject(node, at: path, keys: keys, what: "a recurring message") else {
      return nil
    }
    let audience =
      object["audience"].map { node in
        readEnumeration(
          node, at: object.path("audience"), cases: Audience.allCases.map(\.rawValue),
          what: "audience"
        ).flatMap(Audience.init(rawValue:))
      } ?? defaultAudience
    let interval = field(object, "mean_interval") {
      $0.readDuration($1, at: $2, minimum: .positive, example: "\"120d\"")
    }
    let expiry = readExpiry(object)
    guard let audience, let interval, let expiry else { return nil }
    guard checkIssuanceBound(interval, at: object.path("mean_interval"), object["mean_interval"])
    else { return nil }
    return RecurringMessages(
      reason: reason, audience: audience, meanInterval: interval, expiry: expiry)
  }

  /// `unknown`: an array of recurring messages, each with a distinct `raw_value`.
  mutating func readUnknownReasons(_ node: JSONNode, at path: String) -> [RecurringMessages]? {
    guard case .array(let elements) = node.value else {
      report(
        path, node,
        "must be an array of reasons StoreKit may add, got \(node.typeName); such as "
          + "[{\"raw_value\": 7, \"audience\": \"all\", \"mean_interval\": \"365d\"}]")
      return nil
    }
    var result: [RecurringMessages] = []
    var valid = true
    var seen: [Int: String] = [:]
    for (index, element) in elements.enumerated() {
      let elementPath = _JSONPath.element(path, index)
      var raw: Int?
      if case .object = element.value, let rawNode = element["raw_value"] {
        raw = readInteger(
          rawNode, at: _JSONPath.member(elementPath, "raw_value"), bounds: 0...Int(Int32.max),
          what: "the reason's raw value")
        if let value = raw, let first = seen[value] {
          report(
            _JSONPath.member(elementPath, "raw_value"), rawNode,
            "duplicate raw value \(value) (also \(first)); give each unknown reason its own")
          raw = nil
        } else if let value = raw {
          seen[value] = elementPath
        }
      }
      let messages = readRecurring(
        element, at: elementPath, reason: .unknown(rawValue: raw ?? 0), defaultAudience: .all,
        extraKeys: [.required("raw_value", "7")])
      if let messages, raw != nil { result.append(messages) } else { valid = false }
    }
    return valid ? result : nil
  }
}
