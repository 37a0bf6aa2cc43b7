import MessageDeferral

// The top level of a scenario file and its sections other than screens: run size, population,
// sessions, onboarding, scene, sheets, messages, policies.

extension _ScenarioDecoder {
  static let topLevelKeys: [_Key] = [
    .optional("$schema"),
    .required("schema", "1"),
    .required("name", "\"my-app\""),
    .optional("description"),
    .required("horizon", "\"30d\""),
    .optional("users"),
    .optional("replications"),
    .optional("seed"),
    .required(
      "population",
      "{\"new_user_share\": 0.3, \"install_window\": {\"start\": \"0s\", \"end\": \"25d\"}, "
        + "\"subscriber_share\": 0.4, \"returning_subscriber_share\": 0.1}"),
    .required("sessions", "{\"gap\": ..., \"background_survival\": ..., ...}"),
    .required("screens", "[{\"name\": \"splash\", \"kind\": \"launch\", \"dwell\": ...}, ...]"),
    .required(
      "entries",
      "{\"cold_launch\": \"splash\", \"new_user\": \"onboarding_1\", \"returning\": \"home\"}"),
    .required(
      "onboarding",
      "{\"quit_after_sheet_probability\": 0.25, \"never_return_after_leaving_probability\": 0.5}"),
    .required(
      "scene",
      "{\"activation_delay\": {\"uniform\": {\"low\": \"100ms\", \"high\": \"600ms\"}}, "
        + "\"display_failure_probability\": 0.01}"),
    .required("sheet_dwell", "{\"lognormal\": {\"median\": \"6s\", \"sigma\": 0.6}}"),
    .required("messages", "{\"price_increase_consent\": {...}, \"billing_issue\": {...}}"),
    .required("policies", "[\"storekit-auto\", \"deadline-aware\"]"),
    .optional("baseline"),
    .optional("value"),
    .optional("app"),
    .optional("responses"),
    .optional("lifecycle"),
  ]

  /// Decodes a whole document; `nil` when any problem was found.
  mutating func readScenario(_ root: JSONNode) -> Scenario? {
    let path = _JSONPath.root
    guard case .object = root.value else {
      report(
        path, root,
        "a scenario must be a JSON object, got \(root.typeName); start from "
          + "scenarios/indie-subscription.json")
      return nil
    }
    guard let top = readObject(root, at: path, keys: Self.topLevelKeys) else { return nil }
    if let node = top["schema"] { readSchemaVersion(node, at: top.path("schema")) }
    if let node = top["$schema"] {
      _ = readString(node, at: top.path("$schema"), example: "\"./schema.json\"")
    }
    let name = field(top, "name") { $0.readName($1, at: $2, example: "my-app") }
    let description =
      top["description"].map { node in
        readString(node, at: top.path("description"), example: "\"A meditation app with ...\"")
      } ?? ""
    let horizon = field(top, "horizon") { $0.readHorizon($1, at: $2) }
    let users =
      top["users"].map { ScenarioFields.users($0, at: top.path("users"), problems: &problems) }
      ?? ScenarioLoader.defaultUsers
    let replications =
      top["replications"].map {
        ScenarioFields.replications($0, at: top.path("replications"), problems: &problems)
      } ?? ScenarioLoader.defaultReplications
    let seed = top["seed"].map { readSeed($0, at: top.path("seed")) } ?? ScenarioLoader.defaultSeed
    let population = field(top, "population") { $0.readPopulation($1, at: $2, horizon: horizon) }
    // No new user onboards when none is new or none of them onboards: `entries.new_user` may go.
    newUserShare = population.map { $0.onboardingShare == 0 ? 0 : $0.newUserShare }
    screenHorizon = horizon
    let sessions = field(top, "sessions") { $0.readSessions($1, at: $2) }
    let graph = readScreens(
      top["screens"], screensPath: top.path("screens"), entriesNode: top["entries"],
      entriesPath: top.path("entries"), phasesNode: top["lifecycle"],
      phasesPath: top.path("lifecycle"))
    let onboarding = field(top, "onboarding") { $0.readOnboarding($1, at: $2) }
    let scene = field(top, "scene") { $0.readScene($1, at: $2) }
    let sheetDwell = field(top, "sheet_dwell") {
      $0.readDistribution(
        $1, at: $2, example: "{\"lognormal\": {\"median\": \"6s\", \"sigma\": 0.6}}")
    }
    let messages = field(top, "messages") { $0.readMessages($1, at: $2, horizon: horizon) }
    let policyList = field(top, "policies") { $0.readPolicies($1, at: $2) }
    let policies = policyList?.valid == true ? policyList?.policies : nil
    let baseline = readBaseline(top["baseline"], at: top.path("baseline"), list: policyList)
    let value = top["value"].map { readValue($0, at: top.path("value")) }
    let app = top["app"].map { readAppSize($0, at: top.path("app")) }
    let responses = top["responses"].map { readResponses($0, at: top.path("responses")) }

    guard problems.isEmpty, let name, let description, let horizon, let users, let replications,
      let seed, let population, let sessions, let graph, let onboarding, let scene, let sheetDwell,
      let messages, let policies, let baseline
    else { return nil }
    var scenario = Scenario(
      name: name, description: description, horizon: horizon, population: population,
      sessions: sessions, screens: graph.screens, entries: graph.entries, onboarding: onboarding,
      scene: scene, sheetDwell: sheetDwell, messages: messages, policies: policies,
      baseline: baseline, replications: replications, users: users, seed: seed)
    scenario.value = value ?? nil
    scenario.app = app ?? nil
    scenario.responses = responses ?? nil
    scenario.phases = graph.phases
    scenario.existingUsersPhase = graph.existingPhase
    // Value-aware policies weigh the amounts of the `value` section unless they set their own.
    var definitions: [String: ConfigValue] = [:]
    if case .array(let entries)? = top["policies"]?.value {
      for entry in entries {
        if case .string(let name)? = entry["name"]?.value { definitions[name] = entry.configValue }
      }
    }
    scenario.policies = scenario.policies.map {
      scenario.priced($0, definition: definitions[$0.name])
    }
    return scenario
  }

  mutating func readSchemaVersion(_ node: JSONNode, at path: String) {
    let version = ScenarioLoader.formatVersion
    guard case .number(let value, _) = node.value else {
      report(path, node, "must be the number \(version) (the format version), got \(node.typeName)")
      return
    }
    if value != Double(version) {
      report(
        path, node,
        "unsupported format version \(Self.shown(node)); this build reads "
          + "\"schema\": \(version) (see scenarios/README.md)")
    }
  }

  mutating func readHorizon(_ node: JSONNode, at path: String) -> Double? {
    guard let horizon = readDuration(node, at: path, minimum: .positive, example: "\"30d\"") else {
      return nil
    }
    guard horizon <= ScenarioLoader.maximumHorizon else {
      report(
        path, node,
        "must be at most 3650d (10 years), got \(Self.shown(node)); shorten the "
          + "horizon")
      return nil
    }
    return horizon
  }

  /// A seed in 0...2^64-1: a JSON integer, or a string of digits (for values beyond 2^53,
  /// which a JSON number cannot carry exactly through most tools).
  mutating func readSeed(_ node: JSONNode, at path: String) -> UInt64? {
    let fix =
      "give a whole number from 0 to 18446744073709551615 (a string of digits for large ones)"
    switch node.value {
    case .number(let value, let literal):
      if literal.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) {
        if let seed = UInt64(literal) { return seed }
      } else if value >= 0, value == value.rounded(), value <= 9_007_199_254_740_992 {
        return UInt64(value)
      }
    case .string(let text):
      if let seed = ScenarioFields.seed(digits: text) { return seed }
    default:
      break
    }
    report(path, node, "invalid seed \(Self.shown(node)); \(fix)")
    return nil
  }

  mutating func readPopulation(_ node: JSONNode, at path: String, horizon: Double?) -> Population? {
    let keys: [_Key] = [
      .required("new_user_share", "0.3"),
      .required("install_window", "{\"start\": \"0s\", \"end\": \"25d\"}"),
      .required("subscriber_share", "0.4"),
      .required("returning_subscriber_share", "0.1"),
      .optional("onboarding_share"),
    ]
    guard let object = readObject(node, at: path, keys: keys, what: "who the users are") else {
      return nil
    }
    var onboardingShare = 1.0
    if let shareNode = object["onboarding_share"] {
      guard let share = readProbability(shareNode, at: object.path("onboarding_share")) else {
        return nil
      }
      onboardingShare = share
    }
    let newUserShare = field(object, "new_user_share") { $0.readProbability($1, at: $2) }
    let window = field(object, "install_window") {
      $0.readInstallWindow($1, at: $2, horizon: horizon)
    }
    let subscriberShare = field(object, "subscriber_share") { $0.readProbability($1, at: $2) }
    let returning = field(object, "returning_subscriber_share") { $0.readProbability($1, at: $2) }
    guard let newUserShare, let window, let subscriberShare, let returning else { return nil }
    var population = Population(
      newUserShare: newUserShare, installWindow: window.range, subscriberShare: subscriberShare,
      returningSubscriberShare: returning)
    population.installWeights = window.weights
    population.onboardingShare = onboardingShare
    return population
  }

  mutating func readInstallWindow(
    _ node: JSONNode, at path: String, horizon: Double?
  ) -> (range: ClosedRange<Double>, weights: [Double])? {
    let keys: [_Key] = [
      .required("start", "\"0s\""), .required("end", "\"25d\""), .optional("weights"),
    ]
    guard let object = readObject(node, at: path, keys: keys, what: "when new users install") else {
      return nil
    }
    let start = field(object, "start") {
      $0.readDuration($1, at: $2, minimum: .zero, example: "\"0s\"")
    }
    let end = field(object, "end") {
      $0.readDuration($1, at: $2, minimum: .zero, example: "\"25d\"")
    }
    guard let start, let end else { return nil }
    guard start < end else {
      report(
        object.path("end"), object["end"],
        "end (\(DurationText.format(end))) must be after start (\(DurationText.format(start))); "
          + "new users install at a time uniform in [start, end)")
      return nil
    }
    if let horizon, end > horizon {
      report(
        object.path("end"), object["end"],
        "must not be after the horizon (\(DurationText.format(horizon))), got "
          + "\(Self.shown(object["end"]!)); new users install within the horizon")
      return nil
    }
    var weights: [Double] = []
    if let weightsNode = object["weights"] {
      guard let read = readInstallWeights(weightsNode, at: object.path("weights")) else {
        return nil
      }
      weights = read
    }
    return (start...end, weights)
  }

  /// `population.install_window.weights`: relative arrival rates of equal consecutive parts of
  /// the window; non-negative, finite, not all 0, at most ``maximumInstallParts``.
  mutating func readInstallWeights(_ node: JSONNode, at path: String) -> [Double]? {
    let example = "[1, 2, 4] (arrivals doubling from one third of the window to the next)"
    guard case .array(let elements) = node.value, !elements.isEmpty,
      elements.count <= Self.maximumInstallParts
    else {
      report(
        path, node,
        "must be a non-empty array of at most \(Self.maximumInstallParts) numbers; write "
          + "relative arrival rates, one per equal part of the window, such as \(example)")
      return nil
    }
    return readRelativeWeights(
      elements, of: node, at: path,
      element: "a relative arrival rate, at most 1e12 (0 for a part without installs)",
      allZero: "must have at least one part above 0 (no user could install); write e.g. "
        + example)
  }

  /// The most parts `install_window.weights` may give.
  static let maximumInstallParts = 1000

  mutating func readSessions(_ node: JSONNode, at path: String) -> Sessions? {
    let keys: [_Key] = [
      .required("gap", "{\"lognormal\": {\"median\": \"10h\", \"sigma\": 1.0}}"),
      .optional("background_termination_probability"),
      .optional("background_survival"),
      .optional("delivery"),
      .required("fetch_delay", "{\"lognormal\": {\"median\": \"1.5s\", \"sigma\": 0.5}}"),
      .optional("leave_odds_by_position"),
      .optional("churn_probability"),
      .optional("daily_rhythm"),
    ]
    guard let object = readObject(node, at: path, keys: keys, what: "how users come and go") else {
      return nil
    }
    let gap = field(object, "gap") {
      $0.readDistribution(
        $1, at: $2, example: "{\"lognormal\": {\"median\": \"10h\", \"sigma\": 1.0}}")
    }
    let termination = readTermination(object)
    let delivery = field(object, "delivery") {
      $0.readEnumeration(
        $1, at: $2, cases: DeliveryMode.allCases.map(\.rawValue), what: "delivery mode")
    }.flatMap(DeliveryMode.init(rawValue:))
    let deliveryOrDefault = object.has("delivery") ? delivery : DeliveryMode.defaultMode
    let fetchDelay = field(object, "fetch_delay") {
      $0.readDistribution(
        $1, at: $2, example: "{\"lognormal\": {\"median\": \"1.5s\", \"sigma\": 0.5}}")
    }
    guard let gap, let termination, let delivery = deliveryOrDefault, let fetchDelay else {
      return nil
    }
    var sessions = Sessions(
      gap: gap, backgroundTerminationProbability: termination.probability,
      backgroundSurvival: termination.survival, delivery: delivery, fetchDelay: fetchDelay)
    if let oddsNode = object["leave_odds_by_position"] {
      guard let odds = readLeaveOdds(oddsNode, at: object.path("leave_odds_by_position")) else {
        return nil
      }
      sessions.leaveOddsByPosition = odds
    }
    if let churnNode = object["churn_probability"] {
      let at = object.path("churn_probability")
      guard let churn = readProbability(churnNode, at: at) else { return nil }
      guard churn < 1 else {
        report(
          at, churnNode,
          "must be below 1, got 1; with 1 no user would ever come back after a first session "
            + "(write e.g. 0.02: 2% of stays in the background end in leaving for good)")
        return nil
      }
      sessions.churnProbability = churn
    }
    if let rhythmNode = object["daily_rhythm"] {
      guard let rhythm = readDailyRhythm(rhythmNode, at: object.path("daily_rhythm")) else {
        return nil
      }
      sessions.dailyRhythm = rhythm
    }
    return sessions
  }

  /// `sessions.leave_odds_by_position`: a non-empty array of positive, finite odds factors.
  mutating func readLeaveOdds(_ node: JSONNode, at path: String) -> [Double]? {
    let example = "[1, 1.4, 2.2] (the odds of leaving after the 1st, 2nd, 3rd and later screens)"
    guard case .array(let elements) = node.value, !elements.isEmpty,
      elements.count <= Self.maximumLeavePositions
    else {
      report(
        path, node,
        "must be a non-empty array of at most \(Self.maximumLeavePositions) odds factors, such as "
          + example)
      return nil
    }
    var odds: [Double] = []
    for (position, element) in elements.enumerated() {
      guard case .number(let value, _) = element.value, value.isFinite, value > 0, value <= 1e6
      else {
        report(
          _JSONPath.element(path, position), element,
          "must be a positive number (an odds factor, at most 1e6; 1 leaves the screen's "
            + "background probability as it is), got \(element.typeName == "a number" ? "a number out of range" : element.typeName)"
        )
        return nil
      }
      odds.append(value)
    }
    return odds
  }

  /// The longest `leave_odds_by_position` a scenario may give.
  static let maximumLeavePositions = 1000

  /// Exactly one of `background_termination_probability` (a constant share of stays) and
  /// `background_survival` (a distribution of how long a suspended process lives).
  mutating func readTermination(
    _ object: _Object
  ) -> (probability: Double, survival: DistributionSpec?)? {
    let example = "{\"lognormal\": {\"median\": \"2h\", \"sigma\": 1.2}}"
    switch (object.has("background_termination_probability"), object.has("background_survival")) {
    case (true, true):
      report(
        object.path("background_survival"), object["background_survival"],
        "give either background_survival or background_termination_probability, not both; "
          + "remove one")
      return nil
    case (false, false):
      report(
        object.path, object.node,
        "missing key 'background_survival'; add \"background_survival\": \(example) (or a "
          + "constant \"background_termination_probability\": 0.5)")
      return nil
    case (true, false):
      let probability = field(object, "background_termination_probability") {
        $0.readProbability($1, at: $2)
      }
      return probability.map { ($0, nil) }
    case (false, true):
      let survival = field(object, "background_survival") {
        $0.readDistribution($1, at: $2, example: example)
      }
      return survival.map { (0, $0) }
    }
  }

  mutating func readOnboarding(_ node: JSONNode, at path: String) -> Onboarding? {
    let keys: [_Key] = [
      .required("quit_after_sheet_probability", "0.25"),
      .required("never_return_after_leaving_probability", "0.5"),
    ]
    guard let object = readObject(node, at: path, keys: keys, what: "what interruptions cost")
    else {
      return nil
    }
    let quit = field(object, "quit_after_sheet_probability") { $0.readProbability($1, at: $2) }
    let never = field(object, "never_return_after_leaving_probability") {
      $0.readProbability($1, at: $2)
    }
    guard let quit, let never else { return nil }
    return Onboarding(quitAfterSheetProbability: quit, neverReturnAfterLeavingProbability: never)
  }

  mutating func readScene(_ node: JSONNode, at path: String) -> SceneModel? {
    let keys: [_Key] = [
      .required("activation_delay", "{\"uniform\": {\"low\": \"100ms\", \"high\": \"600ms\"}}"),
      .required("display_failure_probability", "0.01"),
    ]
    guard let object = readObject(node, at: path, keys: keys, what: "the window scene") else {
      return nil
    }
    let delay = field(object, "activation_delay") {
      $0.readDistribution(
        $1, at: $2, example: "{\"uniform\": {\"low\": \"100ms\", \"high\": \"600ms\"}}")
    }
    let failure = field(object, "display_failure_probability") { $0.readProbability($1, at: $2) }
    guard let delay, let failure else { return nil }
    return SceneModel(activationDelay: delay, displayFailureProbability: failure)
  }

  /// Reads the `policies` array through ``PolicyCatalog`` and checks that names are unique.
  ///
  /// `"all"` (``PolicyCatalog/allPresets``), as the whole value or as one entry of the array,
  /// stands for every preset in catalog order; in an array it leaves out the presets the array
  /// names itself, so `["all", {"name": "mine", "preset": "deadline-aware"}]` compares every
  /// preset and one custom policy.
  ///
  /// Returns the policies read, whether all were valid, and every name the file gives a policy
  /// (also of invalid ones, so a baseline naming one is not reported as a second problem).
  mutating func readPolicies(
    _ node: JSONNode, at path: String
  ) -> (policies: [NamedPolicy], valid: Bool, names: [String])? {
    if case .string(PolicyCatalog.allPresets) = node.value {
      let policies = PolicyCatalog.presets.map {
        NamedPolicy(name: $0.name, configuration: $0.configuration)
      }
      return (policies, true, policies.map(\.name))
    }
    guard case .array(let entries) = node.value, !entries.isEmpty else {
      report(
        path, node,
        "must be \"\(PolicyCatalog.allPresets)\" (every preset) or a non-empty array of "
          + "policies, got " + (node.typeName == "an array" ? "an empty one" : node.typeName)
          + "; such as [\"storekit-auto\", \"deadline-aware\"] (presets: "
          + PolicyCatalog.presetNames.joined(separator: ", ") + ")")
      return nil
    }
    var policies: [NamedPolicy] = []
    var names: [String] = []
    var firstPath: [String: String] = [:]
    var valid = true
    let named = Set(
      entries.compactMap { entry -> String? in
        if case .string(let name) = entry.value { return name }
        return nil
      })
    for (index, entry) in entries.enumerated() {
      let entryPath = _JSONPath.element(path, index)
      if case .string(PolicyCatalog.allPresets) = entry.value {
        if firstPath[PolicyCatalog.allPresets] != nil {
          report(
            entryPath, entry,
            "\"\(PolicyCatalog.allPresets)\" is listed twice (also "
              + "\(firstPath[PolicyCatalog.allPresets]!)); list it once")
          valid = false
          continue
        }
        firstPath[PolicyCatalog.allPresets] = entryPath
        for preset in PolicyCatalog.presets where !named.contains(preset.name) {
          names.append(preset.name)
          firstPath[preset.name] = entryPath
          policies.append(NamedPolicy(name: preset.name, configuration: preset.configuration))
        }
        continue
      }
      switch PolicyCatalog.definition(
        from: entry.configValue, at: entryPath, suggestionBudget: &suggestionBudget)
      {
      case .success(let policy):
        names.append(policy.name)
        if let first = firstPath[policy.name] {
          report(
            entryPath, entry,
            "duplicate policy name '\(policy.name)' (also \(first)); give each "
              + "policy a unique name")
          valid = false
        } else {
          firstPath[policy.name] = entryPath
          policies.append(policy)
        }
      case .failure(let issues):
        valid = false
        if case .string(let name) = entry.value {
          names.append(name)
        } else if case .string(let name)? = entry["name"]?.value {
          names.append(name)
        }
        var locator = _IssueLocator(entry: entry, path: entryPath)
        for issue in issues.issues {
          problems.append(
            ScenarioErrors.Problem(
              path: issue.path, message: issue.message,
              position: locator.node(at: issue.path)?.position ?? entry.position))
        }
      }
    }
    return (policies, valid, names)
  }

  /// The baseline: as given (one of the policies), else `storekit-auto` if compared, else the
  /// first policy.
  mutating func readBaseline(
    _ node: JSONNode?, at path: String,
    list: (policies: [NamedPolicy], valid: Bool, names: [String])?
  ) -> String? {
    guard let node else {
      guard let list, list.valid else { return nil }
      return list.names.contains("storekit-auto") ? "storekit-auto" : list.names.first
    }
    guard let name = readString(node, at: path, example: "\"storekit-auto\"") else { return nil }
    guard let names = list?.names else { return nil }
    guard names.contains(name) else {
      let suggestion = suggestion(for: name, in: names).map { "did you mean '\($0)'? " } ?? ""
      report(
        path, node,
        "'\(name)' is not one of the policies; \(suggestion)the baseline must be one "
          + "of: \(names.filter(NameRule.isValid).joined(separator: ", "))")
      return nil
    }
    return name
  }
}
