import Foundation
import Simulation
import TestSupport
import Testing

@testable import Reports

/// The events log's writer (#35 class 11): rows made as bytes, not `String`s, must be the text
/// `CSVField.format` gives; item files joined inside the kernel must hold every byte, in order.
@Suite("events log writer")
struct EventsLogWriterTests {
  /// Integers, fractions, the boundaries of the integer case, negatives and non-finite values.
  static let values: [Double] = [
    0, -0.0, 1, -1, 7, 1380471.3519832685, 0.1, 1e-300, .leastNonzeroMagnitude, 123456.5, -2.5,
    999_999_999_999_999,
    1e15, -1e15, 1e15 + 2, 1e16, 1.7976931348623157e308, -1.7976931348623157e308, .nan,
    .infinity, -.infinity, 4.35, 1e22,
  ]

  @Test(arguments: values)
  func aNumberIsAppendedAsFormatWritesIt(value: Double) {
    var bytes = Array("x,".utf8)
    CSVField.append(value, to: &bytes)
    #expect(String(decoding: bytes, as: UTF8.self) == "x," + CSVField.format(value), "\(value)")
  }

  @Test func randomNumbersAreAppendedAsFormatWritesThem() {
    var generator = SystemRandomNumberGenerator()
    let seed = UInt64.random(in: 0...UInt64.max, using: &generator)
    var state = seed
    for _ in 0..<20_000 {
      // splitmix64: any bit pattern, so every exponent and sign is tried.
      state &+= 0x9E37_79B9_7F4A_7C15
      var mixed = state
      mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
      mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
      mixed ^= mixed >> 31
      let value =
        mixed % 3 == 0 ? Double(Int64(bitPattern: mixed) >> 20) : Double(bitPattern: mixed)
      var bytes: [UInt8] = []
      CSVField.append(value, to: &bytes)
      guard String(decoding: bytes, as: UTF8.self) == CSVField.format(value) else {
        Issue.record("seed \(seed): \(value) appended as \(String(decoding: bytes, as: UTF8.self))")
        return
      }
    }
  }

  @Test(arguments: [Int64.min, Int64.min + 1, -10, -1, 0, 9, 10, 99, 100, Int64.max])
  func anIntegerIsAppendedAsStringWritesIt(value: Int64) {
    var bytes = Array("ab".utf8)
    CSVField.append(value, to: &bytes)
    #expect(String(decoding: bytes, as: UTF8.self) == "ab" + String(value))
  }

  /// Item files of 0 bytes, of a few bytes and of several MiB (more than the copy buffer) are
  /// joined after the header, in item order, every byte kept.
  @Test func itemFilesAreJoinedInOrderWithEveryByte() throws {
    let folder = TestScratch.directory
      .appendingPathComponent("item-files-\(getpid())-\(UInt32.random(in: 0...UInt32.max))").path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let parts = try _ItemFiles(folder: folder, name: "joined.csv", header: "h1,h2")
    let big = (0..<(3 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 11) }
    let contents: [[UInt8]] = [Array("a,1\n".utf8), [], big, Array("z,9\n".utf8)]
    for (item, bytes) in contents.enumerated() {
      let file = try #require(parts.open(item))
      _ = bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
      fclose(file)
    }
    try parts.finish(itemCount: contents.count)
    let joined = try Data(contentsOf: URL(fileURLWithPath: folder + "/joined.csv"))
    #expect(joined == Data(Array("h1,h2\n".utf8) + contents.joined()))
    #expect(!FileManager.default.fileExists(atPath: parts.scratch), "the scratch folder is gone")
  }
  /// Items completed out of order join in item order as soon as each one's predecessors have,
  /// their files removed then; `finish` joins the rest, and with no item writes the header.
  @Test func itemsJoinAsTheyCompleteInItemOrder() throws {
    let folder = TestScratch.directory
      .appendingPathComponent("item-join-\(getpid())-\(UInt32.random(in: 0...UInt32.max))").path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let parts = try _ItemFiles(folder: folder, name: "joined.csv", header: "h")
    for item in 0..<5 {
      let file = try #require(parts.open(item))
      fputs("row \(item)\n", file)
      fclose(file)
    }
    func exists(_ item: Int) -> Bool {
      FileManager.default.fileExists(atPath: parts.partPath(item))
    }
    parts.itemDone(3)
    parts.itemDone(1)
    #expect(exists(0) && exists(1) && exists(3), "item 0 is not complete: nothing joins")
    parts.itemDone(0)
    #expect(!exists(0) && !exists(1), "0 and 1 joined and removed")
    #expect(exists(2) && exists(3), "2 is not complete: 3 waits")
    #expect(
      try String(contentsOfFile: parts.joinedPath, encoding: .utf8) == "h\nrow 0\nrow 1\n")
    try parts.finish(itemCount: 5)
    #expect(
      try String(contentsOfFile: folder + "/joined.csv", encoding: .utf8)
        == "h\nrow 0\nrow 1\nrow 2\nrow 3\nrow 4\n")
    let none = try _ItemFiles(folder: folder, name: "none.csv", header: "h")
    try none.finish(itemCount: 0)
    #expect(try String(contentsOfFile: folder + "/none.csv", encoding: .utf8) == "h\n")
  }

  /// Items' texts handed over whole (``_ItemFiles/deliver(_:item:)``), out of order: the next
  /// one is appended at once, with no part file; a later one waits in memory while the waiting
  /// texts fit the limit, else in its part file; items streamed to part files mix with them;
  /// the joined file holds every item in item order.
  @Test func deliveredTextsJoinInItemOrderFromMemoryOrTheirPartFiles() throws {
    let folder = TestScratch.directory
      .appendingPathComponent("item-deliver-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
      .path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let parts = try _ItemFiles(folder: folder, name: "joined.csv", header: "h", waitingLimit: 20)
    func exists(_ item: Int) -> Bool {
      FileManager.default.fileExists(atPath: parts.partPath(item))
    }
    func deliver(_ text: String, _ item: Int) {
      var bytes = Array(text.utf8)
      parts.deliver(&bytes, item: item)
      #expect(bytes.isEmpty)
    }
    deliver("row 2\n", 2)
    deliver("row 3 is long enough\n", 3)
    #expect(!exists(2), "2 waits in memory (6 bytes of 20)")
    #expect(exists(3), "3 would pass the limit: its part file")
    let streamed = try #require(parts.open(4))
    fputs("row 4\n", streamed)
    fclose(streamed)
    parts.itemDone(4)
    deliver("row 0\n", 0)
    #expect(try String(contentsOfFile: parts.joinedPath, encoding: .utf8) == "h\nrow 0\n")
    deliver("row 1\n", 1)
    #expect(!exists(3) && !exists(4), "1 came: 2 from memory, 3 and 4 from their files")
    deliver("row 5\n", 5)
    try parts.finish(itemCount: 6)
    #expect(
      try String(contentsOfFile: folder + "/joined.csv", encoding: .utf8)
        == "h\nrow 0\nrow 1\nrow 2\nrow 3 is long enough\nrow 4\nrow 5\n")
  }

  /// `events.csv` written from the engine's journey sink (``EventsLog/write(_:item:)``) is, byte
  /// for byte, the file the streaming sink writes from the same run.
  @Test func theJourneySinksRowsAreTheStreamingSinks() throws {
    let scenario = try ScenarioLoader.load(
      contentsOf: EventsLogRoundTrip.root.appendingPathComponent(
        "scenarios/indie-subscription.json"
      ).path)
    let world = CompiledScenario(scenario)
    let policies = Array(scenario.policies.prefix(2))
    let options = RunOptions(users: 300, replications: 2, seed: 7, jobs: 2, blockSize: 64)
    let folder = TestScratch.directory
      .appendingPathComponent("journeys-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
    defer { try? FileManager.default.removeItem(at: folder) }
    var files: [Data] = []
    for way in ["streamed", "journeys"] {
      let out = folder.appendingPathComponent(way)
      try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
      let log = try EventsLog(
        folder: out.path, scenario: scenario, policies: policies, onlyPolicy: 1)
      if way == "streamed" {
        _ = try Engine.run(
          world, policies: policies, options: options, makeSink: { log.sink(for: $0) },
          finishSink: { sink, item in
            sink.close()
            log.itemDone(item)
          })
      } else {
        _ = try Engine.run(
          world, policies: policies, options: options, journeys: { _ in log.journeySink() },
          finishJourneys: { sink, item in log.write(&sink, item: item) })
      }
      try log.finish(itemCount: Engine.itemCount(options))
      files.append(try Data(contentsOf: out.appendingPathComponent(EventsLog.fileName)))
    }
    #expect(files[0].count > 10_000, "the log has rows")
    #expect(files[0] == files[1])
  }
}
