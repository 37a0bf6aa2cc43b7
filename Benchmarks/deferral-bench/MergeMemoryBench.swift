import Experiments
import Foundation
import MessageDeferral
import Reports
import Simulation

/// The merge's peak memory against the number of partials it reads: `PartialFile.merge` folds
/// them one at a time (`PartialMerger`), so 256 partials should need about what 16 need.
/// Each merge runs in a child process (this binary, re-executed with the hidden
/// `_merge-child` command), which reads its own `VmHWM` after merging. This replaced a test
/// (`PartialMemoryTests`) that measured the same on a busy machine and failed there: a peak
/// of memory is a benchmark's figure; the test keeps the structural check.
struct MergeMemoryBench {
  /// How many partials each merge reads.
  var partialCounts: [Int]
  /// Merges per count; the least peak is kept (noise only ever adds to a peak).
  var repetitions: Int

  struct Row {
    var partials: Int
    var bytesPerPartial: Int
    var peakResidentKiB: Int
    var seconds: Double
    var runs: Int
  }

  /// One partial of a small run (the default scenario with 3 policies, 200 users × 2
  /// replications, blocks of 8: shard 1 of 12), as `PartialMemoryTests` used to write.
  static func samplePartial() throws -> PartialResult {
    var scenario = ScenarioLoader.embeddedDefault()
    scenario.users = 200
    scenario.replications = 2
    scenario.policies = scenario.policies.filter {
      ["storekit-auto", "screen-gate-ceiling", "deadline-aware"].contains($0.name)
    }
    let result = try Engine.run(
      CompiledScenario(scenario), policies: scenario.policies,
      options: RunOptions(
        users: scenario.users, replications: scenario.replications, seed: scenario.seed, jobs: 2,
        blockSize: 8, shard: (1, 12)))
    return PartialResult(
      toolVersion: "bench", scenarioSource: ScenarioLoader.embeddedDefaultJSON, scenario: scenario,
      blockSize: 8, shard: 1, shards: 12, result: result)
  }

  /// Writes `count` copies of `partial`, renumbered as shards 0..<count of `count`, into a
  /// new folder; returns it and the size of one file.
  static func writePartials(
    _ partial: PartialResult, count: Int
  ) throws -> (folder: URL, bytes: Int) {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("deferral-bench-merge-\(count)-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    var copy = partial
    copy.shards = count
    var bytes = 0
    for shard in 0..<count {
      copy.covers = ShardCoverage(shard: shard)
      let text = try copy.encoded()
      bytes = text.utf8.count
      try text.write(
        to: folder.appendingPathComponent(PartialResult.fileName(shard: shard, shards: count)),
        atomically: false, encoding: .utf8)
    }
    return (folder, bytes)
  }

  /// The child's side: merges every `partial-*.json` in `folder` as `merge --partial-out`
  /// does (copies of one shard: every shard covered, not a whole run's users), then prints
  /// `partials=N seconds=S vmhwm_kib=K`.
  static func child(folder: String) throws -> String {
    let paths = try FileManager.default.contentsOfDirectory(atPath: folder)
      .filter { $0.hasPrefix("partial-") && $0.hasSuffix(".json") }.sorted()
      .map { folder + "/" + $0 }
    var merged: PartialFile?
    let seconds = try Measure.seconds { merged = try PartialFile.merge(paths, complete: false) }
    guard case .run(let run) = merged, run.covers.isComplete(of: paths.count) else {
      throw BenchError("the merge of \(folder) is not a whole run")
    }
    return "partials=\(paths.count) seconds=\(seconds) vmhwm_kib=\(Measure.peakResidentKiB() ?? -1)"
  }

  func run(log: (String) -> Void) throws -> [Row] {
    let partial = try Self.samplePartial()
    var rows: [Row] = []
    for count in partialCounts {
      let (folder, bytes) = try Self.writePartials(partial, count: count)
      defer { try? FileManager.default.removeItem(at: folder) }
      var peaks: [Int] = []
      var times: [Double] = []
      for _ in 0..<repetitions {
        let output = try ChildProcess.run(
          executable: ChildProcess.selfPath, arguments: ["_merge-child", folder.path])
        var fields: [String: String] = [:]
        for pair in (output.split(separator: "\n").last ?? "").split(separator: " ") {
          let parts = pair.split(separator: "=", maxSplits: 1)
          if parts.count == 2 { fields[String(parts[0])] = String(parts[1]) }
        }
        guard let peak = fields["vmhwm_kib"].flatMap({ Int($0) }),
          let seconds = fields["seconds"].flatMap({ Double($0) })
        else { throw BenchError("the merge child printed no report: \(output)") }
        peaks.append(peak)
        times.append(seconds)
      }
      let row = Row(
        partials: count, bytesPerPartial: bytes, peakResidentKiB: peaks.min()!,
        seconds: Measure.median(times), runs: repetitions)
      rows.append(row)
      log(
        "merge \(count) partials of \(Format.significant(Double(bytes) / 1024)) KiB: "
          + "\(Format.significant(row.seconds)) s, least peak RSS "
          + "\(Format.significant(Double(row.peakResidentKiB) / 1024)) MiB of \(repetitions)")
    }
    return rows
  }
}

extension BenchRun {
  /// The `merge` section: `merge-memory.csv` and the peak's growth from the fewest partials
  /// to the most (target: within 1.5×, where holding every partial grew by about 1.3 MB a
  /// partial of this size).
  mutating func mergeMemorySection(folder: OutputFolder) throws {
    let bench = MergeMemoryBench(
      partialCounts: options.quick ? [16, 64] : [16, 256], repetitions: options.quick ? 1 : 3)
    log("merge: partials \(bench.partialCounts.map(String.init).joined(separator: ", "))")
    let rows = try bench.run(log: log)
    var csv = CSVTable(header: [
      "partials", "bytes_per_partial", "seconds", "peak_rss_kib", "peak_rss_mb", "runs",
    ])
    for row in rows {
      csv.append([
        .integer(row.partials), .integer(row.bytesPerPartial), .number(row.seconds),
        .integer(row.peakResidentKiB), .number(Double(row.peakResidentKiB) / 1024),
        .integer(row.runs),
      ])
    }
    try folder.write(csv.text, to: "merge-memory.csv")
    guard let fewest = rows.first, let most = rows.last, rows.count > 1 else { return }
    for row in [fewest, most] {
      headline(
        "merge_peak_rss_mb_\(row.partials)_partials",
        Format.significant(Double(row.peakResidentKiB) / 1024))
    }
    let growth = Double(most.peakResidentKiB) / Double(fewest.peakResidentKiB)
    let name = "merge_peak_rss_growth_\(fewest.partials)_to_\(most.partials)"
    headline(name, Format.significant(growth))
    table.add([
      "merge: peak RSS \(fewest.partials) → \(most.partials) partials", Format.ratio(growth),
      "≤ 1.5×", growth <= 1.5 ? "met" : "missed",
    ])
  }
}
