import Foundation
import Synchronization
import TestSupport
import Testing

@testable import Experiments
@testable import Reports
@testable import Simulation

/// The merge holds one partial at a time: each partial added is folded into the accumulator
/// and let go, so memory does not grow with the number of partials. Checked structurally (the
/// partials alive, counted), never by measuring memory: a peak RSS depends on the machine's
/// load, and measuring it is `deferral-bench --only merge`'s job (Benchmarks/README.md).
@Suite("Merge memory")
struct PartialMemoryTests {
  /// How many ``Token``s are alive.
  final class LiveCount: Sendable {
    let value = Atomic<Int>(0)
    var now: Int { value.load(ordering: .sequentiallyConsistent) }
  }

  /// Counts itself in a ``LiveCount`` while alive: a partial's stand-in for its memory.
  final class Token: Sendable {
    let live: LiveCount
    init(_ live: LiveCount) {
      self.live = live
      live.value.add(1, ordering: .sequentiallyConsistent)
    }
    deinit { live.value.subtract(1, ordering: .sequentiallyConsistent) }
  }

  /// A partial that carries a ``Token`` and one number to sum: what ``PartialMerger`` needs of
  /// a partial and nothing more.
  struct CountedPartial: MergeablePartial {
    static let kind = "counted"
    var toolVersion = "test"
    var shards: Int
    var covers: ShardCoverage
    var events = 1
    var contentSHA256 = ""
    var total: Int
    let token: Token

    init(shard: Int, of shards: Int, total: Int, live: LiveCount) {
      self.shards = shards
      covers = ShardCoverage(shard: shard)
      self.total = total
      token = Token(live)
    }

    enum CodingKeys: String, CodingKey { case shards, total }
    init(from decoder: any Decoder) throws {
      throw DecodingError.dataCorrupted(
        .init(codingPath: [], debugDescription: "a test partial is never read from a file"))
    }
    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(shards, forKey: .shards)
      try container.encode(total, forKey: .total)
    }
    func check(path: String) throws(PartialError) {}
    func disagreement(with first: CountedPartial) -> String? {
      shards == first.shards ? nil : "another shard count"
    }
    mutating func addTallies(_ other: CountedPartial) -> (tally: String, problem: Tally.Problem)? {
      total += other.total
      return nil
    }
    func checkComplete(path: String) throws(PartialError) {}
    func encoded() throws -> String { "{}" }
  }

  /// 64 partials added one after another: after each, the accumulator (the first partial,
  /// every later one folded in) is the only partial alive, and the sum is exact: 1 + 2 + … +
  /// 64 = 2080. A merger that kept what it was given would have k alive after k partials.
  @Test func theMergerHoldsOnePartialAtATime() throws {
    let live = LiveCount()
    let count = 64
    var merger = PartialMerger<CountedPartial>()
    for shard in 0..<count {
      try merger.add(
        CountedPartial(shard: shard, of: count, total: shard + 1, live: live), path: "p\(shard)")
      #expect(live.now == 1, "\(live.now) partials alive after \(shard + 1) merged")
    }
    #expect(merger.count == count)
    let merged = try merger.result(complete: true)
    #expect(merged.total == count * (count + 1) / 2)
    #expect(merged.covers.isComplete(of: count))
    #expect(live.now == 1)
  }

  /// A refused partial (a shard given twice) is let go too, and the merger stays as it was.
  @Test func aRefusedPartialIsNotKept() throws {
    let live = LiveCount()
    var merger = PartialMerger<CountedPartial>()
    try merger.add(CountedPartial(shard: 0, of: 2, total: 5, live: live), path: "a")
    #expect(throws: PartialError.self) {
      try merger.add(CountedPartial(shard: 0, of: 2, total: 7, live: live), path: "b")
    }
    #expect(live.now == 1)
    #expect(merger.count == 1)
    #expect(try merger.result(complete: false).total == 5)
  }

  /// The file path (`PartialFile.merge`, what `deferral-sim merge --partial-out` calls) over 16
  /// files, copies of one shard renumbered (so not a whole run's users: not `complete`): every
  /// shard covered, events 16 times one partial's.
  @Test func mergingManyFilesGivesTheWholeRun() throws {
    let count = 16
    let folder = TestScratch.directory
      .appendingPathComponent("merge-files-\(count)-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    var partial = PartialTreeTests.partials[1]
    partial.shards = count
    var paths: [String] = []
    for shard in 0..<count {
      partial.covers = ShardCoverage(shard: shard)
      let path = folder.appendingPathComponent(PartialResult.fileName(shard: shard, shards: count))
      try partial.encoded().write(to: path, atomically: false, encoding: .utf8)
      paths.append(path.path)
    }
    guard case .run(let merged) = try PartialFile.merge(paths, complete: false) else {
      Issue.record("not a run's partial")
      return
    }
    #expect(merged.covers.isComplete(of: count))
    #expect(merged.events == count * PartialTreeTests.partials[1].events)
  }
}
