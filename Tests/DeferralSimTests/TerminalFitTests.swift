import Foundation
import TestSupport
import Testing

@testable import Reports
@testable import deferral_sim

/// Issue #20: the readable output of `run`, `sweep` and `merge` fits `COLUMNS`, `--wide`
/// prints the table in one piece, and neither changes a file; a bad option says "see --help"
/// once, whatever the command.
@Suite("terminal output fits COLUMNS")
struct TerminalFitTests {
  static func longest(_ text: String) -> Int {
    text.split(separator: "\n", omittingEmptySubsequences: false).map(\.count).max() ?? 0
  }

  /// The default scenario's headline columns: it has a `responses` section (two columns) and
  /// a `value` section (the total).
  static let headline =
    (Metric.headline + [.consentAcceptanceRate, .renewalsLostPer1kUsers, .valuePer1kUsers])
    .map(\.name)

  @Test(arguments: [60, 80, 120])
  func runAndMergeFitTheWidth(columns: Int) throws {
    let folder = RunEndToEndTests.temporaryFolder()
    let out = folder.appendingPathComponent("a-folder-name-long-enough-to-need-a-cut-at-sixty")
    let environment = ["COLUMNS": "\(columns)"]
    let run = try ToolRunner.run(
      ["run", "-u", "200", "-r", "2", "-j", "2", "-o", out.path, "-q", "--no-report"],
      environment: environment)
    #expect(run.status == 0, "\(run.stderr)")
    #expect(Self.longest(run.stdout) <= columns, "\(run.stdout)")
    // Split into blocks, nothing is hidden: every column still appears.
    for name in Self.headline { #expect(run.stdout.contains(name), "\(name)") }
    #expect(run.stdout.contains("--wide"))

    let shards = folder.appendingPathComponent("shards")
    for shard in 0..<2 {
      let part = try ToolRunner.run([
        "run", "-u", "200", "-r", "2", "-o", shards.path, "-q", "--shard", "\(shard)/2",
      ])
      #expect(part.status == 0, "\(part.stderr)")
    }
    let merged = folder.appendingPathComponent("merged")
    let merge = try ToolRunner.run(
      ["merge", shards.path, "--out", merged.path, "--no-report"], environment: environment)
    #expect(merge.status == 0, "\(merge.stderr)")
    #expect(Self.longest(merge.stdout) <= columns, "\(merge.stdout)")
    #expect(
      try RunEndToEndTests.read(merged, "summary.csv")
        == RunEndToEndTests.read(out, "summary.csv"))
  }

  @Test(arguments: [60, 80, 120])
  func sweepFitsTheWidth(columns: Int) throws {
    let folder = RunEndToEndTests.temporaryFolder()
    let file = folder.appendingPathComponent("tiny.json")
    try SweepEndToEndTests.tinySweep.write(to: file, atomically: true, encoding: .utf8)
    let result = try ToolRunner.run(
      ["sweep", file.path, "-o", folder.appendingPathComponent("out").path, "-q", "--no-report"],
      environment: ["COLUMNS": "\(columns)"])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.contains("Pareto front"))
    #expect(Self.longest(result.stdout) <= columns, "\(result.stdout)")
  }

  /// `sweep --format csv|json` writes sweep.csv to standard output (it was accepted and
  /// ignored before); the table's lines go nowhere, "Wrote" to standard error.
  @Test func sweepWritesItsCSVToStandardOutput() throws {
    let folder = RunEndToEndTests.temporaryFolder()
    let file = folder.appendingPathComponent("tiny.json")
    try SweepEndToEndTests.tinySweep.write(to: file, atomically: true, encoding: .utf8)
    let out = folder.appendingPathComponent("out")
    let csv = try ToolRunner.run(
      ["sweep", file.path, "-o", out.path, "-q", "--no-report", "--format", "csv"])
    #expect(csv.status == 0, "\(csv.stderr)")
    let written = try RunEndToEndTests.read(out, "sweep.csv")
    #expect(csv.stdout == written)
    #expect(csv.stderr.contains("Wrote sweep.csv"))
    let json = try ToolRunner.run(
      ["sweep", file.path, "-o", out.path, "-q", "--no-report", "--format", "json"])
    let rows = try #require(
      try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
    #expect(rows.count == written.split(separator: "\n").count - 1)
  }

  /// `--wide` prints one table: a header line naming every column, one line per policy;
  /// the files are the same bytes as a fitted run's.
  @Test func wideShowsEveryColumnInOneTableAndChangesNoFile() throws {
    let folder = RunEndToEndTests.temporaryFolder()
    let narrow = folder.appendingPathComponent("narrow")
    let wide = folder.appendingPathComponent("wide")
    let arguments = ["run", "-u", "200", "-r", "2", "-q", "--no-report"]
    let fitted = try ToolRunner.run(
      arguments + ["-o", narrow.path], environment: ["COLUMNS": "60"])
    let whole = try ToolRunner.run(
      arguments + ["-o", wide.path, "--wide"], environment: ["COLUMNS": "60"])
    #expect(fitted.status == 0 && whole.status == 0, "\(whole.stderr)")
    let header = whole.stdout.split(separator: "\n").first { $0.hasPrefix("policy ") }
    let columns = try #require(header).split(separator: " ").map(String.init)
    #expect(columns == ["policy"] + Self.headline)
    #expect(Self.longest(whole.stdout) > 60)
    #expect(!whole.stdout.contains("--wide prints"))
    for file in ["summary.csv", "paired.csv", "decision.csv", "by-screen.csv", "by-reason.csv"] {
      #expect(
        try RunEndToEndTests.read(narrow, file) == RunEndToEndTests.read(wide, file), "\(file)")
    }
    // Piped (not a terminal) with no COLUMNS: one table, one line per policy.
    let piped = try ToolRunner.run(arguments + ["-o", wide.path])
    #expect(piped.stdout.contains(String(try #require(header))))
  }

  @Test func theWidthComesFromWideThenColumnsThenTheTerminal() {
    #expect(TerminalWidth.resolve(wide: true, environment: ["COLUMNS": "80"]) { 100 } == nil)
    #expect(TerminalWidth.resolve(wide: false, environment: ["COLUMNS": "80"]) { 100 } == 80)
    #expect(TerminalWidth.resolve(wide: false, environment: ["COLUMNS": "x"]) { 100 } == 100)
    #expect(TerminalWidth.resolve(wide: false, environment: [:]) { nil } == nil)
  }

  /// Every command, given an option it does not know, says once where help is.
  @Test(arguments: Commands.all.map(\.spec.name))
  func aBadOptionSaysSeeHelpOnce(command: String) throws {
    for bad in ["--no-such-option", "-Z", "--no-such=1"] {
      let result = try ToolRunner.run([command, bad])
      #expect(result.status == 2, "\(command) \(bad)")
      #expect(
        result.stderr.components(separatedBy: "--help").count == 2, "\(command): \(result.stderr)")
      #expect(result.stderr.hasPrefix("error: "))
    }
  }

  @Test func aBadCommandOrVersionArgumentSaysSeeHelpOnce() throws {
    for arguments in [["rnu"], ["--version", "extra"], ["run", "--users", "lots"]] {
      let result = try ToolRunner.run(arguments)
      #expect(result.status == 2, "\(arguments)")
      #expect(result.stderr.components(separatedBy: "--help").count == 2, "\(result.stderr)")
    }
  }
}
