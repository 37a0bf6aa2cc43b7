import Foundation
import Testing

@testable import Simulation

/// The counters of a tally are declared once (``TallyCounters``, ``SegmentCounters``): merge,
/// checked merge, the checks and partial encoding go over every property, by name.
@Suite("Counter blocks")
struct CounterBlockTests {
  /// A tally whose every counter holds a distinct value (the counter's index plus `base`).
  func numbered(_ base: Int) -> Tally {
    var tally = Tally(screenCount: 2)
    for index in 0..<TallyCounters.fieldCount { tally.counters[counter: index] = base + index }
    for segment in tally.segments.indices {
      for index in 0..<SegmentCounters.fieldCount {
        tally.segments[segment].counters[counter: index] = base + 100 * segment + index
      }
    }
    return tally
  }

  /// The names are the stored properties, in declaration order (read by reflection, so a
  /// counter added to the struct needs no edit here), and a few the partial format relies on.
  @Test func namesAreThePropertiesInOrder() {
    let properties = Mirror(reflecting: TallyCounters()).children.compactMap(\.label)
    #expect(TallyCounters.fieldNames == properties)
    #expect(
      Array(TallyCounters.fieldNames.prefix(3)) == [
        "onboardingRunsStarted", "onboardingRunsCompleted", "onboardingRunsInterrupted",
      ])
    #expect(TallyCounters.fieldNames.contains("displayFailures"))
    #expect(TallyCounters.fieldCount == TallyCounters.fieldNames.count)
    let segmentProperties = Mirror(reflecting: SegmentCounters()).children.compactMap(\.label)
    #expect(SegmentCounters.fieldNames == segmentProperties)
    #expect(SegmentCounters.fieldNames.count == SegmentCounters.fieldCount)
  }

  /// Writing a counter by index is writing it by name.
  @Test func anIndexIsItsName() {
    var tally = Tally(screenCount: 1)
    let index = TallyCounters.fieldNames.firstIndex(of: "displayFailures")!
    tally.counters[counter: index] = 41
    #expect(tally.displayFailures == 41)
    tally.users += 2
    #expect(tally.counters.counterValues[TallyCounters.fieldNames.firstIndex(of: "users")!] == 2)
  }

  /// Merging, plain and checked, adds every counter, of the tally and of each segment.
  @Test func mergeAddsEveryCounter() {
    var plain = numbered(1)
    plain.merge(numbered(1000))
    var checked = numbered(1)
    #expect(checked.mergeChecked(numbered(1000)) == nil)
    for tally in [plain, checked] {
      for index in 0..<TallyCounters.fieldCount {
        #expect(tally.counters[counter: index] == 1001 + 2 * index, "\(index)")
      }
      for segment in tally.segments.indices {
        for index in 0..<SegmentCounters.fieldCount {
          #expect(
            tally.segments[segment].counters[counter: index] == 1001 + 200 * segment + 2 * index)
        }
      }
    }
  }

  /// A partial's tally is a flat object: every counter under its own name, read back whole.
  @Test func codingIsFlatByName() throws {
    let tally = numbered(7)
    let data = try JSONEncoder().encode(tally)
    let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    for (index, name) in TallyCounters.fieldNames.enumerated() {
      #expect(object[name] as? Int == 7 + index, "\(name)")
    }
    #expect(object["counters"] == nil)
    let segments = try #require(object["segments"] as? [[String: Any]])
    #expect(segments[1]["pending"] as? Int == 7 + 100 + 6)
    #expect(try JSONDecoder().decode(Tally.self, from: data) == tally)
    // A missing counter is named.
    var missing = object
    missing["sheetsInBreaks"] = nil
    let edited = try JSONSerialization.data(withJSONObject: missing)
    #expect {
      _ = try JSONDecoder().decode(Tally.self, from: edited)
    } throws: { error in
      "\(error)".contains("sheetsInBreaks")
    }
  }

  /// A counter out of range in a file is reported under its name.
  @Test func aNegativeCounterIsNamed() {
    var tally = Tally(screenCount: 1)
    tally.breaks = -1
    #expect(tally.problem()?.field == "breaks")
    var segment = Tally(screenCount: 1)
    segment.segments[2].fallbackFired = -3
    #expect(segment.problem()?.field == "segments[2].fallbackFired")
  }
}
