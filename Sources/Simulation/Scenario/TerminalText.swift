/// The one sanitiser for text that reaches a terminal from outside the tool (paths, names, the
/// contents of files): whatever it holds, it can never move the cursor, recolour or retitle
/// the terminal, reorder what is shown (bidirectional controls such as U+202E), or start a
/// line of its own that looks like the tool's (a forged `error:` line).
///
/// Two uses, one rule:
/// - ``visible(_:)`` filters a whole line or message on its way to standard output or standard
///   error: control and invisible formatting characters are shown as `\u{1B}`; line breaks
///   and tabs are kept, because the tool's own messages are made of lines and columns.
/// - ``quoted(_:limit:)`` is for one value from outside inside such a message: the same, and
///   line breaks, tabs and carriage returns escaped too, and the value cut at `limit`
///   characters (a 1 GB line is never echoed whole).
///
/// What does not hold: it does not make text *readable* (a name of combining marks stays
/// odd), and it escapes, never removes, so the user sees what was there.
public enum TerminalText {
  /// How many characters of one value ``quoted(_:limit:)`` keeps by default.
  public static let defaultLimit = 200
  /// How many characters of one whole line of a message (a problem, `FILE: $.path: what`) are
  /// kept: enough for any message the tool writes, never a whole megabyte line of a log.
  public static let lineLimit = 4_000

  /// `text` with every character a terminal would act on shown as `\u{HEX}`, line breaks and
  /// tabs kept.
  public static func visible(_ text: String) -> String {
    escape(text, keepingLines: true, limit: nil)
  }

  /// One value from outside, safe to put inside a message: nothing in it acts on the
  /// terminal, it stays on its line, and it is at most `limit` characters (then `…` and how
  /// many more).
  public static func quoted(_ value: String, limit: Int = defaultLimit) -> String {
    escape(value, keepingLines: false, limit: limit)
  }

  /// Whether the terminal would act on `scalar` rather than show it (besides a line break or a
  /// tab): C0 and C1 controls, DEL, and the invisible formatting characters that reorder or
  /// hide text (bidirectional embeddings, overrides and isolates, marks, zero-width
  /// characters, line and paragraph separators, the byte-order mark).
  public static func acts(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x00...0x1F, 0x7F...0x9F: return true
    case 0x061C, 0x180E: return true
    case 0x200B...0x200F, 0x2028...0x202E, 0x2060...0x206F: return true
    case 0xFEFF, 0xFFF9...0xFFFB: return true
    default: return false
    }
  }

  static func escape(_ text: String, keepingLines: Bool, limit: Int?) -> String {
    var result = ""
    var count = 0
    var scalars = text.unicodeScalars.makeIterator()
    while let scalar = scalars.next() {
      if let limit, count >= limit {
        var more = 1
        while scalars.next() != nil { more += 1 }
        result += "…(\(more) more characters)"
        break
      }
      count += 1
      if keepingLines, scalar == "\n" || scalar == "\t" {
        result.unicodeScalars.append(scalar)
      } else if acts(scalar) {
        result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
      } else {
        result.unicodeScalars.append(scalar)
      }
    }
    return result
  }
}
