import Foundation
import TestSupport
import Testing

/// The `responses` section through the binary (#31): `--responses off` is the neutral setting
/// (every output byte for byte that of the same scenario without the section, so every golden
/// checksum recorded before responses existed still holds for it), the new columns appear only
/// with the section, and `trace --find declined` compares two policies' users.
@Suite("responses, end to end")
struct ResponsesEndToEndTests {
  typealias E = RunEndToEndTests

  /// Every bundled scenario's text without its `responses` section (the object from its key to
  /// the matching closing brace, and the comma after it).
  static func withoutResponses(_ text: String) throws -> String {
    guard let start = text.range(of: "  \"responses\": {") else {
      Issue.record("no responses section")
      return text
    }
    var depth = 0
    var index = text.index(before: start.upperBound)
    while index < text.endIndex {
      if text[index] == "{" { depth += 1 }
      if text[index] == "}" {
        depth -= 1
        if depth == 0 { break }
      }
      index = text.index(after: index)
    }
    // `}` then `,\n`.
    let end = text.index(index, offsetBy: 3)
    return String(text[..<start.lowerBound] + text[end...])
  }

  static let csvs = [
    "summary.csv", "paired.csv", "by-screen.csv", "by-reason.csv", "by-segment.csv",
    "replications.csv", "decision.csv", "messages.csv",
  ]

  @Test(arguments: ["indie-subscription", "mobile-game"])
  func responsesOffIsTheScenarioWithoutTheSection(_ name: String) throws {
    let folder = E.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = E.root.appendingPathComponent("scenarios/\(name).json")
    let text = try String(contentsOf: file, encoding: .utf8)
    let stripped = folder.appendingPathComponent("\(name)-without.json")
    try Self.withoutResponses(text).write(to: stripped, atomically: true, encoding: .utf8)
    let common = [
      "--users", "300", "--replications", "2", "--jobs", "2", "--quiet", "--no-report",
      "--messages-log",
    ]
    let off = folder.appendingPathComponent("off")
    let without = folder.appendingPathComponent("without")
    let on = folder.appendingPathComponent("on")
    let a = try ToolRunner.run(
      ["run", file.path, "--responses", "off", "--out", off.path] + common)
    let b = try ToolRunner.run(["run", stripped.path, "--out", without.path] + common)
    let c = try ToolRunner.run(["run", file.path, "--out", on.path] + common)
    #expect(a.status == 0 && b.status == 0 && c.status == 0, "\(a.stderr)\(b.stderr)\(c.stderr)")
    for csv in Self.csvs {
      let left = try Data(contentsOf: off.appendingPathComponent(csv))
      let right = try Data(contentsOf: without.appendingPathComponent(csv))
      #expect(left == right, "\(name) \(csv): --responses off differs from no section")
    }
    // Printed output too, but for the first line (the wall time) and the last (the folder).
    #expect(
      a.stdout.split(separator: "\n").dropFirst().dropLast()
        == b.stdout.split(separator: "\n").dropFirst().dropLast())
    // With the section: the new rows and columns, and the old columns of by-screen unchanged
    // (a response moves no sheet).
    let summary = try E.read(on, "summary.csv")
    for metric in [
      "consent_acceptance_rate", "renewals_lost_per_1k_users", "billing_recovery_rate",
    ] {
      #expect(summary.contains(",\(metric),"), "\(metric) in summary.csv")
      #expect(!(try E.read(off, "summary.csv")).contains(",\(metric),"))
    }
    let onScreens = E.rows(try E.read(on, "by-screen.csv"))
    let offScreens = E.rows(try E.read(off, "by-screen.csv"))
    #expect(onScreens[0].suffix(5).first == "consent_shown")
    #expect(onScreens.map { Array($0.prefix(offScreens[0].count)) } == offScreens)
    #expect(
      try E.read(on, "messages.csv").hasPrefix(
        "policy,replication,user,message,reason,issued_at_s,delivered_at_s,displayed_at_s,wait_s,"
          + "screen,screen_kind,forced,attempts,outcome,response\n"))
  }

  @Test func traceFindDeclinedComparesTwoPolicies() throws {
    let result = try ToolRunner.run([
      "trace", "--find", "declined", "--policy", "storekit-auto", "--policy", "revenuecat-manual",
      "--limit", "2",
    ])
    #expect(result.status == 0, "\(result.stderr)")
    // Each line names the users and the counts that differ, e.g. `(declined 1 vs 0)`.
    let lines = result.stdout.split(separator: "\n")
      .map { $0.drop(while: { $0 == " " }) }.filter { $0.hasPrefix("user ") }
    #expect(!lines.isEmpty, "\(result.stdout)")
    for line in lines { #expect(line.contains("declined "), "\(line)") }
    guard let user = lines.first?.split(separator: " ")[1].dropLast() else { return }
    let traced = try ToolRunner.run([
      "trace", "--policy", "storekit-auto", "--policy", "revenuecat-manual", "--user",
      String(user),
    ])
    #expect(traced.stdout.contains("response: declined"), "\(traced.stdout.prefix(2000))")
  }
}
