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
      return .success(seconds(value, scale: scale))
    }
    let valid = units.map(\.suffix).joined(separator: ", ")
    return .failure(
      ConfigIssue(
        path: "",
        message: "'\(text)' has no valid unit; use one of \(valid) (e.g. \"12h\"), "
          + "or a number of seconds"))
  }

  /// The shortest exact text for `seconds` in the largest whole unit (`43200` → `"12h"`):
  /// ``seconds(_:)`` reads it back as exactly `seconds`.
  ///
  /// Does not hold below 0.1 ms: such values are written with an exponent (`"1e-05s"`),
  /// which ``seconds(_:)`` does not read.
  public static func text(_ seconds: Double) -> String {
    for (suffix, scale) in units.reversed() {
      let value = scale < 1 ? seconds * (1 / scale) : seconds / scale
      if value >= 1, value == value.rounded(), value < 1e15,
        Self.seconds(value, scale: scale) == seconds
      {
        return "\(Int(value))\(suffix)"
      }
    }
    return "\(seconds)s"
  }

  /// `value` units of `scale` seconds. Sub-second units divide (`9ms` is 9 / 1000, exactly
  /// the double nearest 0.009; 9 × 0.001 is not).
  static func seconds(_ value: Double, scale: Double) -> Double {
    scale < 1 ? value / (1 / scale) : value * scale
  }
}
