import MessageDeferral
import Reports
import Simulation

/// What one shard of a robustness study (`robust --shard K/N`) writes: a ``SweepPartial`` whose
/// `format` is ``SweepPartial/robustFormatName``, whose `sweep_name` and `sweep_source` are the
/// study's name and file text, and whose scenario points are the worlds. It is checked and
/// merged exactly as a sweep's (``PartialMerger``); only `merge`'s last step differs
/// (``SweepPartial/robustOutcome()``). A sweep's and a study's partials never merge together
/// (``SweepPartial/disagreement(with:)`` compares formats).
extension SweepPartial {
  /// The `format` of a robustness study's partial result.
  public static let robustFormatName = "deferral-sim-robust-partial"

  /// Whether this is a robustness study's partial result rather than a sweep's.
  public var isRobust: Bool { format == Self.robustFormatName }

  /// The partial result of shard `shard` of `shards` of a study: `tallies[world][replication]
  /// [policy]` from ``RobustPlan/simulate(worlds:jobs:shard:blockSize:progress:)``.
  public init(
    toolVersion: String, studyName: String, plan: RobustPlan, worlds: [RobustWorld],
    blockSize: Int, shard: Int, shards: Int, tallies: [[[Tally]]]
  ) {
    format = Self.robustFormatName
    formatVersion = Self.formatVersion
    self.toolVersion = toolVersion
    sweepName = studyName
    sweepSource = plan.source
    sweepSHA256 = SHA256.hex(Array(plan.source.utf8))
    scenarioSource = plan.scenarioSource
    scenarioSHA256 = SHA256.hex(Array(plan.scenarioSource.utf8))
    self.blockSize = blockSize
    covers = ShardCoverage(shard: shard)
    self.shards = shards
    events = tallies.reduce(0) { sum, world in
      world.reduce(sum) { sum, row in row.reduce(sum) { $0 + $1.events } }
    }
    contentSHA256 = ""
    pointPolicies = worlds.map { $0.scenario.policies.map(\.name) }
    self.tallies = tallies
  }

  /// How messages about the study read back from this partial name it.
  var studyLabel: String { "\(sweepName) (robustness study, from a partial result)" }

  /// The study's tables from these (merged) tallies, after checking that the study read back
  /// from the partial draws the worlds the tallies were written for.
  public func robustOutcome() throws -> (
    plan: RobustPlan, worlds: [RobustWorld], outcome: RobustOutcome
  ) {
    let plan = try RobustPlan.load(
      source: sweepSource, file: studyLabel, scenarioSource: scenarioSource)
    let worlds = try plan.drawWorlds(file: studyLabel)
    try checkTallies(fit: worlds.map(\.scenario), holder: "study")
    return (plan, worlds, plan.outcome(worlds: worlds, tallies: tallies))
  }
}
