import Reports
import Testing

@Suite("Mean and Student-t interval")
struct MeanIntervalTests {
  /// Values 1...5: mean 3, s = √2.5, t(0.975, 4) = 2.776445105 (table).
  @Test func matchesHandComputedInterval() throws {
    let interval = try #require(MeanInterval(values: [1, 2, 3, 4, 5]))
    let half = 2.776_445_105 * (2.5).squareRoot() / (5.0).squareRoot()
    #expect(interval.mean == 3)
    #expect(abs(interval.low - (3 - half)) < 1e-9)
    #expect(abs(interval.high - (3 + half)) < 1e-9)
    #expect(interval.count == 5)
  }

  @Test func singleValueHasZeroWidthAndEmptyHasNone() throws {
    let single = try #require(MeanInterval(values: [7]))
    #expect(single.low == 7 && single.high == 7)
    #expect(MeanInterval(values: []) == nil)
  }
}
