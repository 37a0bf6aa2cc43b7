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
    events =
      parsed.flag(eventsLog)
      ? try EventsLog(folder: folder.writingPath, scenario: scenario, policies: scenario.policies)
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
      let map = FitMap.forEventsLog(of: scenario, policy: scenario.policies[0].name)
      try folder.write(map.jsonText, to: FitMap.eventsMapFileName)
    }
    return result
  }
}
