import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where tests put their files: one folder per test process under the system's temporary
/// directory (`deferral-sim-tests-<process>-<UUID>`), removed with all in it when the process
/// exits normally, so a run of the suite leaves nothing behind in `/tmp` (before, each run left
/// about 270 folders). Tests make their own folders inside it, as they did in the temporary
/// directory itself.
public enum TestScratch {
  /// The process's folder, made (and its removal at exit registered) on first use.
  public static let directory: URL = {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent(
      "deferral-sim-tests-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString)")
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    atexit { TestScratch.removeAll() }
    return url
  }()

  /// Deletes ``directory`` and all in it (errors ignored).
  static func removeAll() { try? FileManager.default.removeItem(at: directory) }
}
