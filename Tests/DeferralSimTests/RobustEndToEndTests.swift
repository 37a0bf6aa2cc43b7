import Foundation
import TestSupport
import Testing

@Suite("robust, end to end")
struct RobustEndToEndTests {
  /// 4 worlds × 3 policies, on the bundled default scenario file.
  static let tinyStudy = """
    {"scenario": "\(RunEndToEndTests.defaultScenario)", "users": 60, "replications": 2,
     "seed": 3, "worlds": 4, "policies": ["storekit-auto", "deadline-aware", "never"],
     "parameters": {
      "scenario.population.new_user_share": {"uniform": {"min": 0.2, "max": 0.4},
                                             "source": "test"},
      "scenario.sessions.gap.lognormal.median": {"log_uniform": {"min": "4h", "max": "10h"},
                                                 "source": "test"},
      "value.consent_deadline_missed": {"triangular": {"min": 5, "mode": 25, "max": 60},
                                        "source": "test"},
      "scenario.sessions.delivery": {"values": ["launch_and_resume", "launch"], "source": "test"}
     }}
    """

  /// What a study writes.
  static let files = ["robust.csv", "robust-summary.csv", "robust-tornado.csv", "report.html"]

  static func write(_ text: String, in folder: URL, name: String = "tiny.json") throws -> URL {
    let file = folder.appendingPathComponent(name)
    try text.write(to: file, atomically: true, encoding: .utf8)
    return file
  }

  @Test func printsWhoWinsAndWhatDecidesAndWritesTheFiles() throws {
    let folder = RunEndToEndTests.temporaryFolder()
    let file = try Self.write(Self.tinyStudy, in: folder)
    let out = folder.appendingPathComponent("out")
    let result = try ToolRunner.run(["robust", file.path, "--out", out.path, "--quiet"])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.contains("tiny: 4 worlds (lhs) × 3 policies"), "\(result.stdout)")
    #expect(result.stdout.contains("Share of worlds where each policy is best"))
    #expect(result.stdout.contains("What decides between"))
    for name in Self.files {
      #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent(name).path))
    }
    let summary = RunEndToEndTests.rows(try RunEndToEndTests.read(out, "robust-summary.csv"))
    #expect(summary.count == 4)
    let share = summary[0].firstIndex(of: "share_best")!
    let total = summary.dropFirst().map { Double($0[share])! }.reduce(0, +)
    #expect(abs(total - 1) < 1e-9)
    let robust = RunEndToEndTests.rows(try RunEndToEndTests.read(out, "robust.csv"))
    #expect(
      Array(robust[0].prefix(6))
        == [
          "world", "scenario.population.new_user_share", "scenario.sessions.gap.lognormal.median",
          "value.consent_deadline_missed", "scenario.sessions.delivery", "policy",
        ])
    #expect(Set(robust.dropFirst().map(\.[0])) == ["1", "2", "3", "4"])
  }

  /// The same files, byte for byte, whatever `--jobs`, and from `--shard K/N` partials merged
  /// in any order.
  @Test func sameFilesWhateverJobsAndShards() throws {
    let folder = RunEndToEndTests.temporaryFolder()
    let file = try Self.write(Self.tinyStudy, in: folder)
    let one = folder.appendingPathComponent("one")
    let three = folder.appendingPathComponent("three")
    let parts = folder.appendingPathComponent("parts")
    let merged = folder.appendingPathComponent("merged")
    for (out, jobs) in [(one, "1"), (three, "3")] {
      let run = try ToolRunner.run(["robust", file.path, "-o", out.path, "-j", jobs, "-q"])
      #expect(run.status == 0, "\(run.stderr)")
    }
    for shard in ["1/2", "0/2"] {
      let run = try ToolRunner.run([
        "robust", file.path, "-o", parts.path, "--shard", shard, "-j", "2", "-q",
      ])
      #expect(run.status == 0, "\(run.stderr)")
      #expect(run.stdout.contains("combine the shards with 'deferral-sim merge'"))
    }
    let merge = try ToolRunner.run(["merge", parts.path, "--out", merged.path])
    #expect(merge.status == 0, "\(merge.stderr)")
    #expect(merge.stdout.contains("Share of worlds where each policy is best"))
    for name in Self.files {
      let reference = try RunEndToEndTests.read(one, name)
      #expect(try RunEndToEndTests.read(three, name) == reference, "\(name) with -j 3")
      #expect(try RunEndToEndTests.read(merged, name) == reference, "\(name) merged")
    }
  }

  /// Bad input: exit 2, the file, the JSON path and the fix; no work done.
  @Test func aBadStudyIsABadInput() throws {
    let folder = RunEndToEndTests.temporaryFolder()
    let file = try Self.write(
      #"{"wolds": 8, "parameters": {"scenario.population.nope": {"uniform": {"min": 1, "max": 0}}}}"#,
      in: folder, name: "bad.json")
    let result = try ToolRunner.run([
      "robust", file.path, "--out", folder.appendingPathComponent("o").path,
    ])
    #expect(result.status == 2)
    #expect(result.stderr.contains("\(file.path): $.wolds: unknown key 'wolds'; did you mean"))
    #expect(result.stderr.contains("$.parameters.scenario.population.nope.uniform: min 1"))
    #expect(result.stderr.contains("$.parameters.scenario.population.nope.source: missing"))
    #expect(!result.stderr.contains("Fatal error"))
    // A scenario given by mistake says what robust wants instead.
    let scenario = try ToolRunner.run(["robust", RunEndToEndTests.defaultScenario])
    #expect(scenario.status == 2)
    #expect(scenario.stderr.contains("$: this is a scenario, not an uncertainty file"))
  }

  /// `validate` checks a study as `robust` would, and the bundled study passes.
  @Test func validateKnowsStudies() throws {
    let folder = RunEndToEndTests.temporaryFolder()
    let file = try Self.write(Self.tinyStudy, in: folder)
    let bundled = RunEndToEndTests.root.appendingPathComponent(
      "scenarios/uncertainty/indie-subscription.json"
    ).path
    let ok = try ToolRunner.run(["validate", file.path, bundled])
    #expect(ok.status == 0, "\(ok.stderr)")
    #expect(ok.stdout.contains("\(file.path): ok (robustness study of 4 worlds)"))
    #expect(ok.stdout.contains("\(bundled): ok (robustness study of"))
  }

  /// A study's partial and a sweep's never merge together.
  @Test func aStudyPartialDoesNotMergeWithASweepPartial() throws {
    let folder = RunEndToEndTests.temporaryFolder()
    let study = try Self.write(Self.tinyStudy, in: folder)
    let sweep = try Self.write(SweepEndToEndTests.tinySweep, in: folder, name: "sweep.json")
    let a = folder.appendingPathComponent("a")
    let b = folder.appendingPathComponent("b")
    let first = try ToolRunner.run(["robust", study.path, "-o", a.path, "--shard", "0/2", "-q"])
    let second = try ToolRunner.run(["sweep", sweep.path, "-o", b.path, "--shard", "1/2", "-q"])
    #expect(first.status == 0 && second.status == 0, "\(first.stderr) \(second.stderr)")
    let merge = try ToolRunner.run([
      "merge", a.appendingPathComponent("partial-0-of-2.json").path,
      b.appendingPathComponent("partial-1-of-2.json").path,
      "--out", folder.appendingPathComponent("m").path,
    ])
    #expect(merge.status == 2)
    #expect(merge.stderr.contains("one is a sweep's partial, the other a robustness study's"))
  }
}
