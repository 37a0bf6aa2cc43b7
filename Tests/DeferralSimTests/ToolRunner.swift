import Foundation

/// Runs the built `deferral-sim` binary, as a user would, and captures what it prints.
struct ToolRunner {
  struct Result {
    var status: Int32
    var stdout: String
    var stderr: String
  }

  /// The binary built next to the test bundle (`.build/<config>/deferral-sim`).
  static var binary: URL {
    let testExecutable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    return testExecutable.deletingLastPathComponent().appendingPathComponent("deferral-sim")
  }

  /// Runs the tool with `arguments` in `directory` and waits for it to exit. The tool sees
  /// this process's environment without `COLUMNS` (so the table's layout does not depend on
  /// the shell the tests run from), plus `environment`.
  static func run(
    _ arguments: [String], in directory: URL? = nil, environment: [String: String] = [:]
  ) throws -> Result {
    let process = Process()
    process.executableURL = binary
    process.arguments = arguments
    var inherited = ProcessInfo.processInfo.environment
    inherited["COLUMNS"] = nil
    process.environment = inherited.merging(environment) { $1 }
    if let directory { process.currentDirectoryURL = directory }
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    // Read both pipes to the end before waiting, and at the same time: a child that fills
    // one pipe while we wait on the other would block forever.
    nonisolated(unsafe) var errData = Data()
    let errorRead = DispatchGroup()
    DispatchQueue.global().async(group: errorRead) {
      errData = err.fileHandleForReading.readDataToEndOfFile()
    }
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    errorRead.wait()
    process.waitUntilExit()
    return Result(
      status: process.terminationStatus,
      stdout: String(decoding: outData, as: UTF8.self),
      stderr: String(decoding: errData, as: UTF8.self))
  }
}
