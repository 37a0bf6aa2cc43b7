import Foundation
import TestSupport
import Testing

@testable import Reports

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What reports write is safe to open and never traps (issue #16).
@Suite("output safety")
struct OutputSafetyTests {
  @Test(arguments: [
    ("=cmd|'/Ccalc'!A0", "'=cmd|'/Ccalc'!A0"), ("+1+2", "'+1+2"), ("@SUM(A1)", "'@SUM(A1)"),
    ("-2+3", "'-2+3"), ("-5", "-5"), ("-0.25", "-0.25"), ("storekit-auto", "storekit-auto"),
    ("a\u{1B}[31mb", "a[31mb"), ("tab\tin", "tabin"),
  ])
  func csvTextCellsCannotBeFormulas(input: String, written: String) {
    #expect(CSVField.text(input).text == written)
  }

  @Test func numberFieldsAreUntouched() {
    #expect(CSVField.number(-0.5).text == "-0.5")
    #expect(CSVField.integer(-3).text == "-3")
  }

  /// Values a user's scenario can produce (a deadline of 1e300 s) reach labels and
  /// coordinates; none may trap.
  @Test func extremeValuesNeverTrapInLabelsOrTicks() {
    let values: [Double] = [
      0, .leastNonzeroMagnitude, 1e-300, 1e-9, 0.5, 1e15, 9.3e18, 1e26, 1e300,
      .greatestFiniteMagnitude,
    ]
    for value in values + values.map(-) {
      _ = TerminalTable.fixed(value, 0)
      _ = TerminalTable.fixed(value, 3)
      _ = Chart.number(value)
      _ = Chart.duration(value)
      _ = Chart.coordinate(value)
      if value / 2 > 0 {
        _ = Chart.durationTickLabel(value)
        _ = Chart.durationTicks(min: value / 2, max: value, count: 6)
        _ = Chart.logTicks(min: value / 2, max: value, count: 6)
      }
      if value.isFinite, value > -1e307, value < 1e307 {
        _ = Chart.niceTicks(min: Swift.min(0, value), max: Swift.max(0, value) + 1, count: 5)
      }
    }
    _ = Chart.niceTicks(min: -1e308, max: 1e308, count: 5)
    #expect(TerminalTable.fixed(1e300, 1) == "1e+300")
    #expect(TerminalTable.fixed(.infinity, 1) == "inf")
    #expect(Chart.durationTickLabel(1e300).hasSuffix("d"))
  }

  /// A symbolic link planted where a shard's temporary file goes is never followed: its target
  /// keeps its contents and the write fails instead.
  @Test func aPlantedSymlinkAtTheTemporaryNameIsNotFollowed() throws {
    let base = TestScratch.directory.appendingPathComponent(
      "deferral-sim-symlink-\(UUID().uuidString)")
    let folder = base.appendingPathComponent("out")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let victim = base.appendingPathComponent("victim.txt")
    try Data("precious".utf8).write(to: victim)
    let planted = folder.appendingPathComponent(".partial-0-of-2.json.tmp-\(getpid())")
    #expect(symlink(victim.path, planted.path) == 0)
    let output = try OutputFolder(path: folder.path, mode: .shared)
    #expect(throws: OutputError.self) { try output.write("{}", to: "partial-0-of-2.json") }
    #expect(try String(contentsOf: victim, encoding: .utf8) == "precious")
  }

  /// A planted symbolic link named like a stale staging folder is removed, not followed.
  @Test func aPlantedStagingLinkIsRemovedNotFollowed() throws {
    let base = TestScratch.directory.appendingPathComponent(
      "deferral-sim-staging-\(UUID().uuidString)")
    let elsewhere = base.appendingPathComponent("elsewhere")
    try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
    try Data("keep".utf8).write(to: elsewhere.appendingPathComponent("keep.txt"))
    #expect(symlink(elsewhere.path, base.appendingPathComponent(".out.staging-1-0").path) == 0)
    let output = try OutputFolder(path: base.appendingPathComponent("out").path)
    try output.write("a,b\n", to: "summary.csv")
    try output.commit()
    #expect(
      FileManager.default.fileExists(atPath: elsewhere.appendingPathComponent("keep.txt").path))
    #expect(
      try String(
        contentsOfFile: base.appendingPathComponent("out/summary.csv").path, encoding: .utf8)
        == "a,b\n")
  }

  @Test func anExistingFileIsNeverReplacedByAFolder() throws {
    let base = TestScratch.directory.appendingPathComponent(
      "deferral-sim-file-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: base, withIntermediateDirectories: true)
    let file = base.appendingPathComponent("results")
    try Data("mine".utf8).write(to: file)
    #expect(throws: OutputError.self) { _ = try OutputFolder(path: file.path) }
    #expect(try String(contentsOf: file, encoding: .utf8) == "mine")
  }

  /// A command's own file names beyond the tool's outputs (the benchmark's CSV files) are its
  /// to replace when the marker lists them; another command, without them, refuses the folder.
  @Test func aCommandReplacesTheFilesItAlsoOwns() throws {
    let base = TestScratch.directory.appendingPathComponent(
      "deferral-sim-also-owns-\(UUID().uuidString)")
    let path = base.appendingPathComponent("bench").path
    let first = try OutputFolder(path: path, alsoOwns: ["engine.csv"])
    try first.write("old\n", to: "engine.csv")
    try first.commit()
    // Without the name (a run told --out there), the folder is refused and kept.
    #expect(throws: OutputError.self) { _ = try OutputFolder(path: path) }
    #expect(try String(contentsOfFile: path + "/engine.csv", encoding: .utf8) == "old\n")
    // With it (the benchmark again), the folder is replaced whole.
    let second = try OutputFolder(path: path, alsoOwns: ["engine.csv"])
    try second.write("new\n", to: "engine.csv")
    try second.commit()
    #expect(try String(contentsOfFile: path + "/engine.csv", encoding: .utf8) == "new\n")
    // A name it also owns but the marker does not list is still refused.
    try Data("mine".utf8).write(to: URL(fileURLWithPath: path + "/floor.csv"))
    #expect(throws: OutputError.self) {
      _ = try OutputFolder(path: path, alsoOwns: ["engine.csv", "floor.csv"])
    }
    #expect(try String(contentsOfFile: path + "/floor.csv", encoding: .utf8) == "mine")
  }

  @Test func discardLeavesThePreviousFilesAndNoStaging() throws {
    let base = TestScratch.directory.appendingPathComponent(
      "deferral-sim-discard-\(UUID().uuidString)")
    let path = base.appendingPathComponent("out").path
    let first = try OutputFolder(path: path)
    try first.write("old\n", to: "summary.csv")
    try first.commit()
    let second = try OutputFolder(path: path)
    try second.write("new\n", to: "summary.csv")
    try second.write("new\n", to: "paired.csv")
    second.discard()
    #expect(try String(contentsOfFile: path + "/summary.csv", encoding: .utf8) == "old\n")
    #expect(!FileManager.default.fileExists(atPath: path + "/paired.csv"))
    let siblings = try FileManager.default.contentsOfDirectory(atPath: base.path)
    #expect(siblings == ["out"], "\(siblings)")
  }
}
