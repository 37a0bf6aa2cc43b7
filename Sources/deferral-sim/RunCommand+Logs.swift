import Experiments
import Fitting
import Foundation
import MessageDeferral
import Reports
import Simulation

extension RunCommand {
  /// Which policies' rows `events.csv` holds: `--events-log-policy NAME`, `all`, or by default
  /// the run's baseline (always among the run's policies; StoreKit's default `storekit-auto`
  /// unless `--baseline` or the scenario names another): a real app's analytics come from the
  /// app as it ships, and `fit` reads one policy's rows.
  enum EventsLogPolicies: Equatable {
    /// One policy: its index among the run's policies.
    case one(Int)
    /// Every policy's rows (`--events-log-policy all`): as many rows as policies, and the run
    /// records every policy's branch (no shared groups), so it is several times slower.
    case every
  }

  /// The word `--events-log-policy` takes for every policy's rows.
  static let everyPolicyWord = "all"

  /// Runs the engine with the logs the command line asks for (`--messages-log`,
  /// `--events-log`) streamed into the output folder's staged files; with `--events-log` also
  /// writes `events-map.json`, the map `deferral-sim fit` needs to fit `events.csv` back.
  ///
  /// One policy's events log alone is recorded in the run itself, which keeps its shared
  /// branches (``JourneySink``: the policy's journey is given when the group that keeps it to
  /// the horizon ends). With `--messages-log` too (whose outcomes need every policy's own
  /// branch) it is a second pass of that policy alone, after the run: a policy's life is the
  /// same simulated alone or beside others (common random numbers; its own policy stream), so
  /// its rows are the same either way. `all` records every policy in the run itself, as
  /// `--messages-log` does.
  static func runWithLogs(
    _ parsed: ParsedArguments, world: CompiledScenario, scenario: Scenario, plan: RunPlan,
    folder: OutputFolder, meter: ProgressMeter, progress: (@Sendable (RunProgress) -> Void)?
  ) throws -> RunResult {
    let logsEvents = parsed.flag(eventsLog)
    let chosen = try eventsLogPolicies(parsed, scenario: scenario)
    if logsEvents, !parsed.flag(messagesLog), case .one(let index) = chosen {
      let result = try logEventsInRun(
        index, world: world, scenario: scenario, plan: plan, folder: folder, meter: meter,
        progress: progress)
      let map = FitMap.forEventsLog(of: scenario, policy: scenario.policies[index].name)
      try folder.write(map.jsonText, to: FitMap.eventsMapFileName)
      return result
    }
    let inRun = logsEvents && chosen == .every
    let messages =
      parsed.flag(messagesLog)
      ? try MessageLog(
        folder: folder.writingPath, scenario: scenario, policies: scenario.policies) : nil
    let events =
      inRun
      ? try EventsLog(folder: folder.writingPath, scenario: scenario, policies: scenario.policies)
      : nil
    let result: RunResult
    do {
      if messages != nil || events != nil {
        result = try Experiment.run(
          plan, on: world,
          makeSink: { PairSink(messages?.sink(for: $0), events?.sink(for: $0)) },
          finishSink: { sink, item in
            sink.first?.close()
            sink.second?.close()
            events?.itemDone(item)
          },
          progress: progress)
      } else {
        result = try Experiment.run(plan, on: world, progress: progress)
      }
    } catch {
      meter.finish()
      messages?.discard()
      events?.discard()
      throw error
    }
    try messages?.finish(itemCount: Experiment.itemCount(plan))
    try events?.finish(itemCount: Experiment.itemCount(plan))
    guard logsEvents else { return result }
    let mapped: Int
    switch chosen {
    case .one(let index):
      try logOnePolicy(
        index, world: world, scenario: scenario, plan: plan, folder: folder, meter: meter,
        progress: progress)
      mapped = index
    case .every:
      mapped = baselineIndex(scenario)
    }
    let map = FitMap.forEventsLog(of: scenario, policy: scenario.policies[mapped].name)
    try folder.write(map.jsonText, to: FitMap.eventsMapFileName)
    return result
  }

  /// Runs the plan with `events.csv` of policy `index` recorded in the run (``JourneySink``).
  static func logEventsInRun(
    _ index: Int, world: CompiledScenario, scenario: Scenario, plan: RunPlan,
    folder: OutputFolder, meter: ProgressMeter, progress: (@Sendable (RunProgress) -> Void)?
  ) throws -> RunResult {
    let events = try EventsLog(
      folder: folder.writingPath, scenario: scenario, policies: scenario.policies,
      onlyPolicy: index)
    let result: RunResult
    do {
      result = try Experiment.run(
        plan, on: world, journeys: { _ in events.journeySink() },
        finishJourneys: { sink, item in events.write(&sink, item: item) }, progress: progress)
    } catch {
      meter.finish()
      events.discard()
      throw error
    }
    try events.finish(itemCount: Experiment.itemCount(plan))
    return result
  }

  /// Writes `events.csv` of policy `index` alone: the plan's users, replications, seed, jobs
  /// and work items, that policy only (its rows byte for byte those of a run of every policy).
  static func logOnePolicy(
    _ index: Int, world: CompiledScenario, scenario: Scenario, plan: RunPlan,
    folder: OutputFolder, meter: ProgressMeter, progress: (@Sendable (RunProgress) -> Void)?
  ) throws {
    var alone = plan
    alone.policies = [plan.policies[index]]
    alone.baseline = plan.policies[index].name
    let events = try EventsLog(
      folder: folder.writingPath, scenario: scenario, policies: alone.policies)
    do {
      // The engine's own sink: the run is compiled for it (``JourneySink``).
      _ = try Experiment.run(
        alone, on: world, journeys: { _ in events.journeySink() },
        finishJourneys: { sink, item in events.write(&sink, item: item) },
        progress: progress.map { _ in { @Sendable report in meter.update(report, point: 1) } })
    } catch {
      meter.finish()
      events.discard()
      throw error
    }
    try events.finish(itemCount: Experiment.itemCount(alone))
  }

  /// The index of the run's baseline among its policies (the baseline rule keeps it there).
  static func baselineIndex(_ scenario: Scenario) -> Int {
    scenario.policies.firstIndex { $0.name == scenario.baseline } ?? 0
  }

  /// The policies `--events-log-policy` chooses (``EventsLogPolicies``): the named one, every
  /// one for `all`, the baseline when not given.
  static func eventsLogPolicies(
    _ parsed: ParsedArguments, scenario: Scenario
  ) throws -> EventsLogPolicies {
    guard let name = try parsed.value(eventsLogPolicy) else {
      return .one(baselineIndex(scenario))
    }
    guard parsed.flag(eventsLog) else {
      throw UsageError(
        message: "'--events-log-policy' chooses the policy of '--events-log'; give both",
        command: "run")
    }
    if name == everyPolicyWord { return .every }
    guard let index = scenario.policies.firstIndex(where: { $0.name == name }) else {
      throw UsageError(
        message: "'--events-log-policy \(name)' is not one of the run's policies ("
          + scenario.policies.map(\.name).joined(separator: ", ") + ") nor '"
          + everyPolicyWord + "' (every policy's rows)",
        command: "run")
    }
    return .one(index)
  }

  /// Whether the run makes a second pass for one policy's events log (two points on the
  /// progress line): only beside `--messages-log` (``runWithLogs``).
  static func logsOnePolicyAfter(_ parsed: ParsedArguments, scenario: Scenario) -> Bool {
    guard parsed.flag(eventsLog), parsed.flag(messagesLog) else { return false }
    return (try? eventsLogPolicies(parsed, scenario: scenario)) != .every
  }
}
