import Foundation
import TestSupport
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
      // Round 1, round 2, one local step, the selection (its 4 replications in one stage), the
      // verification.
      #expect(stages == 5)
      for (name, text) in zip(Self.files, expected) {
        #expect(try RunEndToEndTests.read(out, name) == text, "\(name), N = \(label)")
      }
      // The stages' files are kept beside the tune's files when the folder is replaced.
      let kept = try FileManager.default.contentsOfDirectory(
        atPath: out.appendingPathComponent("stages").path)
      #expect(kept.filter { $0.hasPrefix("tune-state-") }.count == 4)
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
    // validate checks a state and a part as merge reads them.
    let checked = try ToolRunner.run(["validate", state, part0])
    #expect(checked.status == 0, "\(checked.stderr)")
    #expect(checked.stdout.contains("ok (the state for stage 1 of the tune tiny, 1 run recorded)"))
    #expect(checked.stdout.contains("ok (a part of stage 0 of the tune tiny: shards 0 of 2"))
    try refused(["validate", badState], "bad-state.json: $.content_sha256")
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

  /// A stand-in for `sbatch`: runs the job at once (what it depends on has already run, in
  /// this order), its output to `$FAKE_SBATCH_LOG`, and prints a job id.
  static let fakeSbatch = #"""
    #!/usr/bin/env bash
    set -euo pipefail
    array=""
    while [ $# -gt 0 ]; do
      case $1 in
        --parsable | --dependency=*) shift ;;
        --array=*) array=${1#--array=}; shift ;;
        *) break ;;
      esac
    done
    script=$1
    shift
    id=$(( $(cat "$FAKE_SBATCH_COUNTER" 2>/dev/null || echo 0) + 1 ))
    echo "$id" > "$FAKE_SBATCH_COUNTER"
    echo "sbatch $id: $script $*" >> "$FAKE_SBATCH_LOG"
    if [ -n "$array" ]; then
      count=$(( ${array#0-} + 1 ))
      for ((k = 0; k < count; k++)); do
        SLURM_ARRAY_TASK_ID=$k SLURM_ARRAY_TASK_COUNT=$count bash "$script" "$@" >> "$FAKE_SBATCH_LOG" 2>&1
      done
    else
      bash "$script" "$@" >> "$FAKE_SBATCH_LOG" 2>&1
    fi
    echo "$id"
    """#

  /// `submit.sh --tune` with the stand-in: stage 0's array and merge, each merge queueing the
  /// next stage, the last one writing the tune's files, byte for byte those of the tune whole.
  @Test func slurmRecipeChainsTheStagesWithoutSlurm() throws {
    let folder = RunEndToEndTests.temporaryFolder()
    let file = folder.appendingPathComponent("tiny.json")
    try TuneEndToEndTests.tiny.write(to: file, atomically: true, encoding: .utf8)
    let whole = folder.appendingPathComponent("whole")
    let run = try ToolRunner.run(["tune", file.path, "--out", whole.path, "--quiet", "-j", "1"])
    #expect(run.status == 0, "\(run.stderr)")
    let bin = folder.appendingPathComponent("bin")
    try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
    let sbatch = bin.appendingPathComponent("sbatch")
    try Self.fakeSbatch.write(to: sbatch, atomically: true, encoding: .utf8)
    try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: sbatch.path)
    let log = folder.appendingPathComponent("sbatch.log").path
    let out = folder.appendingPathComponent("out")
    let submitted = try Shell.run(
      "bash",
      [
        ScaleOutTests.path("scripts/slurm/submit.sh"), "--tune", file.path, out.path, "2",
        "--ahead", "1",
      ],
      in: folder,
      environment: ScaleOutTests.scriptEnvironment.merging([
        "PATH": bin.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"),
        "FAKE_SBATCH_LOG": log,
        "FAKE_SBATCH_COUNTER": folder.appendingPathComponent("counter").path,
      ]) { $1 })
    let logged = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
    #expect(submitted.status == 0, "\(submitted.output)\n\(logged)")
    #expect(submitted.output.contains("stage 0: shards job 1 (array 0-1); merge: job 2"))
    // Round 1, round 2, each local step, the selection's first stage (its 3 first-stage replications), one
    // stage for each replication after those (--ahead 1; as many as the tune whole took, read
    // from its tune.csv), the verification: an array and a merge each.
    let wholeRows = RunEndToEndTests.rows(try RunEndToEndTests.read(whole, "tune.csv"))
    let selection =
      wholeRows.filter { $0[0] == "selection" }.compactMap { Int($0[5]) }.max() ?? 0
    let locals = Set(wholeRows.map { $0[0] }.filter { $0.hasPrefix("local ") }).count
    #expect(locals >= 1)
    let stages = 2 + locals + 1 + (selection - 3) + 1
    #expect(selection >= 3)
    #expect(
      logged.components(separatedBy: "tune-shard.sbatch").count - 1 == stages, "\(logged)")
    #expect(
      logged.contains(
        "stage \(stages - 1): shards job \(2 * stages - 1) (array 0-1); merge: job \(2 * stages)"),
      "\(logged)")
    for name in Self.files {
      #expect(
        try RunEndToEndTests.read(out, name) == RunEndToEndTests.read(whole, name), "\(name)")
    }
  }
}
