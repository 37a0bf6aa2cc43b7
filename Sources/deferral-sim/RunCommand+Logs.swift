import Experiments
import Foundation
import MessageDeferral
import Reports
import Simulation

extension RunCommand {
  /// Runs the engine with the logs the command line asks for (`--messages-log`,
  /// `--events-log`) streamed into the output folder's staged files; with `--events-log` also writes
  /// `events-map.json`, the map `deferral-sim fit` needs to fit `events.csv` back.
  static func runWithLogs(
    _ parsed: ParsedArguments, world: CompiledScenario, scenario: Scenario, plan: RunPlan,
    folder: OutputFolder, meter: ProgressMeter, progress: (@Sendable (RunProgress) -> Void)?
  ) throws -> RunResult {
    let messages: MessageLog?
    let events: EventsLog?
    messages =
      parsed.flag(messagesLog)
      ? try MessageLog(
        folder: folder.writingPath, scenario: scenario, policies: scenario.policies) : nil
    let only = try eventsLogPolicyIndex(parsed, scenario: scenario)
    events =
      parsed.flag(eventsLog)
      ? try EventsLog(
        folder: folder.writingPath, scenario: scenario, policies: scenario.policies,
        onlyPolicy: only)
      : nil
    let result: RunResult
    do {
      result = try Experiment.run(
        plan, on: world,
        makeSink: { PairSink(messages?.sink(for: $0), events?.sink(for: $0)) },
        finishSink: { sink, _ in
          sink.first?.close()
          sink.second?.close()
        },
        progress: progress)
    } catch {
      meter.finish()
      messages?.discard()
      events?.discard()
      throw error
    }
    try messages?.finish(itemCount: Experiment.itemCount(plan))
    try events?.finish(itemCount: Experiment.itemCount(plan))
    if events != nil {
      let map = FitMap.forEventsLog(
        of: scenario, policy: scenario.policies[only ?? 0].name)
      try folder.write(map.jsonText, to: FitMap.eventsMapFileName)
    }
    return result
  }

  /// The policy `--events-log-policy` names, as its index among the run's policies; `nil`
  /// when not given (every policy's rows).
  static func eventsLogPolicyIndex(
    _ parsed: ParsedArguments, scenario: Scenario
  ) throws -> Int? {
    guard let name = try parsed.value(eventsLogPolicy) else { return nil }
    guard parsed.flag(eventsLog) else {
      throw UsageError(
        message: "'--events-log-policy' chooses the policy of '--events-log'; give both",
        command: "run")
    }
    guard let index = scenario.policies.firstIndex(where: { $0.name == name }) else {
      throw UsageError(
        message: "'--events-log-policy \(name)' is not one of the run's policies ("
          + scenario.policies.map(\.name).joined(separator: ", ") + ")",
        command: "run")
    }
    return index
  }
}
