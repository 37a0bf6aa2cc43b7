import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Issue #16's examples, each as a regression test of the built binary: no accepted input
/// crashes, hangs or escapes, and every refusal says what to fix with the promised exit code.
@Suite("hostile input, end to end")
struct HostileInputTests {
  /// The default scenario with `edit` applied to its JSON object.
  static func scenario(_ edit: (inout [String: Any]) -> Void) throws -> URL {
    let data = try Data(contentsOf: URL(fileURLWithPath: RunEndToEndTests.defaultScenario))
    var object = try JSONSerialization.jsonObject(with: data) as! [String: Any]
    edit(&object)
    let url = RunEndToEndTests.temporaryFolder().appendingPathComponent("scenario.json")
    try JSONSerialization.data(withJSONObject: object).write(to: url)
    return url
  }

  static func screens(_ object: inout [String: Any], edit: (inout [String: Any]) -> Void) {
    var screens = object["screens"] as! [[String: Any]]
    for index in screens.indices { edit(&screens[index]) }
    object["screens"] = screens
  }

  @Test func noCommandPrintsUsageAndExitsTwo() throws {
    let result = try ToolRunner.run([])
    #expect(result.status == 2)
    #expect(result.stderr.contains("no command given"))
    #expect(result.stdout.isEmpty)
  }

  @Test(arguments: [
    (["--version", "extra"], "takes no arguments"),
    (["run", "--out", ""], "needs a folder name"),
    (["run", "--users", "5", "--replications", "2", "--out", "/dev/null/x"], "not a folder"),
  ])
  func badUsageSaysWhatToFix(arguments: [String], message: String) throws {
    let result = try ToolRunner.run(arguments)
    #expect(result.status == (arguments.contains("/dev/null/x") ? 1 : 2), "\(result.stderr)")
    #expect(result.stderr.contains(message), "\(result.stderr)")
    #expect(!result.stderr.contains("NSCocoaErrorDomain"))
  }

  @Test func aSweepFileGivenToRunPointsToSweep() throws {
    let sweep = RunEndToEndTests.root.appendingPathComponent("scenarios/sweeps/consent-hold.json")
    let result = try ToolRunner.run(["run", sweep.path])
    #expect(result.status == 2)
    #expect(result.stderr.contains("this is a sweep file"), "\(result.stderr)")
    #expect(result.stderr.split(separator: "\n").count == 1, "one problem, not every key")
  }

  /// A sweep that runs on the embedded scenario (no `scenario` key) and a robustness study are
  /// recognised too, each pointing to the command that runs it.
  @Test(arguments: [
    (
      "sweep.json",
      #"{"policy": {"preset": "deadline-aware"}, "grid": {"policy.sheets_per_break": [1, 2]}}"#,
      "this is a sweep file", "deferral-sim sweep"
    ),
    (
      "study.json", RobustEndToEndTests.tinyStudy, "this is an uncertainty file",
      "deferral-sim robust"
    ),
  ])
  func aSweepOrStudyGivenToRunPointsToItsCommand(
    name: String, text: String, message: String, command: String
  ) throws {
    let file = RunEndToEndTests.temporaryFolder().appendingPathComponent(name)
    try text.write(to: file, atomically: true, encoding: .utf8)
    let result = try ToolRunner.run(["run", file.path])
    #expect(result.status == 2)
    #expect(result.stderr.contains(message), "\(result.stderr)")
    #expect(result.stderr.contains(command), "\(result.stderr)")
    #expect(result.stderr.split(separator: "\n").count == 1, "one problem, not every key")
  }

  @Test func aFIFOIsRefusedWithoutWaitingForAWriter() throws {
    let fifo = RunEndToEndTests.temporaryFolder().appendingPathComponent("scenario.json")
    #expect(mkfifo(fifo.path, 0o600) == 0)
    for command in ["run", "validate"] {
      let result = try ToolRunner.run([command, fifo.path])
      #expect(result.status == 2)
      #expect(result.stderr.contains("is a pipe (FIFO)"), "\(result.stderr)")
    }
  }

  @Test func aHugeDeadlineRunsToTheEnd() throws {
    let file = try Self.scenario { object in
      var messages = object["messages"] as! [String: Any]
      var consent = messages["price_increase_consent"] as! [String: Any]
      consent["deadline"] = ["fixed": 1e300]
      messages["price_increase_consent"] = consent
      object["messages"] = messages
    }
    let out = RunEndToEndTests.temporaryFolder().appendingPathComponent("huge")
    let result = try ToolRunner.run([
      "run", file.path, "--users", "200", "--replications", "2", "--out", out.path, "--quiet",
    ])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("report.html").path))
  }

  @Test func screensLoopingWithZeroDwellAreRefused() throws {
    let file = try Self.scenario { object in
      Self.screens(&object) { screen in
        if screen["name"] as? String == "home" {
          screen["dwell"] = ["fixed": "0s"]
          screen["transitions"] = [
            "library": 1.0, "background": 1e-10, "session": 1e-10, "settings": 1e-10,
            "paywall": 1e-10,
          ]
        } else if screen["name"] as? String == "library" {
          screen["dwell"] = ["fixed": "0s"]
          screen["transitions"] = ["home": 1.0]
        }
      }
    }
    for command in ["validate", "run"] {
      let result = try ToolRunner.run(
        [command, file.path, "--quiet"].filter {
          command == "run" || $0 != "--quiet"
        })
      #expect(result.status == 2)
      #expect(result.stderr.contains("'home', 'library' lead to one another"), "\(result.stderr)")
    }
  }

  @Test func millisecondMessageIntervalsAreRefused() throws {
    let file = try Self.scenario { object in
      var messages = object["messages"] as! [String: Any]
      messages["generic"] = ["audience": "all", "mean_interval": "1ms", "expiry": NSNull()]
      object["messages"] = messages
    }
    let result = try ToolRunner.run(["validate", file.path])
    #expect(result.status == 2)
    #expect(result.stderr.contains("$.messages.generic.mean_interval"), "\(result.stderr)")
    #expect(result.stderr.contains("make mean_interval at least"))
  }

  @Test(arguments: [
    "=cmd|'/Ccalc'!A0", "storekit\u{2010}auto", String(repeating: "p", count: 100_000),
    "red\u{1B}[31m", "../../x",
  ])
  func customPolicyNamesFollowTheNameRule(name: String) throws {
    let file = try Self.scenario { object in
      object["policies"] = [["name": name, "preset": "screen-gate"]]
    }
    let result = try ToolRunner.run(["validate", file.path])
    #expect(result.status == 2)
    #expect(result.stderr.contains("invalid policy name"), "\(result.stderr.prefix(300))")
    #expect(result.stderr.utf8.count < 2_000, "a long name is not echoed whole")
    #expect(!result.stderr.contains("\u{1B}"), "no escape sequence reaches the terminal")
  }

  @Test func controlCharactersInArgumentsAreShownNotSent() throws {
    let result = try ToolRunner.run(["run", "--policies", "red\u{1B}[2J"])
    #expect(result.status == 2)
    #expect(!result.stderr.contains("\u{1B}"))
    #expect(result.stderr.contains("\\u{1B}[2J"), "\(result.stderr)")
  }
}
