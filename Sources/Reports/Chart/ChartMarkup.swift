extension Chart {
  /// `text` made safe for HTML and XML (SVG) text and for attribute values in double or single
  /// quotes: `&`, `<`, `>`, `"` and `'` become entities, and the control characters XML 1.0
  /// forbids (all below U+0020 except tab, line feed and carriage return) become U+FFFD.
  ///
  /// Every name that comes from a user (scenario, policy, screen names, a scenario's
  /// description, the command line) goes through this before it is put in the report.
  ///
  /// - Complexity: O(n) in the length of `text`.
  public static func escape(_ text: String) -> String {
    var result = ""
    result.reserveCapacity(text.utf8.count)
    for scalar in text.unicodeScalars {
      switch scalar {
      case "&": result += "&amp;"
      case "<": result += "&lt;"
      case ">": result += "&gt;"
      case "\"": result += "&quot;"
      case "'": result += "&#39;"
      case "\t", "\n", "\r": result.unicodeScalars.append(scalar)
      default:
        if scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF {
          result += "\u{FFFD}"
        } else {
          result.unicodeScalars.append(scalar)
        }
      }
    }
    return result
  }
}
