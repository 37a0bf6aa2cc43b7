import Fitting
import Foundation
import Simulation
import TestSupport
import Testing

/// The fitting details of issue #32 item 8: whole-second timestamps fitted as intervals, zero
/// dwells that say nothing, mapped column names (a session column among them), and warnings
/// where a default stood in for what the log could decide.
@Suite("fit: timestamp resolution, empty dwells, mapped columns, warnings")
struct FitDetailsTests {
  /// `count` dwells of `spec`, each between two timestamps cut to whole seconds (the first at a
  /// uniform fraction of a second): what a log in whole seconds records.
  static func wholeSecondDwells(
    _ spec: DistributionSpec, count: Int, seed: UInt64, resolution: Double
  ) -> [DurationSample] {
    var stream = RandomStream(seed: seed, replication: 0, user: 0, purpose: .journey)
    let sampler = Sampler(spec)
    return (0..<count).map { _ in
      let start = stream.uniform() * 1000
      let end = start + sampler.draw(&stream)
      let recorded = end.rounded(.down) - start.rounded(.down)
      return DurationSample(seconds: recorded, censored: false, resolution: resolution)
    }
  }

  @Test("whole-second dwells: the interval fit recovers short dwells; reading them exact does not")
  func intervalCensoring() throws {
    // A median of 2.5 s: a whole second is a large part of every dwell.
    let truth = (median: 2.5, sigma: 0.5)
    let interval = Self.wholeSecondDwells(
      .lognormal(median: truth.median, sigma: truth.sigma), count: 4000, seed: 3, resolution: 1)
    let fitted = try #require(DurationFit.fit(interval, family: .lognormal))
    for (parameter, value) in zip(fitted.parameters, [truth.median, truth.sigma]) {
      #expect(parameter.standardError > 0)
      #expect(
        abs(parameter.value - value) <= 4 * parameter.standardError,
        "\(parameter.name): fitted \(parameter.value) ± \(parameter.standardError), true \(value)")
    }
    // The same durations read as exact (0 s as 0.5 ms): σ is far off, by many standard errors.
    let exact = interval.map { DurationSample(seconds: $0.seconds, censored: false) }
    let naive = try #require(DurationFit.fit(exact, family: .lognormal))
    #expect(abs(naive.parameters[1].value - truth.sigma) > 10 * naive.parameters[1].standardError)
  }

  @Test("the exponential fitted to whole-second intervals recovers its mean")
  func intervalExponential() throws {
    let samples = Self.wholeSecondDwells(
      .exponential(mean: 3), count: 4000, seed: 5, resolution: 1)
    let fitted = try #require(DurationFit.fit(samples, family: .exponential))
    let mean = fitted.parameters[0]
    // Its standard error for n exact draws would be 3/√n; intervals only widen it.
    #expect(mean.standardError >= 3 / 4000.0.squareRoot() * 0.9)
    #expect(
      abs(mean.value - 3) <= 4 * mean.standardError, "fitted \(mean.value) ± \(mean.standardError)")
  }

  static let map = #"{"screens": {"Splash": "launch", "Home": "home", "Feed": "content"}"#

  @Test(
    "a zero dwell at a session's end is neither complete nor censored; with a resolution, a zero complete dwell is an interval"
  )
  func zeroDwells() throws {
    let log = """
      user_id,timestamp,screen
      u1,2024-05-01T10:00:00Z,Home
      u1,2024-05-01T10:00:00Z,Feed
      u1,2024-05-01T10:00:30Z,Home
      """
    let seen = try FitLogFormatTests.observations(
      log, map: Self.map + #", "timestamp_resolution": "1s"}"#, name: "zero")
    // Home: 0 s complete (an interval (0, 1)), then a last view with nothing after it.
    #expect(seen.completeDwells[1] == 1 && seen.censoredDwells[1] == 0 && seen.emptyDwells[1] == 1)
    #expect(seen.dwell[1].items == [DurationSample(seconds: 0, censored: false, resolution: 1)])
    #expect(seen.dwell[1].items[0].bounds == (0, 1))
    #expect(seen.zeroDwells == 1 && seen.wholeSecondTimes)
  }

  @Test("columns: a log's own column names, a session column among them, in CSV and JSON lines")
  func mappedColumns() throws {
    // Two sessions 10 minutes apart: one session by the timeout, two by the visit column.
    let csv = """
      uid,ts,page,visit
      a,1714557600,Home,1
      a,1714557630,Feed,1
      a,1714558230,Home,2
      """
    let columns =
      #", "columns": {"user_id": "uid", "timestamp": "ts", "screen": "page", "session": "visit"}}"#
    let seen = try FitLogFormatTests.observations(csv, map: Self.map + columns, name: "cols")
    #expect(seen.namedSessions && seen.journeys.sessions == 2 && seen.users == 1)
    #expect(seen.unreadColumns.isEmpty)
    let jsonLines = """
      {"uid": "a", "ts": 1714557600, "page": "Home", "visit": 1}
      {"uid": "a", "ts": 1714557630, "page": "Feed", "visit": 1}
      {"uid": "a", "ts": 1714558230, "page": "Home", "visit": 2}
      """
    let json = try FitLogFormatTests.observations(jsonLines, map: Self.map + columns, name: "cj")
    #expect(json.journeys.sessions == 2)
    // Without the map's columns, JSON lines' session_id is read too.
    let plain = """
      {"user_id": "a", "timestamp": 1714557600, "screen": "Home", "session_id": 1}
      {"user_id": "a", "timestamp": 1714558230, "screen": "Home", "session_id": 2}
      {"user_id": "a", "timestamp": 1714558290, "screen": "Home", "session_id": 3}
      """
    let ids = try FitLogFormatTests.observations(plain, map: Self.map + "}", name: "sid")
    #expect(ids.journeys.sessions == 3)
    // A CSV column no field reads is named (a warning in the fit).
    let unread = try FitLogFormatTests.observations(
      csv,
      map: Self.map + #", "columns": {"user_id": "uid", "timestamp": "ts", "screen": "page"}}"#,
      name: "unread")
    #expect(unread.unreadColumns == ["visit"] && unread.journeys.sessions == 1)
  }

  @Test("utc_offset moves session starts into the log's local hours")
  func localHours() throws {
    let log = """
      user_id,timestamp,screen
      a,2024-05-01T06:30:00Z,Home
      """
    let utc = try FitLogFormatTests.observations(log, map: Self.map + "}", name: "utc")
    #expect(utc.journeys.startHours[6] == 1)
    let local = try FitLogFormatTests.observations(
      log, map: Self.map + #", "utc_offset": "+02:00"}"#, name: "local")
    #expect(local.journeys.startHours[8] == 1)
  }

  @Test("a map's new keys refuse bad values with the key's path and the fix")
  func badDetails() throws {
    let cases: [(String, String, String)] = [
      (#", "timestamp_resolution": "0s"}"#, "$.timestamp_resolution", "1ms to 1m"),
      (#", "utc_offset": "+15:00"}"#, "$.utc_offset", "+HH:MM"),
      (#", "columns": {"sesion": "x"}}"#, "$.columns.sesion", "did you mean 'session'?"),
      (#", "columns": {"session": 3}}"#, "$.columns.session", "column's name"),
    ]
    for (index, (tail, path, fragment)) in cases.enumerated() {
      let error = #expect(throws: FitInputError.self) {
        _ = try FitLogFormatTests.observations("", map: Self.map + tail, name: "bad\(index)")
      }
      #expect(error?.path == path, "\(tail)")
      #expect(error?.message.contains(fragment) == true, "\(error?.message ?? "")")
    }
    let missing = #expect(throws: FitInputError.self) {
      _ = try FitLogFormatTests.observations(
        "user_id,timestamp,screen\na,1714557600,Home\n",
        map: Self.map + #", "columns": {"session": "visit"}}"#, name: "nocol")
    }
    #expect(missing?.message.contains("columns.session 'visit' is not in the header") == true)
  }

  @Test("an event that ends nearly every session is named in a warning (a session end unmapped?)")
  func endingEvent() throws {
    var rows = ["user_id,timestamp,screen,event"]
    for user in 0..<12 {
      let start = 1_714_557_600 + user * 7200
      rows.append("u\(user),\(start),Home,screen_view")
      rows.append("u\(user),\(start + 20 + user),Feed,screen_view")
      rows.append("u\(user),\(start + 80 + user),Feed,ping")
    }
    let folder = try TemporaryFolder("fit-ending")
    defer { folder.remove() }
    let path = try folder.write(lines: rows, to: "log.csv")
    var map = FitMap()
    map.screens = [("Home", .home), ("Feed", .content)]
    let result = try ScenarioFit.fit(files: [path], map: map)
    #expect(result.observations.endingEvents == ["ping": 12])
    #expect(result.warnings.contains { $0.hasPrefix("12 of 12 sessions end on 'ping'") })
    map.sessionEndEvents = ["ping"]
    let mapped = try ScenarioFit.fit(files: [path], map: map)
    #expect(mapped.observations.endingEvents.isEmpty)
    #expect(!mapped.warnings.contains { $0.contains("sessions end on") })
  }
}
