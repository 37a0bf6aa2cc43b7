import Foundation
import MessageDeferral
import Simulation
import TestSupport
import Testing

@testable import Experiments
@testable import Reports

/// Merges of merges (`merge --partial-out`): any tree of merges over any order of the shards
/// gives the same files as one run; overlapping and incomplete trees are refused.
@Suite("Merges of merges")
struct PartialTreeTests {
  static let shards = 12
  static let blockSize = 8

  /// The 12 shards of ShardMergeTests' scenario (200 users × 2 replications, blocks of 8: 50
  /// work items), each through the file format and back.
  static let partials: [PartialResult] = {
    let scenario = ShardMergeTests.scenario
    return (0..<shards).map { shard in
      let result = try! Engine.run(
        CompiledScenario(scenario), policies: scenario.policies,
        options: RunOptions(
          users: scenario.users, replications: scenario.replications, seed: scenario.seed,
          jobs: 2, blockSize: blockSize, shard: (shard, shards)))
      let partial = PartialResult(
        toolVersion: "test", scenarioSource: ShardMergeTests.source, scenario: scenario,
        blockSize: blockSize, shard: shard, shards: shards, result: result)
      return try! roundTrip(partial, path: "partial-\(shard)-of-\(shards).json")
    }
  }()

  /// The files of the same run without shards.
  static let single: [String] = {
    let scenario = ShardMergeTests.scenario
    let result = try! Engine.run(
      CompiledScenario(scenario), policies: scenario.policies,
      options: RunOptions(
        users: scenario.users, replications: scenario.replications, seed: scenario.seed,
        jobs: 2, blockSize: blockSize))
    return ShardMergeTests.files(result)
  }()

  /// `partial` written as a file's text and read back with every check a file gets.
  static func roundTrip<Partial: MergeablePartial>(
    _ partial: Partial, path: String
  ) throws -> Partial {
    let decoded = try JSONDecoder().decode(Partial.self, from: Data(partial.encoded().utf8))
    try decoded.check(path: path)
    return decoded
  }

  /// Merges `partials` level by level in groups of `fanIn` (each group written as a partial
  /// and read back), then the last level whole.
  static func tree<Partial: MergeablePartial>(_ partials: [Partial], fanIn: Int) throws -> Partial {
    var level = partials
    var depth = 0
    while level.count > fanIn {
      depth += 1
      level = try stride(from: 0, to: level.count, by: fanIn).map { start in
        var merger = PartialMerger<Partial>()
        for index in start..<min(start + fanIn, level.count) {
          try merger.add(level[index], path: "level\(depth - 1)-\(index)")
        }
        return try roundTrip(merger.result(complete: false), path: "level\(depth)-\(start)")
      }
    }
    var merger = PartialMerger<Partial>()
    for (index, partial) in level.enumerated() { try merger.add(partial, path: "top-\(index)") }
    return try merger.result(complete: true)
  }

  /// A seeded shuffle (SplitMix64), so a failing order can be replayed from its seed; seed 0
  /// keeps the order.
  static func shuffled<Element>(_ elements: [Element], seed: UInt64) -> [Element] {
    guard seed != 0 else { return elements }
    var generator = SplitMix64(seed: seed)
    return elements.shuffled(using: &generator)
  }

  /// Trees of fan-in 2, 3 and 7 over the shards in their order and in shuffled orders give the
  /// files of the run without shards, byte for byte, and the flat merge's counts.
  @Test(arguments: [2, 3, 7], [0, 1, 2] as [UInt64])
  func treeMergeEqualsFlatMergeAndSingleRun(fanIn: Int, seed: UInt64) throws {
    let order = Self.shuffled(Self.partials, seed: seed)
    let tree = try Self.tree(order, fanIn: fanIn)
    let flat = try PartialResult.merge(
      Self.partials, paths: Self.partials.indices.map { "p\($0)" })
    // Every count agrees; histogram sums of durations (floating point, read by no report)
    // may differ in their last bits with the order of additions.
    #expect(
      zip(tree.tallies.joined(), flat.tallies.joined()).allSatisfy { tree, flat in
        tree.issued == flat.issued && tree.displayed == flat.displayed
          && tree.latency.map(\.binCounts) == flat.latency.map(\.binCounts)
          && tree.hold.map(\.binCounts) == flat.hold.map(\.binCounts)
          && tree.latencySumMilliseconds == flat.latencySumMilliseconds
      }, "fan-in \(fanIn), seed \(seed)")
    #expect(tree.events == flat.events)
    #expect(tree.covers.isComplete(of: Self.shards))
    let files = ShardMergeTests.files(
      RunResult(policies: ShardMergeTests.scenario.policies, tallies: tree.tallies))
    #expect(files == Self.single, "fan-in \(fanIn), seed \(seed)")
  }

  /// A merge of any subset covers exactly that subset, in canonical ranges.
  @Test func partialMergeCoversItsSubset() throws {
    var merger = PartialMerger<PartialResult>()
    for shard in [9, 0, 3, 2, 1, 11] { try merger.add(Self.partials[shard], path: "p\(shard)") }
    let merged = try Self.roundTrip(merger.result(complete: false), path: "merged")
    #expect(merged.covers.description == "0-3, 9, 11")
    #expect(merged.covers.missing(of: Self.shards) == "4-8, 10")
    #expect(merged.shards == Self.shards)
    #expect {
      try merger.result(complete: true)
    } throws: { error in
      (error as? PartialError)?.message.contains("missing shard(s) 4-8, 10 of 12") == true
    }
  }

  /// Overlapping merges, a shard given again beside a merge that holds it, and a tree with a
  /// gap are refused.
  @Test func refusesOverlappingAndIncompleteTrees() throws {
    func merge(_ shards: [Int]) throws -> PartialResult {
      var merger = PartialMerger<PartialResult>()
      for shard in shards { try merger.add(Self.partials[shard], path: "p\(shard)") }
      return try Self.roundTrip(merger.result(complete: false), path: "m")
    }
    let low = try merge(Array(0...5))
    let middle = try merge(Array(5...8))
    let high = try merge(Array(7...11))
    let cases: [([PartialResult], String)] = [
      ([low, middle, high], "shard 5 given twice: a and b"),
      ([low, Self.partials[3], high], "shard 3 given twice: a and b"),
      ([low, high], "missing shard(s) 6 of 12"),
      ([high, try merge([6]), try merge([0, 1, 2])], "missing shard(s) 3-5 of 12"),
    ]
    for (partials, message) in cases {
      #expect {
        try PartialResult.merge(partials, paths: ["a", "b", "c"])
      } throws: { error in
        (error as? PartialError)?.message.contains(message) == true
      }
    }
  }

  /// A merge of sweep shards written as a partial and merged again gives the sweep's files.
  @Test func sweepTreeEqualsSweepRunWhole() throws {
    let plan = try SweepShardTests.plan()
    let whole = try plan.outcome(
      tallies: plan.simulate(jobs: 2, blockSize: 32, file: "tiny.json"), file: "tiny.json")
    let partials = try (0..<5).map { try SweepShardTests.partial(plan, shard: $0, of: 5) }
    let tree = try Self.tree(Self.shuffled(partials, seed: 3), fanIn: 2)
    let (mergedPlan, outcome) = try tree.outcome()
    #expect(
      SweepShardTests.files(outcome, plan: mergedPlan)
        == SweepShardTests.files(whole, plan: plan))
  }
}
