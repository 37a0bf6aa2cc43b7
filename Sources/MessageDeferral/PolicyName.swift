/// The rule for names that end up in file names, CSV cells and terminal lines: scenario,
/// screen and policy names alike.
public enum NameRule {
  /// The longest name accepted.
  public static let maximumLength = 64

  /// Whether `text` is 1 to 64 ASCII letters, digits, `_`, `-` or `.`, starting with a letter
  /// or digit. So a name can never be a CSV formula (`=`, `+`, `-`, `@` first), carry a
  /// control character or an escape sequence, look like another name through a Unicode
  /// look-alike (`storekit‐auto` with U+2010), or name a path (`/`, `..`).
  public static func isValid(_ text: String) -> Bool {
    let scalars = Array(text.unicodeScalars)
    guard !scalars.isEmpty, scalars.count <= maximumLength else { return false }
    return scalars.enumerated().allSatisfy { index, scalar in
      ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
        || (index > 0 && (scalar == "_" || scalar == "-" || scalar == "."))
    }
  }

  /// What to write when a name breaks the rule.
  public static func fix(example: String) -> String {
    "use 1 to \(maximumLength) letters, digits, '_', '-' or '.', starting with a letter or "
      + "digit, such as \"\(example)\""
  }
}
