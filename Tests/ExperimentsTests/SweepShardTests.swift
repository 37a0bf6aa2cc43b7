import Foundation
import MessageDeferral
import Simulation
import TestSupport
import Testing

@testable import Experiments
@testable import Reports

@Suite("Sweep shards and exact merge")
struct SweepShardTests {
  /// On the embedded default scenario: 2 scenario points × (1 preset + 2 policy points), 5 blocks
  /// of 32 users per replication.
  static let source = """
    {"users": 150, "replications": 2, "seed": 7,
     "policy": {"preset": "deadline-aware"},
     "grid": {"policy.sheets_per_break": [1, 2],
              "scenario.population.new_user_share": [0.3, 0.5]},
     "compare": ["storekit-auto"]}
    """

  static func plan(_ source: String = SweepShardTests.source) throws -> SweepPlan {
    try SweepPlan.load(source: source, file: "tiny.json")
  }

  /// The three files a sweep writes, as text.
  static func files(_ outcome: SweepOutcome, plan: SweepPlan) -> [String] {
    [
      outcome.sweep.text, outcome.pareto.text,
      HTMLReport.renderSweep(name: "tiny", outcome: outcome, pareto: plan.pareto),
    ]
  }

  static func partial(
    _ plan: SweepPlan, shard: Int, of shards: Int, tallies: [[[Tally]]]? = nil
  ) throws -> SweepPartial {
    let tallies =
      try tallies
      ?? plan.simulate(jobs: 2, shard: (shard, shards), blockSize: 32, file: "tiny.json")
    let written = try SweepPartial(
      toolVersion: "test", sweepName: "tiny", plan: plan, file: "tiny.json", blockSize: 32,
      shard: shard, shards: shards, tallies: tallies)
    // Through the file format and back.
    return try JSONDecoder().decode(SweepPartial.self, from: Data(written.encoded().utf8))
  }

  /// Merging the partials of N shards of a sweep, in any order, gives byte-identical
  /// sweep.csv, pareto.csv and report.html to the sweep run whole.
  @Test(arguments: [1, 2, 3, 7])
  func mergeIsExact(shards: Int) throws {
    let plan = try Self.plan()
    let whole = try plan.outcome(
      tallies: plan.simulate(jobs: 2, blockSize: 32, file: "tiny.json"), file: "tiny.json")
    let expected = Self.files(whole, plan: plan)
    #expect(whole.points == 6)
    let partials = try (0..<shards).map { try Self.partial(plan, shard: $0, of: shards) }
    for order in [Array(partials.indices), partials.indices.reversed()] {
      let merged = try SweepPartial.merge(order.map { partials[$0] }, paths: order.map { "p\($0)" })
      #expect(merged.events == whole.events)
      let (mergedPlan, outcome) = try merged.outcome()
      #expect(Self.files(outcome, plan: mergedPlan) == expected)
      #expect(outcome.frontLines == whole.frontLines)
    }
  }

  @Test func refusesMissingDuplicatedAndForeignShards() throws {
    let plan = try Self.plan()
    let other = try Self.plan(
      Self.source.replacingOccurrences(of: "\"seed\": 7", with: "\"seed\": 8"))
    let empty = try plan.pointRuns(file: "tiny.json").map { run in
      Array(
        repeating: Array(
          repeating: Tally(screenCount: run.scenario.screens.count),
          count: run.scenario.policies.count),
        count: run.scenario.replications)
    }
    func partial(_ index: Int, of count: Int, plan: SweepPlan = plan) throws -> SweepPartial {
      try Self.partial(plan, shard: index, of: count, tallies: empty)
    }
    let cases: [([SweepPartial], String)] = [
      ([try partial(1, of: 3), try partial(0, of: 3)], "missing shard(s) 2"),
      ([try partial(0, of: 2), try partial(0, of: 2)], "given twice"),
      ([try partial(0, of: 2), try partial(1, of: 2, plan: other)], "a different sweep file"),
      ([try partial(0, of: 2), try partial(1, of: 3)], "shards"),
    ]
    for (partials, message) in cases {
      #expect {
        try SweepPartial.merge(partials, paths: partials.indices.map { "p\($0)" })
      } throws: { error in
        (error as? PartialError)?.message.contains(message) == true
      }
    }
  }

  /// A partial whose tallies do not fit its points is refused when read, never merged (which
  /// would index out of range).
  @Test func refusesAnEditedPartial() throws {
    let plan = try Self.plan()
    var partial = try Self.partial(plan, shard: 0, of: 1)
    partial.tallies[1].removeLast()
    partial.tallies[0][0][0].issued.lanes.removeLast()
    let path = TestScratch.directory
      .appendingPathComponent("edited-\(UUID().uuidString).json").path
    try partial.encoded().write(toFile: path, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(atPath: path) }
    #expect {
      try PartialFile.read(contentsOf: path)
    } throws: { error in
      (error as? PartialError)?.message.contains("edited or truncated") == true
    }
  }
}

@Suite("Bundled sweep files")
struct BundledSweepTests {
  static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(
      "scenarios/sweeps")

  /// Every sweep in scenarios/sweeps loads: its scenario, every grid point and preset check.
  @Test func everyBundledSweepLoads() throws {
    let files = try FileManager.default.contentsOfDirectory(atPath: Self.folder.path)
      .filter { $0.hasSuffix(".json") }.sorted()
    #expect(files.count >= 2)
    for file in files {
      let plan = try SweepPlan.load(contentsOf: Self.folder.appendingPathComponent(file).path)
      #expect(plan.parameters.reduce(1) { $0 * $1.values.count } >= 12, "\(file)")
    }
  }
}

@Suite("Sweep report's trade-off plot")
struct SweepTradeOffTests {
  /// The plot's y is the sweep's own y metric when that is a duration (here the consent hold)
  /// or a rate (deadlines missed, on a linear axis), and consent p99 latency otherwise.
  @Test(arguments: [
    ("consent_hold_p99_s", "consent_hold_p99_s", "Consent hold p99, log scale"),
    (
      "consent_deadline_miss_rate", "consent_deadline_miss_rate",
      "Consent deadlines missed (lower is better)"
    ),
    ("fallback_fired", "consent_latency_p99_s", "Consent latency p99, log scale"),
  ])
  func plotsTheSweepsDurationMetric(y: String, plotted: String, axis: String) throws {
    let source = SweepShardTests.source.replacingOccurrences(
      of: "\"compare\"",
      with: "\"pareto\": [\"onboarding_interruption_rate\", \"\(y)\"], \"compare\"")
    let plan = try SweepShardTests.plan(source)
    let outcome = try plan.run(jobs: 2, file: "tiny.json")
    #expect(outcome.tradeOffMetric.name == plotted)
    let index = try #require(MetricID(name: plotted)).index
    #expect(!outcome.tradeOff.isEmpty)
    // Every plotted point carries that metric's mean, as sweep.csv has it.
    let rows = outcome.sweep.text.split(separator: "\n").map {
      $0.split(separator: ",", omittingEmptySubsequences: false)
    }
    for point in outcome.tradeOff {
      // "p3" for a grid point (its policy is named after it), "s1 storekit-auto" for a preset.
      let parts = point.label.split(separator: " ")
      let policy = parts.count > 1 ? parts[1] : parts[0]
      let row = try #require(
        rows.first {
          $0.count > 5 && $0[0] == parts[0] && $0[1] == policy
            && $0[$0.count - 5] == Metric.all[index].name[...]
        })
      #expect(Double(row[row.count - 4]) == point.duration.mean)
    }
    let html = HTMLReport.renderSweep(name: "tiny", outcome: outcome, pareto: plan.pareto)
    #expect(html.contains(axis))
  }
}
