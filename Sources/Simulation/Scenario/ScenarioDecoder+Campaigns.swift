import MessageDeferral

// `messages.campaigns`: fixed-time campaigns of any reason but consent (which has its own).

extension _ScenarioDecoder {
  /// An array of campaigns, each `{reason, audience?, start, rollout_window?, audience_share?,
  /// expiry?}`.
  mutating func readCampaigns(
    _ node: JSONNode, at path: String, horizon: Double?
  ) -> [MessageCampaign]? {
    guard case .array(let elements) = node.value else {
      report(
        path, node,
        "must be an array of campaigns, got \(node.typeName); such as "
          + "[{\"reason\": \"win_back_offer\", \"start\": \"10d\"}]")
      return nil
    }
    var result: [MessageCampaign] = []
    var valid = true
    for (index, element) in elements.enumerated() {
      if let campaign = readCampaign(
        element, at: _JSONPath.element(path, index), horizon: horizon)
      {
        result.append(campaign)
      } else {
        valid = false
      }
    }
    return valid ? result : nil
  }

  mutating func readCampaign(
    _ node: JSONNode, at path: String, horizon: Double?
  ) -> MessageCampaign? {
    let keys: [_Key] = [
      .required("reason", "\"win_back_offer\""), .optional("audience"),
      .required("start", "\"10d\""), .optional("rollout_window"), .optional("audience_share"),
      .optional("expiry"), .optional("local_time"),
    ]
    guard let object = readObject(node, at: path, keys: keys, what: "a campaign") else {
      return nil
    }
    let reasons = Self.recurringReasons
    let key = field(object, "reason") {
      $0.readEnumeration($1, at: $2, cases: reasons.map(\.key), what: "campaign reason")
    }
    let entry = reasons.first { $0.key == key }
    let audience =
      object["audience"].map { node in
        readEnumeration(
          node, at: object.path("audience"), cases: Audience.allCases.map(\.rawValue),
          what: "audience"
        ).flatMap(Audience.init(rawValue:))
      } ?? entry?.audience
    var start = field(object, "start") {
      $0.readDuration($1, at: $2, minimum: .zero, example: "\"10d\"")
    }
    if let value = start, let horizon, value >= horizon {
      report(
        object.path("start"), object["start"],
        "must be before the horizon (\(DurationText.format(horizon))), got "
          + "\(Self.shown(object["start"]!)); otherwise the campaign never issues a message")
      start = nil
    }
    let window =
      object["rollout_window"].map {
        readDuration($0, at: object.path("rollout_window"), minimum: .zero, example: "\"2d\"")
      } ?? 0
    let share =
      object["audience_share"].map { readProbability($0, at: object.path("audience_share")) } ?? 1
    let expiry = readExpiry(object)
    let localTime = readLocalTime(object)
    guard let entry, let audience, let start, let window, let share, let expiry, let localTime
    else {
      return nil
    }
    var campaign = MessageCampaign(
      reason: entry.reason, audience: audience, start: start, rolloutWindow: window,
      audienceShare: share, expiry: expiry)
    campaign.localTime = localTime
    return campaign
  }
}

extension _ScenarioDecoder {
  /// `billing_renewals`: `{period, failure_probability, retry_times, retry_success_probability}`.
  mutating func readBillingRenewals(_ node: JSONNode, at path: String) -> BillingRenewals? {
    let keys: [_Key] = [
      .required("period", "\"30d\""), .required("failure_probability", "0.02"),
      .required("retry_times", "[\"1d\", \"3d\", \"7d\", \"16d\"]"),
      .required("retry_success_probability", "0.3"),
    ]
    guard let object = readObject(node, at: path, keys: keys, what: "billing at renewals") else {
      return nil
    }
    let period = field(object, "period") {
      $0.readDuration($1, at: $2, minimum: .positive, example: "\"30d\"")
    }
    let failure = field(object, "failure_probability") { $0.readProbability($1, at: $2) }
    let success = field(object, "retry_success_probability") { $0.readProbability($1, at: $2) }
    let retries = field(object, "retry_times") { decoder, node, path -> [Double]? in
      guard case .array(let elements) = node.value, !elements.isEmpty else {
        decoder.report(
          path, node,
          "must be a non-empty array of durations after the failed renewal, got "
            + "\(node.typeName); such as [\"1d\", \"3d\", \"7d\", \"16d\"]")
        return nil
      }
      var times: [Double] = []
      for (index, element) in elements.enumerated() {
        let elementPath = _JSONPath.element(path, index)
        guard
          let time = decoder.readDuration(
            element, at: elementPath, minimum: .positive, example: "\"3d\"")
        else { return nil }
        if let last = times.last, time <= last {
          decoder.report(
            elementPath, element,
            "must be after the retry before it (\(DurationText.format(last))); list retry "
              + "times in increasing order")
          return nil
        }
        times.append(time)
      }
      return times
    }
    guard let period, let failure, let success, let retries else { return nil }
    return BillingRenewals(
      period: period, failureProbability: failure, retryTimes: retries,
      retrySuccessProbability: success)
  }
}
