import Foundation
import TestSupport
import Testing

@testable import deferral_sim

/// Issue #20's everyday-use features, through the built binary: trace's search, diff and
/// formats, machine-readable standard output, short flags, completions, the man page and
/// `--precision`.
@Suite("everyday use, end to end")
struct EverydayUseTests {
  static func json(_ text: String) throws -> Any {
    try JSONSerialization.jsonObject(with: Data(text.utf8))
  }

  @Test func traceFindListsUsersWhoseLifeHadTheOutcome() throws {
    let result = try ToolRunner.run([
      "trace", "--find", "interrupted", "--policy", "storekit-auto", "--limit", "3",
      "--format", "json",
    ])
    #expect(result.status == 0, "\(result.stderr)")
    let document = try #require(try Self.json(result.stdout) as? [String: Any])
    let users = try #require(document["users"] as? [[String: Any]])
    #expect(users.count == 3)
    // Each user found really was interrupted: its own trace says so.
    for entry in users {
      let user = try #require(entry["user"] as? Int)
      let trace = try ToolRunner.run([
        "trace", "--policy", "storekit-auto", "--user", "\(user)", "--format", "json",
      ])
      let life = try #require(try Self.json(trace.stdout) as? [String: Any])
      let policies = try #require(life["policies"] as? [[String: Any]])
      #expect((policies[0]["interrupted_visits"] as? Int ?? 0) > 0, "user \(user)")
    }
  }

  @Test func traceDiffShowsOnlyWhereTwoLivesDiffer() throws {
    let find = try ToolRunner.run([
      "trace", "--find", "differ", "--policy", "storekit-auto", "--policy", "deadline-aware",
      "--limit", "1", "--format", "csv",
    ])
    #expect(find.status == 0, "\(find.stderr)")
    let rows = find.stdout.split(separator: "\n")
    #expect(rows.first == "user,policy,outcome")
    let user = try #require(rows.dropFirst().first?.split(separator: ",").first)
    let both = ["--policy", "storekit-auto", "--policy", "deadline-aware", "--user", String(user)]
    let full = try ToolRunner.run(["trace"] + both + ["--format", "csv"])
    let diff = try ToolRunner.run(["trace"] + both + ["--diff", "--format", "csv"])
    #expect(full.status == 0 && diff.status == 0)
    let fullRows = full.stdout.split(separator: "\n").dropFirst()
    let diffRows = diff.stdout.split(separator: "\n").dropFirst()
    #expect(!diffRows.isEmpty)
    #expect(diffRows.count < fullRows.count)
    // Every differing row is a row of one life, and no row appears under both policies.
    let keys = { (row: Substring) in row.split(separator: ",", maxSplits: 1).last.map(String.init) }
    let first = Set(diffRows.filter { $0.hasPrefix("storekit-auto,") }.compactMap(keys))
    let second = Set(diffRows.filter { $0.hasPrefix("deadline-aware,") }.compactMap(keys))
    #expect(first.isDisjoint(with: second))
    // In text, a shared row is printed once, as 'both'.
    let text = try ToolRunner.run(["trace"] + both)
    #expect(text.stdout.contains("  both  "))
  }

  @Test func traceOfOneUserIsPrintedOnceAndColdLaunchesShowNoOldScreen() throws {
    let result = try ToolRunner.run([
      "trace", "--policy", "storekit-auto", "--user", "5", "--format", "csv",
    ])
    #expect(result.status == 0)
    let rows = result.stdout.split(separator: "\n").map {
      $0.split(separator: ",", omittingEmptySubsequences: false)
    }
    #expect(rows.first?.count == 10)
    let launches = rows.filter { $0.count > 5 && $0[5] == "cold launch" }
    #expect(!launches.isEmpty)
    #expect(launches.allSatisfy { $0[3].isEmpty && $0[4].isEmpty })
  }

  @Test func runWritesTheSummaryToStandardOutputAsJSONOrCSV() throws {
    let out = RunEndToEndTests.temporaryFolder().appendingPathComponent("format")
    let json = try ToolRunner.run([
      "run", "-u", "200", "-r", "2", "-j", "2", "-o", out.path, "-q", "--format", "json",
    ])
    #expect(json.status == 0, "\(json.stderr)")
    let rows = try #require(try Self.json(json.stdout) as? [[String: Any]])
    let summary = try RunEndToEndTests.read(out, "summary.csv")
    #expect(rows.count == summary.split(separator: "\n").count - 1)
    #expect(rows.first?["policy"] as? String == "storekit-auto")
    #expect(json.stderr.contains("Wrote summary.csv"))
    let csv = try ToolRunner.run([
      "run", "-u", "200", "-r", "2", "-o", out.path, "-q", "--format", "csv",
    ])
    #expect(csv.stdout == summary)
  }

  /// `validate scenarios/*.json` meets the JSON Schema too: it is skipped with a note, not
  /// reported as 19 errors, and every bundled scenario is ok.
  @Test func validateSkipsTheJSONSchema() throws {
    let folder = RunEndToEndTests.root.appendingPathComponent("scenarios")
    let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
      .filter { $0.hasSuffix(".json") }.sorted().map { folder.appendingPathComponent($0).path }
    #expect(files.contains { $0.hasSuffix("schema.json") })
    let result = try ToolRunner.run(["validate"] + files)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.contains("schema.json: skipped (a JSON Schema"))
    #expect(
      result.stdout.split(separator: "\n").filter { $0.hasSuffix(": ok") }.count == files.count - 1)
  }

  @Test func aBadOptionSaysSeeHelpOnce() throws {
    let result = try ToolRunner.run(["run", "--usrs", "5"])
    #expect(result.status == 2)
    #expect(result.stderr.components(separatedBy: "--help").count == 2, "\(result.stderr)")
  }

  @Test func bashCompletionCompletesCommandsOptionsAndValues() throws {
    let script = try ToolRunner.run(["completions", "bash"])
    #expect(script.status == 0)
    let file = RunEndToEndTests.temporaryFolder().appendingPathComponent("deferral-sim.bash")
    try script.stdout.write(to: file, atomically: true, encoding: .utf8)
    func complete(_ words: [String]) throws -> [String] {
      let quoted = words.map { "'\($0)'" }.joined(separator: " ")
      let result = try Shell.run(
        "bash",
        [
          "-c",
          "source '\(file.path)'; COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count - 1); "
            + "_deferral_sim; printf '%s\\n' \"${COMPREPLY[@]}\"",
        ], in: file.deletingLastPathComponent(), environment: [:])
      return result.output.split(separator: "\n").map(String.init)
    }
    #expect(try complete(["deferral-sim", "sw"]) == ["sweep"])
    #expect(try complete(["deferral-sim", "run", "--rep"]) == ["--replications"])
    #expect(try complete(["deferral-sim", "trace", "--find", "mi"]) == ["missed"])
    #expect(
      try complete(["deferral-sim", "run", "--baseline", "deadline-aw"]) == [
        "deadline-aware", "deadline-aware-value", "deadline-aware-v1",
      ])
    #expect(
      try complete(["deferral-sim", "run", "--baseline", "deadline-b"]) == ["deadline-blind"])
  }

  @Test(arguments: ["zsh", "fish"])
  func otherShellsGetEveryCommandAndOption(shell: String) throws {
    let result = try ToolRunner.run(["completions", shell])
    #expect(result.status == 0)
    for command in Commands.all {
      #expect(result.stdout.contains(command.spec.name))
      for option in command.spec.options { #expect(result.stdout.contains(option.name)) }
    }
  }

  @Test func theManPageListsEveryCommandAndOption() throws {
    let result = try ToolRunner.run(["help", "--man"])
    #expect(result.status == 0)
    #expect(result.stdout.hasPrefix(".TH DEFERRAL-SIM 1"))
    for command in Commands.all {
      #expect(result.stdout.contains(".SS \"\(command.spec.name)"))
      for option in command.spec.options {
        #expect(result.stdout.contains("\\-\\-\(ManPage.escape(option.name))"), "\(option.name)")
      }
    }
    #expect(!result.stdout.split(separator: "\n").contains { $0.hasPrefix("-") })
  }

  @Test func precisionAddsReplicationsUntilHeadlineMetricsAreNarrow() throws {
    let out = RunEndToEndTests.temporaryFolder().appendingPathComponent("precision")
    let arguments = [
      "run", "-u", "300", "-r", "2", "--policies", "storekit-auto,never", "-o", out.path,
      "--precision", "0.5", "--max-replications", "8",
    ]
    let one = try ToolRunner.run(arguments + ["-j", "1"])
    #expect(one.status == 0, "\(one.stderr)")
    #expect(one.stderr.contains("precision: 2 replications"))
    let summary = try RunEndToEndTests.read(out, "summary.csv")
    let two = try ToolRunner.run(arguments + ["-j", "2"])
    #expect(two.status == 0)
    #expect(try RunEndToEndTests.read(out, "summary.csv") == summary, "same files whatever -j")
    // The final count is a plain run's: its files are the same bytes.
    let counts = summary.split(separator: "\n").dropFirst().compactMap {
      $0.split(separator: ",").last.flatMap { Int($0) }
    }
    let replications = try #require(counts.max())
    let plain = RunEndToEndTests.temporaryFolder().appendingPathComponent("plain")
    let direct = try ToolRunner.run([
      "run", "-u", "300", "-r", "\(replications)", "--policies", "storekit-auto,never", "-o",
      plain.path, "-q",
    ])
    #expect(direct.status == 0)
    #expect(try RunEndToEndTests.read(plain, "summary.csv") == summary)
  }
}
