import Simulation

/// Timestamps in analytics logs, read without Foundation's slow formatters.
///
/// Accepted: ISO 8601 / RFC 3339 date-times (`2024-05-01T12:00:00Z`,
/// `2024-05-01 12:00:00.123456` (no zone: UTC, as Amplitude writes), `+02:00` or `+0200`
/// offsets, fractions of any length), and epoch numbers told apart by magnitude: below 10^11
/// seconds, from 10^11 milliseconds, from 10^14 microseconds (Firebase), from 10^17
/// nanoseconds. Dates before 1970 are not epoch numbers, so the magnitudes never collide for
/// real logs. What does not hold: leap seconds (`:60`) are refused, as are week dates.
public enum Timestamp {
  /// Seconds since 1970-01-01T00:00:00Z, or `nil` when `text` is not a timestamp.
  public static func parse(_ text: ArraySlice<UInt8>) -> Double? {
    var bytes = text
    while let first = bytes.first, first == 0x20 || first == 0x22 { bytes.removeFirst() }
    while let last = bytes.last, last == 0x20 || last == 0x22 { bytes.removeLast() }
    guard !bytes.isEmpty else { return nil }
    if bytes.count > 4, bytes[bytes.startIndex + 4] == UInt8(ascii: "-") {
      return iso(bytes)
    }
    return epoch(bytes)
  }

  static func epoch(_ bytes: ArraySlice<UInt8>) -> Double? {
    guard let value = Double(String(decoding: bytes, as: UTF8.self)), value.isFinite else {
      return nil
    }
    let magnitude = abs(value)
    if magnitude >= 1e17 { return value / 1e9 }
    if magnitude >= 1e14 { return value / 1e6 }
    if magnitude >= 1e11 { return value / 1e3 }
    return value
  }

  static func iso(_ bytes: ArraySlice<UInt8>) -> Double? {
    var index = bytes.startIndex
    func digits(_ count: Int) -> Int? {
      var value = 0
      for _ in 0..<count {
        guard index < bytes.endIndex else { return nil }
        let byte = bytes[index]
        guard byte >= 0x30, byte <= 0x39 else { return nil }
        value = value * 10 + Int(byte - 0x30)
        index += 1
      }
      return value
    }
    func expect(_ character: Character) -> Bool {
      guard index < bytes.endIndex, bytes[index] == character.asciiValue! else { return false }
      index += 1
      return true
    }
    guard let year = digits(4), expect("-"), let month = digits(2), expect("-"),
      let day = digits(2), (1...12).contains(month), (1...daysIn(month, year)).contains(day)
    else { return nil }
    var seconds = Double(daysFromCivil(year, month, day)) * 86400
    guard index < bytes.endIndex else { return seconds }
    guard bytes[index] == UInt8(ascii: "T") || bytes[index] == UInt8(ascii: " ") else {
      return nil
    }
    index += 1
    guard let hour = digits(2), expect(":"), let minute = digits(2), hour < 24, minute < 60 else {
      return nil
    }
    seconds += Double(hour * 3600 + minute * 60)
    if expect(":") {
      guard let second = digits(2), second < 60 else { return nil }
      seconds += Double(second)
      if index < bytes.endIndex,
        bytes[index] == UInt8(ascii: ".") || bytes[index] == UInt8(ascii: ",")
      {
        index += 1
        var scale = 0.1
        var fraction = 0.0
        var any = false
        while index < bytes.endIndex, bytes[index] >= 0x30, bytes[index] <= 0x39 {
          fraction += Double(bytes[index] - 0x30) * scale
          scale /= 10
          index += 1
          any = true
        }
        guard any else { return nil }
        seconds += fraction
      }
    }
    guard index < bytes.endIndex else { return seconds }
    if bytes[index] == UInt8(ascii: "Z") || bytes[index] == UInt8(ascii: "z") {
      index += 1
    } else if bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
      let sign = bytes[index] == UInt8(ascii: "+") ? 1.0 : -1.0
      index += 1
      guard let offsetHours = digits(2) else { return nil }
      _ = expect(":")
      // Real offsets run from -12:00 to +14:00; `+99:99` is a typo, not a time.
      guard let offsetMinutes = digits(2), offsetMinutes < 60,
        offsetHours * 60 + offsetMinutes <= 14 * 60
      else { return nil }
      seconds -= sign * Double(offsetHours * 3600 + offsetMinutes * 60)
    } else if Array(bytes[index...]) == Array(" UTC".utf8) {
      index = bytes.endIndex
    }
    return index == bytes.endIndex ? seconds : nil
  }

  static func daysIn(_ month: Int, _ year: Int) -> Int {
    switch month {
    case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
    case 4, 6, 9, 11: 30
    default: 31
    }
  }

  /// Days from 1970-01-01 to the given civil date (Howard Hinnant's algorithm).
  static func daysFromCivil(_ year: Int, _ month: Int, _ day: Int) -> Int {
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yearOfEra = y - era * 400
    let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146097 + dayOfEra - 719468
  }
}
