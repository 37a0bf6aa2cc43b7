import MessageDeferral
import Simulation

/// One row of an analytics log as `fit` sees it, whatever the vendor.
struct _LogEvent {
  enum Kind {
    case screenView
    /// The app left the foreground (a `session_end_events` name).
    case sessionEnd
    /// The app's first launch (`first_open`).
    case firstOpen
    /// Any other event: only its time is used (the user was still in the app).
    case other
  }

  var user: String
  var time: Double
  var kind: Kind
  /// The screen's index in the map (screen views only), else ``noScreen``.
  var screen: Int
  /// The log's own session id, when it has one.
  var session: String?
  /// An ``Kind/other`` event's name (what may end sessions unseen: Firebase's
  /// `user_engagement`).
  var name: String?
  /// The subscriber field's value, when the map names one and the row carries it.
  var subscriber: Bool?
}

/// Turns one line of a log into an event (`nil`: a line to skip, such as the CSV header or a
/// row of another policy).
struct _LogParser {
  let map: FitMap
  let file: String
  let screenIndex: [String: Int]
  let screenNames: [String]
  /// CSV: the column of each field, from the header; `nil` before the header is read.
  var columns: _CSVColumns?
  /// Whether the file is JSON lines (decided on its first line).
  var isJSONLines: Bool?
  /// Rows skipped by the map's `policy`, and the first few other policies they name (for
  /// the message when no row is left).
  var skippedByPolicy = 0
  var otherPolicies: [String] = []
  /// Lines that are not blank (a header included).
  var lines = 0
  /// CSV columns the header names that no field reads (a `session_id` under another name?).
  var unreadColumns: [String] = []

  init(map: FitMap, file: String) {
    self.map = map
    self.file = file
    screenIndex = map.logIndex
    screenNames = map.logScreenNames
  }

  /// Whether a row of `policy` is left out by the map's `policy`; counts it.
  mutating func skips(policy: String?) -> Bool {
    guard let wanted = map.policy, let policy, policy != wanted else { return false }
    skippedByPolicy += 1
    if otherPolicies.count < 6, !otherPolicies.contains(policy) { otherPolicies.append(policy) }
    return true
  }

  func error(_ line: Int, _ message: String) -> FitInputError {
    FitInputError(file: file, line: line, message: message)
  }

  mutating func parse(_ line: Int, _ bytes: ArraySlice<UInt8>) throws(FitInputError) -> _LogEvent? {
    if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { return nil }
    lines += 1
    if isJSONLines == nil {
      isJSONLines = bytes.first(where: { $0 != 0x20 && $0 != 0x09 }) == UInt8(ascii: "{")
      if map.format != .generic, isJSONLines == false {
        throw error(
          line,
          "a \(map.format.rawValue) log must be JSON lines (one event object per line); "
            + "export it as newline-delimited JSON or set \"format\": \"generic\" in the map")
      }
    }
    if isJSONLines == true {
      let node: JSONNode
      do {
        node = try JSONReader.parse(Array(bytes))
      } catch {
        throw self.error(
          line, "not a JSON object (\(error.message)); each line must be one event object")
      }
      switch map.format {
      case .generic: return try genericJSON(node, line: line)
      case .firebase: return try firebase(node, line: line)
      case .amplitude: return try amplitude(node, line: line)
      }
    }
    return try csv(line, bytes)
  }

  /// The event for a screen name and an event name, checking the screen against the map.
  func event(
    user: String, time: Double, eventName: String?, screen: String?, line: Int,
    firstOpenNames: [String], screenViewName: String
  ) throws(FitInputError) -> _LogEvent {
    let name = eventName ?? screenViewName
    var result = _LogEvent(user: user, time: time, kind: .other, screen: noScreen)
    if name == screenViewName {
      guard let screen, !screen.isEmpty else {
        throw error(line, "a screen view without a screen name; fill in the screen column")
      }
      guard let index = screenIndex[screen] else {
        let near = Spelling.closest(to: screen, in: screenNames).map { "did you mean '\($0)'? " }
        throw error(
          line,
          "screen '\(screen)' is not in the map; \(near ?? "")add it to 'screens' with its "
            + "kind (launch, onboarding, paywall, checkout, immersive, home, settings, content)")
      }
      result.kind = .screenView
      result.screen = index
    } else if map.sessionEndEvents.contains(name) {
      result.kind = .sessionEnd
    } else if firstOpenNames.contains(name) {
      result.kind = .firstOpen
    } else {
      result.name = name
    }
    return result
  }

  /// Reads a timestamp or fails with the line and the accepted forms.
  func time(_ text: ArraySlice<UInt8>?, line: Int, field: String) throws(FitInputError) -> Double {
    guard let text, let value = Timestamp.parse(text) else {
      let shown = text.map { String(decoding: $0.prefix(40), as: UTF8.self) } ?? ""
      throw error(
        line,
        "cannot read the timestamp '\(shown)' in '\(field)'; write ISO 8601 "
          + "(2024-05-01T12:00:00Z) or epoch seconds, milliseconds or microseconds")
    }
    return value
  }
}
