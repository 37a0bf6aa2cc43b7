import Foundation
import MessageDeferral
import Simulation

/// Users from 1k to 1M: cost per user and peak resident memory. Each user count runs in a child
/// process (this binary, re-executed with the hidden `_memory-child` command), so counts never
/// share a heap high-water mark; the child reads its own `VmHWM` after the run.
struct MemoryBench {
  var userCounts: [Int]
  /// Child runs per user count (the median time is kept); large counts run once.
  var repetitions: Int
  var jobs: Int
  var policy: String
  var scenarioPath: String?

  struct Row {
    var users: Int
    var seconds: Double
    var events: Int
    var peakResidentKiB: Int
    var runs: Int
  }

  /// What a child prints: one line of `key=value` fields.
  struct ChildReport {
    var users: Int
    var seconds: Double
    var events: Int
    var peakResidentKiB: Int

    var line: String {
      "users=\(users) seconds=\(seconds) events=\(events) vmhwm_kib=\(peakResidentKiB)"
    }

    init(users: Int, seconds: Double, events: Int, peakResidentKiB: Int) {
      self.users = users
      self.seconds = seconds
      self.events = events
      self.peakResidentKiB = peakResidentKiB
    }

    init?(line: String) {
      var fields: [String: String] = [:]
      for pair in line.split(separator: " ") {
        let parts = pair.split(separator: "=", maxSplits: 1)
        if parts.count == 2 { fields[String(parts[0])] = String(parts[1]) }
      }
      guard let users = fields["users"].flatMap({ Int($0) }),
        let seconds = fields["seconds"].flatMap({ Double($0) }),
        let events = fields["events"].flatMap({ Int($0) }),
        let peak = fields["vmhwm_kib"].flatMap({ Int($0) })
      else { return nil }
      self.init(users: users, seconds: seconds, events: events, peakResidentKiB: peak)
    }
  }

  /// The child's side: one run of `users` users, one replication, then its own peak memory.
  static func child(
    users: Int, jobs: Int, policy: String, scenarioPath: String?
  ) throws -> ChildReport {
    let scenario = try BenchScenario.load(path: scenarioPath)
    guard let named = BenchScenario.policies(scenario, [policy]).first else {
      throw BenchError("unknown policy '\(policy)'")
    }
    let world = CompiledScenario(scenario)
    var events = 0
    let seconds = try Measure.seconds {
      let result = try Engine.run(
        world, policies: [named],
        options: RunOptions(users: users, replications: 1, seed: scenario.seed, jobs: jobs))
      events = result.events
    }
    return ChildReport(
      users: users, seconds: seconds, events: events,
      peakResidentKiB: Measure.peakResidentKiB() ?? -1)
  }

  func run(log: (String) -> Void) throws -> [Row] {
    var rows: [Row] = []
    for users in userCounts {
      var reports: [ChildReport] = []
      let runs = users >= 1_000_000 ? 1 : repetitions
      for _ in 0..<runs {
        var arguments = ["_memory-child", String(users), String(jobs), policy]
        if let scenarioPath { arguments.append(scenarioPath) }
        let output = try ChildProcess.run(executable: ChildProcess.selfPath, arguments: arguments)
        guard let line = output.split(separator: "\n").last,
          let report = ChildReport(line: String(line))
        else { throw BenchError("the memory child printed no report: \(output)") }
        reports.append(report)
      }
      let row = Row(
        users: users, seconds: Measure.median(reports.map(\.seconds)),
        events: reports[0].events,
        peakResidentKiB: Int(Measure.median(reports.map { Double($0.peakResidentKiB) })),
        runs: runs)
      rows.append(row)
      let perUser = users > 0 ? Format.nanoseconds(row.seconds * 1e9 / Double(users)) : "-"
      log(
        "memory \(users) users: \(Format.significant(row.seconds)) s, \(perUser) per user, "
          + "peak RSS \(Format.significant(Double(row.peakResidentKiB) / 1024)) MiB")
    }
    return rows
  }
}

/// Runs a child process and returns its standard output (standard error passes through).
enum ChildProcess {
  /// This executable's own path.
  static var selfPath: String {
    (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
      ?? CommandLine.arguments[0]
  }

  static func run(executable: String, arguments: [String]) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let output = String(decoding: data, as: UTF8.self)
    guard process.terminationStatus == 0 else {
      throw BenchError(
        "\(executable) \(arguments.joined(separator: " ")) exited with "
          + "\(process.terminationStatus): \(output.suffix(2000))")
    }
    return output
  }
}

/// A failure of the benchmark itself (a missing file, a failed child).
struct BenchError: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}

/// The scenario every section uses: the default scenario's file when run from the package root
/// (the peer reads the same file), else the copy compiled into the binary.
enum BenchScenario {
  static let defaultPath = "scenarios/indie-subscription.json"

  static func load(path: String?) throws -> Scenario {
    if let path { return try ScenarioLoader.load(contentsOf: path) }
    return ScenarioLoader.embeddedDefault()
  }

  static func policies(_ scenario: Scenario, _ names: [String]) -> [NamedPolicy] {
    names.compactMap { name in
      scenario.policies.first { $0.name == name }
        ?? PolicyCatalog.presets.first { $0.name == name }.map {
          NamedPolicy(name: $0.name, configuration: $0.configuration)
        }
    }
  }
}
