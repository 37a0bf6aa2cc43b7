import Foundation

/// Writes a run's files into a folder atomically: each file goes to a temporary file in the
/// same folder and is renamed over its final name, so a reader (or a failed run) never sees a
/// half-written file, and an earlier run's complete results stay until replaced whole.
public struct OutputFolder: Sendable {
  public let path: String

  /// Prepares `path` (creating it and its parents) and checks it can be written, before any
  /// simulation starts.
  public init(path: String) throws(OutputError) {
    self.path = path
    let manager = FileManager.default
    do {
      try manager.createDirectory(atPath: path, withIntermediateDirectories: true)
    } catch {
      throw OutputError(message: "cannot create output folder '\(path)': \(Self.reason(error))")
    }
    let probe = (path as NSString).appendingPathComponent(".deferral-sim-write-test-\(getpid())")
    guard manager.createFile(atPath: probe, contents: Data()) else {
      throw OutputError(
        message: "output folder '\(path)' is not writable; choose another with --out")
    }
    try? manager.removeItem(atPath: probe)
  }

  /// Writes `contents` to `name` in the folder atomically.
  public func write(_ contents: String, to name: String) throws(OutputError) {
    let final = (path as NSString).appendingPathComponent(name)
    let temporary = (path as NSString).appendingPathComponent(".\(name).tmp-\(getpid())")
    do {
      try Data(contents.utf8).write(to: URL(fileURLWithPath: temporary))
      if rename(temporary, final) != 0 {
        let code = errno
        try? FileManager.default.removeItem(atPath: temporary)
        throw OutputError(message: "cannot write '\(final)': \(String(cString: strerror(code)))")
      }
    } catch let error as OutputError {
      throw error
    } catch {
      try? FileManager.default.removeItem(atPath: temporary)
      throw OutputError(message: "cannot write '\(final)': \(Self.reason(error))")
    }
  }

  static func reason(_ error: Error) -> String {
    (error as NSError).localizedDescription
  }
}

/// A file could not be written: a failure while running (exit code 1).
public struct OutputError: Error, Sendable {
  public var message: String
}
