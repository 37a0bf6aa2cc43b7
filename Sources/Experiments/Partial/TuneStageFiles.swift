import Foundation
import MessageDeferral
import Reports
import Simulation

/// The texts a tune over shards runs from, stored in every state and part file so that `merge`
/// needs no file on disk: the tune file, its scenario, and the uncertainty study it names.
///
/// Format (JSON object `tune`): `name` (the tune file's name without `.json`: the default output
/// folder is `results/tune-<name>/`), `source` and `sha256` (the tune file), `scenario_source`
/// and `scenario_sha256`, and for a tune with `study`, `study_source` and `study_sha256`.
public struct TuneSources: Codable, Sendable, Equatable {
  public var name: String
  public var source: String
  public var sha256: String
  public var scenarioSource: String
  public var scenarioSHA256: String
  public var studySource: String?
  public var studySHA256: String?

  enum CodingKeys: String, CodingKey {
    case name, source, sha256, scenarioSource = "scenario_source"
    case scenarioSHA256 = "scenario_sha256", studySource = "study_source"
    case studySHA256 = "study_sha256"
  }

  /// The texts of `plan`, a tune file named `name`.
  public init(name: String, plan: TunePlan) {
    self.name = name
    source = plan.source
    sha256 = SHA256.hex(Array(plan.source.utf8))
    scenarioSource = plan.scenarioSource
    scenarioSHA256 = SHA256.hex(Array(plan.scenarioSource.utf8))
    studySource = plan.studySource
    studySHA256 = plan.studySource.map { SHA256.hex(Array($0.utf8)) }
  }

  /// Checks the name and that every digest is its text's.
  func check(path: String, rewrite: String) throws(PartialError) {
    guard PartialFile.isValidName(name) else {
      throw PartialError(
        message: "\(path): $.tune.name: '\(name.prefix(80))' is not a tune name (1 to 64 "
          + "letters, digits, '_', '-' or '.'); \(rewrite)")
    }
    let pairs: [(text: String?, digest: String?, key: String)] = [
      (source, sha256, "sha256"), (scenarioSource, scenarioSHA256, "scenario_sha256"),
      (studySource, studySHA256, "study_sha256"),
    ]
    for pair in pairs {
      guard pair.text.map({ SHA256.hex(Array($0.utf8)) }) == pair.digest else {
        throw PartialError(
          message: "\(path): $.tune.\(pair.key): is not the SHA-256 of the text it goes with "
            + "(an edited file?); \(rewrite)")
      }
    }
  }

  /// Why `plan` (a tune file read from disk, `file`) is not the tune these texts are, or `nil`.
  public func mismatch(with plan: TunePlan, file: String) -> String? {
    let other = TuneSources(name: name, plan: plan)
    if other.sha256 != sha256 {
      return "\(file) is not the tune file the stages started from (its SHA-256 differs)"
    }
    if other.scenarioSHA256 != scenarioSHA256 {
      return "the scenario \(plan.scenarioFile) changed since the stages started (its SHA-256 "
        + "differs)"
    }
    if other.studySHA256 != studySHA256 {
      return "the study the tune names changed since the stages started (its SHA-256 differs)"
    }
    return nil
  }

  /// The tune, loaded from these texts (`file` labels its problems).
  public func plan(file: String) throws(PartialError) -> TunePlan {
    do {
      return try TunePlan.load(
        source: source, file: "\(name) (tune, from \(file))", scenarioSource: scenarioSource,
        studySource: studySource)
    } catch {
      throw PartialError(message: error.description)
    }
  }
}

/// A ``TuneRecord`` in a state file: `run` (a ``TuneRunKey``), `values[replication][policy]`
/// and `constraints[policy][constraint]` (`null` where the metric has no value), every number
/// as the 16 hexadecimal digits of its IEEE 754 bits, so it reads back bit for bit.
extension TuneRecord: Codable {
  enum CodingKeys: String, CodingKey { case run, values, constraints }

  static func hex(_ value: Double) -> String {
    let digits = String(value.bitPattern, radix: 16)
    return String(repeating: "0", count: 16 - digits.count) + digits
  }

  static func number(_ text: String, at path: [CodingKey]) throws -> Double {
    guard text.count == 16, let bits = UInt64(text, radix: 16) else {
      throw DecodingError.dataCorrupted(
        .init(codingPath: path, debugDescription: "'\(text.prefix(20))' is not 16 hex digits"))
    }
    return Double(bitPattern: bits)
  }

  public init(from decoder: Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    run = try container.decode(TuneRunKey.self, forKey: .run)
    let path = container.codingPath
    values = try container.decode([[String]].self, forKey: .values).map { row in
      try row.map { try Self.number($0, at: path + [CodingKeys.values]) }
    }
    constraints = try container.decode([[String?]].self, forKey: .constraints).map { row in
      try row.map { try $0.map { try Self.number($0, at: path + [CodingKeys.constraints]) } }
    }
  }

  public func encode(to encoder: Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(run, forKey: .run)
    try container.encode(values.map { $0.map(Self.hex) }, forKey: .values)
    try container.encode(constraints.map { $0.map { $0.map(Self.hex) } }, forKey: .constraints)
  }
}

/// Between two stages of a tune over shards (`merge` writes it, `tune --shard K/N --state`
/// and the next `merge` read it): the tune's texts, the stage to run next, and every
/// evaluation recorded so far.
///
/// Format (JSON, `tune-state-S.json`, S the stage it is for): `format`
/// (`"deferral-sim-tune-state"`), `format_version` (1), `tool_version`, `tune`
/// (``TuneSources``), `stage` (S ≥ 1), `ahead` (selection replications a stage), `records`
/// (``TuneRecord``s of stages 0 to S − 1), `next` (the runs of stage S, as ``TuneRunKey``s),
/// `lives_simulated` (every stage's user lives so far, those run ahead and not used included)
/// and `content_sha256` (the SHA-256 of the file as written, sorted keys, with this field
/// empty, as a partial result's).
public struct TuneState: Codable, Sendable {
  public static let formatName = "deferral-sim-tune-state"
  public static let formatVersion = 1

  public var format = TuneState.formatName
  public var formatVersion = TuneState.formatVersion
  public var toolVersion: String
  public var tune: TuneSources
  public var stage: Int
  public var ahead: Int
  public var records: [TuneRecord]
  public var next: [TuneRunKey]
  public var livesSimulated: Int
  public var contentSHA256 = ""

  enum CodingKeys: String, CodingKey {
    case format, formatVersion = "format_version", toolVersion = "tool_version", tune, stage
    case ahead, records, next, livesSimulated = "lives_simulated"
    case contentSHA256 = "content_sha256"
  }

  public init(
    toolVersion: String, tune: TuneSources, stage: Int, ahead: Int, records: [TuneRecord],
    next: [TuneRunKey], livesSimulated: Int
  ) {
    self.toolVersion = toolVersion
    self.tune = tune
    self.stage = stage
    self.ahead = ahead
    self.records = records
    self.next = next
    self.livesSimulated = livesSimulated
  }

  /// `tune-state-S.json`.
  public static func fileName(stage: Int) -> String { "tune-state-\(stage).json" }

  /// The largest state file read (records grow with rounds, worlds and replications).
  public static let maximumFileSize = 256 << 20

  static let rewrite =
    "write it again with the merge that wrote it, or start the tune's stages again from stage 0"

  /// The file's text, with its content digest.
  public func encoded() throws -> String {
    var copy = self
    copy.contentSHA256 = try TuneStageFiles.digest(self) { $0.contentSHA256 = "" }
    return try TuneStageFiles.text(copy)
  }

  /// Whether the file at `path` is a tune state (its `format` says so).
  public static func isState(contentsOf path: String) -> Bool {
    TuneStageFiles.format(ofFile: path) == formatName
  }

  /// Reads and checks a state file (``check(path:)``).
  public static func read(contentsOf path: String) throws(PartialError) -> TuneState {
    let state: TuneState = try TuneStageFiles.read(
      path, format: formatName, version: formatVersion, limit: maximumFileSize,
      expected: "give the tune-state-S.json a 'deferral-sim merge' of tune parts wrote")
    try state.check(path: path)
    return state
  }

  /// Checks everything the file can be checked for on its own: the texts' and the content's
  /// digests, the stage, and every record's shape.
  public func check(path: String) throws(PartialError) {
    func fail(_ field: String, _ what: String) -> PartialError {
      PartialError(message: "\(path): $.\(field): \(what); \(Self.rewrite)")
    }
    try tune.check(path: path, rewrite: Self.rewrite)
    guard stage >= 1, ahead >= 1, livesSimulated >= 0, !next.isEmpty else {
      throw fail(
        "stage",
        "stage \(stage), ahead \(ahead), lives \(livesSimulated) or \(next.count) next runs out "
          + "of range")
    }
    for (index, record) in records.enumerated() {
      let policies = record.run.policies.count
      guard record.values.count == record.run.replications,
        record.values.allSatisfy({ $0.count == policies }), record.constraints.count == policies
      else {
        throw fail(
          "records[\(index)]", "not \(record.run.replications) replication(s) × \(policies) values")
      }
    }
    guard (try? TuneStageFiles.digest(self, { $0.contentSHA256 = "" })) == contentSHA256 else {
      throw fail(
        "content_sha256",
        "does not match the file's content: it was edited after it was written")
    }
  }
}

/// What one shard of one stage of a tune over shards (`tune --shard K/N [--state STATE]`)
/// writes: shard K of N of each of the stage's runs' work items, merged exactly as a run's
/// partial results (``PartialMerger``).
///
/// Format (JSON, `tune-stage-S-part-K-of-N.json`): `format` (`"deferral-sim-tune-part"`),
/// `format_version` (1), `tool_version`, `tune` (``TuneSources``), `stage`, `state_sha256`
/// (the `content_sha256` of the state the stage ran from; empty for stage 0), `runs` (the
/// stage's runs), `block_size`, `covers`, `shards`, `events`, `content_sha256`, and
/// `tallies[run][replication][policy]`.
public struct TunePart: Codable, Sendable {
  public static let formatName = "deferral-sim-tune-part"
  public static let formatVersion = 1

  public var format = TunePart.formatName
  public var formatVersion = TunePart.formatVersion
  public var toolVersion: String
  public var tune: TuneSources
  public var stage: Int
  public var stateSHA256: String
  public var runs: [TuneRunKey]
  public var blockSize: Int
  public var covers: ShardCoverage
  public var shards: Int
  public var events: Int
  public var contentSHA256 = ""
  public var tallies: [[[Tally]]]

  enum CodingKeys: String, CodingKey {
    case format, formatVersion = "format_version", toolVersion = "tool_version", tune, stage
    case stateSHA256 = "state_sha256", runs, blockSize = "block_size", covers, shards, events
    case contentSHA256 = "content_sha256", tallies
  }

  public init(
    toolVersion: String, tune: TuneSources, stage: Int, stateSHA256: String, runs: [TuneRun],
    blockSize: Int, shard: Int, shards: Int, tallies: [[[Tally]]]
  ) {
    self.toolVersion = toolVersion
    self.tune = tune
    self.stage = stage
    self.stateSHA256 = stateSHA256
    self.runs = runs.map(\.key)
    self.blockSize = blockSize
    covers = ShardCoverage(shard: shard)
    self.shards = shards
    events = tallies.reduce(0) { sum, run in
      run.reduce(sum) { sum, row in row.reduce(sum) { $0 + $1.events } }
    }
    self.tallies = tallies
  }

  /// `tune-stage-S-part-K-of-N.json`.
  public static func fileName(stage: Int, shard: Int, shards: Int) -> String {
    "tune-stage-\(stage)-part-\(shard)-of-\(shards).json"
  }

  /// Whether `name` reads `tune-stage-S-part-K-of-N.json`, and of which stage.
  public static func stage(ofFileName name: String) -> Int? {
    guard name.hasPrefix("tune-stage-"), name.hasSuffix(".json") else { return nil }
    let parts = name.dropFirst("tune-stage-".count).dropLast(".json".count)
      .split(separator: "-", omittingEmptySubsequences: false)
    let digits = { (part: Substring) in
      !part.isEmpty && part.allSatisfy { $0.isASCII && $0.isNumber }
    }
    guard parts.count == 5, digits(parts[0]), parts[1] == "part", digits(parts[2]),
      parts[3] == "of", digits(parts[4])
    else { return nil }
    return Int(parts[0])
  }

  /// Reads and checks a part file (``check(path:)``).
  public static func read(contentsOf path: String) throws(PartialError) -> TunePart {
    let part: TunePart = try TuneStageFiles.read(
      path, format: formatName, version: formatVersion, limit: PartialFile.maximumFileSize,
      expected: "give the tune-stage-S-part-K-of-N.json files 'deferral-sim tune --shard K/N' "
        + "wrote")
    try part.check(path: path)
    return part
  }

  /// Whether the file at `path` is a tune part (its `format` says so).
  public static func isPart(contentsOf path: String) -> Bool {
    TuneStageFiles.format(ofFile: path) == formatName
  }
}

extension TunePart: MergeablePartial {
  public static let kind = "tune stage"

  public func check(path: String) throws(PartialError) {
    func fail(_ field: String, _ what: String) -> PartialError {
      PartialError(message: "\(path): $.\(field): \(what); \(Self.rewrite)")
    }
    try checkCoverage(path: path)
    try tune.check(path: path, rewrite: Self.rewrite)
    guard stage >= 0, (stage == 0) == stateSHA256.isEmpty, blockSize >= 1, events >= 0 else {
      throw fail(
        "stage",
        "stage \(stage) with state digest '\(stateSHA256.prefix(16))', block size \(blockSize) "
          + "or events \(events) out of range (stage 0 alone has no state)")
    }
    guard !runs.isEmpty, tallies.count == runs.count else {
      throw fail("tallies", "\(tallies.count) runs of tallies for \(runs.count) in $.runs")
    }
    var total = 0
    for (index, run) in runs.enumerated() {
      guard ScenarioLoader.userBounds.contains(run.users),
        (1...ScenarioLoader.replicationBounds.upperBound).contains(run.replications),
        !run.policies.isEmpty,
        ScenarioFields.seed(digits: run.seed) != nil
      else {
        throw fail("runs[\(index)]", "users, replications, policies or seed out of range")
      }
      let events = tallies[index].reduce(0) { sum, row in
        row.reduce(sum) { $0.addingReportingOverflow($1.events).partialValue }
      }
      try PartialResult.checkTallies(
        tallies[index], replications: run.replications, policies: run.policies.count,
        events: events, path: path, at: "$.tallies[\(index)]")
      total = total.addingReportingOverflow(events).partialValue
    }
    guard total == events else {
      throw fail("events", "the tallies hold \(total) events, not \(events)")
    }
    guard (try? PartialFile.contentDigest(self)) == contentSHA256 else {
      throw fail(
        "content_sha256",
        "does not match the file's content: it was edited after it was written")
    }
  }

  public func disagreement(with first: TunePart) -> String? {
    let checks: [(ok: Bool, what: String)] = [
      (toolVersion == first.toolVersion, "tool version \(toolVersion) vs \(first.toolVersion)"),
      (tune == first.tune, "another tune file, scenario or study (SHA-256 differs)"),
      (stage == first.stage, "stage \(stage) vs \(first.stage)"),
      (stateSHA256 == first.stateSHA256, "run from another state file (state_sha256 differs)"),
      (runs == first.runs, "other runs"),
      (blockSize == first.blockSize, "block size \(blockSize) vs \(first.blockSize)"),
      (shards == first.shards, "\(shards) shards vs \(first.shards)"),
      (
        zip(tallies, first.tallies).allSatisfy {
          $0[0][0].screenVisits.count == $1[0][0].screenVisits.count
        }, "tallies of a different scenario"
      ),
    ]
    return checks.first { !$0.ok }?.what
  }

  public mutating func addTallies(_ other: TunePart) -> (tally: String, problem: Tally.Problem)? {
    for run in tallies.indices {
      if let failure = PartialFile.add(
        other.tallies[run], to: &tallies[run], at: "$.tallies[\(run)]")
      {
        return failure
      }
    }
    return nil
  }

  public func checkComplete(path: String) throws(PartialError) {
    for (index, run) in runs.enumerated() {
      try PartialFile.checkWhole(
        tallies[index], users: run.users, path: path, at: "$.tallies[\(index)]")
    }
  }

  public func encoded() throws -> String { try PartialFile.encode(self) }

  public static func missingFiles(shards: Int) -> String {
    "every tune-stage-S-part-K-of-\(shards).json of the stage (run the missing shards with "
      + "tune TUNE --shard K/\(shards) and the same --state)"
  }
}

/// Reading and digests shared by ``TuneState`` and ``TunePart``.
enum TuneStageFiles {
  struct Header: Decodable {
    var format: String
    var formatVersion: Int
    enum CodingKeys: String, CodingKey {
      case format, formatVersion = "format_version"
    }
  }

  /// The `format` of the JSON file at `path`, or `nil`.
  static func format(ofFile path: String) -> String? {
    guard case .success(let bytes) = readRegularFile(path, limit: PartialFile.maximumFileSize)
    else { return nil }
    return (try? JSONDecoder().decode(Header.self, from: Data(bytes)))?.format
  }

  static var encoder: JSONEncoder {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    return encoder
  }

  /// The SHA-256 of `value` as written (sorted keys) after `clear` empties its digest field.
  static func digest<Value: Encodable>(
    _ value: Value, _ clear: (inout Value) -> Void
  ) throws
    -> String
  {
    var copy = value
    clear(&copy)
    return SHA256.hex(try encoder.encode(copy))
  }

  static func text<Value: Encodable>(_ value: Value) throws -> String {
    String(decoding: try encoder.encode(value), as: UTF8.self) + "\n"
  }

  /// Reads a file of `format` and `version` at `path`, refusing anything else by name.
  static func read<Value: Decodable>(
    _ path: String, format: String, version: Int, limit: Int, expected: String
  ) throws(PartialError) -> Value {
    let data: Data
    switch readRegularFile(path, limit: limit) {
    case .success(let bytes): data = Data(bytes)
    case .failure(let problem): throw PartialError(message: "\(path): \(problem.message)")
    }
    let header: Header
    do {
      header = try JSONDecoder().decode(Header.self, from: data)
    } catch {
      throw PartialError(
        message: "\(path): not a deferral-sim \(format) file (\(PartialFile.describe(error))); "
          + expected)
    }
    guard header.format == format else {
      throw PartialError(
        message: "\(path): format '\(header.format.prefix(80))' is not '\(format)'; \(expected)")
    }
    guard header.formatVersion == version else {
      throw PartialError(
        message: "\(path): format version \(header.formatVersion) of '\(format)'; this "
          + "deferral-sim reads version \(version): use the version that wrote it")
    }
    do {
      return try JSONDecoder().decode(Value.self, from: data)
    } catch {
      throw PartialError(
        message: "\(path): \(PartialFile.describe(error)) (an edited or truncated file?); "
          + expected)
    }
  }
}
