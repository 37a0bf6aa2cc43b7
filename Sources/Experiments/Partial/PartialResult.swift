import Foundation
import MessageDeferral
import Reports
import Simulation

/// What one shard of a run (`run --shard K/N`) writes instead of the final files: the
/// mergeable accumulators of its work items, and everything needed to check that shards
/// belong together and to rebuild the run's scenario. `merge --partial-out` writes the union
/// of several such files in the same format.
///
/// Format (JSON, `partial-K-of-N.json`; documented in results/README.md): `format`
/// (`"deferral-sim-partial"`), `format_version` (2), `tool_version`, `scenario_source` (the
/// scenario file's text), `scenario_sha256`, `seed` (a string of digits), `users`,
/// `replications`, `policies` (names, in report order), `baseline`, `block_size`, `covers`
/// (the shards held, see ``ShardCoverage``), `shards`, `events`, `content_sha256` (see
/// ``PartialFile/contentDigest(_:)``), and `tallies[replication][policy]`: counts, integer
/// sums, and latency histograms as sparse `[bin, count]` pairs. Every accumulator but one is
/// an integer (or a histogram of integer counts), so merging is exact in any order; the one
/// exception, a histogram's `sum` of seconds, is a `Double` that no report reads (means come
/// from the integer millisecond sums). The engine merges work items in item order, so a
/// shard's file is byte-identical whatever `--jobs`.
public struct PartialResult: Codable, Sendable {
  public static let formatName = "deferral-sim-partial"
  public static let formatVersion = 2

  public var format = PartialResult.formatName
  public var formatVersion = PartialResult.formatVersion
  public var toolVersion: String
  public var scenarioSource: String
  public var scenarioSHA256: String
  public var seed: String
  public var users: Int
  public var replications: Int
  public var policies: [String]
  public var baseline: String
  public var blockSize: Int
  public var covers: ShardCoverage
  public var shards: Int
  public var events: Int
  public var contentSHA256 = ""
  public var tallies: [[Tally]]

  enum CodingKeys: String, CodingKey {
    case format, formatVersion = "format_version", toolVersion = "tool_version"
    case scenarioSource = "scenario_source", scenarioSHA256 = "scenario_sha256", seed, users
    case replications, policies, baseline, blockSize = "block_size", covers, shards, events
    case contentSHA256 = "content_sha256", tallies
  }

  public init(
    toolVersion: String, scenarioSource: String, scenario: Scenario, blockSize: Int, shard: Int,
    shards: Int, result: RunResult
  ) {
    self.toolVersion = toolVersion
    self.scenarioSource = scenarioSource
    scenarioSHA256 = SHA256.hex(Array(scenarioSource.utf8))
    seed = String(scenario.seed)
    users = scenario.users
    replications = scenario.replications
    policies = scenario.policies.map(\.name)
    baseline = scenario.baseline
    self.blockSize = blockSize
    covers = ShardCoverage(shard: shard)
    self.shards = shards
    events = result.events
    tallies = result.tallies
  }

  /// The file name a shard writes: `partial-K-of-N.json`.
  public static func fileName(shard: Int, shards: Int) -> String {
    "partial-\(shard)-of-\(shards).json"
  }

  /// The file's text, with its ``contentSHA256`` filled in.
  public func encoded() throws -> String { try PartialFile.encode(self) }

  /// Checks that `partials` are all the shards of one run, each once, and adds their tallies:
  /// ``PartialMerger`` over them. The result does not depend on the order of `partials`.
  public static func merge(
    _ partials: [PartialResult], paths: [String]
  ) throws(PartialError) -> PartialResult {
    var merger = PartialMerger<PartialResult>()
    for (partial, path) in zip(partials, paths) { try merger.add(partial, path: path) }
    return try merger.result(complete: true)
  }

  /// The seed the shards ran, parsed by the one seed rule (``ScenarioFields/seed(digits:)``):
  /// a partial whose `seed` is not a string of digits below 2^64 is refused, never replaced.
  public func runSeed(file: String) throws(PartialError) -> UInt64 {
    guard let parsed = ScenarioFields.seed(digits: seed) else {
      throw PartialError(
        message: "\(file): $.seed: '\(seed)' is not a seed (digits, below 2^64); write the "
          + "partial again with the command that wrote it")
    }
    return parsed
  }

  /// The run's scenario, rebuilt from the partial: its scenario text with the users,
  /// replications, seed, policies and baseline the shards ran. Refuses a scenario that does not
  /// load, an unknown policy and tallies of another screen count (messages start with `file`).
  public func scenario(file: String) throws(PartialError) -> Scenario {
    var scenario: Scenario
    do {
      scenario = try ScenarioLoader.load(json: scenarioSource, file: "\(file) (scenario)")
    } catch {
      throw PartialError(message: error.description)
    }
    scenario.users = users
    scenario.replications = replications
    scenario.seed = try runSeed(file: file)
    scenario.baseline = baseline
    var policies: [NamedPolicy] = []
    for name in self.policies {
      guard let policy = PolicyLookup.policy(named: name, in: scenario) else {
        throw PartialError(message: "\(file): unknown policy '\(name)' in the partial result")
      }
      policies.append(policy)
    }
    scenario.policies = policies
    guard tallies[0][0].screenVisits.count == scenario.screens.count else {
      throw PartialError(
        message: "\(file): the tallies count \(tallies[0][0].screenVisits.count) screens, "
          + "the scenario it holds \(scenario.screens.count); write the shards again")
    }
    return scenario
  }
}
