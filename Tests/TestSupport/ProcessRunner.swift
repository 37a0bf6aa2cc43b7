import Foundation

/// Runs a program as a user would and captures what it prints: the built `deferral-sim`
/// (``ToolRunner``), a script, a browser check.
public enum ProcessRunner {
  public struct Result: Sendable {
    public var status: Int32
    public var stdout: String
    public var stderr: String
    /// Standard output, then standard error.
    public var output: String { stdout + stderr }
  }

  /// Runs `executable` with `arguments` in `directory` and waits for it to exit. The program
  /// sees this process's environment without `COLUMNS` (so a table's layout does not depend
  /// on the shell the tests run from), plus `environment`.
  public static func run(
    _ executable: URL, _ arguments: [String], in directory: URL? = nil,
    environment: [String: String] = [:]
  ) throws -> Result {
    let process = Process()
    process.executableURL = executable
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

/// Runs the built `deferral-sim` binary (``ProcessRunner``).
public enum ToolRunner {
  public typealias Result = ProcessRunner.Result

  /// The binary the suites run: `DEFERRAL_SIM_BINARY` when set (`scripts/test.sh` sets it to
  /// the release build, which runs the end-to-end suites several times faster), else the one
  /// built next to the test bundle (`.build/<config>/deferral-sim`).
  public static var binary: URL {
    if let path = ProcessInfo.processInfo.environment["DEFERRAL_SIM_BINARY"], !path.isEmpty {
      return URL(fileURLWithPath: path)
    }
    #if canImport(Glibc)
      let testExecutable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
      let folder = testExecutable.deletingLastPathComponent()
    #else
      // Darwin: the tests run inside `.build/<config>/<package>PackageTests.xctest`.
      let bundle = Bundle.allBundles.first { $0.bundleURL.pathExtension == "xctest" }
      let folder = (bundle?.bundleURL ?? URL(fileURLWithPath: CommandLine.arguments[0]))
        .deletingLastPathComponent()
    #endif
    return folder.appendingPathComponent("deferral-sim")
  }

  /// Runs the tool with `arguments` in `directory` (``ProcessRunner/run(_:_:in:environment:)``).
  public static func run(
    _ arguments: [String], in directory: URL? = nil, environment: [String: String] = [:]
  ) throws -> Result {
    try ProcessRunner.run(binary, arguments, in: directory, environment: environment)
  }
}

/// Runs a program found on the PATH, standard output and error together in one pipe.
public enum Shell {
  public struct Result: Sendable {
    public var status: Int32
    public var output: String
  }

  public static func run(
    _ program: String, _ arguments: [String], in directory: URL? = nil,
    environment: [String: String] = [:]
  ) throws -> Result {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [program] + arguments
    var merged = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    merged["PATH"] = (merged["PATH"] ?? "/usr/bin:/bin") + ":/usr/sbin:/sbin"
    process.environment = merged
    if let directory { process.currentDirectoryURL = directory }
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return Result(status: process.terminationStatus, output: String(decoding: data, as: UTF8.self))
  }
}
