import Foundation
import MessageDeferral
import Reports
import Simulation
import Testing

@testable import Experiments

@Suite("Shards and exact merge")
struct ShardMergeTests {
  static let scenario: Scenario = {
    var scenario = ScenarioLoader.embeddedDefault()
    // Small enough for a debug build: 7 blocks of 32 users per replication.
    scenario.users = 200
    scenario.replications = 2
    scenario.policies = scenario.policies.filter {
      ["storekit-auto", "screen-gate-ceiling", "deadline-aware"].contains($0.name)
    }
    return scenario
  }()
  static let source = ScenarioLoader.embeddedDefaultJSON

  static func files(_ result: RunResult) -> [String] {
    RunReport(scenario: scenario, result: result, baseline: scenario.baseline).files.map(
      \.table.text)
  }

  static func run(shard: (Int, Int)?) throws -> RunResult {
    try Engine.run(
      CompiledScenario(scenario), policies: scenario.policies,
      options: RunOptions(
        users: scenario.users, replications: scenario.replications, seed: scenario.seed, jobs: 2,
        blockSize: 32, shard: shard))
  }

  /// Merging the partials of N shards, in any order, gives byte-identical CSVs to one run.
  @Test(arguments: [1, 2, 3, 7])
  func mergeIsExact(shards: Int) throws {
    let single = try Self.files(Self.run(shard: nil))
    var partials: [PartialResult] = []
    for index in 0..<shards {
      let result = try Self.run(shard: (index, shards))
      let partial = PartialResult(
        toolVersion: "test", scenarioSource: Self.source, scenario: Self.scenario, blockSize: 32,
        shard: index, shards: shards, result: result)
      // Through the file format and back.
      let text = try partial.encoded()
      partials.append(try JSONDecoder().decode(PartialResult.self, from: Data(text.utf8)))
    }
    for order in [Array(partials.indices), partials.indices.reversed()] {
      let merged = try PartialResult.merge(
        order.map { partials[$0] }, paths: order.map { "p\($0)" })
      let files = Self.files(RunResult(policies: Self.scenario.policies, tallies: merged.tallies))
      #expect(files == single)
    }
  }

  @Test func refusesMissingDuplicatedAndForeignShards() throws {
    func partial(_ index: Int, of count: Int, seed: UInt64 = 42) throws -> PartialResult {
      var scenario = Self.scenario
      scenario.seed = seed
      return PartialResult(
        toolVersion: "test", scenarioSource: Self.source, scenario: scenario, blockSize: 32,
        shard: index, shards: count,
        result: RunResult(
          policies: scenario.policies,
          tallies: Array(
            repeating: Array(
              repeating: Tally(screenCount: scenario.screens.count), count: scenario.policies.count),
            count: scenario.replications)))
    }
    let cases: [([PartialResult], String)] = [
      ([try partial(0, of: 2)], "missing shard(s) 1"),
      ([try partial(0, of: 2), try partial(0, of: 2)], "given twice"),
      ([try partial(0, of: 2), try partial(1, of: 2, seed: 7)], "seed"),
      ([try partial(0, of: 2), try partial(1, of: 3)], "shards"),
    ]
    for (partials, message) in cases {
      #expect {
        try PartialResult.merge(partials, paths: partials.indices.map { "p\($0)" })
      } throws: { error in
        (error as? PartialError)?.message.contains(message) == true
      }
    }
  }
}
