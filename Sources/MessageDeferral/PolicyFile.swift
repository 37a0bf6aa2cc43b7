/// The policy file `deferral-sim export-policy` writes and `MessageDeferralStoreKit` loads: one
/// policy, every key written out, with where it came from.
///
///     {
///       "format": "deferral-sim-policy",
///       "format_version": 1,
///       "name": "deadline-aware-value",
///       "policy": { "gate": {...}, "triggers": [...], ... every key of PolicyConfiguration.keys },
///       "provenance": { "tool": "deferral-sim", "tool_version": "0.9.0",
///                       "scenario": "indie-subscription", "scenario_sha256": "…",
///                       "seed": "42", "value_from_scenario": true }
///     }
///
/// `policy` is read by ``PolicyCatalog/definition(from:at:)``, the decoder of a scenario's
/// custom policies, so a file says exactly what a scenario would. A reader refuses a file of
/// another `format`, or of a `format_version` it does not know, naming the key and the fix.
public enum PolicyFile {
  /// The value of `format`.
  public static let format = "deferral-sim-policy"
  /// The version this module writes and reads. A reader refuses any other.
  public static let formatVersion = 1
  /// The top-level keys, in the order they are written.
  public static let keys = ["format", "format_version", "name", "policy", "provenance"]

  /// Where a policy file came from.
  public struct Provenance: Sendable, Equatable {
    /// The `deferral-sim` version that wrote it.
    public var toolVersion: String
    /// The scenario's name, and the SHA-256 of its file (hex), when one was given.
    public var scenario: String?
    public var scenarioSHA256: String?
    /// The run seed of the scenario (decimal text: a seed may not fit a JSON number exactly).
    public var seed: String?
    /// Whether value-aware amounts were filled in from the scenario's `value` section.
    public var valueFromScenario: Bool

    public init(
      toolVersion: String, scenario: String? = nil, scenarioSHA256: String? = nil,
      seed: String? = nil, valueFromScenario: Bool = false
    ) {
      self.toolVersion = toolVersion
      self.scenario = scenario
      self.scenarioSHA256 = scenarioSHA256
      self.seed = seed
      self.valueFromScenario = valueFromScenario
    }
  }

  /// A policy file's content.
  public struct Document: Sendable, Equatable {
    public var policy: NamedPolicy
    public var provenance: Provenance
    public init(policy: NamedPolicy, provenance: Provenance) {
      self.policy = policy
      self.provenance = provenance
    }

    /// The file as a JSON-shaped value (write it with ``ConfigValue/jsonText(indentation:)``).
    public var configValue: ConfigValue {
      let member = ConfigValue.Member.init(key:value:)
      func text(_ value: String?) -> ConfigValue { value.map { .string($0) } ?? .null }
      return .object([
        member("format", .string(PolicyFile.format)),
        member("format_version", .number(Double(PolicyFile.formatVersion))),
        member("name", .string(policy.name)),
        member("policy", policy.configuration.configValue),
        member(
          "provenance",
          .object([
            member("tool", .string("deferral-sim")),
            member("tool_version", .string(provenance.toolVersion)),
            member("scenario", text(provenance.scenario)),
            member("scenario_sha256", text(provenance.scenarioSHA256)),
            member("seed", text(provenance.seed)),
            member("value_from_scenario", .bool(provenance.valueFromScenario)),
          ])),
      ])
    }
  }

  /// Reads a policy file's content; every problem comes back with its JSON path and a fix.
  public static func read(_ value: ConfigValue) -> Result<Document, ConfigIssues> {
    var issues: [ConfigIssue] = []
    func issue(_ path: String, _ message: String) {
      issues.append(ConfigIssue(path: path, message: message))
    }
    guard case .object(let members) = value else {
      return .failure(
        ConfigIssues([
          ConfigIssue(
            path: "$",
            message: "must be an object, not \(value.typeName); export one with "
              + "'deferral-sim export-policy NAME'")
        ]))
    }
    for member in members where !keys.contains(member.key) {
      issue(
        "$.\(member.key)",
        "unknown key '\(member.key)'; a policy file has only \(keys.joined(separator: ", ")) "
          + "(policy keys go inside 'policy')")
    }
    if value["format"] != .string(format) {
      issue(
        "$.format",
        "must be \"\(format)\"; this is not a file 'deferral-sim export-policy' wrote")
    }
    switch value["format_version"] {
    case .number(let version) where version == Double(formatVersion): break
    case .number(let version) where version > Double(formatVersion):
      issue(
        "$.format_version",
        "version \(ConfigValue.number(version).jsonText()) is newer than this library reads "
          + "(\(formatVersion)); update MessageDeferralStoreKit, or export again with a "
          + "deferral-sim of the same release")
    default:
      issue(
        "$.format_version",
        "must be \(formatVersion); export again with 'deferral-sim export-policy NAME'")
    }
    var name = "shipped-policy"
    if case .string(let text) = value["name"], NameRule.isValid(text) {
      name = text
    } else {
      issue("$.name", "must be the policy's name; " + NameRule.fix(example: "deadline-aware"))
    }
    let provenance = readProvenance(value["provenance"], issue: issue)
    guard case .object(let keys)? = value["policy"] else {
      issue("$.policy", "must be an object with the policy's keys (scenarios/README.md)")
      return .failure(ConfigIssues(issues))
    }
    // The scenario decoder wants a custom policy's own name; the file's name is checked above.
    let definition = ConfigValue.object(
      [ConfigValue.Member(key: "name", value: .string("shipped-policy"))] + keys)
    switch PolicyCatalog.definition(from: definition, at: "$.policy") {
    case .success(let policy):
      guard issues.isEmpty else { return .failure(ConfigIssues(issues)) }
      return .success(
        Document(
          policy: NamedPolicy(name: name, configuration: policy.configuration),
          provenance: provenance))
    case .failure(let found):
      return .failure(ConfigIssues(issues + found.issues))
    }
  }

  static func readProvenance(
    _ value: ConfigValue?, issue: (String, String) -> Void
  ) -> Provenance {
    var provenance = Provenance(toolVersion: "unknown")
    guard let value else { return provenance }
    guard case .object = value else {
      issue("$.provenance", "must be an object, not \(value.typeName)")
      return provenance
    }
    func text(_ key: String) -> String? {
      switch value[key] {
      case .string(let text)?: return text
      case .null?, nil: return nil
      case let other?:
        issue("$.provenance.\(key)", "must be a string or null, not \(other.typeName)")
        return nil
      }
    }
    provenance.toolVersion = text("tool_version") ?? "unknown"
    provenance.scenario = text("scenario")
    provenance.scenarioSHA256 = text("scenario_sha256")
    provenance.seed = text("seed")
    if case .bool(let flag)? = value["value_from_scenario"] { provenance.valueFromScenario = flag }
    return provenance
  }
}
