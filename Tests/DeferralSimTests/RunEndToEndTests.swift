import Foundation
import MessageDeferral
import Reports
import TestSupport
import Testing

/// The built binary on real scenario files: outputs, exit codes, atomicity, determinism.
@Suite("run, end to end")
struct RunEndToEndTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
  static let defaultScenario = root.appendingPathComponent("scenarios/indie-subscription.json").path

  static func temporaryFolder() -> URL {
    let url = TestScratch.directory.appendingPathComponent(
      "deferral-sim-e2e-\(UUID().uuidString)")
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }

  static func read(_ folder: URL, _ name: String) throws -> String {
    try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
  }

  /// Rows of a CSV without quoted fields (ours quote only names with commas).
  static func rows(_ text: String) -> [[String]] {
    text.split(separator: "\n").map {
      $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
    }
  }

  static func small(_ out: URL, jobs: Int, extra: [String] = []) throws -> ToolRunner.Result {
    try ToolRunner.run(
      [
        "run", "--users", "300", "--replications", "3", "--jobs", "\(jobs)", "--out", out.path,
        "--quiet",
      ] + extra)
  }

  @Test func writesEveryFileWithItsHeader() throws {
    let out = Self.temporaryFolder()
    let result = try Self.small(out, jobs: 2, extra: ["--messages-log"])
    #expect(result.status == 0, "\(result.stderr)")
    let headers = [
      "summary.csv": "policy,metric,mean,ci95_low,ci95_high,replications",
      "paired.csv": "policy,baseline,metric,mean_diff,ci95_low,ci95_high,replications",
      "by-screen.csv": "policy,screen,kind,visits,interrupted,interruption_rate,"
        + "interruption_rate_ci95_low,interruption_rate_ci95_high,visits_per_user,"
        + "visits_per_user_ci95_low,visits_per_user_ci95_high,time_s,time_per_user_s,"
        + "time_per_user_s_ci95_low,time_per_user_s_ci95_high,time_per_visit_s,"
        + "time_per_visit_s_ci95_low,time_per_visit_s_ci95_high,consent_shown,consent_accepted,"
        + "consent_acceptance_rate,consent_acceptance_rate_ci95_low,"
        + "consent_acceptance_rate_ci95_high",
      "by-reason.csv":
        "policy,reason,issued,displayed,expired,pending,latency_p50_s,latency_p90_s,latency_p99_s,"
        + "issued_per_user,issued_per_user_ci95_low,issued_per_user_ci95_high,displayed_share,"
        + "displayed_share_ci95_low,displayed_share_ci95_high,expired_share,"
        + "expired_share_ci95_low,expired_share_ci95_high,pending_share,pending_share_ci95_low,"
        + "pending_share_ci95_high,latency_p50_s_ci95_low,latency_p50_s_ci95_high,"
        + "latency_p90_s_ci95_low,latency_p90_s_ci95_high,latency_p99_s_ci95_low,"
        + "latency_p99_s_ci95_high,responded,response_rate,response_rate_ci95_low,"
        + "response_rate_ci95_high",
      "by-segment.csv": "policy,segment,metric,mean,ci95_low,ci95_high,replications",
      "replications.csv": "policy,replication,metric,value",
      "decision.csv":
        "basis,rank,policy,verdict,metric,mean,ci95_low,ci95_high,diff_to_recommended,"
        + "diff_ci95_low,diff_ci95_high,probability_best,ships_as,how_to_ship,app_period_days,"
        + "lapsed_renewals_vs_baseline_app,lapsed_renewals_vs_baseline_app_ci95_low,",
      "messages.csv":
        "policy,replication,user,message,reason,issued_at_s,delivered_at_s,displayed_at_s,wait_s,"
        + "screen,screen_kind,forced,attempts,outcome,response",
    ]
    for (file, header) in headers {
      let text = try Self.read(out, file)
      #expect(text.hasPrefix(header + (header.hasSuffix(",") ? "" : "\n")), "\(file)")
    }
    let manifest = try Self.read(out, "manifest.json")
    #expect(manifest.contains("\"scenario_sha256\""))
    #expect(result.stdout.contains("Pareto front"))
    // The default scenario has a value section: the output opens with the recommendation.
    let opening = result.stdout.split(separator: "\n").dropFirst().first ?? ""
    #expect(opening.hasPrefix("Recommendation: "), "\(result.stdout)")
    #expect(result.stdout.contains("USD per 1,000 users"))
    #expect(result.stdout.contains("paired bootstrap resamples"))
    // No temporary files are left behind; the one hidden file is the folder's list of its
    // files (results/README.md, "An output folder is one unit").
    let leftovers = try FileManager.default.contentsOfDirectory(atPath: out.path).filter {
      $0.hasPrefix(".") && $0 != ".deferral-sim-output"
    }
    #expect(leftovers.isEmpty, "\(leftovers)")
  }

  @Test func csvsAreIdenticalWhateverTheJobs() throws {
    let one = Self.temporaryFolder()
    let two = Self.temporaryFolder()
    #expect(try Self.small(one, jobs: 1, extra: ["--messages-log"]).status == 0)
    #expect(try Self.small(two, jobs: 2, extra: ["--messages-log"]).status == 0)
    for file in [
      "summary.csv", "paired.csv", "by-screen.csv", "by-reason.csv", "by-segment.csv",
      "replications.csv", "messages.csv", "decision.csv",
    ] {
      #expect(try Self.read(one, file) == Self.read(two, file), "\(file) differs across --jobs")
    }
  }

  @Test func intervalsContainTheMeanAndEmptyMeansNoData() throws {
    let out = Self.temporaryFolder()
    #expect(try Self.small(out, jobs: 2).status == 0)
    let rows = Self.rows(try Self.read(out, "summary.csv")).dropFirst()
    #expect(
      rows.count == PolicyCatalog.presets.count * Metric.all.count,
      "every preset × every metric (the default scenario has responses and a value section)")
    for row in rows {
      if row[2].isEmpty {
        #expect(row[3].isEmpty && row[4].isEmpty)
        continue
      }
      let mean = try #require(Double(row[2]))
      let low = try #require(Double(row[3]))
      let high = try #require(Double(row[4]))
      #expect(low <= mean && mean <= high, "\(row)")
      #expect(!row.contains("nan") && !row.contains("NaN"))
      // Only values (in the user's units) can be negative; rates stay at most 1.
      if !row[1].hasPrefix("value_") { #expect(low >= 0, "\(row)") }
      if row[1].hasSuffix("_rate") { #expect(high <= 1, "\(row)") }
    }
  }

  /// messages.csv, counted by policy, reason and outcome, equals by-reason.csv.
  @Test func messagesLogAgreesWithByReason() throws {
    let out = Self.temporaryFolder()
    #expect(try Self.small(out, jobs: 2, extra: ["--messages-log"]).status == 0)
    var counts: [String: Int] = [:]
    for row in Self.rows(try Self.read(out, "messages.csv")).dropFirst() {
      let reason = row[4].hasPrefix("unknown_") ? "unknown" : row[4]
      counts["\(row[0])/\(reason)/issued", default: 0] += 1
      counts["\(row[0])/\(reason)/\(row[13])", default: 0] += 1
    }
    for row in Self.rows(try Self.read(out, "by-reason.csv")).dropFirst() {
      for (column, name) in [(2, "issued"), (3, "displayed"), (4, "expired"), (5, "pending")] {
        #expect(counts["\(row[0])/\(row[1])/\(name)", default: 0] == Int(row[column]), "\(row)")
      }
    }
  }

  /// A trace of one user agrees with the run's log of that user, for users who do have
  /// messages (the first users of replication 0 have none, and 0 = 0 would prove nothing).
  @Test func traceAgreesWithTheRunForUsersWithMessages() throws {
    let out = Self.temporaryFolder()
    let run = try ToolRunner.run([
      "run", "--users", "60", "--replications", "2", "--out", out.path, "--quiet",
      "--policies", "storekit-auto,screen-gate", "--messages-log",
    ])
    #expect(run.status == 0)
    let rows = Self.rows(try Self.read(out, "messages.csv")).dropFirst().filter {
      $0[0] == "screen-gate" && $0[1] == "0"
    }
    let withDisplays = Set(rows.filter { $0[13] == "displayed" }.compactMap { Int($0[2]) })
    let users = withDisplays.sorted().prefix(3)
    #expect(users.count == 3, "60 users: at least three have a message displayed")
    for user in users {
      let logged = rows.filter { $0[2] == "\(user)" }
      let trace = try ToolRunner.run(["trace", "--policy", "screen-gate", "--user", "\(user)"])
      #expect(trace.status == 0)
      let displayedRows = trace.stdout.split(separator: "\n").filter {
        $0.contains(" displayed ") || $0.contains(" displayed (forced)")
      }
      let displayedInLog = logged.filter { $0[13] == "displayed" }.count
      #expect(displayedInLog > 0)
      #expect(displayedRows.count == displayedInLog, "user \(user)")
      #expect(
        trace.stdout.contains("screen-gate: \(logged.count) messages, \(displayedInLog) displayed"),
        "user \(user): \(trace.stdout.suffix(300))")
    }
  }

  @Test func anUnwritableOutputFolderFailsBeforeSimulating() throws {
    let blocker = Self.temporaryFolder().appendingPathComponent("file")
    try Data("x".utf8).write(to: blocker)
    let result = try ToolRunner.run([
      "run", "--users", "10", "--out", blocker.appendingPathComponent("sub").path,
    ])
    #expect(result.status == 1)
    #expect(result.stderr.contains("cannot create output folder"))
  }

  /// A failed run does not clobber an earlier run's complete results.
  @Test func badInputLeavesEarlierResultsAlone() throws {
    let out = Self.temporaryFolder()
    #expect(try Self.small(out, jobs: 2).status == 0)
    let before = try Self.read(out, "summary.csv")
    let bad = try ToolRunner.run(["run", "--users", "0", "--out", out.path])
    #expect(bad.status == 2)
    #expect(try Self.read(out, "summary.csv") == before)
  }

  @Test(arguments: [
    (["run", "--users", "0"], "'--users' must be a whole number"),
    (["run", "--policies", "screen-gat"], "did you mean 'screen-gate'?"),
    (["run", "--baseline", "nope"], "baseline 'nope'"),
    (["run", "/nonexistent/scenario.json"], "/nonexistent/scenario.json"),
    (["run", "--jobs", "many"], "'--jobs' must be a whole number"),
    (["trace", "--user", "1"], "--policy"),
    (["validate", "/nonexistent.json"], "/nonexistent.json"),
  ])
  func badInputExitsWithTwoAndSaysWhy(arguments: [String], message: String) throws {
    let result = try ToolRunner.run(arguments)
    #expect(result.status == 2, "\(arguments): \(result.stderr)")
    #expect(result.stderr.contains(message), "\(result.stderr)")
    #expect(!result.stderr.contains("Fatal error"))
  }

  @Test func invalidScenarioListsEveryProblemAndWritesNothing() throws {
    let folder = Self.temporaryFolder()
    let file = folder.appendingPathComponent("bad.json")
    var text = try String(contentsOfFile: Self.defaultScenario, encoding: .utf8)
    text = text.replacingOccurrences(of: "\"sigma\": 0.6", with: "\"sigma\": -1")
    text = text.replacingOccurrences(of: "\"horizon\": \"30d\"", with: "\"horizon\": \"30x\"")
    try text.write(to: file, atomically: true, encoding: .utf8)
    let out = folder.appendingPathComponent("out")
    let result = try ToolRunner.run(["run", file.path, "--out", out.path])
    #expect(result.status == 2)
    #expect(result.stderr.contains("$.horizon"))
    #expect(result.stderr.contains("sigma"))
    #expect(!FileManager.default.fileExists(atPath: out.path))
    let validate = try ToolRunner.run(["validate", Self.defaultScenario, file.path])
    #expect(validate.status == 2)
    #expect(validate.stdout.contains("\(Self.defaultScenario): ok"))
  }

  @Test func policiesListsEveryPresetAndJSONParses() throws {
    let list = try ToolRunner.run(["policies"])
    #expect(list.status == 0)
    #expect(list.stdout.split(separator: "\n").count == PolicyCatalog.presets.count)
    // OpenIAP's setup condition is stated where the presets are listed.
    #expect(list.stdout.contains("only with a billing-issue listener registered"))
    let json = try ToolRunner.run(["policies", "--json"])
    let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
    #expect(object?.count == PolicyCatalog.presets.count)
    let openiap = object?["openiap"] as? [String: Any]
    #expect(openiap?["displays_one_at_a_time"] as? Bool == true)
    #expect(openiap?["listener_delay"] is [String: Any])
    let revenueCat = object?["revenuecat-manual"] as? [String: Any]
    #expect((revenueCat?["checkpoints"] as? [[String: Any]])?.first?["screen"] as? String == "home")
  }
}
