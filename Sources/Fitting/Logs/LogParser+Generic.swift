import Simulation

/// Where the generic CSV schema's fields are, from the header row.
struct _CSVColumns {
  var user: Int
  var timestamp: Int
  var screen: Int
  var event: Int?
  var session: Int?
  var replication: Int?
  var policy: Int?
  var subscriber: Int?
  var count: Int
}

extension _LogParser {
  /// The generic schema as CSV: a header row naming `user_id` (or `user`), `timestamp`,
  /// `screen`, and optionally `event`, `session`, `replication`, `policy` and the subscriber
  /// column; fields may be quoted (RFC 4180, without line breaks inside fields).
  mutating func csv(_ line: Int, _ bytes: ArraySlice<UInt8>) throws(FitInputError) -> _LogEvent? {
    let fields = Self.split(bytes)
    guard let columns else {
      let names = fields.map { String(decoding: $0, as: UTF8.self).lowercased() }
      func find(_ candidates: [String]) -> Int? { names.firstIndex { candidates.contains($0) } }
      // A column the map's `columns` names is that field's only column.
      func field(_ key: String, _ candidates: [String]) -> Int? {
        map.columns[key].map { named in names.firstIndex(of: named.lowercased()) }
          ?? find(candidates)
      }
      for (key, named) in map.columns.sorted(by: { $0.key < $1.key })
      where !names.contains(named.lowercased()) {
        throw error(
          line,
          "the map's columns.\(key) '\(named)' is not in the header (found: "
            + "\(names.joined(separator: ","))); name the column as the header writes it")
      }
      var missing: [String] = []
      let user = field("user_id", ["user_id", "user"])
      let timestamp = field("timestamp", ["timestamp", "time", "event_time"])
      let screen = field("screen", ["screen", "screen_name"])
      if user == nil { missing.append("user_id") }
      if timestamp == nil { missing.append("timestamp") }
      if screen == nil { missing.append("screen") }
      guard let user, let timestamp, let screen else {
        throw error(
          line,
          "the header lacks \(missing.joined(separator: ", ")); the first line must name "
            + "the columns, such as user_id,timestamp,screen,event (found: "
            + "\(names.joined(separator: ","))), or the map's 'columns' must name them "
            + "(\"columns\": {\"user_id\": \"uid\"})")
      }
      columns = _CSVColumns(
        user: user, timestamp: timestamp, screen: screen,
        event: field("event", ["event", "event_name"]),
        session: field("session", ["session", "session_id"]), replication: find(["replication"]),
        policy: find(["policy"]),
        subscriber: map.subscriberField.flatMap { find([$0.lowercased()]) },
        count: names.count)
      if let read = columns {
        let used = Set(
          [read.user, read.timestamp, read.screen]
            + [
              read.event, read.session, read.replication, read.policy, read.subscriber,
            ].compactMap { $0 })
        unreadColumns = names.indices.filter { !used.contains($0) }.map { names[$0] }
      }
      if let field = map.subscriberField, columns?.subscriber == nil {
        throw error(line, "the map's subscriber column '\(field)' is not in the header")
      }
      return nil
    }
    guard fields.count == columns.count else {
      throw error(
        line,
        "\(fields.count) fields where the header has \(columns.count); quote fields "
          + "that contain commas")
    }
    func text(_ column: Int?) -> String? {
      column.map { String(decoding: fields[$0], as: UTF8.self) }
    }
    if skips(policy: text(columns.policy)) { return nil }
    var user = text(columns.user)!
    if let replication = text(columns.replication) { user = replication + "/" + user }
    let time = try time(fields[columns.timestamp], line: line, field: "timestamp")
    let eventName = text(columns.event).flatMap { $0.isEmpty ? nil : $0 }
    var result = try event(
      user: user, time: time, eventName: eventName, screen: text(columns.screen), line: line,
      firstOpenNames: ["first_open"], screenViewName: map.screenViewEvent)
    result.session = text(columns.session)
    if let subscriber = text(columns.subscriber) { result.subscriber = Self.truth(subscriber) }
    return result
  }

  /// The generic schema as JSON lines: `{"user_id": ..., "timestamp": ..., "screen": ...}`.
  mutating func genericJSON(_ node: JSONNode, line: Int) throws(FitInputError) -> _LogEvent? {
    if skips(policy: Self.scalar(node["policy"])) { return nil }
    let columns = map.columns
    let userNode = columns["user_id"].map { node[$0] } ?? (node["user_id"] ?? node["user"])
    guard var user = Self.scalar(userNode) else {
      throw error(
        line,
        "no '\(columns["user_id"] ?? "user_id")'; every event needs the user it belongs to")
    }
    if let replication = Self.scalar(node["replication"]) { user = replication + "/" + user }
    let timeKey = columns["timestamp"] ?? "timestamp"
    let stamp = Self.scalar(node[timeKey]).map { Array($0.utf8)[...] }
    let time = try time(stamp, line: line, field: timeKey)
    var result = try event(
      user: user, time: time, eventName: Self.scalar(node[columns["event"] ?? "event"]),
      screen: Self.scalar(node[columns["screen"] ?? "screen"]), line: line,
      firstOpenNames: ["first_open"], screenViewName: map.screenViewEvent)
    result.session = Self.scalar(
      columns["session"].map { node[$0] } ?? (node["session"] ?? node["session_id"]))
    if let field = map.subscriberField, let value = Self.scalar(node[field]) {
      result.subscriber = Self.truth(value)
    }
    return result
  }

  /// A string, number or boolean as text (`nil` for null, absent, arrays and objects).
  static func scalar(_ node: JSONNode?) -> String? {
    switch node?.value {
    case .string(let text): text
    case .number(_, let literal): literal
    case .bool(let flag): flag ? "true" : "false"
    default: nil
    }
  }

  /// Whether a subscriber field's text means yes (`true`, `1`, `yes`, `subscribed`, `active`).
  static func truth(_ text: String) -> Bool {
    ["true", "1", "yes", "y", "subscribed", "subscriber", "active"].contains(text.lowercased())
  }

  /// Splits a CSV line into fields, unquoting quoted ones.
  static func split(_ bytes: ArraySlice<UInt8>) -> [ArraySlice<UInt8>] {
    var fields: [ArraySlice<UInt8>] = []
    var index = bytes.startIndex
    while true {
      if index < bytes.endIndex, bytes[index] == 0x22 {
        var value: [UInt8] = []
        index += 1
        while index < bytes.endIndex {
          if bytes[index] == 0x22 {
            if index + 1 < bytes.endIndex, bytes[index + 1] == 0x22 {
              value.append(0x22)
              index += 2
              continue
            }
            index += 1
            break
          }
          value.append(bytes[index])
          index += 1
        }
        fields.append(value[...])
        while index < bytes.endIndex, bytes[index] != 0x2C { index += 1 }
      } else {
        let start = index
        while index < bytes.endIndex, bytes[index] != 0x2C { index += 1 }
        fields.append(bytes[start..<index])
      }
      guard index < bytes.endIndex else { break }
      index += 1  // the comma
    }
    return fields
  }
}
