import MessageDeferral

/// Every problem found in one scenario file, reported at once.
///
/// Each problem renders as one line, `FILE: WHERE: what is wrong; how to fix`, where WHERE
/// is a JSON path (`$.screens[2].dwell.lognormal.sigma`) or, when the file is not
/// well-formed JSON, a line and column. The command-line tool prints ``description`` and
/// exits with status 2.
public struct ScenarioErrors: Error, Equatable, Sendable, CustomStringConvertible {
  /// One problem: where and what (the problem type of every input file).
  public typealias Problem = ConfigIssue

  /// The file as the user named it.
  public var file: String
  /// In file order (by position), problems without a position last.
  public var problems: [Problem]

  public init(file: String, problems: [Problem]) {
    self.file = file
    self.problems = problems
  }

  /// One line per problem: `FILE: $.path: what is wrong; how to fix`. Each line goes through
  /// ``TerminalText/quoted(_:limit:)``: a file name or a value echoed from the file can
  /// neither act on the terminal nor break its line into a forged one.
  public var description: String {
    problems.map { TerminalText.quoted("\(file): \($0)", limit: TerminalText.lineLimit) }
      .joined(separator: "\n")
  }
}
