/// A policy with the name it is reported under.
public struct NamedPolicy: Equatable, Sendable {
  public var name: String
  public var configuration: PolicyConfiguration
  public init(name: String, configuration: PolicyConfiguration) {
    self.name = name
    self.configuration = configuration
  }
}

/// The built-in presets and the reading of policy definitions from scenario files.
public enum PolicyCatalog {
  /// A preset: its name, a one-line description, and its configuration.
  public struct Preset: Sendable {
    public var name: String
    public var summary: String
    public var configuration: PolicyConfiguration
  }

  /// The presets, in the order DESIGN §3 lists them, each older SDK release or weaker
  /// assumption after the preset it varies.
  public static let presets: [Preset] = [
    Preset(
      name: "storekit-auto",
      summary: "StoreKit's default: shown on delivery over whatever screen, once a scene is active",
      configuration: .storeKitAuto),
    Preset(
      name: "screen-gate",
      summary: "The article's StoreMessageCoordinator as written: per-screen canPresent table",
      configuration: .screenGate),
    Preset(
      name: "screen-gate-ceiling",
      summary: "screen-gate plus a 12 h consent ceiling timed from in-process arrival",
      configuration: .screenGateCeiling),
    Preset(
      name: "adapty-manual",
      summary: "Adapty storeMessagesHandling .manual: one by one at home, de-duplicated",
      configuration: .adaptyManual),
    Preset(
      name: "revenuecat-manual",
      summary: "RevenueCat 5.6+ manual: all at home, shown ones removed, failed ones kept",
      configuration: .revenueCatManual),
    Preset(
      name: "revenuecat-manual-legacy",
      summary: "RevenueCat 4.27-5.5 manual: all at home, then removeAll(); no win-back type",
      configuration: .revenueCatManualLegacy),
    Preset(
      name: "openiap",
      summary:
        "OpenIAP: one at a time on delivery, retry 0.5 s doubling to 2 s; only with a "
        + "billing-issue listener registered, else as storekit-auto",
      configuration: .openIAP),
    Preset(
      name: "never",
      summary: "A listener that never displays: the worst case for consent",
      configuration: .never),
    Preset(
      name: "deadline-aware",
      summary: "Ours: calm screens; an urgent consent (deadline near, user may not return) at once",
      configuration: .deadlineAware),
    Preset(
      name: "deadline-aware-value",
      summary: "deadline-aware weighing the expected lost renewal against the screen's cost",
      configuration: .deadlineAwareValue),
    Preset(
      name: "deadline-aware-v1",
      summary: "Ours, first version: natural breaks, one sheet per break, persisted ceilings",
      configuration: .deadlineAwareV1),
    Preset(
      name: "deadline-blind",
      summary: "deadline-aware without the renewal date: ceilings alone force consent",
      configuration: .deadlineBlind),
  ]

  /// The preset names, in order.
  public static let presetNames = presets.map(\.name)

  /// The preset with this name.
  public static func preset(named name: String) -> Preset? {
    presets.first { $0.name == name }
  }

  /// Reads one entry of a scenario's `policies` array: a preset name (a string), or an object
  /// defining a custom policy: `name` (required), `preset` (optional: the preset it starts
  /// from; otherwise every key starts from ``PolicyConfiguration``'s defaults), then any keys
  /// of ``PolicyConfiguration/keys`` as overrides.
  ///
  /// Returns every problem found, each with its JSON path under `path`.
  public static func definition(
    from value: ConfigValue, at path: String
  )
    -> Result<NamedPolicy, ConfigIssues>
  {
    var suggestionBudget = defaultSuggestionBudget
    return definition(from: value, at: path, suggestionBudget: &suggestionBudget)
  }

  /// The spelling comparisons ``definition(from:at:)`` may spend on "did you mean" suggestions.
  public static let defaultSuggestionBudget = 20_000

  /// Reads one policy entry as ``definition(from:at:)`` does, spending `suggestionBudget` on
  /// "did you mean" suggestions for unknown names.
  ///
  /// Each suggestion costs one unit per candidate name compared; once the budget is spent, and
  /// for names longer than 64 bytes (no typo), messages list the valid names instead. A reader
  /// of many definitions (a scenario file) passes one budget to all of them, so the work on
  /// hostile input stays linear in its size.
  public static func definition(
    from value: ConfigValue, at path: String, suggestionBudget: inout Int
  )
    -> Result<NamedPolicy, ConfigIssues>
  {
    var reader = _ConfigReader(issues: [], suggestionBudget: suggestionBudget)
    defer { suggestionBudget = reader.suggestionBudget }
    switch value {
    case .string(let name):
      if let preset = preset(named: name) {
        return .success(NamedPolicy(name: name, configuration: preset.configuration))
      }
      reader.unknownName(name, at: path, what: "policy", valid: presetNames)
      return .failure(ConfigIssues(reader.issues))
    case .object(let members):
      var configuration = PolicyConfiguration()
      var name: String?
      if let nameValue = value["name"] {
        if let text = reader.string(nameValue, at: "\(path).name") {
          if !NameRule.isValid(text) {
            let shown = text.count > 40 ? String(text.prefix(40)) + "..." : text
            reader.issue(
              at: "\(path).name",
              "invalid policy name \(String(reflecting: shown)); "
                + NameRule.fix(example: "my-policy"))
          } else if preset(named: text) != nil {
            reader.issue(
              at: "\(path).name",
              "'\(text)' is a preset's name; give the custom policy its own name")
          } else {
            name = text
          }
        }
      } else {
        reader.issue(at: path, "missing key 'name'; a custom policy needs a name")
      }
      if let presetValue = value["preset"],
        let presetName = reader.string(presetValue, at: "\(path).preset")
      {
        if let base = preset(named: presetName) {
          configuration = base.configuration
        } else {
          reader.unknownName(presetName, at: "\(path).preset", what: "preset", valid: presetNames)
        }
      }
      configuration.apply(members, at: path, reader: &reader)
      if reader.issues.isEmpty, let name {
        return .success(NamedPolicy(name: name, configuration: configuration))
      }
      return .failure(ConfigIssues(reader.issues))
    default:
      reader.issue(
        at: path,
        "must be a preset name (\(presetNames.joined(separator: ", "))) or an object defining a "
          + "policy, not \(value.typeName)")
      return .failure(ConfigIssues(reader.issues))
    }
  }
}
