import Foundation
import MessageDeferral
import Reports
import Simulation

/// What one shard of a sweep (`sweep --shard K/N`) writes: shard K of N of every scenario
/// point's work, and the sweep and scenario texts, so `merge` needs nothing else.
///
/// Format (JSON, `partial-K-of-N.json`; documented in results/README.md): `format`
/// (`"deferral-sim-sweep-partial"`), `format_version` (2), `tool_version`, `sweep_name`,
/// `sweep_source` and `sweep_sha256`, `scenario_source` and `scenario_sha256`, `block_size`,
/// `covers` (the shards held, see ``ShardCoverage``), `shards`, `events`, `content_sha256`,
/// `point_policies` (per scenario point, the policy names in report order), and
/// `tallies[scenario point][replication][policy]`, the same integer accumulators as a run's
/// partial result, so merging is exact in any order. `merge --partial-out` writes the union
/// of several in the same format.
public struct SweepPartial: Codable, Sendable {
  public static let formatName = "deferral-sim-sweep-partial"
  public static let formatVersion = 2

  public var format = SweepPartial.formatName
  public var formatVersion = SweepPartial.formatVersion
  public var toolVersion: String
  /// The sweep file's name without its extension: the default output folder is
  /// `results/sweep-<name>/`.
  public var sweepName: String
  public var sweepSource: String
  public var sweepSHA256: String
  public var scenarioSource: String
  public var scenarioSHA256: String
  public var blockSize: Int
  public var covers: ShardCoverage
  public var shards: Int
  public var events: Int
  public var contentSHA256 = ""
  public var pointPolicies: [[String]]
  public var tallies: [[[Tally]]]

  enum CodingKeys: String, CodingKey {
    case format, formatVersion = "format_version", toolVersion = "tool_version"
    case sweepName = "sweep_name", sweepSource = "sweep_source", sweepSHA256 = "sweep_sha256"
    case scenarioSource = "scenario_source", scenarioSHA256 = "scenario_sha256"
    case blockSize = "block_size", covers, shards, events, contentSHA256 = "content_sha256"
    case pointPolicies = "point_policies", tallies
  }

  public init(
    toolVersion: String, sweepName: String, plan: SweepPlan, file: String, blockSize: Int,
    shard: Int, shards: Int, tallies: [[[Tally]]]
  ) throws {
    self.toolVersion = toolVersion
    self.sweepName = sweepName
    sweepSource = plan.source
    sweepSHA256 = SHA256.hex(Array(plan.source.utf8))
    scenarioSource = plan.scenarioSource
    scenarioSHA256 = SHA256.hex(Array(plan.scenarioSource.utf8))
    self.blockSize = blockSize
    covers = ShardCoverage(shard: shard)
    self.shards = shards
    events = tallies.reduce(0) { sum, point in
      point.reduce(sum) { sum, row in row.reduce(sum) { $0 + $1.events } }
    }
    pointPolicies = try plan.pointRuns(file: file).map { $0.scenario.policies.map(\.name) }
    self.tallies = tallies
  }

  /// The replications of every scenario point (a grid may vary `scenario.replications`).
  public var replications: [Int] { tallies.map(\.count) }

  /// The file's text, with its ``contentSHA256`` filled in.
  public func encoded() throws -> String { try PartialFile.encode(self) }

  /// How messages about the sweep read back from this partial name it.
  var sourceLabel: String { "\(sweepName) (sweep, from a partial result)" }

  /// The sweep this partial belongs to, read from the texts it holds.
  public func plan() throws(ScenarioErrors) -> SweepPlan {
    try SweepPlan.load(source: sweepSource, file: sourceLabel, scenarioSource: scenarioSource)
  }

  /// Checks that `partials` are all the shards of one sweep, each once, and adds their tallies:
  /// ``PartialMerger`` over them. The result does not depend on the order of `partials`.
  public static func merge(
    _ partials: [SweepPartial], paths: [String]
  ) throws(PartialError) -> SweepPartial {
    var merger = PartialMerger<SweepPartial>()
    for (partial, path) in zip(partials, paths) { try merger.add(partial, path: path) }
    return try merger.result(complete: true)
  }
}

extension SweepPartial {
  /// The sweep's tables and front from these (merged) tallies, after checking that the sweep
  /// read back from the partial has the points the tallies were written for.
  public func outcome() throws -> (plan: SweepPlan, outcome: SweepOutcome) {
    let plan = try plan()
    let runs = try plan.pointRuns(file: sourceLabel)
    try checkTallies(fit: runs.map(\.scenario), holder: "sweep")
    return (plan, try plan.outcome(tallies: tallies, file: sourceLabel))
  }

  /// Checks that the tallies were written for these points' scenarios (one per point, in
  /// order: the same policies, replications and screens) and that every point's tallies are
  /// whole; `holder` names what the partial holds in the message ("sweep", "study").
  func checkTallies(fit scenarios: [Scenario], holder: String) throws {
    let matches =
      scenarios.count == tallies.count
      && zip(scenarios, zip(tallies, pointPolicies)).allSatisfy { scenario, point in
        scenario.policies.map(\.name) == point.1
          && scenario.replications == point.0.count
          && point.0[0][0].screenVisits.count == scenario.screens.count
      }
    guard matches else {
      throw PartialError(
        message: "\(sweepName): the partial's tallies do not fit the \(holder) it holds (an "
          + "edited file?); write the shards again")
    }
    for (point, scenario) in scenarios.enumerated() {
      try PartialFile.checkWhole(
        tallies[point], users: scenario.users, path: sweepName, at: "$.tallies[\(point)]")
    }
  }
}
