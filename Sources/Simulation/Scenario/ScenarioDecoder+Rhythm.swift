// `sessions.daily_rhythm`: when in the day and the week sessions start (``DailyRhythm``).

extension _ScenarioDecoder {
  /// `{hours: [24 weights], weekdays?: [7 weights], utc_offset?: "+HH:MM", time_zero?:
  /// "monday 00:00"}`.
  mutating func readDailyRhythm(_ node: JSONNode, at path: String) -> DailyRhythm? {
    let keys: [_Key] = [
      .required("hours", "[24 relative weights, 00:00–01:00 first]"), .optional("weekdays"),
      .optional("utc_offset"), .optional("time_zero"),
    ]
    guard let object = readObject(node, at: path, keys: keys, what: "a daily rhythm") else {
      return nil
    }
    let hours = field(object, "hours") {
      $0.readWeights($1, at: $2, count: 24, what: "local hour, 00:00–01:00 first")
    }
    let weekdays =
      object["weekdays"].map {
        readWeights($0, at: object.path("weekdays"), count: 7, what: "local weekday, Monday first")
      } ?? DailyRhythm.flatWeekdays
    var offset: Double? = 0
    if let offsetNode = object["utc_offset"] {
      if case .string(let text) = offsetNode.value, let seconds = ScenarioFields.utcOffset(text) {
        offset = seconds
      } else {
        report(
          object.path("utc_offset"), offsetNode,
          "must be the users' offset from UTC as \"+HH:MM\" or \"-HH:MM\" (from -12:00 to "
            + "+14:00), got \(Self.shown(offsetNode)); such as \"+02:00\"")
        offset = nil
      }
    }
    var timeZero: Double? = 0
    if let zeroNode = object["time_zero"] {
      if case .string(let text) = zeroNode.value, let seconds = Self.weekTime(text) {
        timeZero = seconds
      } else {
        report(
          object.path("time_zero"), zeroNode,
          "must be the weekday and UTC time of day of simulated time 0, got "
            + "\(Self.shown(zeroNode)); write it such as \"monday 00:00\" or \"thursday 14:30:05\" "
            + "(lower case)")
        timeZero = nil
      }
    }
    guard let hours, let weekdays, let offset, let timeZero else { return nil }
    return DailyRhythm(hours: hours, weekdays: weekdays, utcOffset: offset, timeZero: timeZero)
  }

  /// Exactly `count` non-negative finite numbers, not all 0.
  mutating func readWeights(
    _ node: JSONNode, at path: String, count: Int, what: String
  ) -> [Double]? {
    guard case .array(let elements) = node.value, elements.count == count else {
      let got: String
      if case .array(let elements) = node.value {
        got = "an array of \(elements.count)"
      } else {
        got = node.typeName
      }
      report(
        path, node,
        "must be an array of \(count) relative weights, one per \(what), got \(got); such as "
          + "[\([String](repeating: "1", count: count).joined(separator: ", "))]")
      return nil
    }
    return readRelativeWeights(
      elements, of: node, at: path,
      element: "a relative weight, at most 1e12 (0: no session starts then)",
      allZero: "must not be all 0 (no session could ever start); give the busiest "
        + "\(what.split(separator: ",")[0]) a positive weight, or leave daily_rhythm out for a "
        + "flat rhythm")
  }

  /// Relative weights (`install_window.weights`, a rhythm's hours and weekdays): each element
  /// a non-negative finite number at most 1e12 (else reported at its path: "must be a
  /// non-negative number, got …; write `element`"), not all 0 (else `allZero` at `path`).
  mutating func readRelativeWeights(
    _ elements: [JSONNode], of node: JSONNode, at path: String, element what: String,
    allZero: String
  ) -> [Double]? {
    var weights: [Double] = []
    for (index, element) in elements.enumerated() {
      guard case .number(let value, _) = element.value, value.isFinite, value >= 0, value <= 1e12
      else {
        report(
          _JSONPath.element(path, index), element,
          "must be a non-negative number, got \(Self.shown(element)); write \(what)")
        return nil
      }
      weights.append(value)
    }
    guard weights.contains(where: { $0 > 0 }) else {
      report(path, node, allZero)
      return nil
    }
    return weights
  }

  /// A campaign's `local_time` (`"HH:MM"` or `"HH:MM:SS"`, seconds after local midnight):
  /// `.some(nil)` when absent, `nil` when invalid (reported).
  mutating func readLocalTime(_ object: _Object) -> Double?? {
    guard let node = object["local_time"] else { return .some(nil) }
    if case .string(let text) = node.value, let seconds = Self.weekTime("monday " + text) {
      return .some(seconds)
    }
    report(
      object.path("local_time"), node,
      "must be a local time of day \"HH:MM\" or \"HH:MM:SS\" (00:00 to 23:59:59), got "
        + "\(Self.shown(node)); such as \"10:00\" (each message is issued at the next 10:00 in "
        + "the users' time zone)")
    return nil
  }

  /// Seconds from Monday 00:00 of `"<weekday> HH:MM"` or `"<weekday> HH:MM:SS"`.
  static func weekTime(_ text: String) -> Double? {
    let parts = text.split(separator: " ", omittingEmptySubsequences: true)
    guard parts.count == 2,
      let day = DailyRhythm.weekdayNames.firstIndex(of: String(parts[0]))
    else { return nil }
    let fields = parts[1].split(separator: ":", omittingEmptySubsequences: false)
    guard fields.count == 2 || fields.count == 3,
      fields.allSatisfy({ $0.count == 2 && $0.allSatisfy { ("0"..."9").contains($0) } }),
      let hours = Int(fields[0]), let minutes = Int(fields[1]),
      let seconds = fields.count == 3 ? Int(fields[2]) : 0,
      hours < 24, minutes < 60, seconds < 60
    else { return nil }
    return Double(day * 86_400 + hours * 3600 + minutes * 60 + seconds)
  }
}
