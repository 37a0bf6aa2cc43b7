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
      try PartialFile.requireAgreement(
        [
          (
            partial.toolVersion == first.toolVersion,
            "tool version \(partial.toolVersion) vs \(first.toolVersion)"
          ),
          (
            partial.scenarioSHA256 == first.scenarioSHA256,
            "a different scenario (SHA-256 differs)"
          ),
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
        ], path: path, first: paths[0], what: "run")
    }
    try PartialFile.requireEveryShardOnce(
      partials.map(\.shard), of: first.shards, paths: paths)
    var merged = first
    merged.shard = 0
    merged.shards = 1
    for partial in partials.dropFirst() {
      merged.events += partial.events
      PartialFile.add(partial.tallies, to: &merged.tallies)
    }
    return merged
  }
}

/// A partial result file of either kind, told apart by its `format`.
public enum PartialFile: Sendable {
  case run(PartialResult)
  case sweep(SweepPartial)

  private struct Header: Decodable {
    var format: String
    var formatVersion: Int
    enum CodingKeys: String, CodingKey {
      case format, formatVersion = "format_version"
    }
  }

  /// Reads a partial result written by `run --shard K/N` or `sweep --shard K/N`.
  public static func read(contentsOf path: String) throws(PartialError) -> PartialFile {
    let data: Data
    do {
      data = try Data(contentsOf: URL(fileURLWithPath: path))
    } catch {
      throw PartialError(message: "\(path): cannot read: \(error.localizedDescription)")
    }
    let expected =
      "give files written by 'deferral-sim run --shard K/N' or 'deferral-sim sweep --shard K/N'"
    guard let header = try? JSONDecoder().decode(Header.self, from: data) else {
      throw PartialError(message: "\(path): not a deferral-sim partial result; \(expected)")
    }
    let version: Int
    switch header.format {
    case PartialResult.formatName: version = PartialResult.formatVersion
    case SweepPartial.formatName: version = SweepPartial.formatVersion
    default:
      throw PartialError(
        message: "\(path): format '\(header.format)' is not a partial result; \(expected)")
    }
    guard header.formatVersion == version else {
      throw PartialError(
        message: "\(path): format version \(header.formatVersion) of '\(header.format)'; this "
          + "deferral-sim reads version \(version): merge with the version that wrote it")
    }
    let file: PartialFile
    do {
      if header.format == SweepPartial.formatName {
        file = .sweep(try JSONDecoder().decode(SweepPartial.self, from: data))
      } else {
        file = .run(try JSONDecoder().decode(PartialResult.self, from: data))
      }
    } catch {
      throw PartialError(message: "\(path): not a valid partial result (\(error)); \(expected)")
    }
    let wellFormed: Bool
    switch file {
    case .run(let partial):
      wellFormed = hasShape(
        partial.tallies, replications: partial.replications, policies: partial.policies.count)
    case .sweep(let partial):
      wellFormed =
        partial.tallies.count == partial.pointPolicies.count
        && zip(partial.tallies, partial.pointPolicies).allSatisfy {
          !$0.isEmpty && hasShape($0, replications: $0.count, policies: $1.count)
        }
    }
    guard wellFormed else {
      throw PartialError(
        message: "\(path): its tallies do not match its replications and policies (an edited "
          + "or truncated file?); write it again with the same command")
    }
    return file
  }

  /// Whether `tallies` is `replications` × `policies`, every tally of one scenario's shape.
  static func hasShape(_ tallies: [[Tally]], replications: Int, policies: Int) -> Bool {
    guard tallies.count == replications, let screens = tallies.first?.first?.screenVisits.count
    else { return false }
    return tallies.allSatisfy { row in
      row.count == policies && row.allSatisfy { $0.hasShape(screens: screens) }
    }
  }

  /// Throws the first failed check: `path` does not belong with `first`.
  static func requireAgreement(
    _ checks: [(ok: Bool, what: String)], path: String, first: String, what kind: String
  ) throws(PartialError) {
    for check in checks where !check.ok {
      throw PartialError(
        message: "\(path) does not belong with \(first): \(check.what); merge only the shards "
          + "of one \(kind)")
    }
  }

  /// Checks that `shards` holds every shard number of `0..<count` exactly once.
  static func requireEveryShardOnce(
    _ shards: [Int], of count: Int, paths: [String]
  ) throws(PartialError) {
    var seen = [String?](repeating: nil, count: count)
    for (shard, path) in zip(shards, paths) {
      guard shard >= 0, shard < count else {
        throw PartialError(message: "\(path): shard \(shard) out of 0..<\(count)")
      }
      if let other = seen[shard] {
        throw PartialError(message: "shard \(shard) given twice: \(other) and \(path)")
      }
      seen[shard] = path
    }
    let missing = seen.indices.filter { seen[$0] == nil }
    guard missing.isEmpty else {
      throw PartialError(
        message: "missing shard(s) \(missing.map(String.init).joined(separator: ", ")) of "
          + "\(count); give every partial-K-of-\(count).json")
    }
  }

  /// Adds `other[replication][policy]` into `tallies`, which has the same shape.
  static func add(_ other: [[Tally]], to tallies: inout [[Tally]]) {
    for replication in tallies.indices {
      for policy in tallies[replication].indices {
        tallies[replication][policy].merge(other[replication][policy])
      }
    }
  }
}

/// A partial result that cannot be read or merged: bad input, exit code 2.
public struct PartialError: Error, Sendable {
  public var message: String
}
