import Foundation
import Testing

@testable import Experiments
@testable import Reports

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The merge's peak memory does not grow with the number of partials: it folds them one at a
/// time. Measured on the built binary (its own peak RSS, from `wait4`), not timed.
@Suite("Merge memory")
struct PartialMemoryTests {
  /// `deferral-sim`, built next to the test bundle.
  static var binary: String {
    #if canImport(Glibc)
      let tests = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    #else
      let tests = Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])
    #endif
    return tests.deletingLastPathComponent().appendingPathComponent("deferral-sim").path
  }

  /// Writes `count` partials (shard 1 of PartialTreeTests' run, renumbered as shards 0..<count
  /// of `count`) into a new folder.
  static func partials(_ count: Int) throws -> URL {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("merge-memory-\(count)-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    var partial = PartialTreeTests.partials[1]
    partial.shards = count
    for shard in 0..<count {
      partial.covers = ShardCoverage(shard: shard)
      try partial.encoded().write(
        to: folder.appendingPathComponent(PartialResult.fileName(shard: shard, shards: count)),
        atomically: false, encoding: .utf8)
    }
    return folder
  }

  /// Runs the binary with `arguments` (output discarded); its exit status and peak RSS in KiB.
  static func peakKiB(_ arguments: [String]) throws -> (status: Int32, kib: Int) {
    let argv = ([binary] + arguments).map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    var pid = pid_t()
    let spawned = posix_spawn(&pid, argv[0]!, &actions, nil, argv, environ)
    guard spawned == 0 else {
      throw PartialError(message: "could not start \(binary): error \(spawned)")
    }
    var status: Int32 = 0
    var usage = rusage()
    _ = wait4(pid, &status, 0, &usage)
    #if canImport(Darwin)
      let kib = Int(usage.ru_maxrss) / 1024  // bytes on Darwin
    #else
      let kib = Int(usage.ru_maxrss)  // KiB on Linux
    #endif
    return ((status >> 8) & 0xff, kib)
  }

  /// 256 partials merge within 1.5× the peak RSS of 16 (holding every partial, as merge did,
  /// took about 1.3 MB more per partial of this size: over 300 MB for 256). A peak is the least
  /// of three merges: beside the rest of the suite one merge of 256 once peaked at 1.75× the
  /// 16's and alone stayed within it, and noise (page-cache pressure, malloc's arenas) only
  /// ever adds to a peak, while a merge that holds its partials is high every time.
  @Test func peakMemoryDoesNotGrowWithThePartials() throws {
    try #require(FileManager.default.isExecutableFile(atPath: Self.binary))
    var peaks: [Int: Int] = [:]
    for count in [16, 256] {
      let folder = try Self.partials(count)
      defer { try? FileManager.default.removeItem(at: folder) }
      let out = folder.appendingPathComponent("merged.json").path
      var least = Int.max
      for _ in 0..<3 {
        let (status, kib) = try Self.peakKiB(["merge", folder.path, "--partial-out", out])
        #expect(status == 0)
        least = min(least, kib)
      }
      let merged = try PartialFile.read(contentsOf: out)
      guard case .run(let partial) = merged else {
        Issue.record("not a run's partial")
        return
      }
      #expect(partial.covers.isComplete(of: count))
      peaks[count] = least
    }
    let (small, large) = (peaks[16]!, peaks[256]!)
    #expect(Double(large) <= 1.5 * Double(small), "peak RSS \(small) KiB for 16, \(large) for 256")
  }
}
