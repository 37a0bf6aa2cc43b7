import Foundation
import TestSupport
import Testing

/// `deferral-sim tune` as a user runs it: its files, a second tune into the same folder, the
/// policy file the app loads, and a bad tune file refused with its JSON paths.
@Suite("tune end to end")
struct TuneEndToEndTests {
  static let tiny = #"""
    {"base": {"preset": "deadline-aware"},
     "knobs": {"sheets_per_break": {"integer": [1, 2]}, "gate.home": {"choices": ["open", "closed"]}},
     "compare": ["storekit-auto"],
     "search": {"candidates": 4, "users": 100, "replications": 2, "finalists": 2,
                "local_steps": 2},
     "selection": {"alpha": 0.05, "delta": 50, "users": 100, "initial_replications": 3,
                   "max_replications": 4},
     "seed": 5}
    """#

  @Test func writesItsFilesAndRunsAgainIntoTheSameFolder() throws {
    let folder = RunEndToEndTests.temporaryFolder()
    let file = folder.appendingPathComponent("tiny.json")
    try Self.tiny.write(to: file, atomically: true, encoding: .utf8)
    let out = folder.appendingPathComponent("out")
    let first = try ToolRunner.run(["tune", file.path, "--out", out.path, "--quiet", "-j", "2"])
    #expect(first.status == 0, "\(first.stderr)")
    #expect(first.stdout.contains("Selection among 3"))
    let csv = try RunEndToEndTests.read(out, "tune.csv")
    let rows = RunEndToEndTests.rows(csv)
    #expect(
      rows[0] == [
        "stage", "policy", "sheets_per_break", "gate.home", "users", "replications",
        "value_per_1k_users", "half_width_95", "feasible",
      ])
    // Round 1: 4 candidates; round 2: the better 2 with twice the users; one local step (the
    // better one and its 2 neighbours not seen; it stays); then the selection of those 2 and
    // storekit-auto.
    #expect(
      rows.dropFirst().map { $0[0] } == Array(repeating: "round 1", count: 4)
        + ["round 2", "round 2", "local 1", "local 1", "local 1"]
        + ["selection", "selection", "selection"])
    #expect(rows[5][4] == "200")
    let policy = try RunEndToEndTests.read(out, "tuned-policy.json")
    #expect(policy.contains(#""format": "deferral-sim-policy""#))
    let scenarioPolicy = try RunEndToEndTests.read(out, "tuned-scenario-policy.json")
    #expect(scenarioPolicy.contains(#""name": "tuned""#))
    // Verified on new users: tuned against storekit-auto (compared, so not added twice), the
    // objective first, then the six headline metrics.
    let verification = try RunEndToEndTests.read(out, "verification.csv")
    let checks = RunEndToEndTests.rows(verification)
    #expect(checks[0].prefix(3) == ["against", "best_other", "metric"])
    #expect(checks.count == 1 + 7, "\(verification)")
    #expect(checks.dropFirst().allSatisfy { $0[0] == "storekit-auto" && $0[1] == "yes" })
    #expect(checks[1][2] == "value_per_1k_users" && checks[1][8] == "10")
    // diff is tuned − other: the two means' difference (paired means of the same users).
    let tuned = try #require(Double(checks[1][3]))
    let other = try #require(Double(checks[1][4]))
    let diff = try #require(Double(checks[1][5]))
    #expect(abs(diff - (tuned - other)) < 1e-6)
    #expect(first.stdout.contains("Verified on 10 replications of 100 new users"))
    #expect(first.stdout.contains("against storekit-auto (the best of the others): "))
    // The same file, seed and a different --jobs: the same tune.csv, into the same folder.
    let second = try ToolRunner.run(["tune", file.path, "--out", out.path, "--quiet", "-j", "1"])
    #expect(second.status == 0, "\(second.stderr)")
    #expect(try RunEndToEndTests.read(out, "tune.csv") == csv)
    #expect(try RunEndToEndTests.read(out, "verification.csv") == verification)
    // The report: the progress chart, one chart per knob, the verification table.
    let html = try RunEndToEndTests.read(out, "report.html")
    #expect(html.contains("id=\"progress\"") && html.contains("Search progress"))
    #expect(html.contains("Effect of sheets_per_break") && html.contains("Effect of gate.home"))
    #expect(html.contains("id=\"verification\""))
    #expect(html.components(separatedBy: "<circle").count - 1 >= 4 + 2 + 3)
  }

  @Test func aBadTuneFileNamesItsPathsAndExits2() throws {
    let folder = RunEndToEndTests.temporaryFolder()
    let file = folder.appendingPathComponent("bad.json")
    try #"{"base": "deadline-aware", "knobs": {"sheets_per_break": {"integer": [3, 1]}}}"#
      .write(to: file, atomically: true, encoding: .utf8)
    let result = try ToolRunner.run([
      "tune", file.path, "--out", folder.appendingPathComponent("o").path,
    ])
    #expect(result.status == 2)
    #expect(result.stderr.contains("$.knobs.sheets_per_break.integer"))
    #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("o").path))
  }

  /// `--method random --budget LIVES`: as many candidates as the budget buys beside the
  /// compared preset, one evaluation each on the first round's users, the pick written as a
  /// tune's winner; a missing or useless budget is a usage error (exit 2), before any work.
  @Test func randomSearchSpendsItsBudgetAndWritesItsPick() throws {
    let folder = RunEndToEndTests.temporaryFolder()
    let file = folder.appendingPathComponent("tiny.json")
    try Self.tiny.write(to: file, atomically: true, encoding: .utf8)
    let out = folder.appendingPathComponent("random")
    // 100 users × 2 replications = 200 lives a policy: 2000 buy 9 candidates and the preset.
    let result = try ToolRunner.run([
      "tune", file.path, "--method", "random", "--budget", "2_000", "--out", out.path, "--quiet",
      "-j", "1",
    ])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(
      result.stdout.contains(
        "tiny: random search, 9 candidates over 2 knobs and 1 compared preset, 2000 user lives "
          + "of a budget of 2000"))
    #expect(result.stdout.contains("No guarantee: random search picks the largest of 10 means"))
    let rows = RunEndToEndTests.rows(try RunEndToEndTests.read(out, "tune.csv"))
    #expect(rows.count == 1 + 10)
    #expect(rows.dropFirst().allSatisfy { $0[0] == "random" && $0[4] == "100" && $0[5] == "2" })
    #expect(rows.dropFirst().map { $0[1] } == (1...9).map { "random-\($0)" } + ["storekit-auto"])
    let best = rows.dropFirst().max { Double($0[6])! < Double($1[6])! }!
    #expect(result.stdout.contains("Best mean: \(best[1])"))
    #expect(try RunEndToEndTests.read(out, "tuned-policy.json").contains("deferral-sim-policy"))
    #expect(try RunEndToEndTests.read(out, "verification.csv").hasPrefix("against,"))
    #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent("report.html").path))
    for (arguments, message) in [
      (["--method", "random"], "needs '--budget LIVES'"),
      (["--budget", "5000"], "give it with '--method random'"),
      (["--method", "random", "--budget", "399"], "give at least 400"),
      // 200 lives a candidate: 4096 candidates and the preset take at most 819,400.
      (["--method", "random", "--budget", "819_600"], "give at most 819400"),
      (["--method", "grid", "--budget", "5000"], "must be one of tune, random"),
    ] {
      let refused = try ToolRunner.run(
        ["tune", file.path, "--out", folder.appendingPathComponent("no").path] + arguments)
      #expect(refused.status == 2, "\(arguments)")
      #expect(refused.stderr.contains(message), "\(arguments): \(refused.stderr)")
    }
    #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("no").path))
  }
}
