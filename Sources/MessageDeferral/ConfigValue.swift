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

  /// The members of an object; empty for any other value.
  public var objectMembers: [Member] {
    if case .object(let members) = self { return members }
    return []
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

/// One problem found in an input file: where (a JSON path such as
/// `$.policies[2].ceilings.price_increase_consent`, or a line and column) and what, with how
/// to fix it. The one problem type of policies, scenarios, sweeps and studies
/// (`ScenarioErrors.Problem` is this type), so no layer converts one into another.
public struct ConfigIssue: Error, Equatable, Sendable, CustomStringConvertible {
  /// The JSON path of the offending value; empty when the problem concerns the file as a
  /// whole (unreadable, not JSON).
  public var path: String
  /// What is wrong, then `; ` and how to fix it.
  public var message: String
  /// Where in the file the offending value (or the syntax error) is, when known.
  public var position: SourcePosition?

  public init(path: String, message: String, position: SourcePosition? = nil) {
    self.path = path
    self.message = message
    self.position = position
  }

  /// `$.path: message`, or `line L, column C: message` for a syntax error.
  public var description: String {
    if !path.isEmpty { return "\(path): \(message)" }
    if let position { return "\(position): \(message)" }
    return message
  }
}

/// A place in a source text: a 1-based line and a 1-based column.
///
/// Columns count Unicode scalars (characters, as an editor shows them), not bytes: a line
/// `"é": 1` has the colon at column 4. Lines are separated by line feeds (`\n`); a carriage
/// return before it (`\r\n`) is whitespace on the line it ends.
public struct SourcePosition: Hashable, Sendable, Comparable, CustomStringConvertible {
  public var line: Int
  public var column: Int

  public init(line: Int, column: Int) {
    self.line = line
    self.column = column
  }

  /// `line 3, column 14`.
  public var description: String { "line \(line), column \(column)" }

  public static func < (lhs: SourcePosition, rhs: SourcePosition) -> Bool {
    (lhs.line, lhs.column) < (rhs.line, rhs.column)
  }
}

/// Every problem found in a configuration, reported at once.
public struct ConfigIssues: Error, Equatable, Sendable {
  public var issues: [ConfigIssue]
  public init(_ issues: [ConfigIssue]) { self.issues = issues }
}

extension ConfigValue {
  /// The value as JSON text, pretty-printed with two-space indentation, members in order.
  public func jsonText(indentation: String = "") -> String {
    let inner = indentation + "  "
    switch self {
    case .null: return "null"
    case .bool(let flag): return flag ? "true" : "false"
    case .number(let number):
      if number == number.rounded(), abs(number) < 1e15 { return String(Int64(number)) }
      return number.isFinite ? "\(number)" : "null"
    case .string(let text): return Self.quoted(text)
    case .array(let items):
      if items.isEmpty { return "[]" }
      if items.allSatisfy({ if case .string = $0 { true } else { false } }) {
        return "[" + items.map { $0.jsonText() }.joined(separator: ", ") + "]"
      }
      return "[\n" + items.map { inner + $0.jsonText(indentation: inner) }.joined(separator: ",\n")
        + "\n\(indentation)]"
    case .object(let members):
      if members.isEmpty { return "{}" }
      return "{\n"
        + members.map { inner + Self.quoted($0.key) + ": " + $0.value.jsonText(indentation: inner) }
        .joined(separator: ",\n") + "\n\(indentation)}"
    }
  }

  /// A JSON string literal, escaped per RFC 8259.
  public static func quoted(_ text: String) -> String {
    var result = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": result += "\\\""
      case "\\": result += "\\\\"
      case "\n": result += "\\n"
      case "\r": result += "\\r"
      case "\t": result += "\\t"
      case _ where scalar.value < 0x20:
        let hex = String(scalar.value, radix: 16)
        result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: result.unicodeScalars.append(scalar)
      }
    }
    return result + "\""
  }
}
