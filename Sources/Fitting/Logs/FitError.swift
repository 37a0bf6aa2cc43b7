import Simulation

/// Bad input to `deferral-sim fit`: a log line or a map key that cannot be used, with where
/// it is and how to fix it. The command-line tool prints ``description`` and exits with 2.
public struct FitInputError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The file as the user named it.
  public var file: String
  /// The 1-based line of a log, or 0 when the problem is not on one line.
  public var line: Int
  /// A JSON path in a map file (`$.screens.home`), or empty.
  public var path: String
  /// What is wrong, then `; ` and how to fix it.
  public var message: String

  public init(file: String, line: Int = 0, path: String = "", message: String) {
    self.file = file
    self.line = line
    self.path = path
    self.message = message
  }

  /// `FILE:LINE: message`, `FILE: $.path: message` or `FILE: message`: one line, through
  /// ``TerminalText/quoted(_:limit:)`` (a log's contents echoed in it cannot forge a line).
  public var description: String {
    let text: String
    if line > 0 {
      text = "\(file):\(line): \(message)"
    } else if !path.isEmpty {
      text = "\(file): \(path): \(message)"
    } else {
      text = "\(file): \(message)"
    }
    return TerminalText.quoted(text, limit: TerminalText.lineLimit)
  }
}
