import Foundation
import TestSupport
import Testing

@Suite("sweep, end to end")
struct SweepEndToEndTests {
  /// 2 scenario points × (1 preset + 2 policy points), on the bundled default scenario file.
  static let tinySweep = """
    {"scenario": "\(RunEndToEndTests.defaultScenario)", "users": 60, "replications": 2,
     "policy": {"preset": "deadline-aware"},
     "grid": {"policy.sheets_per_break": [1, 2],
              "scenario.population.new_user_share": [0.3, 0.5]},
     "compare": ["storekit-auto"]}
    """

  /// What a sweep writes.
  static let files = ["sweep.csv", "pareto.csv", "report.html"]

  @Test func writesEveryPointTheFrontAndAReport() throws {
    let folder = RunEndToEndTests.temporaryFolder()
    let file = folder.appendingPathComponent("tiny.json")
    try Self.tinySweep.write(to: file, atomically: true, encoding: .utf8)
    let out = folder.appendingPathComponent("out")
    let result = try ToolRunner.run(["sweep", file.path, "--out", out.path, "--quiet"])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.contains("Pareto front"))
    let sweep = try RunEndToEndTests.read(out, "sweep.csv")
    let rows = RunEndToEndTests.rows(sweep)
    #expect(
      rows[0]
        == [
          "point", "policy", "policy.sheets_per_break", "scenario.population.new_user_share",
          "metric", "mean", "ci95_low", "ci95_high", "replications",
        ])
    // 2 scenario points × (1 preset + 2 policy points) × every metric.
    let points = Set(rows.dropFirst().map { "\($0[0]) \($0[1]) \($0[3])" })
    #expect(points.count == 6)
    let pareto = try RunEndToEndTests.read(out, "pareto.csv")
    #expect(RunEndToEndTests.rows(pareto).count >= 2)
    let html = try RunEndToEndTests.read(out, "report.html")
    #expect(html.contains("<svg"))
    #expect(!html.contains("<script"))
    // manifest.json as a run's, with the sweep's name, hash and points; the report shows the
    // same hashes in its provenance block.
    let manifest = try RunEndToEndTests.read(out, "manifest.json")
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(manifest.utf8)) as? [String: Any])
    #expect(object["sweep"] as? String == "tiny")
    #expect(object["points"] as? Int == 6)
    #expect((object["command"] as? [String])?.contains("sweep") == true)
    let hash = try #require(object["sweep_sha256"] as? String)
    #expect(hash.count == 64 && html.contains(hash))
    #expect(result.stdout.contains("manifest.json"))
  }

  /// `validate` checks a sweep file as a sweep (a scenario file as a scenario), exit 2 on
  /// any problem.
  @Test func validateKnowsSweepFiles() throws {
    let folder = RunEndToEndTests.temporaryFolder()
    let good = folder.appendingPathComponent("tiny.json")
    try Self.tinySweep.write(to: good, atomically: true, encoding: .utf8)
    let ok = try ToolRunner.run(["validate", good.path, RunEndToEndTests.defaultScenario])
    #expect(ok.status == 0, "\(ok.stderr)")
    #expect(ok.stdout.contains("\(good.path): ok (sweep of 6 points)"), "\(ok.stdout)")
    #expect(ok.stdout.contains("\(RunEndToEndTests.defaultScenario): ok"))
    let bad = folder.appendingPathComponent("bad.json")
    try #"{"grid": {"policy.sheets_per_break": [1]}, "compare": ["nope"]}"#
      .write(to: bad, atomically: true, encoding: .utf8)
    let refused = try ToolRunner.run(["validate", good.path, bad.path])
    #expect(refused.status == 2)
    #expect(refused.stderr.contains("\(bad.path): $.compare[0]: must be a preset name"))
  }

  @Test func aBadGridIsABadInput() throws {
    let folder = RunEndToEndTests.temporaryFolder()
    let file = folder.appendingPathComponent("bad.json")
    try #"{"grid": {"policy.sheets_per_break": [0]}, "pareto": ["nope", "x"]}"#
      .write(to: file, atomically: true, encoding: .utf8)
    let result = try ToolRunner.run([
      "sweep", file.path, "--out", folder.appendingPathComponent("o").path,
    ])
    #expect(result.status == 2)
    #expect(result.stderr.contains("$.pareto"))
  }

  /// `sweep --shard K/N` and `merge`, through the binary: the same three files, byte for byte,
  /// from partials given in any order.
  @Test func shardedSweepMergesToTheSameFiles() throws {
    let folder = RunEndToEndTests.temporaryFolder()
    let file = folder.appendingPathComponent("tiny.json")
    try Self.tinySweep.write(to: file, atomically: true, encoding: .utf8)
    let whole = try ToolRunner.run([
      "sweep", file.path, "--out", folder.appendingPathComponent("whole").path, "--quiet",
    ])
    #expect(whole.status == 0, "\(whole.stderr)")
    let parts = folder.appendingPathComponent("parts")
    for shard in 0..<3 {
      let result = try ToolRunner.run([
        "sweep", file.path, "--shard", "\(shard)/3", "--out", parts.path, "--jobs", "1",
      ])
      #expect(result.status == 0, "\(result.stderr)")
      #expect(result.stdout.contains("partial-\(shard)-of-3.json"))
    }
    #expect(!FileManager.default.fileExists(atPath: parts.appendingPathComponent("sweep.csv").path))
    let partials = [2, 0, 1].map { parts.appendingPathComponent("partial-\($0)-of-3.json").path }
    let merged = folder.appendingPathComponent("merged")
    let merge = try ToolRunner.run(["merge"] + partials + ["--out", merged.path])
    #expect(merge.status == 0, "\(merge.stderr)")
    #expect(merge.stdout.contains("Pareto front"))
    for name in Self.files {
      let one = try RunEndToEndTests.read(folder.appendingPathComponent("whole"), name)
      #expect(try RunEndToEndTests.read(merged, name) == one, "\(name) differs")
    }

    // A missing shard, and a run's partial among a sweep's, are refused with exit 2.
    let missing = try ToolRunner.run(
      ["merge"] + partials.dropLast() + ["--out", folder.appendingPathComponent("m2").path])
    #expect(missing.status == 2)
    #expect(missing.stderr.contains("missing shard(s) 1 of 3"), "\(missing.stderr)")
    let runParts = folder.appendingPathComponent("run-parts")
    let run = try ToolRunner.run([
      "run", "--users", "40", "--replications", "2", "--shard", "0/3", "--out", runParts.path,
      "--quiet",
    ])
    #expect(run.status == 0, "\(run.stderr)")
    let mixed = try ToolRunner.run(
      ["merge", partials[0], runParts.appendingPathComponent("partial-0-of-3.json").path]
        + ["--out", folder.appendingPathComponent("m3").path])
    #expect(mixed.status == 2)
    #expect(mixed.stderr.contains("a run's partial result, the other a sweep's"), "\(mixed.stderr)")
    #expect(
      !FileManager.default.fileExists(atPath: folder.appendingPathComponent("m3/sweep.csv").path))

    let badShard = try ToolRunner.run(["sweep", file.path, "--shard", "3/3", "--out", parts.path])
    #expect(badShard.status == 2)
    #expect(badShard.stderr.contains("--shard"), "\(badShard.stderr)")
  }

  /// On a terminal (a pseudo-terminal from util-linux `script`), sweep and run draw a progress
  /// line on standard error, a sweep naming its scenario point; through a pipe, none.
  @Test(
    .enabled(
      if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script"),
      "needs /usr/bin/script (util-linux) for a pseudo-terminal"))
  func progressLineOnATerminalOnly() throws {
    let folder = RunEndToEndTests.temporaryFolder()
    let file = folder.appendingPathComponent("tiny.json")
    try Self.tinySweep.write(to: file, atomically: true, encoding: .utf8)
    func onTerminal(_ arguments: [String]) throws -> String {
      let command = ([ToolRunner.binary.path] + arguments).map { "'\($0)'" }.joined(separator: " ")
      let process = Process()
      process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
      process.arguments = ["-qec", command, "/dev/null"]
      let pipe = Pipe()
      process.standardOutput = pipe
      process.standardInput = FileHandle.nullDevice
      try process.run()
      let data = pipe.fileHandleForReading.readDataToEndOfFile()
      process.waitUntilExit()
      #expect(process.terminationStatus == 0)
      return String(decoding: data, as: UTF8.self)
    }
    let sweep = try onTerminal([
      "sweep", file.path, "--out", folder.appendingPathComponent("t1").path, "--jobs", "1",
    ])
    #expect(sweep.contains("point 2/2 · replications 2/2"), "\(sweep)")
    let run = try onTerminal([
      "run", "--users", "40", "--replications", "2", "--out",
      folder.appendingPathComponent("t2").path, "--no-report",
    ])
    #expect(run.contains("replications 2/2 · "), "\(run)")
    #expect(!run.contains("point "))
    let piped = try ToolRunner.run([
      "sweep", file.path, "--out", folder.appendingPathComponent("t3").path,
    ])
    #expect(piped.status == 0)
    #expect(!piped.stderr.contains("replications"), "no progress through a pipe")
  }
}
