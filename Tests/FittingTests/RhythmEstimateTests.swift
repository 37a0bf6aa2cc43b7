import Testing

@testable import Fitting
@testable import Simulation

/// `fit`'s daily rhythm estimate (``_RhythmEstimate``) against hand-worked cases: the
/// exposure of a window by local hour of the week, exact recovery of multiplicative factors,
/// and the flatness tests.
@Suite("fit: the daily rhythm estimate")
struct RhythmEstimateTests {
  /// Epoch time 0 was Thursday 00:00 UTC: local hour-of-week index 72 (Monday 00:00 is 0).
  @Test func exposureCountsEachLocalHour() {
    // 00:30 to 03:00 UTC on Thursday 1 January 1970.
    let exposure = _RhythmEstimate.exposure(from: 1800, to: 10_800, offset: 0)
    #expect(exposure[72] == 1800 && exposure[73] == 3600 && exposure[74] == 3600)
    #expect(exposure.reduce(0, +) == 9000)
    // Two hours east: the same window is 02:30 to 05:00 local.
    let east = _RhythmEstimate.exposure(from: 1800, to: 10_800, offset: 7200)
    #expect(east[74] == 1800 && east[75] == 3600 && east[76] == 3600)
    // West across midnight: Wednesday 23:30 to Thursday 02:00 local.
    let west = _RhythmEstimate.exposure(from: 1800, to: 10_800, offset: -3600)
    #expect(west[71] == 1800 && west[72] == 3600 && west[73] == 3600)
    // Three weeks and a half hour: 3 hours in every cell, the half hour in the first one.
    let long = _RhythmEstimate.exposure(from: 0, to: 3 * 604_800 + 1800, offset: 0)
    #expect(long[72] == 3 * 3600 + 1800)
    #expect(long.enumerated().allSatisfy { $0.offset == 72 || $0.element == 3 * 3600 })
  }

  /// Counts exactly proportional to exposure × hour factor × weekday factor come back
  /// exactly (scaled to mean 1), and both flatness tests reject.
  @Test func multiplicativeFactorsComeBackExactly() {
    let hours: [Double] = (0..<24).map { Double($0 % 4 + 1) }  // 1, 2, 3, 4, 1, ...
    let days: [Double] = [1, 1, 2, 2, 1, 3, 3]
    let exposure = _RhythmEstimate.exposure(from: 0, to: 2 * 604_800, offset: 0)
    let counts = (0..<168).map { Int(10 * hours[$0 % 24] * days[$0 / 24]) }
    let estimate = _RhythmEstimate(starts: counts, exposure: exposure, span: 2 * 604_800)
    #expect(estimate.hoursFitted && estimate.weekdaysFitted)
    let hourMean = hours.reduce(0, +) / 24
    let dayMean = days.reduce(0, +) / 7
    for hour in 0..<24 { #expect(abs(estimate.hours[hour] - hours[hour] / hourMean) < 1e-9) }
    for day in 0..<7 { #expect(abs(estimate.weekdays[day] - days[day] / dayMean) < 1e-9) }
    #expect(estimate.hourTest!.p < 0.01 && estimate.weekdayTest!.p < 0.01)
  }

  /// Equal counts per hour: X² = 0, p = 1, nothing fitted; under two weeks the weekdays are
  /// not even tested.
  @Test func flatCountsAndShortWindowsStayFlat() {
    let exposure = _RhythmEstimate.exposure(from: 0, to: 2 * 604_800, offset: 0)
    let flat = _RhythmEstimate(
      starts: [Int](repeating: 5, count: 168), exposure: exposure, span: 2 * 604_800)
    #expect(!flat.hoursFitted && !flat.weekdaysFitted)
    #expect(flat.hourTest!.statistic == 0 && flat.hourTest!.p == 1)
    #expect(flat.hours == DailyRhythm.flatHours && flat.weekdays == DailyRhythm.flatWeekdays)
    // Ten days of starts only by day: the hours are fitted, the weekdays never.
    let short = _RhythmEstimate.exposure(from: 0, to: 10 * 86_400, offset: 0)
    let byDay = (0..<168).map { (8..<22).contains($0 % 24) && short[$0] > 0 ? 20 : 0 }
    let estimate = _RhythmEstimate(starts: byDay, exposure: short, span: 10 * 86_400)
    #expect(estimate.hoursFitted && !estimate.weekdaysFitted && estimate.weekdayTest == nil)
    #expect(estimate.hours[3] == 0 && estimate.hours[12] > 1)
  }

  /// Pearson's X² by hand: observed (10, 30) against equal weights: expected 20 each, X² =
  /// 100/20 + 100/20 = 10 on 1 degree of freedom.
  @Test func chiSquareByHand() throws {
    let test = try #require(_RhythmEstimate.chiSquare(observed: [10, 30], weights: [1, 1]))
    #expect(test.statistic == 10)
    #expect(abs(test.p - 0.001565402258) < 1e-9)
    #expect(_RhythmEstimate.chiSquare(observed: [0, 0], weights: [1, 1]) == nil)
  }
}
