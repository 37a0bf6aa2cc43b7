import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The width `run`, `sweep` and `merge` fit their readable output to (``TerminalLayout``).
///
/// In order: `--wide`, no limit; `COLUMNS` when it is a whole number (shells set it but often
/// do not export it); the width of the terminal standard output is, when it is one; else no
/// limit, so output piped to a file or `grep` keeps one line per policy (use `--format csv`
/// for a machine-readable table).
enum TerminalWidth {
  /// The width to fit, or `nil` for no limit.
  static func resolve(
    wide: Bool, environment: [String: String] = ProcessInfo.processInfo.environment,
    terminalColumns: () -> Int? = standardOutputColumns
  ) -> Int? {
    if wide { return nil }
    if let text = environment["COLUMNS"]?.trimmed(), let columns = Int(text), columns > 0 {
      return columns
    }
    return terminalColumns()
  }

  /// The column count of the terminal on standard output, or `nil` when it is not one.
  static func standardOutputColumns() -> Int? {
    guard isatty(STDOUT_FILENO) == 1 else { return nil }
    var size = winsize()
    #if canImport(Glibc)
      let status = ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size)
    #else
      let status = ioctl(STDOUT_FILENO, TIOCGWINSZ, &size)
    #endif
    guard status == 0, size.ws_col > 0 else { return nil }
    return Int(size.ws_col)
  }

  /// The `--wide` flag that `run`, `sweep` and `merge` share.
  static let option = Flag(
    "wide",
    "Print the table in one piece, however wide (default: fit COLUMNS or the terminal).")
}
