import MessageDeferral
import Simulation

/// What analytics cannot say about an app, given to `deferral-sim fit` as a JSON file: each
/// screen's kind, the onboarding screens in order, the session timeout, how new users are
/// recognised and which events end a session. The file's keys are documented in
/// `scenarios/fit-samples/README.md`.
public struct FitMap: Sendable {
  /// The log's shape.
  public enum Format: String, Sendable, CaseIterable {
    /// `user_id,timestamp,screen[,event]` as CSV with a header, or the same keys as JSON lines.
    case generic
    /// Firebase Analytics' BigQuery export, one event per JSON line.
    case firebase
    /// Amplitude's Export API, one event per JSON line.
    case amplitude
  }

  /// How a new user (one who installs inside the log's window) is recognised.
  public enum NewUserRule: String, Sendable, CaseIterable {
    /// The user's first screen after the splash is an onboarding screen.
    case startsOnboarding = "starts_onboarding"
    /// The user has a `first_open` event (Firebase logs one at the first launch).
    case firstOpen = "first_open"
  }

  public var format: Format = .generic
  /// The scenario's name (default: `fitted`).
  public var name = "fitted"
  /// Each screen's name in the fitted scenario (following the scenario-name rule), in file
  /// order, with its kind.
  public var screens: [(name: String, kind: ScreenKind)] = []
  /// The name the log writes for each of ``screens`` (same order), when it is not the
  /// scenario's: a display name such as `"Home Screen"` mapped to `home-screen` by the map's
  /// `{"kind": "home", "name": "home-screen"}`. Empty: the log writes the scenario names.
  public var logNames: [String] = []
  /// The onboarding screens in order (default: the screens of kind onboarding, in file order).
  public var onboarding: [String] = []
  /// A gap longer than this between two events of a user starts a new session (seconds),
  /// unless the log names sessions itself (a `session` column, Firebase `ga_session_id`,
  /// Amplitude `session_id`).
  public var sessionTimeout = 1800.0
  public var newUsers = NewUserRule.startsOnboarding
  /// Events that mark the moment the app left the foreground: the last screen's dwell ends
  /// there (observed, not censored).
  public var sessionEndEvents = ["background", "session_end", "[Amplitude] End Session"]
  /// The event name of a screen view (generic logs without an `event` column: every row).
  public var screenViewEvent = "screen_view"
  /// A column (generic) or user property (vendors) that says whether the user subscribes.
  public var subscriberField: String?
  /// Only rows whose `policy` column is this (a `run --events-log` file of several policies).
  public var policy: String?
  /// The observation window (epoch seconds); default: first to last timestamp in the log.
  /// Events outside a given window are skipped.
  public var windowStart: Double?
  public var windowEnd: Double?
  /// Firebase: the event parameter naming the screen (`firebase_screen` or
  /// `firebase_screen_class`). Amplitude: the event property naming the screen.
  public var screenField: String?
  /// The timestamps' resolution (seconds): 1 when the log writes whole seconds. A duration
  /// between two such timestamps is known only to within one resolution either way, and is
  /// fitted as interval-censored. 0 (the default): timestamps are exact to the millisecond.
  public var timestampResolution = 0.0
  /// The log's local time offset from UTC (seconds east), for hours of day (`utc_offset`).
  public var utcOffset = 0.0
  /// The generic schema's column names, when the log's differ: field (`user_id`,
  /// `timestamp`, `screen`, `event`, `session`) to the log's column.
  public var columns: [String: String] = [:]

  public init() {}

  /// The index of each screen's scenario name.
  public var screenIndex: [String: Int] {
    var index: [String: Int] = [:]
    for (position, screen) in screens.enumerated() { index[screen.name] = position }
    return index
  }

  /// Each screen's name as the log writes it (``logNames``, else the scenario's).
  public var logScreenNames: [String] {
    logNames.count == screens.count ? logNames : screens.map(\.name)
  }

  /// The index of each screen by the name the log writes.
  public var logIndex: [String: Int] {
    var index: [String: Int] = [:]
    for (position, name) in logScreenNames.enumerated() { index[name] = position }
    return index
  }

  /// The file name `run --events-log` writes the map of its `events.csv` to.
  public static let eventsMapFileName = "events-map.json"

  /// The map that fits a `run --events-log` file of `scenario` back: its screens and kinds,
  /// its onboarding screens in path order from the new-user entry, the rows of `policy`, and
  /// the window 0 to the horizon.
  public static func forEventsLog(of scenario: Scenario, policy: String) -> FitMap {
    var map = FitMap()
    map.name = scenario.name + "-fitted"
    map.screens = scenario.screens.map { ($0.name, $0.kind) }
    var order: [String] = []
    var screen = scenario.entries.newUser
    while scenario.screens[screen].kind == .onboarding,
      !order.contains(scenario.screens[screen].name)
    {
      order.append(scenario.screens[screen].name)
      let next = scenario.screens[screen].transitions.max { $0.probability < $1.probability }
      guard case .screen(let target)? = next?.target else { break }
      screen = target
    }
    let rest = scenario.screens.filter { $0.kind == .onboarding && !order.contains($0.name) }
    map.onboarding = order + rest.map(\.name)
    map.policy = policy
    map.windowStart = 0
    map.windowEnd = scenario.horizon
    return map
  }
}
