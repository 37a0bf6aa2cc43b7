import Foundation
import Simulation
import Synchronization
import Testing

@testable import deferral_sim

/// `--events-log-policy` (#35 class 11): which policies' rows `events.csv` holds, and the
/// progress line of the second pass that writes one policy's beside `--messages-log`.
@Suite("events log policy")
struct EventsLogPolicyTests {
  static func parsed(_ arguments: [String]) throws -> ParsedArguments {
    try ParsedArguments(arguments, spec: Commands.run.spec)
  }

  static let scenario: Scenario = {
    var scenario = ScenarioLoader.embeddedDefault()
    scenario.baseline = "deadline-aware"
    return scenario
  }()

  @Test func theDefaultIsTheBaselineAndAllIsEveryPolicy() throws {
    let index = try #require(Self.scenario.policies.firstIndex { $0.name == "deadline-aware" })
    #expect(
      try RunCommand.eventsLogPolicies(Self.parsed(["--events-log"]), scenario: Self.scenario)
        == .one(index))
    #expect(
      try RunCommand.eventsLogPolicies(
        Self.parsed(["--events-log", "--events-log-policy", "never"]), scenario: Self.scenario)
        == .one(try #require(Self.scenario.policies.firstIndex { $0.name == "never" })))
    #expect(
      try RunCommand.eventsLogPolicies(
        Self.parsed(["--events-log", "--events-log-policy", "all"]), scenario: Self.scenario)
        == .every)
    // One policy's rows alone are recorded in the run itself; beside `--messages-log` (whose
    // outcomes need every policy's own branch) in a second pass.
    #expect(
      !RunCommand.logsOnePolicyAfter(try Self.parsed(["--events-log"]), scenario: Self.scenario))
    #expect(
      RunCommand.logsOnePolicyAfter(
        try Self.parsed(["--events-log", "--messages-log"]), scenario: Self.scenario))
    #expect(
      !RunCommand.logsOnePolicyAfter(
        try Self.parsed(["--events-log", "--messages-log", "--events-log-policy", "all"]),
        scenario: Self.scenario))
    #expect(
      !RunCommand.logsOnePolicyAfter(
        try Self.parsed(["--events-log", "--events-log-policy", "all"]), scenario: Self.scenario))
    #expect(!RunCommand.logsOnePolicyAfter(try Self.parsed([]), scenario: Self.scenario))
  }

  /// What the meter writes, kept.
  final class Captured: OutputStreams {
    let inline = Mutex<[String]>([])
    func out(_ text: String) {}
    func err(_ text: String) {}
    func errInline(_ text: String) { inline.withLock { $0.append(text) } }
    var errorIsTerminal: Bool { true }
  }

  /// The second pass shows as the second of two on the progress line, not as a second 0-100%.
  @Test func theLogPassIsTheSecondOfTwoOnTheProgressLine() {
    let captured = Captured()
    let meter = ProgressMeter(enabled: true, points: 2, pointName: "pass", output: captured)
    let done = RunProgress(
      itemsDone: 4, itemsTotal: 4, events: 100, replicationsDone: 2, replicationsTotal: 2)
    meter.update(done)
    meter.update(done, point: 1)
    let lines = captured.inline.withLock { $0 }
    #expect(lines.count == 2)
    #expect(lines.first?.contains("pass 1/2 · replications 2/2") == true, "\(lines)")
    #expect(lines.last?.contains("pass 2/2 · replications 2/2") == true, "\(lines)")
  }
}
