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
    do {
      messages =
        parsed.flag("messages-log")
        ? try MessageLog(
          folder: folder.writingPath, scenario: scenario, policies: scenario.policies) : nil
      events =
        parsed.flag("events-log")
        ? try EventsLog(folder: folder.writingPath, scenario: scenario, policies: scenario.policies)
        : nil
    } catch {
      throw ToolError.failure(error.message)
    }
    let result: RunResult
    do throws(EngineError) {
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
      throw ToolError.failure(error.description)
    }
    do {
      try messages?.finish(itemCount: Experiment.itemCount(plan))
      try events?.finish(itemCount: Experiment.itemCount(plan))
      if events != nil {
        let map = FitMap.forEventsLog(of: scenario, policy: scenario.policies[0].name)
        try folder.write(map.jsonText, to: FitMap.eventsMapFileName)
      }
    } catch {
      throw ToolError.failure(error.message)
    }
    return result
  }
}
