/// Durations as scenario and policy files write them: a non-negative decimal number and a
/// unit, with nothing in between: `"250ms"`, `"45s"`, `"1.5h"`, `"3d"`.
///
/// Units: `ms` (milliseconds), `s`, `m` (minutes), `h`, `d` (days of 86 400 s). No sign, no
/// exponent, no space, no weeks or months (write `"14d"`, `"30d"`). Scenario files also
/// accept a plain JSON number of seconds; that is the loader's business, not this type's.
public enum DurationText {
  /// The units, each with its length in seconds, in the order error messages list them.
  public static let units: [(name: String, seconds: Double)] = [
    ("ms", 0.001), ("s", 1), ("m", 60), ("h", 3600), ("d", 86_400),
  ]

  /// `ms, s, m, h, d`.
  public static var unitList: String { units.map(\.name).joined(separator: ", ") }

  /// Reads a duration in seconds.
  ///
  /// The result is finite and ≥ 0; it may be 0 (`"0s"`): whether 0 is allowed is up to the
  /// field. The thrown message says what is wrong and how to fix it.
  public static func seconds(in text: String) throws(DurationTextError) -> Double {
    let scalars = Array(text.unicodeScalars)
    let quoted = "\"\(text)\""
    guard !scalars.isEmpty else {
      throw DurationTextError("empty duration; write a number and a unit, such as \"45s\"")
    }
    if scalars[0] == "-" {
      throw DurationTextError(
        "\(quoted) is negative; write a duration of 0 or more, such as \"\(text.dropFirst())\"")
    }
    var end = 0
    while end < scalars.count, ("0"..."9").contains(scalars[end]) { end += 1 }
    let integerDigits = end
    if end < scalars.count, scalars[end] == "." {
      end += 1
      let fractionStart = end
      while end < scalars.count, ("0"..."9").contains(scalars[end]) { end += 1 }
      if end == fractionStart { end = 0 }  // "1." or "1.h": not a number
    }
    guard integerDigits > 0, end > 0 else {
      throw DurationTextError(
        "\(quoted) is not a duration; write a number followed by a unit (\(unitList)), "
          + "such as \"45s\" or \"1.5h\"")
    }
    let number = String(String.UnicodeScalarView(scalars[..<end]))
    let unit = String(String.UnicodeScalarView(scalars[end...]))
    if unit.isEmpty {
      throw DurationTextError(
        "missing unit in \(quoted); add one of \(unitList) (\"\(number)s\"), or write the plain "
          + "number \(number) for seconds")
    }
    guard let multiplier = units.first(where: { $0.name == unit })?.seconds else {
      throw DurationTextError(unknownUnitMessage(unit, number: number, quoted: quoted))
    }
    guard let value = Double(number), (value * multiplier).isFinite else {
      throw DurationTextError("\(quoted) is too large; a duration must be finite")
    }
    return scaled(value, by: multiplier)
  }

  /// `value` units of `length` seconds. Sub-second units divide, so `"9ms"` is 9 / 1000,
  /// exactly the double nearest 0.009 (9 × 0.001 is not).
  static func scaled(_ value: Double, by length: Double) -> Double {
    length < 1 ? value / (1 / length) : value * length
  }

  /// The shortest exact text for a duration: the largest unit that writes it as a number
  /// with at most three decimals that ``seconds(in:)`` reads back as exactly `seconds`
  /// (`259200` → `"3d"`, `5400` → `"1.5h"`, `0.25` → `"250ms"`).
  ///
  /// Does not hold for values that no unit writes exactly in three decimals (for example
  /// 1/3 s): they come out in seconds with Swift's shortest round-trip digits, which read back
  /// exactly, except below 0.1 ms, where Swift writes an exponent (`"1e-05s"`) that
  /// ``seconds(in:)`` rejects.
  public static func format(_ seconds: Double) -> String {
    guard seconds.isFinite, seconds > 0 else { return seconds == 0 ? "0s" : "\(seconds)s" }
    for (name, length) in units.reversed() {
      let inUnit = length < 1 ? seconds * (1 / length) : seconds / length
      let thousandths = (inUnit * 1000).rounded()
      guard inUnit >= 1, thousandths < 1e15 else { continue }
      let text = DurationText.plainNumber(thousandths / 1000) + name
      if (try? Self.seconds(in: text)) == seconds { return text }
    }
    return DurationText.plainNumber(seconds) + "s"
  }

  static func unknownUnitMessage(_ unit: String, number: String, quoted: String) -> String {
    let words: [String: String] = [
      "sec": "s", "secs": "s", "second": "s", "seconds": "s", "min": "m", "mins": "m",
      "minute": "m", "minutes": "m", "hr": "h", "hrs": "h", "hour": "h", "hours": "h",
      "day": "d", "days": "d", "S": "s", "M": "m", "H": "h", "D": "d", "MS": "ms",
    ]
    if unit.hasPrefix(" ") || unit.hasPrefix("\t") {
      return "unexpected space in \(quoted); write the unit right after the number, as in "
        + "\"\(number)\(unit.drop { $0 == " " || $0 == "\t" })\""
    }
    if let short = words[unit] {
      return "unknown unit '\(unit)' in \(quoted); write \"\(number)\(short)\" "
        + "(valid units: \(unitList))"
    }
    if ["w", "week", "weeks", "mo", "month", "months", "y", "year", "years"].contains(unit) {
      return "unknown unit '\(unit)' in \(quoted); write weeks, months and years in days, "
        + "such as \"14d\" or \"30d\" (valid units: \(unitList))"
    }
    return "unknown unit '\(unit)' in \(quoted); valid units: \(unitList)"
  }
}

/// Why a text is not a duration, and how to write it.
public struct DurationTextError: Error, Equatable, Sendable, CustomStringConvertible {
  public var message: String
  public init(_ message: String) { self.message = message }
  public var description: String { message }
}

extension DurationText {
  /// A number as people write it, without a trailing `.0`: `3`, `1.5`, `0.001`.
  public static func plainNumber(_ value: Double) -> String {
    if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
    return "\(value)"
  }
}
