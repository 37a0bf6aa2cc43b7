import Foundation
import TestSupport
import Testing

/// `deferral-sim fit` and `run --events-log` as a user runs them: the bundled sample logs of
/// every format give a scenario that validates and a report that passes the browser check; a
/// run's events log fits back; bad logs exit 2 with the line and the fix.
@Suite("fit end to end")
struct FitEndToEndTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
  static let samples = root.appendingPathComponent("scenarios/fit-samples")

  static func scratch(_ name: String) -> URL {
    let url = TestScratch.directory
      .appendingPathComponent("fit-e2e-\(name)-\(getpid())-\(UUID().uuidString)")
    try? FileManager.default.removeItem(at: url)
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }

  static let browserCheck = root.appendingPathComponent("scripts/browser-check.sh").path

  /// Runs the browser check; `nil` when no browser is installed (exit 77).
  static func browserPasses(_ report: URL) throws -> Bool? {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/bash")
    process.arguments = [browserCheck, report.path, report.path + ".png"]
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    return process.terminationStatus == 77 ? nil : process.terminationStatus == 0
  }

  @Test(
    "each bundled sample log fits to a valid scenario and a report that passes the browser check",
    arguments: [
      ("generic.csv", "generic"), ("generic.jsonl", "generic"), ("firebase.jsonl", "firebase"),
      ("amplitude.jsonl", "amplitude"),
    ])
  func bundledSamples(log: String, map: String) throws {
    let folder = Self.scratch(log)
    defer { try? FileManager.default.removeItem(at: folder) }
    let out = folder.appendingPathComponent("scenario.json").path
    let fit = try ToolRunner.run([
      "fit", Self.samples.appendingPathComponent(log).path, "--map",
      Self.samples.appendingPathComponent("\(map)-map.json").path, "--out", out,
    ])
    #expect(fit.status == 0, "\(fit.stderr)")
    #expect(fit.stdout.contains("1093 screen views"), "\(fit.stdout)")
    let validate = try ToolRunner.run(["validate", out])
    #expect(validate.status == 0 && validate.stdout.contains("ok"), "\(validate.stderr)")
    let report = folder.appendingPathComponent("fit-report.html")
    let html = try String(contentsOf: report, encoding: .utf8)
    #expect(html.contains("Posterior predictive check"))
    if let passed = try Self.browserPasses(report) { #expect(passed, "browser check of \(log)") }
  }

  @Test("run --events-log writes events.csv and a map that fit reads back")
  func roundTrip() throws {
    let folder = Self.scratch("round-trip")
    defer { try? FileManager.default.removeItem(at: folder) }
    let run = try ToolRunner.run([
      "run", Self.samples.appendingPathComponent("round-trip.json").path, "--users", "200",
      "--replications", "2", "--events-log", "--no-report", "--quiet", "--out", folder.path,
    ])
    #expect(run.status == 0, "\(run.stderr)")
    let events = try String(
      contentsOf: folder.appendingPathComponent("events.csv"), encoding: .utf8)
    #expect(events.hasPrefix("replication,user,policy,timestamp,screen,kind,session,event\n"))
    let out = folder.appendingPathComponent("fitted.json").path
    let fit = try ToolRunner.run([
      "fit", folder.appendingPathComponent("events.csv").path, "--map",
      folder.appendingPathComponent("events-map.json").path, "--out", out, "--no-report",
    ])
    #expect(fit.status == 0, "\(fit.stderr)")
    #expect(fit.stdout.contains("400 users"), "\(fit.stdout)")
    #expect(try ToolRunner.run(["validate", out]).status == 0)
    // The same run with --jobs 1 writes the same events log.
    let again = Self.scratch("round-trip-again")
    defer { try? FileManager.default.removeItem(at: again) }
    _ = try ToolRunner.run([
      "run", Self.samples.appendingPathComponent("round-trip.json").path, "--users", "200",
      "--replications", "2", "--events-log", "--no-report", "--quiet", "--jobs", "1", "--out",
      again.path,
    ])
    #expect(
      try String(contentsOf: again.appendingPathComponent("events.csv"), encoding: .utf8) == events)
  }

  @Test(
    "bad logs exit 2 with the file, the line and the fix",
    arguments: [
      ("user_id,screen\nu1,home\n", ":1: the header lacks timestamp"),
      (
        "user_id,timestamp,screen\nu1,2024-05-01T10:00:00Z,home\nu1,yesterday,home\n",
        ":3: cannot read the timestamp 'yesterday'"
      ),
      (
        "user_id,timestamp,screen\nu1,2024-05-01T10:00:00Z,home\nu1,2024-05-01T09:00:00Z,home\n",
        ":3: user 'u1' goes back in time"
      ),
      (
        "user_id,timestamp,screen\nu1,2024-05-01T10:00:00Z,hmoe\n",
        ":2: screen 'hmoe' is not in the map; did you mean 'home'?"
      ),
      ("user_id,timestamp,screen\nu1,2024-05-01T10:00:00Z,h\u{FF}me\n", ":2: invalid UTF-8"),
    ])
  func badLogs(text: String, expected: String) throws {
    let folder = Self.scratch("bad")
    defer { try? FileManager.default.removeItem(at: folder) }
    let log = folder.appendingPathComponent("log.csv")
    var bytes = Array(text.utf8)
    // U+00FF stands for a lone Latin-1 byte: write it as the invalid byte 0xFF.
    if let index = bytes.firstIndex(of: 0xC3), bytes[index + 1] == 0xBF {
      bytes.replaceSubrange(index...(index + 1), with: [0xFF])
    }
    try Data(bytes).write(to: log)
    let map = folder.appendingPathComponent("map.json")
    try Data(#"{"screens": {"home": "home", "intro": "onboarding"}}"#.utf8).write(to: map)
    let fit = try ToolRunner.run([
      "fit", log.path, "--map", map.path, "--out", folder.path + "/s.json",
    ])
    #expect(fit.status == 2)
    #expect(fit.stderr.contains(log.path + expected), "\(fit.stderr)")
  }
}
