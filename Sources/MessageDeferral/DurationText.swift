/// Durations as people write them in scenario and policy files: `"250ms"`, `"45s"`, `"3m"`,
/// `"12h"`, `"3d"`, decimals allowed (`"1.5h"`), or a plain number of seconds.
public enum DurationText {
  /// Units and their length in seconds, in the order error messages list them.
  public static let units: [(suffix: String, seconds: Double)] = [
    ("ms", 0.001), ("s", 1), ("m", 60), ("h", 3600), ("d", 86400),
  ]

  /// Seconds for a duration string, or a message saying what is wrong and how to fix it.
  public static func seconds(_ text: String) -> Result<Double, ConfigIssue> {
    let trimmed = text.filter { $0 != " " }
    // "ms" must be tried before "m" and "s".
    for (suffix, scale) in units.sorted(by: { $0.suffix.count > $1.suffix.count })
    where trimmed.hasSuffix(suffix) {
      let number = trimmed.dropLast(suffix.count)
      guard let value = Double(number), value.isFinite, !number.isEmpty,
        number.allSatisfy({ $0.isNumber || $0 == "." })
      else {
        return .failure(
          ConfigIssue(
            path: "",
            message: "'\(text)' is not a duration; write a number and a unit, e.g. \"45s\""
          ))
      }
      return .success(value * scale)
    }
    let valid = units.map(\.suffix).joined(separator: ", ")
    return .failure(
      ConfigIssue(
        path: "",
        message: "'\(text)' has no valid unit; use one of \(valid) (e.g. \"12h\"), "
          + "or a number of seconds"))
  }

  /// The shortest exact text for `seconds` in the largest whole unit (`43200` → `"12h"`).
  public static func text(_ seconds: Double) -> String {
    for (suffix, scale) in units.reversed() {
      let value = seconds / scale
      if value >= 1, value == value.rounded(), value < 1e15 { return "\(Int(value))\(suffix)" }
    }
    return "\(seconds)s"
  }
}
