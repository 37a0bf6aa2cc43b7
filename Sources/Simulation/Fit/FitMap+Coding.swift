import Foundation
import MessageDeferral

extension FitMap {
  /// The keys a map file may hold.
  static let keys = [
    "$schema", "format", "name", "screens", "onboarding", "session_timeout", "new_users",
    "session_end_events", "screen_view_event", "subscriber", "policy", "window", "screen_field",
  ]

  /// Reads and checks a map file.
  public static func load(contentsOf path: String) throws(FitInputError) -> FitMap {
    guard let data = FileManager.default.contents(atPath: path) else {
      throw FitInputError(file: path, message: "cannot read the map file; check the path")
    }
    let root: JSONNode
    do {
      root = try JSONReader.parse(Array(data))
    } catch {
      throw FitInputError(file: path, message: "not valid JSON: \(error)")
    }
    return try decode(root, file: path)
  }

  static func decode(_ root: JSONNode, file: String) throws(FitInputError) -> FitMap {
    func fail(_ path: String, _ message: String) -> FitInputError {
      FitInputError(file: file, path: path, message: message)
    }
    guard case .object(let members) = root.value else {
      throw fail("$", "must be an object such as {\"screens\": {\"home\": \"home\"}}")
    }
    for member in members where !keys.contains(member.key) {
      let near = Spelling.closest(to: member.key, in: keys).map { "did you mean '\($0)'? " } ?? ""
      throw fail("$.\(member.key)", "unknown key; \(near)keys: \(keys.joined(separator: ", "))")
    }
    var map = FitMap()
    func text(_ key: String) throws(FitInputError) -> String? {
      guard let node = root[key] else { return nil }
      guard case .string(let value) = node.value else {
        throw fail("$.\(key)", "must be a string, got \(node.typeName)")
      }
      return value
    }
    if let format = try text("format") {
      guard let value = Format(rawValue: format) else {
        throw fail(
          "$.format",
          "unknown format '\(format)'; one of "
            + Format.allCases.map(\.rawValue).joined(separator: ", "))
      }
      map.format = value
    }
    if let name = try text("name") { map.name = name }
    guard let screens = root["screens"], case .object(let screenMembers) = screens.value,
      !screenMembers.isEmpty
    else {
      throw fail(
        "$.screens",
        "missing or empty; map every screen name the log uses to its kind, such as "
          + "{\"Home\": \"home\", \"Welcome\": \"onboarding\"}")
    }
    let kinds = ScreenKind.allCases.map(\.rawValue)
    for member in screenMembers {
      guard case .string(let kindName) = member.value.value,
        let kind = ScreenKind(rawValue: kindName)
      else {
        throw fail(
          "$.screens[\"\(member.key)\"]",
          "must be a screen kind, one of \(kinds.joined(separator: ", "))")
      }
      if map.screens.contains(where: { $0.name == member.key }) {
        throw fail("$.screens[\"\(member.key)\"]", "listed twice; give each screen once")
      }
      map.screens.append((member.key, kind))
    }
    if map.screens.filter({ $0.kind == .launch }).count > 1 {
      throw fail("$.screens", "more than one screen of kind launch; the splash is one screen")
    }
    if let node = root["onboarding"] {
      guard case .array(let elements) = node.value else {
        throw fail("$.onboarding", "must be an array of screen names in order")
      }
      for (position, element) in elements.enumerated() {
        guard case .string(let name) = element.value,
          map.screens.contains(where: { $0.name == name && $0.kind == .onboarding })
        else {
          throw fail(
            "$.onboarding[\(position)]", "must name a screen of kind onboarding in 'screens'")
        }
        map.onboarding.append(name)
      }
    } else {
      map.onboarding = map.screens.filter { $0.kind == .onboarding }.map(\.name)
    }
    if let timeout = try text("session_timeout") {
      do {
        map.sessionTimeout = try DurationText.seconds(in: timeout)
      } catch {
        throw fail("$.session_timeout", error.message)
      }
      guard map.sessionTimeout > 0 else { throw fail("$.session_timeout", "must be > 0") }
    }
    if let rule = try text("new_users") {
      guard let value = NewUserRule(rawValue: rule) else {
        throw fail(
          "$.new_users",
          "unknown rule '\(rule)'; one of "
            + NewUserRule.allCases.map(\.rawValue).joined(separator: ", "))
      }
      map.newUsers = value
    }
    if let node = root["session_end_events"] {
      guard case .array(let elements) = node.value else {
        throw fail("$.session_end_events", "must be an array of event names")
      }
      map.sessionEndEvents = []
      for element in elements {
        guard case .string(let name) = element.value else {
          throw fail("$.session_end_events", "must be an array of event names (strings)")
        }
        map.sessionEndEvents.append(name)
      }
    }
    if let event = try text("screen_view_event") { map.screenViewEvent = event }
    map.subscriberField = try text("subscriber")
    map.policy = try text("policy")
    map.screenField = try text("screen_field")
    if let window = root["window"] {
      for key in ["start", "end"] {
        guard let node = window[key] else { continue }
        let value: Double?
        switch node.value {
        case .number(let number, _): value = number
        case .string(let textValue): value = Timestamp.parse(Array(textValue.utf8)[...])
        default: value = nil
        }
        guard let value else {
          throw fail("$.window.\(key)", "must be epoch seconds or an ISO 8601 timestamp")
        }
        if key == "start" { map.windowStart = value } else { map.windowEnd = value }
      }
    }
    return map
  }

  /// The map as a JSON file (what ``load(contentsOf:)`` reads back).
  public var jsonText: String {
    func quoted(_ text: String) -> String { ConfigValue.string(text).jsonText() }
    var lines: [String] = []
    lines.append("  \"format\": \(quoted(format.rawValue))")
    lines.append("  \"name\": \(quoted(name))")
    let screenLines = screens.map { "    \(quoted($0.name)): \(quoted($0.kind.rawValue))" }
    lines.append("  \"screens\": {\n\(screenLines.joined(separator: ",\n"))\n  }")
    lines.append("  \"onboarding\": [\(onboarding.map(quoted).joined(separator: ", "))]")
    lines.append("  \"session_timeout\": \(quoted(DurationText.format(sessionTimeout)))")
    lines.append("  \"new_users\": \(quoted(newUsers.rawValue))")
    lines.append(
      "  \"session_end_events\": [\(sessionEndEvents.map(quoted).joined(separator: ", "))]")
    if let subscriberField { lines.append("  \"subscriber\": \(quoted(subscriberField))") }
    if let policy { lines.append("  \"policy\": \(quoted(policy))") }
    if let screenField { lines.append("  \"screen_field\": \(quoted(screenField))") }
    if windowStart != nil || windowEnd != nil {
      let parts = [("start", windowStart), ("end", windowEnd)].compactMap { key, value in
        value.map { "\"\(key)\": \(Self.number($0))" }
      }
      lines.append("  \"window\": {\(parts.joined(separator: ", "))}")
    }
    return "{\n" + lines.joined(separator: ",\n") + "\n}\n"
  }

  /// A number as JSON: integers without a fraction, others in full precision.
  static func number(_ value: Double) -> String {
    if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
    return "\(value)"
  }
}
