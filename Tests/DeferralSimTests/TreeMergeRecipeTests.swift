import Foundation
import TestSupport
import Testing

/// Two-level merges through the recipes (merge-level.sbatch and merge.sbatch with a fan-in;
/// the Kubernetes merge-level and merge Jobs' shell commands), and `merge` as a user meets
/// it: folders, `--partial-out`, and edited partials refused with exit 2.
@Suite("Tree merges: recipes and command line")
struct TreeMergeRecipeTests {
  static let options = ["--users", "150", "--replications", "2", "--seed", "11"]

  /// A folder with `single/` (the run without shards) and `sharded/parts/` (its 3 shards,
  /// written by shard.sbatch as array tasks).
  static func shardedRun() throws -> URL {
    let work = ScaleOutTests.temporaryFolder()
    let single = try ToolRunner.run(
      ["run"] + options + ["--out", work.appendingPathComponent("single").path, "--quiet"])
    #expect(single.status == 0, "\(single.stderr)")
    for shard in 0..<3 {
      let task = try ScaleOutTests.arrayTask(
        ["default", "sharded"] + options, task: shard, of: 3, in: work)
      #expect(task.status == 0, "\(task.output)")
    }
    return work
  }

  static func expectSameReports(_ work: URL, _ out: String) throws {
    for file in ScaleOutTests.reports {
      let one = try Data(contentsOf: work.appendingPathComponent("single/\(file)"))
      let merged = try Data(contentsOf: work.appendingPathComponent("\(out)/\(file)"))
      #expect(one == merged, "\(file) differs between the run and the tree merge")
    }
  }

  /// merge-level.sbatch as 2 array tasks (fan-in 2 over 3 shards), then merge.sbatch OUT 3 2:
  /// the files of the run without shards.
  @Test func slurmScriptsMergeInTwoLevels() throws {
    let work = try Self.shardedRun()
    defer { try? FileManager.default.removeItem(at: work) }
    for task in 0..<2 {
      let level = try Shell.run(
        "bash", [ScaleOutTests.path("scripts/slurm/merge-level.sbatch"), "sharded", "3", "2"],
        in: work,
        environment: ScaleOutTests.scriptEnvironment.merging([
          "SLURM_ARRAY_TASK_ID": "\(task)", "SLURM_ARRAY_TASK_COUNT": "2",
        ]) { $1 })
      #expect(level.status == 0, "\(level.output)")
    }
    let tree = try FileManager.default.contentsOfDirectory(
      atPath: work.appendingPathComponent("sharded/tree").path)
    #expect(tree.sorted() == ["partial-0-1-of-3.json", "partial-2-2-of-3.json"])
    let merge = try Shell.run(
      "bash", [ScaleOutTests.path("scripts/slurm/merge.sbatch"), "sharded", "3", "2"], in: work,
      environment: ScaleOutTests.scriptEnvironment)
    #expect(merge.status == 0, "\(merge.output)")
    try Self.expectSameReports(work, "sharded")
  }

  /// The Kubernetes merge-level Job is Indexed with ceil(SHARDS / FAN_IN) completions, carries
  /// merge-level.sbatch's command line, and its shell command and the merge Job's (FAN_IN set)
  /// merge the shards as a tree into the run's files.
  @Test func kubernetesTreeMergeJobsRunAsTheirShellCommands() throws {
    let script = try ScaleOutTests.text("scripts/slurm/merge-level.sbatch")
    let manifest = try ScaleOutTests.text("scripts/k8s/merge-level-job.yaml")
    let marker = "DEFERRAL_SIM_PARTIAL_MERGE_COMMAND"
    let line = try #require(RecipeCommand.marked(marker, in: script))
    #expect(RecipeCommand.marked(marker, in: manifest) == line)
    let level = try YAMLSubset.parse(manifest)
    let spec = try #require(level["spec"])
    #expect(spec["completionMode"]?.string == "Indexed")
    let env = spec["template"]?["spec"]?["containers"]?[0]?["env"]
    func value(_ name: String) -> Int? {
      env?.elements.first { $0["name"]?.string == name }?["value"]?.string.flatMap { Int($0) }
    }
    let shards = try #require(value("SHARDS"))
    let fanIn = try #require(value("FAN_IN"))
    #expect(spec["completions"]?.string == "\((shards + fanIn - 1) / fanIn)")

    let work = try Self.shardedRun()
    defer { try? FileManager.default.removeItem(at: work) }
    let run = work.appendingPathComponent("sharded").path
    func shell(_ manifest: String, _ environment: [String: String]) throws -> Shell.Result {
      let job = try YAMLSubset.parse(ScaleOutTests.text(manifest))
      let args = try #require(
        job["spec"]?["template"]?["spec"]?["containers"]?[0]?["args"]?[0]?.string)
      let path = ToolRunner.binary.deletingLastPathComponent().path + ":/usr/bin:/bin"
      return try Shell.run(
        "sh", ["-c", args.replacingOccurrences(of: "/results/run", with: run)],
        environment: environment.merging(["PATH": path, "SHARDS": "3", "FAN_IN": "2"]) { $1 })
    }
    for index in 0..<2 {
      let result = try shell(
        "scripts/k8s/merge-level-job.yaml", ["JOB_COMPLETION_INDEX": "\(index)"])
      #expect(result.status == 0, "\(result.output)")
    }
    let merge = try shell("scripts/k8s/merge-job.yaml", [:])
    #expect(merge.status == 0, "\(merge.output)")
    try Self.expectSameReports(work, "sharded")
  }

  /// `merge FOLDER` takes the folder's partials; `--partial-out` with `--out` is a usage error;
  /// an empty folder, a partial with a bin index of -1 and a sweep name that would escape
  /// results/ are refused with exit 2 and a message naming the file and the field.
  @Test func mergeTakesAFolderAndRefusesEditedPartials() throws {
    let work = try Self.shardedRun()
    defer { try? FileManager.default.removeItem(at: work) }
    let parts = work.appendingPathComponent("sharded/parts")
    let folder = try ToolRunner.run(
      ["merge", parts.path, "--out", work.appendingPathComponent("whole").path])
    #expect(folder.status == 0, "\(folder.stderr)")
    try Self.expectSameReports(work, "whole")

    let both = try ToolRunner.run(["merge", parts.path, "--out", "x", "--partial-out", "y.json"])
    #expect(both.status == 2)
    let empty = work.appendingPathComponent("empty")
    try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
    let none = try ToolRunner.run(["merge", empty.path])
    #expect(none.status == 2)
    #expect(none.stderr.contains("no partial-*-of-N.json file"), "\(none.stderr)")

    let first = parts.appendingPathComponent("partial-0-of-3.json")
    var object = try JSONSerialization.jsonObject(with: Data(contentsOf: first)) as! [String: Any]
    var tallies = object["tallies"] as! [[[String: Any]]]
    var latency = tallies[0][0]["latency"] as! [[String: Any]]
    latency[0]["bins"] = [[-1, 1]]
    tallies[0][0]["latency"] = latency
    object["tallies"] = tallies
    try JSONSerialization.data(withJSONObject: object).write(to: first)
    let negative = try ToolRunner.run(["merge", parts.path, "--out", "unused"], in: work)
    #expect(negative.status == 2)
    #expect(negative.stderr.contains("$.tallies[0][0].latency[0].bins"), "\(negative.stderr)")
    #expect(!negative.stderr.contains("not valid JSON"))
  }

  /// A sweep partial whose sweep_name reads `../../../../tmp/x/PWNED`: merge without --out
  /// exits 2 and writes nothing.
  @Test func aSweepNameCannotEscapeResults() throws {
    let work = ScaleOutTests.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: work) }
    let sweep = work.appendingPathComponent("tiny.json")
    try SweepEndToEndTests.tinySweep.write(to: sweep, atomically: true, encoding: .utf8)
    let shard = try ToolRunner.run(
      ["sweep", sweep.path, "--shard", "0/1", "--out", "parts"], in: work)
    #expect(shard.status == 0, "\(shard.stderr)")
    let file = work.appendingPathComponent("parts/partial-0-of-1.json")
    var object = try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as! [String: Any]
    let target = "pwned-\(UUID().uuidString)"
    object["sweep_name"] = "../../../../tmp/\(target)/PWNED"
    try JSONSerialization.data(withJSONObject: object).write(to: file)
    let merge = try ToolRunner.run(["merge", file.path], in: work)
    #expect(merge.status == 2)
    #expect(merge.stderr.contains("$.sweep_name"), "\(merge.stderr)")
    #expect(!FileManager.default.fileExists(atPath: "/tmp/\(target)"))
  }
}
