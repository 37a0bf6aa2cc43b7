/// A JSON-shaped value, so policies can be defined in scenario files without Foundation.
///
/// The scenario reader (module `Simulation`) parses JSON into this shape; this module reads
/// policy definitions from it. Objects keep their members in file order.
public indirect enum ConfigValue: Equatable, Sendable {
  case null
  case bool(Bool)
  case number(Double)
  case string(String)
  case array([ConfigValue])
  case object([Member])

  /// One `"key": value` pair of an object.
  public struct Member: Equatable, Sendable {
    public var key: String
    public var value: ConfigValue
    public init(key: String, value: ConfigValue) {
      self.key = key
      self.value = value
    }
  }

  /// The value of `key` in an object (the first, if repeated), or `nil`.
  public subscript(key: String) -> ConfigValue? {
    guard case .object(let members) = self else { return nil }
    return members.first { $0.key == key }?.value
  }

  /// A short name of the value's JSON type, for error messages.
  public var typeName: String {
    switch self {
    case .null: "null"
    case .bool: "a boolean"
    case .number: "a number"
    case .string: "a string"
    case .array: "an array"
    case .object: "an object"
    }
  }
}

/// One problem found in a configuration: where (a JSON path such as
/// `$.policies[2].ceilings.price_increase_consent`) and what, with how to fix it.
public struct ConfigIssue: Error, Equatable, Sendable {
  public var path: String
  public var message: String
  public init(path: String, message: String) {
    self.path = path
    self.message = message
  }
}

/// Every problem found in a configuration, reported at once.
public struct ConfigIssues: Error, Equatable, Sendable {
  public var issues: [ConfigIssue]
  public init(_ issues: [ConfigIssue]) { self.issues = issues }
}
