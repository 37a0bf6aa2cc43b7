import Experiments
import Foundation
import Reports
import Testing

@testable import Fitting
@testable import Simulation

/// Issue #32's monthly-arrivals target: the predictive check's row of new users' arrivals by
/// 30-day month. `round-trip.json` over 120 days with arrivals rising 1 : 1 : 2 : 4 a month is
/// simulated into `events.csv`, fitted back, and the fitted scenario simulated by the check:
/// every month's share within 3 points, and within what sampling alone gives.
@Suite("fit: the predictive check's monthly arrivals")
struct FitArrivalsCheckTests {
  static func scenario() throws -> Scenario {
    try EventsLogRoundTrip.roundTrip(
      replacing: [
        (#""horizon": "14d""#, #""horizon": "120d""#),
        (
          #""install_window": {"start": "0s", "end": "10d"}"#,
          #""install_window": {"start": "0s", "end": "120d", "weights": [1, 1, 2, 4]}"#
        ),
      ], file: "arrivals.json")
  }

  @Test func everyMonthsShareComesBack() throws {
    let truth = try Self.scenario()
    let result = try #require(
      EventsLogRoundTrip.fit(truth, users: 1500, seed: 3, name: "fit-arrivals"),
      "the round trip could not run")
    let months = result.observations.journeys.arrivalMonths
    #expect(months.keys.sorted() == [0, 1, 2, 3], "\(months)")
    let rows = EventsLogRoundTrip.checkRows(against: result, users: 6000)
    let row = try #require(rows.first { $0.name.hasPrefix("new users' arrivals by 30-day month") })
    #expect(row.passes, "\(row.observed) vs \(row.simulated): \(row.value)")
    let noise = try #require(row.noise)
    #expect(row.value <= noise, "\(row.value) beyond the noise \(noise)")
    // Without the fitted weights the row would fail: flat months against 1 : 1 : 2 : 4.
    #expect(abs(Double(months[3]!) / Double(months.values.reduce(0, +)) - 0.25) > 0.1)
  }

  /// A short log (the bundled samples span 2 days) has one month: no row.
  @Test func oneMonthGivesNoRow() {
    #expect(PredictiveCheck.arrivalRow([0: 40], [0: 400]) == nil)
    let row = PredictiveCheck.arrivalRow([0: 10, 1: 30], [0: 200, 1: 200])
    #expect(row?.value == 0.25)
    #expect(row?.observed == "month 1: 25.0% of 40")
  }
}
