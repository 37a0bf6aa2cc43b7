import Foundation
import Testing

/// `tune --shard K/N` and `merge`, as a user (or the Slurm recipe) runs them: a small tune
/// whole and as chains of stages with N = 1, 2, 3 give the same files byte for byte, and
/// files that do not belong together are refused with exit 2 and no output folder.
@Suite("tune over shards end to end")
struct TuneShardsEndToEndTests {
  static let files = [
    "tune.csv", "tuned-policy.json", "tuned-scenario-policy.json", "verification.csv",
    "report.html",
  ]

  /// Runs every stage of `file` in `shards(stage)` shards into `out/stages`, merging each
  /// into `out`; returns the number of stages.
  static func chain(_ file: String, out: URL, shards: (Int) -> Int) throws -> Int {
    let stages = out.appendingPathComponent("stages").path
    var state: [String] = []
    for stage in 0..<30 {
      let count = shards(stage)
      for shard in 0..<count {
        let part = try ToolRunner.run(
          ["tune", file, "--shard", "\(shard)/\(count)", "--out", stages, "-q", "-j", "1"] + state)
        #expect(part.status == 0, "\(part.stderr)")
        #expect(part.stdout.contains("tiny: stage \(stage) ("))
      }
      let merged = try ToolRunner.run(["merge", stages, "--out", out.path] + state)
      #expect(merged.status == 0, "\(merged.stderr)")
      if merged.stdout.contains("Wrote tune.csv") { return stage + 1 }
      #expect(merged.stdout.contains("next: stage \(stage + 1)"), "\(merged.stdout)")
      state = ["--state", "\(stages)/tune-state-\(stage + 1).json"]
    }
    Issue.record("the tune did not end in 30 stages")
    return 0
  }

  @Test func chainsOfStagesWriteTheFilesOfTheTuneRunWhole() throws {
    let folder = RunEndToEndTests.temporaryFolder()
    let file = folder.appendingPathComponent("tiny.json")
    try TuneEndToEndTests.tiny.write(to: file, atomically: true, encoding: .utf8)
    let whole = folder.appendingPathComponent("whole")
    let run = try ToolRunner.run(["tune", file.path, "--out", whole.path, "--quiet", "-j", "2"])
    #expect(run.status == 0, "\(run.stderr)")
    let expected = try Self.files.map { try RunEndToEndTests.read(whole, $0) }
    for (label, shards) in [("1", { (_: Int) in 1 }), ("2", { _ in 2 }), ("3", { _ in 3 })] {
      let out = folder.appendingPathComponent("sharded-\(label)")
      let stages = try Self.chain(file.path, out: out, shards: shards)
      // Round 1, round 2, the selection (its 4 replications in one stage), the verification.
      #expect(stages == 4)
      for (name, text) in zip(Self.files, expected) {
        #expect(try RunEndToEndTests.read(out, name) == text, "\(name), N = \(label)")
      }
      // The stages' files are kept beside the tune's files when the folder is replaced.
      let kept = try FileManager.default.contentsOfDirectory(
        atPath: out.appendingPathComponent("stages").path)
      #expect(kept.filter { $0.hasPrefix("tune-state-") }.count == 3)
    }
  }

  @Test func refusesWhatDoesNotBelongWithExit2AndNoOutputFolder() throws {
    let folder = RunEndToEndTests.temporaryFolder()
    let file = folder.appendingPathComponent("tiny.json")
    try TuneEndToEndTests.tiny.write(to: file, atomically: true, encoding: .utf8)
    let stages = folder.appendingPathComponent("stages").path
    let out = folder.appendingPathComponent("out")
    func refused(_ arguments: [String], _ message: String) throws {
      let result = try ToolRunner.run(arguments)
      #expect(result.status == 2, "\(arguments): \(result.stdout) \(result.stderr)")
      #expect(result.stderr.contains(message), "\(arguments): \(result.stderr)")
      #expect(!FileManager.default.fileExists(atPath: out.path), "\(arguments)")
    }
    try refused(
      ["tune", file.path, "--method", "random", "--budget", "2000", "--shard", "0/2"],
      "'--shard' is not built for '--method random'")
    try refused(["tune", file.path, "--state", "x.json"], "give it with '--shard K/N'")
    for shard in 0..<2 {
      let part = try ToolRunner.run(
        ["tune", file.path, "--shard", "\(shard)/2", "--out", stages, "-q", "-j", "1"])
      #expect(part.status == 0, "\(part.stderr)")
    }
    let part0 = "\(stages)/tune-stage-0-part-0-of-2.json"
    let part1 = "\(stages)/tune-stage-0-part-1-of-2.json"
    try refused(["merge", part0, "--out", out.path], "missing shard(s) 1 of 2")
    try refused(["merge", part0, part0, "--out", out.path], "shard 0 given twice")
    try refused(
      ["merge", part0, part1, "--partial-out", "\(folder.path)/p.json"],
      "a tune's parts merge whole")
    #expect(!FileManager.default.fileExists(atPath: "\(stages)/tune-state-1.json"))
    let merged = try ToolRunner.run(["merge", stages, "--out", out.path])
    #expect(merged.status == 0, "\(merged.stderr)")
    let state = "\(stages)/tune-state-1.json"
    #expect(!FileManager.default.fileExists(atPath: out.path))
    try refused(["merge", stages, "--state", state, "--out", out.path], "no tune-stage-1-part")
    try refused(
      ["merge", part0, part1, "--state", state, "--out", out.path],
      "tune-stage-0-part-0-of-2.json is a part of stage 0")
    // The tune file edited between stages; the state edited.
    let edited = folder.appendingPathComponent("edited.json")
    try TuneEndToEndTests.tiny.replacingOccurrences(of: #""seed": 5"#, with: #""seed": 6"#)
      .write(to: edited, atomically: true, encoding: .utf8)
    try refused(
      ["tune", edited.path, "--shard", "0/1", "--state", state, "--out", stages],
      "edited.json is not the tune file the stages started from")
    let stateText = try String(contentsOfFile: state, encoding: .utf8)
    let badState = "\(folder.path)/bad-state.json"
    try stateText.replacingOccurrences(of: #""stage":1"#, with: #""stage":2"#)
      .write(toFile: badState, atomically: true, encoding: .utf8)
    try refused(
      ["tune", file.path, "--shard", "0/1", "--state", badState, "--out", stages],
      "bad-state.json: $.content_sha256")
    // A run's partial with a tune's option.
    let run = try ToolRunner.run([
      "run", "--users", "40", "--replications", "2", "--policies", "storekit-auto", "--shard",
      "0/1", "--out", "\(folder.path)/run", "-q",
    ])
    #expect(run.status == 0, "\(run.stderr)")
    try refused(
      ["merge", "\(folder.path)/run", "--ahead", "3", "--out", out.path],
      "'--ahead' is for merging a tune's parts")
  }
}
