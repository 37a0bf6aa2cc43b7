import Foundation
import MessageDeferral
import Simulation

/// What one shard of a run (`run --shard K/N`) writes instead of the final files: the
/// mergeable accumulators of its work items, and everything needed to check that shards
/// belong together and to rebuild the run's scenario.
///
/// Format (JSON, `partial-K-of-N.json`; documented in results/README.md): `format`
/// (`"deferral-sim-partial"`), `format_version` (1), `tool_version`, `scenario_source` (the
/// scenario file's text), `scenario_sha256`, `seed` (a string of digits), `users`,
/// `replications`, `policies` (names, in report order), `baseline`, `block_size`, `shard`,
/// `shards`, and `tallies[replication][policy]`: counts, integer sums, and latency histograms
/// as sparse `[bin, count]` pairs. Every accumulator is an integer (or a histogram of
/// integer counts), so merging is exact in any order.
public struct PartialResult: Codable, Sendable {
  public static let formatName = "deferral-sim-partial"
  public static let formatVersion = 1

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
  public var shard: Int
  public var shards: Int
  public var events: Int
  public var tallies: [[Tally]]

  enum CodingKeys: String, CodingKey {
    case format, formatVersion = "format_version", toolVersion = "tool_version"
    case scenarioSource = "scenario_source", scenarioSHA256 = "scenario_sha256", seed, users
    case replications, policies, baseline, blockSize = "block_size", shard, shards, events
    case tallies
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
    self.shard = shard
    self.shards = shards
    events = result.events
    tallies = result.tallies
  }

  /// The file name a shard writes: `partial-K-of-N.json`.
  public static func fileName(shard: Int, shards: Int) -> String {
    "partial-\(shard)-of-\(shards).json"
  }

  public func encoded() throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    return String(decoding: try encoder.encode(self), as: UTF8.self) + "\n"
  }

  public static func decode(contentsOf path: String) throws(PartialError) -> PartialResult {
    let data: Data
    do {
      data = try Data(contentsOf: URL(fileURLWithPath: path))
    } catch {
      throw PartialError(message: "\(path): cannot read: \(error.localizedDescription)")
    }
    do {
      let partial = try JSONDecoder().decode(PartialResult.self, from: data)
      guard partial.format == formatName, partial.formatVersion == formatVersion else {
        throw PartialError(
          message: "\(path): not a deferral-sim partial result of format version \(formatVersion)")
      }
      return partial
    } catch let error as PartialError {
      throw error
    } catch {
      throw PartialError(
        message: "\(path): not a valid partial result (\(error)); give files written by "
          + "'deferral-sim run --shard K/N'")
    }
  }

  /// Checks that `partials` are all the shards of one run, each once, and adds their tallies.
  ///
  /// Refuses different scenarios, seeds, versions, user or replication counts, policies or
  /// shard counts, and missing or duplicated shards. The result does not depend on the order of
  /// `partials`.
  public static func merge(
    _ partials: [PartialResult], paths: [String]
  ) throws(PartialError)
    -> PartialResult
  {
    guard let first = partials.first else {
      throw PartialError(message: "no partial results given")
    }
    for (partial, path) in zip(partials, paths).dropFirst() {
      let checks: [(Bool, String)] = [
        (
          partial.toolVersion == first.toolVersion,
          "tool version \(partial.toolVersion) vs \(first.toolVersion)"
        ),
        (partial.scenarioSHA256 == first.scenarioSHA256, "a different scenario (SHA-256 differs)"),
        (partial.seed == first.seed, "seed \(partial.seed) vs \(first.seed)"),
        (partial.users == first.users, "users \(partial.users) vs \(first.users)"),
        (
          partial.replications == first.replications,
          "replications \(partial.replications) vs \(first.replications)"
        ),
        (
          partial.policies == first.policies && partial.baseline == first.baseline,
          "different policies"
        ),
        (
          partial.blockSize == first.blockSize,
          "block size \(partial.blockSize) vs \(first.blockSize)"
        ),
        (partial.shards == first.shards, "\(partial.shards) shards vs \(first.shards)"),
      ]
      for (ok, what) in checks where !ok {
        throw PartialError(
          message:
            "\(path) does not belong with \(paths[0]): \(what); merge only the shards of one run")
      }
    }
    var seen = [String?](repeating: nil, count: first.shards)
    for (partial, path) in zip(partials, paths) {
      guard partial.shard >= 0, partial.shard < first.shards else {
        throw PartialError(message: "\(path): shard \(partial.shard) out of 0..<\(first.shards)")
      }
      if let other = seen[partial.shard] {
        throw PartialError(message: "shard \(partial.shard) given twice: \(other) and \(path)")
      }
      seen[partial.shard] = path
    }
    let missing = seen.indices.filter { seen[$0] == nil }
    guard missing.isEmpty else {
      throw PartialError(
        message: "missing shard(s) \(missing.map(String.init).joined(separator: ", ")) of "
          + "\(first.shards); give every partial-K-of-\(first.shards).json")
    }
    var merged = first
    merged.shard = 0
    merged.shards = 1
    for partial in partials.dropFirst() {
      merged.events += partial.events
      for replication in merged.tallies.indices {
        for policy in merged.tallies[replication].indices {
          merged.tallies[replication][policy].merge(partial.tallies[replication][policy])
        }
      }
    }
    return merged
  }
}

/// A partial result that cannot be read or merged: bad input, exit code 2.
public struct PartialError: Error, Sendable {
  public var message: String
}
