import Foundation
import Reports
import TestSupport
import Testing

/// The CSVs of every bundled scenario, sweep and robustness study, at small sizes, byte for
/// byte as recorded in `Tests/Fixtures/golden/checksums.txt` (by `scripts/record-golden.sh`,
/// which also writes the small sweep and study copies). A change to the engine that alters any
/// figure fails here; one that is meant to (a policy reworked) regenerates the fixture with
/// that one command.
@Suite("golden checksums")
struct GoldenChecksumTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  /// One recorded command and the checksum of each CSV it wrote.
  struct Case: CustomTestStringConvertible, Sendable {
    var name: String
    var arguments: [String]
    /// File name to SHA-256 (hex).
    var checksums: [String: String]
    var testDescription: String { name }
  }

  /// The cases of the fixture, in its order.
  static func cases() throws -> [Case] {
    let path = root.appendingPathComponent("Tests/Fixtures/golden/checksums.txt")
    let text = try String(contentsOf: path, encoding: .utf8)
    var cases: [Case] = []
    for line in text.split(separator: "\n") where !line.hasPrefix("#") {
      if line.hasPrefix("case ") {
        let body = line.dropFirst("case ".count)
        guard let colon = body.firstIndex(of: ":") else { continue }
        cases.append(
          Case(
            name: String(body[..<colon]),
            arguments: body[body.index(after: colon)...].split(separator: " ").map(String.init),
            checksums: [:]))
      } else {
        let parts = line.split(separator: " ", omittingEmptySubsequences: true)
        guard parts.count == 2, !cases.isEmpty else { continue }
        cases[cases.count - 1].checksums[String(parts[1])] = String(parts[0])
      }
    }
    return cases
  }

  /// Every CSV in `folder` (recursively) and its SHA-256.
  static func checksums(in folder: URL) throws -> [String: String] {
    var found: [String: String] = [:]
    let enumerator = FileManager.default.enumerator(atPath: folder.path)
    while let relative = enumerator?.nextObject() as? String {
      guard relative.hasSuffix(".csv") else { continue }
      let data = try Data(contentsOf: folder.appendingPathComponent(relative))
      found[relative] = SHA256.hex(Array(data))
    }
    return found
  }

  /// Runs a case into a fresh folder and returns the checksums of what it wrote.
  static func run(
    _ arguments: [String]
  ) throws -> (status: Int32, stderr: String, sums: [String: String]) {
    let out = TestScratch.directory.appendingPathComponent(
      "deferral-sim-golden-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: out) }
    let result = try ToolRunner.run(arguments + ["--out", out.path], in: root)
    return (result.status, result.stderr, try checksums(in: out))
  }

  @Test func theFixtureCoversEveryBundledScenarioSweepAndStudy() throws {
    let names = Set(try Self.cases().map(\.name))
    let scenarios = try FileManager.default.contentsOfDirectory(
      atPath: Self.root.appendingPathComponent("scenarios").path)
    for file in scenarios where file.hasSuffix(".json") && file != "schema.json" {
      #expect(names.contains("run-" + file.dropLast(".json".count)), "no golden case for \(file)")
    }
    let sweeps = try FileManager.default.contentsOfDirectory(
      atPath: Self.root.appendingPathComponent("scenarios/sweeps").path)
    for file in sweeps where file.hasSuffix(".json") {
      #expect(names.contains("sweep-" + file.dropLast(".json".count)), "no golden case for \(file)")
    }
    let studies = try FileManager.default.contentsOfDirectory(
      atPath: Self.root.appendingPathComponent("scenarios/uncertainty").path)
    #expect(studies.contains { $0.hasSuffix(".json") })
    for file in studies where file.hasSuffix(".json") {
      #expect(names.contains("study-" + file.dropLast(".json".count)), "no golden case for \(file)")
    }
  }

  /// `--no-shared-trunk` (every policy simulated from the start) writes the same bytes, logs
  /// included, for `run` and `sweep`.
  @Test(arguments: ["run-mobile-game", "sweep-consent-hold"])
  func noSharedTrunkWritesTheSameBytes(name: String) throws {
    let golden = try #require(try Self.cases().first { $0.name == name })
    let shared = try Self.run(golden.arguments)
    let alone = try Self.run(golden.arguments + ["--no-shared-trunk"])
    #expect(shared.status == 0 && alone.status == 0, "\(shared.stderr)\(alone.stderr)")
    #expect(!shared.sums.isEmpty)
    #expect(shared.sums == alone.sums)
  }

  @Test(arguments: try GoldenChecksumTests.cases())
  func theCSVsAreByteIdenticalToTheRecordedOnes(_ golden: Case) throws {
    #expect(!golden.checksums.isEmpty)
    let run = try Self.run(golden.arguments)
    #expect(run.status == 0, "\(run.stderr)")
    #expect(
      run.sums == golden.checksums,
      """
      \(golden.name) differs from Tests/Fixtures/golden/checksums.txt; if the change is meant, \
      regenerate with 'bash scripts/record-golden.sh'
      """)
  }
}
