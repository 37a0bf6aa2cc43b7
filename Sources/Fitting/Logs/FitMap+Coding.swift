import Foundation
import MessageDeferral
import Simulation

extension FitMap {
  /// The keys a map file may hold.
  static let keys = [
    "$schema", "format", "name", "screens", "onboarding", "session_timeout", "new_users",
    "session_end_events", "screen_view_event", "subscriber", "policy", "window", "screen_field",
    "timestamp_resolution", "utc_offset", "columns",
  ]

  /// The generic schema's fields a map's `columns` may rename.
  public static let columnFields = ["user_id", "timestamp", "screen", "event", "session"]

  /// Reads and checks a map file.
  public static func load(contentsOf path: String) throws(FitInputError) -> FitMap {
    // The map's own words for a folder or a missing file (the reader's speak of scenarios).
    var info = stat()
    if stat(path, &info) != 0, errno == ENOENT || errno == ENOTDIR {
      throw FitInputError(
        file: path,
        message: "no such map file; check the path (a run's map is events-map.json in its "
          + "folder; the samples' are scenarios/fit-samples/*-map.json)")
    }
    if (info.st_mode & S_IFMT) == S_IFDIR {
      throw FitInputError(
        file: path,
        message: "is a folder, not a map; name the map file itself"
          + _LogLines.folderHint(
            path, holding: eventsMapFileName, what: "the map of a run's events log"))
    }
    // The bounded reader every input file goes through: a FIFO or a huge file is refused.
    let data: [UInt8]
    switch readRegularFile(path, limit: ScenarioLoader.maximumFileSize) {
    case .success(let bytes): data = bytes
    case .failure(let problem): throw FitInputError(file: path, message: problem.message)
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
    if let name = try text("name") {
      guard NameRule.isValid(name) else {
        throw fail(
          "$.name",
          "'\(name.prefix(80))' is not a scenario name; " + NameRule.fix(example: "my-app"))
      }
      map.name = name
    }
    guard let screens = root["screens"], case .object(let screenMembers) = screens.value,
      !screenMembers.isEmpty
    else {
      throw fail(
        "$.screens",
        "missing or empty; map every screen name the log uses to its kind, such as "
          + "{\"Home\": \"home\", \"Welcome\": \"onboarding\"}")
    }
    let kinds = ScreenKind.allCases.map(\.rawValue)
    var logNames: [String] = []
    for member in screenMembers {
      let at = "$.screens[\(ConfigValue.string(member.key).jsonText())]"
      // `"Home": "home"`, or `"Home Screen": {"kind": "home", "name": "home-screen"}` to give a
      // display name a scenario name.
      var kindNode = member.value
      var scenarioName = member.key
      if case .object(let fields) = member.value.value {
        for field in fields where field.key != "kind" && field.key != "name" {
          throw fail("\(at).\(field.key)", "unknown key; a screen's keys: kind, name")
        }
        guard let node = member.value["kind"] else {
          throw fail(at, "missing 'kind', such as {\"kind\": \"home\", \"name\": \"home\"}")
        }
        kindNode = node
        if let node = member.value["name"] {
          guard case .string(let given) = node.value else {
            throw fail("\(at).name", "must be a string: the screen's name in the scenario")
          }
          scenarioName = given
        }
      }
      guard case .string(let kindName) = kindNode.value,
        let kind = ScreenKind(rawValue: kindName)
      else {
        throw fail(at, "must be a screen kind, one of \(kinds.joined(separator: ", "))")
      }
      if logNames.contains(member.key) {
        throw fail(at, "listed twice; give each screen once")
      }
      try Self.checkScreenName(scenarioName, logName: member.key, kind: kind, at: at, fail: fail)
      if let other = map.screens.firstIndex(where: { $0.name == scenarioName }) {
        throw fail(
          at,
          "its scenario name '\(scenarioName)' is also that of '\(logNames[other])'; give each "
            + "screen its own name")
      }
      map.screens.append((scenarioName, kind))
      logNames.append(member.key)
    }
    if logNames != map.screens.map(\.name) { map.logNames = logNames }
    if map.screens.allSatisfy({ $0.kind == .onboarding || $0.kind == .launch }) {
      // Onboarding would never be completed: a user who finishes it must reach some screen.
      throw fail(
        "$.screens",
        "every screen is of kind onboarding (or the splash); give the screens users reach "
          + "after onboarding their kinds (home, content, settings, ...)")
    }
    if map.screens.filter({ $0.kind == .launch }).count > 1 {
      throw fail("$.screens", "more than one screen of kind launch; the splash is one screen")
    }
    if let node = root["onboarding"] {
      guard case .array(let elements) = node.value else {
        throw fail("$.onboarding", "must be an array of screen names in order")
      }
      for (position, element) in elements.enumerated() {
        // The log's name of a screen, or its scenario name: either names it.
        guard case .string(let name) = element.value,
          let index = logNames.firstIndex(of: name)
            ?? map.screens.firstIndex(where: { $0.name == name }),
          map.screens[index].kind == .onboarding
        else {
          throw fail(
            "$.onboarding[\(position)]", "must name a screen of kind onboarding in 'screens'")
        }
        map.onboarding.append(map.screens[index].name)
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
      // Shorter than a minute, every screen view is a session of its own: no transition, no
      // onboarding ever completed, nothing a scenario can be fitted from.
      guard map.sessionTimeout >= Self.minimumSessionTimeout else {
        throw fail(
          "$.session_timeout",
          "must be at least 1m: a shorter timeout splits every screen view into a session of "
            + "its own (analytics SDKs use 30m)")
      }
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
    try decodeDetails(root, into: &map, fail: fail)
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
        // Epoch seconds of years 0 to 9999: anything else is a typo that would make a
        // horizon or an install window of 1e303 days.
        guard value.isFinite, abs(value) <= Self.latestTimestamp else {
          throw fail(
            "$.window.\(key)",
            "\(value) is not a time of the log; give epoch seconds (such as 1735689600) or an "
              + "ISO 8601 timestamp")
        }
        if key == "start" { map.windowStart = value } else { map.windowEnd = value }
      }
      if let start = map.windowStart, let end = map.windowEnd, start == end {
        throw fail(
          "$.window",
          "the window is empty (start and end are both \(Self.number(start))): it holds no "
            + "time to observe; give an end after the start, or drop the window")
      }
      if let start = map.windowStart, let end = map.windowEnd, start > end {
        throw fail(
          "$.window",
          "the window is reversed (start \(Self.number(start)) is after end "
            + "\(Self.number(end))); swap start and end")
      }
    }
    return map
  }

  /// `timestamp_resolution`, `utc_offset` and `columns`.
  static func decodeDetails(
    _ root: JSONNode, into map: inout FitMap, fail: (String, String) -> FitInputError
  ) throws(FitInputError) {
    if let node = root["timestamp_resolution"] {
      guard case .string(let text) = node.value,
        let seconds = try? DurationText.seconds(in: text), seconds > 0, seconds <= 60
      else {
        throw fail(
          "$.timestamp_resolution",
          "must be a duration from 1ms to 1m, such as \"1s\" for timestamps in whole seconds "
            + "or \"1ms\" for milliseconds")
      }
      map.timestampResolution = seconds
    }
    if let node = root["utc_offset"] {
      guard case .string(let text) = node.value, let offset = ScenarioFields.utcOffset(text) else {
        throw fail(
          "$.utc_offset",
          "must be the log's local time offset from UTC as \"+HH:MM\" or \"-HH:MM\" "
            + "(-12:00 to +14:00), such as \"+02:00\"")
      }
      map.utcOffset = offset
    }
    if let node = root["columns"] {
      guard case .object(let members) = node.value else {
        throw fail(
          "$.columns",
          "must be an object naming the log's column of each field, such as "
            + "{\"session\": \"session_id\", \"user_id\": \"uid\"}")
      }
      for member in members {
        guard columnFields.contains(member.key) else {
          let near =
            Spelling.closest(to: member.key, in: columnFields).map { "did you mean '\($0)'? " }
            ?? ""
          throw fail(
            "$.columns.\(member.key)",
            "unknown field; \(near)fields: \(columnFields.joined(separator: ", "))")
        }
        guard case .string(let column) = member.value.value, !column.isEmpty else {
          throw fail("$.columns.\(member.key)", "must be the column's name in the log (a string)")
        }
        map.columns[member.key] = column
      }
    }
  }

  /// The shortest `session_timeout` a map may give.
  static let minimumSessionTimeout = 60.0
  /// The largest epoch-seconds value a window may give (the end of year 9999).
  static let latestTimestamp = 253_402_300_799.0

  /// The scenario-name rule for a screen, with the fix: a name the fitted scenario can hold
  /// (not `background`, which means leaving the app), and for a log name that breaks the rule
  /// the map entry that gives it one.
  static func checkScreenName(
    _ name: String, logName: String, kind: ScreenKind, at path: String,
    fail: (String, String) -> FitInputError
  ) throws(FitInputError) {
    let reserved = name == "background"
    guard !NameRule.isValid(name) || reserved else { return }
    let suggested = suggestedName(for: logName, kind: kind)
    let entry =
      "\(ConfigValue.string(logName).jsonText()): {\"kind\": \"\(kind.rawValue)\", \"name\": "
      + "\"\(suggested)\"}"
    throw fail(
      path,
      (reserved
        ? "'background' is reserved in a scenario for leaving the app"
        : "'\(name.prefix(80))' is not a scenario screen name (1 to 64 ASCII letters, digits, "
          + "'_', '-' or '.', starting with a letter or digit)")
        + "; give it a scenario name in the map: \(entry)")
  }

  /// A scenario name made from a log's display name: ASCII letters and digits kept, every run
  /// of anything else a `-`, lower case; `screen` when nothing is left.
  static func suggestedName(for logName: String, kind: ScreenKind) -> String {
    var result = ""
    for scalar in logName.unicodeScalars {
      if scalar.isASCII,
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
          || ("0"..."9").contains(scalar)
      {
        result.unicodeScalars.append(scalar)
      } else if !result.isEmpty, !result.hasSuffix("-") {
        result += "-"
      }
    }
    while result.hasSuffix("-") { result.removeLast() }
    result = String(result.lowercased().prefix(48))
    if result.isEmpty { result = "\(kind.rawValue)-screen" }
    if result == "background" { result = "background-screen" }
    return result
  }

  /// The map as a JSON file (what ``load(contentsOf:)`` reads back).
  public var jsonText: String {
    func quoted(_ text: String) -> String { ConfigValue.string(text).jsonText() }
    var lines: [String] = []
    lines.append("  \"format\": \(quoted(format.rawValue))")
    lines.append("  \"name\": \(quoted(name))")
    let screenLines = zip(screens, logScreenNames).map { screen, logName in
      logName == screen.name
        ? "    \(quoted(logName)): \(quoted(screen.kind.rawValue))"
        : "    \(quoted(logName)): {\"kind\": \(quoted(screen.kind.rawValue)), \"name\": "
          + "\(quoted(screen.name))}"
    }
    lines.append("  \"screens\": {\n\(screenLines.joined(separator: ",\n"))\n  }")
    lines.append("  \"onboarding\": [\(onboarding.map(quoted).joined(separator: ", "))]")
    lines.append("  \"session_timeout\": \(quoted(DurationText.format(sessionTimeout)))")
    lines.append("  \"new_users\": \(quoted(newUsers.rawValue))")
    lines.append(
      "  \"session_end_events\": [\(sessionEndEvents.map(quoted).joined(separator: ", "))]")
    if let subscriberField { lines.append("  \"subscriber\": \(quoted(subscriberField))") }
    if let policy { lines.append("  \"policy\": \(quoted(policy))") }
    if let screenField { lines.append("  \"screen_field\": \(quoted(screenField))") }
    if timestampResolution > 0 {
      lines.append(
        "  \"timestamp_resolution\": \(quoted(DurationText.format(timestampResolution)))")
    }
    if utcOffset != 0 {
      let minutes = Int(abs(utcOffset) / 60)
      let text =
        (utcOffset < 0 ? "-" : "+") + (minutes / 60 < 10 ? "0" : "") + "\(minutes / 60):"
        + (minutes % 60 < 10 ? "0" : "") + "\(minutes % 60)"
      lines.append("  \"utc_offset\": \(quoted(text))")
    }
    if !columns.isEmpty {
      let parts = columns.sorted { $0.key < $1.key }.map {
        "\(quoted($0.key)): \(quoted($0.value))"
      }
      lines.append("  \"columns\": {\(parts.joined(separator: ", "))}")
    }
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
