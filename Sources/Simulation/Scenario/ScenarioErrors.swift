/// Every problem found in one scenario file, reported at once.
///
/// Each problem renders as one line, `FILE: WHERE: what is wrong; how to fix`, where WHERE
/// is a JSON path (`$.screens[2].dwell.lognormal.sigma`) or, when the file is not
/// well-formed JSON, a line and column. The command-line tool prints ``description`` and
/// exits with status 2.
public struct ScenarioErrors: Error, Equatable, Sendable, CustomStringConvertible {
  /// One problem: where and what.
  public struct Problem: Equatable, Sendable, CustomStringConvertible {
    /// The JSON path of the offending value, such as `$.screens[2].transitions.home`;
    /// empty when the problem concerns the file as a whole (unreadable, not JSON).
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

  /// The file as the user named it.
  public var file: String
  /// In file order (by position), problems without a position last.
  public var problems: [Problem]

  public init(file: String, problems: [Problem]) {
    self.file = file
    self.problems = problems
  }

  /// One line per problem: `FILE: $.path: what is wrong; how to fix`.
  public var description: String {
    problems.map { "\(file): \($0)" }.joined(separator: "\n")
  }
}
