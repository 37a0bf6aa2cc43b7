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
  /// The presets, in the order DESIGN §3 lists them.
  public static let presetNames = [
    "storekit-auto", "screen-gate", "screen-gate-ceiling", "adapty-manual",
    "revenuecat-manual", "openiap", "never", "deadline-aware",
  ]

  /// Reads one entry of a scenario's `policies` array: a preset name (a string), or an object
  /// defining a custom policy (`name`, optional `preset` to start from, then overrides).
  ///
  /// Returns every problem found, each with its JSON path under `path`.
  public static func definition(
    from value: ConfigValue, at path: String
  )
    -> Result<NamedPolicy, ConfigIssues>
  {
    guard case .string(let name) = value, presetNames.contains(name) else {
      return .failure(
        ConfigIssues([
          ConfigIssue(
            path: path,
            message: "unknown policy; valid presets: " + presetNames.joined(separator: ", "))
        ]))
    }
    return .success(NamedPolicy(name: name, configuration: PolicyConfiguration()))
  }
}

/// Placeholder while the policies land (issue 3).
public struct PolicyConfiguration: Equatable, Sendable {
  public init() {}
}
