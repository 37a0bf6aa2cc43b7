import Experiments
import Foundation
import Reports
import Testing

@testable import Fitting
@testable import Simulation

/// Issue #32 item 6 through a round trip: `round-trip.json` with a daily and weekly rhythm,
/// simulated into `events.csv`, fitted back; the weights within sampling errors derived from
/// the counts, hours of weight 0 at 0, the gap refitted on the active clock, and the
/// predictive check's clock rows passing. A flat log keeps no rhythm.
@Suite("fit: the daily rhythm")
struct FitRhythmRoundTripTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  /// None at night (00:00–06:00), 1 in the shoulders, 3 from 08:00 to 22:00.
  static let hours: [Double] = (0..<24).map { hour in
    hour < 6 ? 0 : (8..<22).contains(hour) ? 3 : 1
  }
  static let weekdays: [Double] = [1, 1, 1, 1, 1, 2, 2]

  /// The events log of `round-trip.json` (14 days) with the rhythm or without, fitted. Time 0
  /// of the log is epoch 0, a Thursday 00:00 UTC, so the scenario's time zero says so.
  static func fit(rhythm: Bool, users: Int) -> FitResult? {
    guard
      var text = try? String(
        contentsOf: root.appendingPathComponent("scenarios/fit-samples/round-trip.json"),
        encoding: .utf8)
    else { return nil }
    if rhythm {
      let list = { (weights: [Double]) in weights.map { "\($0)" }.joined(separator: ", ") }
      text = text.replacingOccurrences(
        of: #""fetch_delay": {"fixed": "1s"}"#,
        with: #""fetch_delay": {"fixed": "1s"}, "daily_rhythm": {"hours": ["# + list(hours)
          + #"], "weekdays": ["# + list(weekdays) + #"], "time_zero": "thursday 00:00"}"#)
    }
    guard let scenario = try? ScenarioLoader.load(json: Array(text.utf8), file: "rhythm.json")
    else { return nil }
    return EventsLogRoundTrip.fit(scenario, users: users, seed: 5, name: "fit-rhythm-\(rhythm)")
  }

  static let rhythmic = fit(rhythm: true, users: 1500)

  /// The ratio of two groups' mean fitted weights against the truth: its logarithm's standard
  /// error from the starts counted in each group, √(1/n₁ + 1/n₂), z = 4.5.
  static func checkRatio(
    _ fitted: [Double], _ truth: [Double], _ starts: [Int], _ high: [Int], _ low: [Int]
  ) {
    func mean(_ values: [Double], _ group: [Int]) -> Double {
      group.reduce(0) { $0 + values[$1] } / Double(group.count)
    }
    let ratio = mean(fitted, high) / mean(fitted, low)
    let expected = mean(truth, high) / mean(truth, low)
    let n1 = Double(high.reduce(0) { $0 + starts[$1] })
    let n2 = Double(low.reduce(0) { $0 + starts[$1] })
    let se = (1 / n1 + 1 / n2).squareRoot()
    #expect(abs(log(ratio / expected)) < 4.5 * se, "ratio \(ratio), truth \(expected) (se \(se))")
  }

  @Test func theWeightsComeBack() throws {
    let result = try #require(Self.rhythmic)
    let rhythm = try #require(result.scenario.sessions.dailyRhythm)
    #expect(rhythm.utcOffset == 0)
    #expect(rhythm.timeZero == 3 * 86_400)
    // Nobody starts a session in an hour of weight 0, so the fit gives it 0.
    #expect(rhythm.hours[0..<6].allSatisfy { $0 == 0 }, "\(rhythm.hours)")
    let byWeekHour = result.observations.startsByWeekHour
    let byHour = (0..<24).map { hour in (0..<7).reduce(0) { $0 + byWeekHour[$1 * 24 + hour] } }
    let byDay = (0..<7).map { day in (0..<24).reduce(0) { $0 + byWeekHour[day * 24 + $1] } }
    Self.checkRatio(rhythm.hours, Self.hours, byHour, Array(8..<22), [6, 7, 22, 23])
    Self.checkRatio(rhythm.weekdays, Self.weekdays, byDay, [5, 6], Array(0..<5))
    #expect(result.estimates.contains { $0.name == "hour-of-day weights" })
    #expect(result.estimates.contains { $0.name == "weekday weights" })
    #expect(result.gap.name.contains("active time"))
  }

  @Test func thePredictiveCheckPassesOnTheClockRows() throws {
    let result = try #require(Self.rhythmic)
    let rows = EventsLogRoundTrip.checkRows(against: result, users: 6000)
    for name in [
      "session starts 08:00–22:00", "hour-of-day profile of session starts (24 hours)",
      "gap between sessions", "sessions per user",
    ] {
      let row = try #require(rows.first { $0.name == name })
      #expect(row.passes, "\(name): \(row.measure.rawValue) \(row.value) (\(row.tolerance))")
      // Within what sampling alone gives at 1%: with the gap fitted on the real clock instead
      // the gap's KS D was 0.095 (noise 0.009) and sessions per user's 0.087 (noise 0.047).
      let noise = try #require(row.noise)
      #expect(row.value <= noise, "\(name): \(row.value) beyond the noise \(noise)")
    }
  }

  /// Without a rhythm the chi-square cannot reject flatness (at 1%, about one seed in a
  /// hundred would): no `daily_rhythm`, the gap fitted on the real clock.
  @Test func aFlatLogKeepsNoRhythm() throws {
    let result = try #require(Self.fit(rhythm: false, users: 600))
    #expect(result.scenario.sessions.dailyRhythm == nil)
    #expect(!result.scenarioJSON.contains("daily_rhythm"))
    #expect(result.defaults.contains { $0.hasPrefix("session starts flat over the hours") })
    #expect(!result.gap.name.contains("active time"))
  }
}
