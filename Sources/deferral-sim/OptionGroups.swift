import Foundation
import MessageDeferral
import Simulation

/// Where a command writes and how much it says: `-o/--out`, `-q/--quiet`, `--no-report`,
/// `--wide`. Declared once; `run`, `sweep`, `robust`, `merge` list them (with their own
/// default folder in `--out`'s help) and read them with ``init(_:defaultFolder:)``.
struct OutputOptions {
  static let out = Option.text("out", "dir", "Output folder.", short: "o", completion: .folders)
  static let quiet = Flag("quiet", "No progress line on standard error.", short: "q")
  static let noReport = Flag("no-report", "Do not write report.html.")
  static let wide = TerminalWidth.option

  /// `--out`'s help naming the folder used without it (`results/<scenario name>/`).
  static func out(default folder: String) -> Option<String> {
    out.help("Output folder (default: \(folder)).")
  }

  /// The output folder: `--out`, else `defaultFolder`.
  var folder: String
  /// Whether the progress line is off (`--quiet`).
  var quiet: Bool
  /// Whether report.html is written (no `--no-report`).
  var htmlReport: Bool

  init(_ parsed: ParsedArguments, defaultFolder: @autoclosure () -> String) throws(UsageError) {
    folder = try parsed.value(Self.out) ?? defaultFolder()
    quiet = parsed.flag(Self.quiet)
    htmlReport = !(parsed.declares(Self.noReport) && parsed.flag(Self.noReport))
  }
}

/// How a command runs the engine: `-j/--jobs` (one bound, one default), `--shard K/N`,
/// `--no-shared-trunk`. Declared once; `run`, `sweep`, `robust` list them and read them with
/// ``init(_:)``.
struct ExecutionOptions {
  /// The most worker threads `--jobs` accepts.
  static let jobBounds = 1...1024
  static let jobs = Option.integer(
    "jobs", "j", "Worker threads (default: the number of cores).", in: jobBounds, short: "j")
  /// `K/N` with 0 ≤ K < N ≤ 100000.
  static let shard = Option<(index: Int, count: Int)>(
    spec: .value(
      "shard", "K/N", "Run only shard K of N and write a partial result (see merge).")
  ) { text, _, command throws(UsageError) in
    let parts = text.split(separator: "/")
    guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]), count >= 1,
      count <= 100_000, index >= 0, index < count
    else {
      throw UsageError(
        message: "'--shard' must be K/N with 0 <= K < N (for example 0/4), not '\(text)'",
        command: command)
    }
    return (index, count)
  }
  static let noSharedTrunk = Flag(
    "no-shared-trunk", "Simulate each user once per policy from the start (same results, slower).")

  /// `--shard`'s help for a command that shards each of its `points` (`point`, `world`).
  static func shard(ofEvery point: String) -> Option<(index: Int, count: Int)> {
    shard.help(
      "Run only shard K of N of every \(point) and write a partial result (see merge).")
  }

  /// Worker threads: `--jobs`, else the number of cores.
  var jobs: Int
  /// The shard to run, if `--shard` was given.
  var shard: (index: Int, count: Int)?
  /// Whether users share the trunk of their lives across policies (no `--no-shared-trunk`;
  /// always, for a command that does not offer it).
  var sharedTrunk: Bool

  init(_ parsed: ParsedArguments) throws(UsageError) {
    jobs = try parsed.value(Self.jobs) ?? ProcessInfo.processInfo.activeProcessorCount
    shard = try parsed.value(Self.shard)
    sharedTrunk = !(parsed.declares(Self.noSharedTrunk) && parsed.flag(Self.noSharedTrunk))
  }
}

/// The options that override a scenario, shared by `run` and `trace`.
enum ScenarioOptions {
  static let users = Option.integer(
    "users", "n", "Users per replication (overrides the scenario).", in: ScenarioLoader.userBounds,
    short: "u")
  static let replications = Option.integer(
    "replications", "r", "Replications (overrides the scenario).",
    in: ScenarioLoader.replicationBounds, short: "r")
  static let seed = Option.unsigned("seed", "s", "Run seed (overrides the scenario).")
  static let policies = Option.list(
    "policies", "a,b,...", "Policies to compare (default: the scenario's).",
    completion: .choices(PolicyCatalog.presetNames))
  static let baseline = Option.text(
    "baseline", "name", "Policy the others are compared against (default: storekit-auto).",
    completion: .choices(PolicyCatalog.presetNames))
  static let responses = Option.choice(
    "responses", ["on", "off"],
    "With 'off', ignore the scenario's 'responses' section: every consent shown by its "
      + "deadline counts as kept, and the outputs are those of a scenario without it "
      + "(default: on).")

  /// `scenario` as `--responses` asks: without its response model for `off`.
  static func applyResponses(
    _ parsed: ParsedArguments, to scenario: inout Scenario
  ) throws {
    if try parsed.value(responses) == "off" { scenario.responses = nil }
  }
}
