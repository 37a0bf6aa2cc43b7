import MessageDeferral

/// The field rules every input file shares: a scenario, a sweep, a robustness study, a partial
/// result. One rule each for known keys, whole numbers and seeds, so a value a scenario refuses
/// is refused everywhere with the same message, and one a scenario takes is taken everywhere.
///
/// Each reader appends what is wrong to `problems` (path, message with its fix, position) and
/// returns `nil`; otherwise it returns the value and appends nothing.
public enum ScenarioFields {
  /// Seconds east of UTC from `+HH:MM` / `-HH:MM` (`nil`: not an offset of -12:00 to +14:00):
  /// a daily rhythm's `utc_offset` and a fit map's.
  package static func utcOffset(_ text: String) -> Double? {
    let bytes = Array(text.utf8)
    guard bytes.count == 6, bytes[0] == UInt8(ascii: "+") || bytes[0] == UInt8(ascii: "-"),
      bytes[3] == UInt8(ascii: ":"),
      let hours = Int(String(decoding: bytes[1...2], as: UTF8.self)),
      let minutes = Int(String(decoding: bytes[4...5], as: UTF8.self)), minutes < 60
    else { return nil }
    let sign = bytes[0] == UInt8(ascii: "+") ? 1.0 : -1.0
    let total = hours * 60 + minutes
    guard sign > 0 ? total <= 14 * 60 : total <= 12 * 60 else { return nil }
    return sign * Double(total * 60)
  }

  /// A seed written as text: one or more ASCII digits, at most 18446744073709551615. No sign,
  /// no spaces, no other base (`"+5"`, `" 5"` and `"0x5"` are not seeds).
  public static func seed(digits text: String) -> UInt64? {
    guard !text.isEmpty,
      text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") })
    else { return nil }
    return UInt64(text)
  }

  /// A seed in 0...2^64-1: a JSON integer, or a string of ``seed(digits:)``.
  public static func seed(
    _ node: JSONNode, at path: String, problems: inout [ScenarioErrors.Problem]
  ) -> UInt64? {
    var decoder = _ScenarioDecoder()
    defer { problems += decoder.problems }
    return decoder.readSeed(node, at: path)
  }

  /// A JSON number that is a whole number within `bounds` (`1e3` is 1000); `what` names it
  /// in the fix ("a number of users").
  public static func integer(
    _ node: JSONNode, at path: String, bounds: ClosedRange<Int>, what: String,
    problems: inout [ScenarioErrors.Problem]
  ) -> Int? {
    var decoder = _ScenarioDecoder()
    defer { problems += decoder.problems }
    return decoder.readInteger(node, at: path, bounds: bounds, what: what)
  }

  /// Checks an object's keys as a scenario's are checked: each of `keys` at most once, no
  /// other (an unknown key gets the closest valid one). Appends a problem when `node` is not
  /// an object; `what` then names what it should be.
  public static func checkKeys(
    _ node: JSONNode, at path: String, keys: [String], what: String = "",
    problems: inout [ScenarioErrors.Problem]
  ) {
    var decoder = _ScenarioDecoder()
    _ = decoder.readObject(node, at: path, keys: keys.map(_Key.optional), what: what)
    problems += decoder.problems
  }

  /// The users and replications of a run, as a scenario's top level reads them.
  public static func users(
    _ node: JSONNode, at path: String, problems: inout [ScenarioErrors.Problem]
  ) -> Int? {
    integer(
      node, at: path, bounds: ScenarioLoader.userBounds, what: "a number of users",
      problems: &problems)
  }

  /// See ``users(_:at:problems:)``.
  public static func replications(
    _ node: JSONNode, at path: String, problems: inout [ScenarioErrors.Problem]
  ) -> Int? {
    integer(
      node, at: path, bounds: ScenarioLoader.replicationBounds,
      what: "a number of replications (at least 2, for a confidence interval)",
      problems: &problems)
  }
}
