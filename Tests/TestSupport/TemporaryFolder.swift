import Foundation

/// A folder of its own under the system's temporary directory for one test's files (a log to
/// fit, a map, a scenario), named by `prefix`, this process and a UUID so tests running at the
/// same time never share one. Remove it with ``remove()`` (`defer { folder.remove() }`); a
/// test that hands paths to code that outlives it may keep it.
public struct TemporaryFolder: Sendable {
  public let url: URL

  public init(_ prefix: String) throws {
    url = TestScratch.directory.appendingPathComponent(
      "\(prefix)-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }

  /// Writes `text` (UTF-8) to the file `name` in the folder; returns its path.
  @discardableResult
  public func write(_ text: String, to name: String) throws -> String {
    let file = url.appendingPathComponent(name)
    try Data(text.utf8).write(to: file)
    return file.path
  }

  /// Writes `rows` as lines, each ended by a newline (a CSV log), to `name`; returns its path.
  @discardableResult
  public func write(lines rows: [String], to name: String) throws -> String {
    try write(rows.joined(separator: "\n") + "\n", to: name)
  }

  /// Deletes the folder and all in it (errors ignored: the system cleans its temporary
  /// directory too).
  public func remove() { try? FileManager.default.removeItem(at: url) }
}
