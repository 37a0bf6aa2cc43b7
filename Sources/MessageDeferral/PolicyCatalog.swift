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
  /// The word a scenario's `policies` uses for every preset: `"policies": "all"`, or `"all"`
  /// as one entry of the array (every preset the array does not name itself). No custom
  /// policy may take this name.
  public static let allPresets = "all"

  /// The presets, in the README's order: the systems modelled, then ours
  /// (``modelledPresets``, ``ourPresets``), each older SDK release or weaker assumption after
  /// the preset it varies.
  public static let presets: [Preset] = modelledPresets + ourPresets

  /// The README's policy table: a header and one row per preset, in catalog order, from each
  /// preset's ``Preset/doc`` and ``Preset/keysSet`` (`deferral-sim policies --markdown`; a
  /// test keeps the README's copy equal to it).
  public static var markdownTable: String {
    (["| name | what it reproduces | keys it sets |", "| --- | --- | --- |"]
      + presets.map { preset in
        let keys = preset.keysSet.map { "`\($0)`" }.joined(separator: ", ")
        return "| `\(preset.name)` | \(preset.doc) | \(keys.isEmpty ? "—" : keys) |"
      }).joined(separator: "\n")
  }

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
          } else if text == allPresets {
            reader.issue(
              at: "\(path).name",
              "'\(text)' stands for every preset in a scenario's policies; give the custom "
                + "policy another name")
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
