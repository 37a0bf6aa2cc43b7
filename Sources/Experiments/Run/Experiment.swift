import Simulation

/// Runs a plan on a world: the only door from the command line to the engine for `run`
/// (sweeps and robustness studies run through ``SweepPlan`` and ``RobustPlan``, which use it).
public enum Experiment {
  /// Runs `plan` on `world`; identical results for every `plan.jobs`.
  public static func run(
    _ plan: RunPlan, on world: CompiledScenario,
    progress: (@Sendable (RunProgress) -> Void)? = nil
  ) throws(EngineError) -> RunResult {
    try Engine.run(world, policies: plan.policies, options: plan.options, progress: progress)
  }

  /// As ``run(_:on:progress:)``, with a sink per work item (the run's logs): see
  /// ``Engine/run(_:policies:options:makeSink:finishSink:progress:)``.
  public static func run<Sink: SimulationSink>(
    _ plan: RunPlan, on world: CompiledScenario,
    makeSink: @Sendable (Int) -> Sink, finishSink: @Sendable (inout Sink, Int) -> Void,
    progress: (@Sendable (RunProgress) -> Void)? = nil
  ) throws(EngineError) -> RunResult {
    try Engine.run(
      world, policies: plan.policies, options: plan.options, makeSink: makeSink,
      finishSink: finishSink, progress: progress)
  }

  /// As ``run(_:on:makeSink:finishSink:progress:)`` with the engine's own journey sink
  /// (`events.csv`), for which the engine is compiled in its module (``JourneySink``).
  public static func run(
    _ plan: RunPlan, on world: CompiledScenario, journeys makeSink: @Sendable (Int) -> JourneySink,
    finishJourneys: @Sendable (inout JourneySink, Int) -> Void,
    progress: (@Sendable (RunProgress) -> Void)? = nil
  ) throws(EngineError) -> RunResult {
    try Engine.run(
      world, policies: plan.policies, options: plan.options, journeys: makeSink,
      finishJourneys: finishJourneys, progress: progress)
  }

  /// The work items of the plan (all shards): how many a log of the run must hold.
  public static func itemCount(_ plan: RunPlan) -> Int { Engine.itemCount(plan.options) }
}
