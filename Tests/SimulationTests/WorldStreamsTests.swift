import Testing

@testable import Simulation

/// The world's random streams are listed once (``_WorldStreams/forEach(_:)``): every purpose but
/// the policy's, each once, in the fork's slots 0 ..< ``_WorldStreams/count``.
@Suite("World streams")
struct WorldStreamsTests {
  @Test func everyWorldPurposeHasOneSlot() {
    var streams = _WorldStreams()
    var purposes: [StreamPurpose] = []
    var slots: [Int] = []
    streams.forEach { _, purpose, slot in
      purposes.append(purpose)
      slots.append(slot)
    }
    #expect(slots == Array(0..<_WorldStreams.count))
    #expect(Set(purposes) == Set(StreamPurpose.allCases).subtracting([.policy]))
    #expect(purposes.count == Set(purposes).count)
    var borrowed: [Int] = []
    streams.forEachStream { _, slot in borrowed.append(slot) }
    #expect(borrowed == slots)
  }

  /// Each stream is reseeded with its own purpose: it draws what a fresh stream of that
  /// purpose draws.
  @Test func reseedingGivesEachStreamItsPurpose() {
    var streams = _WorldStreams()
    streams.reseed(seed: 11, replication: 2, user: 5)
    var drawn: [StreamPurpose: Double] = [:]
    streams.forEach { stream, purpose, _ in drawn[purpose] = stream.uniform() }
    for (purpose, value) in drawn {
      var fresh = RandomStream(seed: 11, replication: 2, user: 5, purpose: purpose)
      #expect(fresh.uniform() == value, "\(purpose)")
    }
  }
}
