import Foundation
import TestSupport
import Testing

/// No heap allocation per event (issue #36): the built binary runs the default scenario with
/// the allocation counter loaded (`Tests/AllocationCounter`, `LD_PRELOAD`: every `malloc`,
/// `calloc`, `realloc` and aligned allocation of the process counted), over a horizon of 30
/// days and of 60, with the same users. Doubling the horizon about doubles the events each
/// user's life has, while what a run allocates once, and once per user (each policy's lane
/// copied for the user, its storage copied at its first change), stays; so the allocations the
/// longer run adds, per event it adds, measure what the event path allocates.
///
/// Linux only: the counter takes glibc's place through `LD_PRELOAD`, which Darwin lacks.
@Suite("Allocations per event")
struct AllocationCountTests {
  /// The counter, built next to the test bundle (`.build/<config>/libAllocationCounter.so`).
  static var counterLibrary: URL {
    URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
      .appendingPathComponent("libAllocationCounter.so")
  }

  /// The default scenario with `horizon` (and its users, replications and seed unchanged).
  static func scenario(horizon: String, in folder: TemporaryFolder) throws -> String {
    let path = RunEndToEndTests.defaultScenario
    let data = try Data(contentsOf: URL(fileURLWithPath: path))
    var document = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    #expect(document["horizon"] as? String == "30d", "the default scenario's horizon moved")
    document["horizon"] = horizon
    let text = try JSONSerialization.data(withJSONObject: document, options: [.sortedKeys])
    return try folder.write(String(decoding: text, as: UTF8.self), to: "horizon-\(horizon).json")
  }

  /// The allocations a run made and the events it simulated (from its manifest).
  static func measure(
    horizon: String, in folder: TemporaryFolder
  ) throws -> (
    allocations: Int, events: Int
  ) {
    let scenario = try scenario(horizon: horizon, in: folder)
    let out = folder.url.appendingPathComponent("out-\(horizon)")
    let countFile = folder.url.appendingPathComponent("count-\(horizon)")
    let result = try ToolRunner.run(
      [
        "run", scenario, "--users", "400", "--replications", "2", "--jobs", "1", "--no-report",
        "--quiet", "--out", out.path,
      ],
      environment: [
        "LD_PRELOAD": counterLibrary.path, "ALLOCATION_COUNT_FILE": countFile.path,
      ])
    #expect(result.status == 0, "\(result.stderr)")
    let count = try String(contentsOf: countFile, encoding: .utf8)
    let allocations = try #require(Int(count.trimmingCharacters(in: .whitespacesAndNewlines)))
    let manifest = try Data(contentsOf: out.appendingPathComponent("manifest.json"))
    let fields = try #require(try JSONSerialization.jsonObject(with: manifest) as? [String: Any])
    let events = try #require(fields["events"] as? Int)
    return (allocations, events)
  }

  /// Measured 0.0055 allocations per added event (17,023 for 3,116,349): the lives that reach
  /// their first message only in the longer horizon fork, and their lanes' storage is copied
  /// then. An allocation on a path that 1% of events take would add 0.01; one array made
  /// wherever a screen's time is credited (a deliberate fault, not kept) read 0.112.
  @Test(.enabled(if: canPreload, "LD_PRELOAD is glibc's (Linux)"))
  func theEventPathAllocatesNothing() throws {
    try #require(
      FileManager.default.fileExists(atPath: Self.counterLibrary.path),
      "no \(Self.counterLibrary.path): build the tests (swift build --build-tests)")
    let folder = try TemporaryFolder("allocation-count")
    defer { folder.remove() }
    let short = try Self.measure(horizon: "30d", in: folder)
    let long = try Self.measure(horizon: "60d", in: folder)
    // The counter was loaded (a process allocates as it starts) and the horizon mattered.
    #expect(short.allocations > 1000)
    #expect(long.events > short.events * 3 / 2)
    let perEvent =
      Double(long.allocations - short.allocations) / Double(long.events - short.events)
    #expect(
      perEvent < 0.01,
      "\(long.allocations - short.allocations) allocations for \(long.events - short.events) events"
    )
  }

  static var canPreload: Bool {
    #if canImport(Glibc)
      true
    #else
      false
    #endif
  }
}
