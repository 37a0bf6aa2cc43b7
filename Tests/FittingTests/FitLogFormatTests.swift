import Fitting
import Foundation
import Simulation
import TestSupport
import Testing

/// Each log format on a small hand-made sample in the vendor's documented shape: the events
/// are read, cut into sessions, and turned into exact dwells, censorings, gaps and shares.
@Suite("fit: log formats on hand-made samples")
struct FitLogFormatTests {
  static func observations(_ text: String, map: String, name: String) throws -> FitObservations {
    let folder = try TemporaryFolder("fit-format-\(name)")
    defer { folder.remove() }
    let log = try folder.write(text, to: "log")
    let loaded = try FitMap.load(contentsOf: try folder.write(map, to: "map.json"))
    return try ScenarioFit.read(files: [log], map: loaded)
  }

  static func dwells(_ observations: FitObservations, _ screen: Int) -> [DurationSample] {
    observations.dwell[screen].items
  }

  static let screens =
    #""screens": {"Splash": "launch", "Welcome": "onboarding", "Home": "home", "Settings": "settings"}"#

  @Test("generic CSV: complete dwells, a session end, a censored last screen, a gap")
  func genericCSV() throws {
    let log = """
      user_id,timestamp,screen,event
      u1,2024-05-01T10:00:00Z,Splash,screen_view
      u1,2024-05-01T10:00:02Z,Welcome,screen_view
      u1,2024-05-01T10:00:10Z,Home,
      u1,2024-05-01T10:00:40Z,Home,background
      u1,2024-05-01T14:00:00Z,Home,screen_view
      u1,2024-05-01T14:00:30Z,Settings,screen_view
      u2,1714557600,Home,screen_view
      u2,1714557630,"Settings",screen_view
      u2,1714557650,Settings,tap
      """
    let seen = try Self.observations(log, map: "{\(Self.screens)}", name: "csv")
    #expect(seen.rows == 9 && seen.screenViews == 7 && seen.users == 2)
    #expect(Self.dwells(seen, 0) == [DurationSample(seconds: 2, censored: false)])
    #expect(Self.dwells(seen, 1) == [DurationSample(seconds: 8, censored: false)])
    #expect(Self.dwells(seen, 2).map(\.seconds) == [30, 30, 30])
    // u1's Settings ends unseen (censored at 0: not kept, and not counted as censored); u2's at
    // the tap, 20 s in.
    #expect(seen.censoredDwells[3] == 1 && seen.emptyDwells[3] == 1)
    #expect(Self.dwells(seen, 3) == [DurationSample(seconds: 20, censored: true)])
    #expect(seen.transitions[2][4] == 1 && seen.transitions[2][3] == 2)
    #expect(seen.gaps.items.contains(DurationSample(seconds: 14_360, censored: false)))
    #expect(seen.newUsers == 1)
    #expect(seen.afterLaunchNew[1] == 1)
  }

  @Test("Firebase BigQuery export: first_open, ga_session_id, event params, user properties")
  func firebase() throws {
    func row(
      _ micros: Int, _ name: String, screen: String?, session: Int, subscriber: String
    )
      -> String
    {
      var parameters = [#"{"key": "ga_session_id", "value": {"int_value": "\#(session)"}}"#]
      if let screen {
        parameters.insert(
          #"{"key": "firebase_screen", "value": {"string_value": "\#(screen)"}}"#, at: 0)
        parameters.append(
          #"{"key": "firebase_screen_class", "value": {"string_value": "\#(screen)VC"}}"#)
      }
      return
        #"{"event_date": "20240501", "event_timestamp": "\#(micros)", "event_name": "\#(name)", "#
        + #""event_params": [\#(parameters.joined(separator: ", "))], "user_id": null, "#
        + #""user_pseudo_id": "a1", "user_properties": [{"key": "is_subscriber", "value": "#
        + #"{"string_value": "\#(subscriber)", "set_timestamp_micros": "1714557600000000"}}]}"#
    }
    let t = 1_714_557_600_000_000
    let log = [
      row(t, "first_open", screen: nil, session: 1_714_557_600, subscriber: "false"),
      row(
        t + 100_000, "screen_view", screen: "Welcome", session: 1_714_557_600, subscriber: "false"),
      row(
        t + 10_000_000, "screen_view", screen: "Home", session: 1_714_557_600, subscriber: "false"),
      row(
        t + 40_000_000, "user_engagement", screen: nil, session: 1_714_557_600, subscriber: "true"),
      row(
        t + 600_000_000, "screen_view", screen: "Home", session: 1_714_558_200, subscriber: "true"),
    ].joined(separator: "\n")
    let map =
      #"{"format": "firebase", "new_users": "first_open", "subscriber": "is_subscriber", "#
      + Self.screens + "}"
    let seen = try Self.observations(log, map: map, name: "firebase")
    #expect(seen.screenViews == 3 && seen.users == 1 && seen.newUsers == 1)
    #expect(abs(Self.dwells(seen, 1)[0].seconds - 9.9) < 1e-6)
    // Home is censored at the engagement event, 30 s in; the next session is a new ga_session_id.
    #expect(Self.dwells(seen, 2).contains { $0.censored && abs($0.seconds - 30) < 1e-6 })
    #expect(seen.journeys.sessions == 2)
    #expect(seen.gaps.items.contains { !$0.censored && abs($0.seconds - 560) < 1e-6 })
    #expect(seen.newSubscribers.yes == 1 && seen.newSubscribers.known == 1)
  }

  @Test("Amplitude export: event_time, session_id, screen property, End Session")
  func amplitude() throws {
    func row(_ time: String, _ type: String, screen: String?, session: Int) -> String {
      let properties = screen.map { #"{"[Amplitude] Screen Name": "\#($0)"}"# } ?? "{}"
      return #"{"user_id": null, "device_id": "d1", "amplitude_id": 42, "event_type": "\#(type)", "#
        + #""event_time": "\#(time)", "session_id": \#(session), "event_properties": "#
        + #"\#(properties), "user_properties": {"plan": "premium"}}"#
    }
    let log = [
      row("2024-05-01 10:00:00.000000", "[Amplitude] Screen Viewed", screen: "Home", session: 1),
      row(
        "2024-05-01 10:00:12.500000", "[Amplitude] Screen Viewed", screen: "Settings", session: 1),
      row("2024-05-01 10:00:20.000000", "[Amplitude] End Session", screen: nil, session: 1),
      row("2024-05-01 12:00:00.000000", "[Amplitude] Screen Viewed", screen: "Home", session: 2),
    ].joined(separator: "\n")
    let map = #"{"format": "amplitude", "subscriber": "plan", "# + Self.screens + "}"
    let seen = try Self.observations(log, map: map, name: "amplitude")
    #expect(seen.screenViews == 3 && seen.users == 1)
    #expect(Self.dwells(seen, 2).contains(DurationSample(seconds: 12.5, censored: false)))
    #expect(Self.dwells(seen, 3) == [DurationSample(seconds: 7.5, censored: false)])
    #expect(seen.transitions[3][4] == 1)
    #expect(seen.gaps.items.contains(DurationSample(seconds: 7180, censored: false)))
    // "premium" is not a yes: the property is read, the user counted as not subscribing.
    #expect(seen.existingSubscribers.known == 1 && seen.existingSubscribers.yes == 0)
  }

  @Test("a handful of dwells gets an exponential fit and a scenario that validates")
  func thinLog() throws {
    let log = """
      user_id,timestamp,screen
      u1,2024-05-01T10:00:00Z,Welcome
      u1,2024-05-01T10:00:05Z,Home
      u1,2024-05-01T10:00:35Z,Settings
      u1,2024-05-01T10:00:50Z,Home
      u1,2024-05-01T12:00:00Z,Home
      u1,2024-05-01T12:00:20Z,Settings
      u2,2024-05-01T11:00:00Z,Home
      u2,2024-05-01T11:00:40Z,Home
      """
    let folder = try TemporaryFolder("fit-thin")
    defer { folder.remove() }
    let path = try folder.write(log, to: "log.csv")
    var map = FitMap()
    map.screens = [("Welcome", .onboarding), ("Home", .home), ("Settings", .settings)]
    map.onboarding = ["Welcome"]
    let result = try ScenarioFit.fit(files: [path], map: map)
    for (summary, _) in result.screens {
      #expect(summary.chosen?.family == .exponential, "\(summary.name)")
      #expect(summary.chosen?.parameters.allSatisfy { $0.standardError.isFinite } == true)
    }
    // Home's complete dwells are 30, 20 and 40 s; its last views end unseen (at 0 s), which
    // says nothing: not counted as censored.
    let home = try #require(result.screens.first { $0.screen.name == "Home" }).screen
    #expect(home.complete == 3 && home.censored == 0)
    #expect(home.chosen?.parameters[0].value == 30)
    // Three thin screens, whole-second timestamps without a stated resolution, and no splash
    // with too few later sessions to tell warm resumes from cold launches.
    #expect(result.warnings.count == 5)
    #expect(result.warnings.contains { $0.hasPrefix("background termination probability left") })
    #expect(result.warnings.contains { $0.contains("\"timestamp_resolution\": \"1s\"") })
    #expect(result.defaults.contains { $0.contains("splash") })
    _ = try ScenarioLoader.load(json: Array(result.scenarioJSON.utf8), file: "fitted")
  }

  @Test("a map's mistakes name the key and the fix")
  func badMap() throws {
    let error = #expect(throws: FitInputError.self) {
      _ = try Self.observations("", map: #"{"screns": {}}"#, name: "map")
    }
    #expect(error?.message.contains("did you mean 'screens'?") == true)
    let kind = #expect(throws: FitInputError.self) {
      _ = try Self.observations("", map: #"{"screens": {"Home": "hom"}}"#, name: "map2")
    }
    #expect(kind?.path == #"$.screens["Home"]"#)
  }
}
