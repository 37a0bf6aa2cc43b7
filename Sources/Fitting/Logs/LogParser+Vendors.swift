import Simulation

extension _LogParser {
  /// Firebase Analytics' BigQuery export as JSON lines (`bq extract
  /// --destination_format NEWLINE_DELIMITED_JSON`, or a query's JSON result), one event per
  /// line: `user_pseudo_id` (or `user_id` when set), `event_timestamp` (microseconds, a string
  /// or a number), `event_name` (`screen_view`, `first_open`, others), `event_params` (an
  /// array of `{"key": ..., "value": {"string_value" | "int_value" | "double_value": ...}}`)
  /// with the screen in `firebase_screen` (or the map's `screen_field`, such as
  /// `firebase_screen_class`) and the session in `ga_session_id`, and `user_properties` (the
  /// same shape) holding the map's subscriber property.
  func firebase(_ node: JSONNode, line: Int) throws(FitInputError) -> _LogEvent? {
    guard let user = Self.scalar(node["user_id"]) ?? Self.scalar(node["user_pseudo_id"]) else {
      throw error(line, "no 'user_pseudo_id'; a Firebase export row names its user there")
    }
    let stamp = Self.scalar(node["event_timestamp"]).map { Array($0.utf8)[...] }
    let time = try time(stamp, line: line, field: "event_timestamp")
    guard let name = Self.scalar(node["event_name"]) else {
      throw error(line, "no 'event_name'; a Firebase export row names its event there")
    }
    let parameters = node["event_params"]
    let screenKey = map.screenField ?? "firebase_screen"
    var result = try event(
      user: user, time: time, eventName: name,
      screen: Self.firebaseValue(parameters, screenKey), line: line,
      firstOpenNames: ["first_open"], screenViewName: "screen_view")
    result.session = Self.firebaseValue(parameters, "ga_session_id")
    if let field = map.subscriberField,
      let value = Self.firebaseValue(node["user_properties"], field)
    {
      result.subscriber = Self.truth(value)
    }
    return result
  }

  /// The value of `key` in a Firebase `event_params` or `user_properties` array.
  static func firebaseValue(_ array: JSONNode?, _ key: String) -> String? {
    guard case .array(let entries)? = array?.value else { return nil }
    for entry in entries where scalar(entry["key"]) == key {
      guard let value = entry["value"] else { return nil }
      for field in ["string_value", "int_value", "double_value", "float_value"] {
        if let text = scalar(value[field]) { return text }
      }
      return nil
    }
    return nil
  }

  /// Amplitude's Export API (zipped JSON lines; unzip first), one event per line: `user_id`
  /// (else `device_id`), `event_time` (`2024-05-01 12:00:00.123456`, UTC), `event_type`
  /// (screen views are `[Amplitude] Screen Viewed` unless the map's `screen_view_event`
  /// says otherwise), `event_properties` holding the screen name (`[Amplitude] Screen Name`,
  /// or the map's `screen_field`), `session_id` (the session's start in epoch milliseconds;
  /// -1: none) and `user_properties` holding the map's subscriber property.
  func amplitude(_ node: JSONNode, line: Int) throws(FitInputError) -> _LogEvent? {
    guard let user = Self.scalar(node["user_id"]) ?? Self.scalar(node["device_id"]) else {
      throw error(line, "no 'user_id' or 'device_id'; an Amplitude export row names its user")
    }
    let stamp = Self.scalar(node["event_time"]).map { Array($0.utf8)[...] }
    let time = try time(stamp, line: line, field: "event_time")
    guard let name = Self.scalar(node["event_type"]) else {
      throw error(line, "no 'event_type'; an Amplitude export row names its event there")
    }
    let screenView =
      map.screenViewEvent == "screen_view" ? "[Amplitude] Screen Viewed" : map.screenViewEvent
    let screen = Self.scalar(
      node["event_properties"]?[map.screenField ?? "[Amplitude] Screen Name"])
    var result = try event(
      user: user, time: time, eventName: name, screen: screen, line: line,
      firstOpenNames: ["[Amplitude] Application Installed", "first_open"],
      screenViewName: screenView)
    if let session = Self.scalar(node["session_id"]), session != "-1" { result.session = session }
    if let field = map.subscriberField, let value = Self.scalar(node["user_properties"]?[field]) {
      result.subscriber = Self.truth(value)
    }
    return result
  }
}
