import Foundation
import MessageDeferral
import Testing

@testable import Simulation

/// ``PerReason``: indexed by reason or lane, one lane per ``Reason/laneIndex``, and encoded
/// as the plain array the tally's per-reason fields always were.
@Suite("Per-reason lanes")
struct PerReasonTests {
  @Test func reasonsIndexTheirLanes() {
    var counts = PerReason(repeating: 0)
    #expect(counts.count == Reason.laneCount)
    counts[.priceIncreaseConsent] += 3
    counts[.billingIssue] += 1
    counts[.unknown(rawValue: 7)] += 2
    counts[.unknown(rawValue: 9)] += 5
    #expect(counts[0] == 3)
    #expect(counts[1] == 1)
    #expect(counts[Reason.unknown(rawValue: 1).laneIndex] == 7, "unknown reasons share a lane")
    #expect(Array(counts) == [3, 1, 0, 0, 7])
    #expect(counts.reduce(0, +) == 11)
    for reason in Reason.known + [.unknown(rawValue: 0)] {
      #expect(reason.laneIndex < Reason.laneCount)
    }
  }

  /// A tally's lanes encode exactly as `[Int]` and `[LatencyHistogram]` arrays did, so
  /// partial files keep their bytes.
  @Test func encodesAsAPlainArray() throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    let lanes: PerReason<Int> = [4, 0, 2, 0, 1]
    #expect(try encoder.encode(lanes) == encoder.encode([4, 0, 2, 0, 1]))
    var histogram = LatencyHistogram()
    histogram.record(2.5)
    var histograms = PerReason(repeating: LatencyHistogram())
    histograms[.priceIncreaseConsent] = histogram
    #expect(try encoder.encode(histograms) == encoder.encode(histograms.lanes))
    let decoded = try JSONDecoder().decode(
      PerReason<Int>.self, from: Data("[1,2,3,4,5]".utf8))
    #expect(decoded == [1, 2, 3, 4, 5])
  }
}
