import MessageDeferral
import Reports
import Simulation

/// One world of a robustness study: a draw of every uncertain parameter and the scenario it
/// gives, validated like a file.
public struct RobustWorld: Sendable {
  /// From 0; CSVs and messages number worlds from 1.
  public var index: Int
  /// Each parameter's drawn value as a number (durations in seconds; for a list of values
  /// that are not all numbers, the item's index), for rank correlations.
  public var numbers: [Double]
  /// Each parameter's drawn value as CSV text.
  public var labels: [String]
  /// The world's scenario with the study's users, replications, seed and policies.
  public var scenario: Scenario
}

extension RobustPlan {
  /// Draws every world (``RobustDesign/points(count:dimensions:seed:)``, each coordinate
  /// mapped by its parameter), writes the values into the scenario and validates it. Problems
  /// name `file`, the study, or the world's scenario with its drawn values.
  public func drawWorlds(file: String) throws(ScenarioErrors) -> [RobustWorld] {
    let root = try ScenarioErrors.parsing(scenarioSource, file: scenarioFile)
    let base = try ScenarioLoader.load(json: scenarioSource, file: scenarioFile)
    let known = base.policies.map(\.name)
    let unknown = policyNames.enumerated().filter { !known.contains($0.element) }
    if !unknown.isEmpty {
      throw ScenarioErrors(
        file: file,
        problems: unknown.map {
          .init(
            path: "$.policies[\($0.offset)]",
            message: "'\($0.element)' is not a policy of the scenario; its policies are "
              + known.joined(separator: ", "))
        })
    }
    let points = design.points(
      count: worlds, dimensions: parameters.count, seed: seed ?? base.seed)
    var result: [RobustWorld] = []
    result.reserveCapacity(worlds)
    for (index, point) in points.enumerated() {
      var document = root.configValue
      var numbers: [Double] = []
      var labels: [String] = []
      for (parameter, u) in zip(parameters, point) {
        let drawn = parameter.draw(u)
        guard
          document.replace(
            at: parameter.path[...], with: drawn.value, creating: parameter.createsPath)
        else {
          throw ScenarioErrors(
            file: file,
            problems: [
              .init(
                path: "$.parameters.\(parameter.name)",
                message: "the scenario has no value at '\(parameter.path.joined(separator: "."))';"
                  + " check the path against \(scenarioFile) (array items by index or name)")
            ])
        }
        numbers.append(drawn.number)
        labels.append(RobustParameter.label(drawn, isDuration: parameter.isDuration))
      }
      let label =
        "\(scenarioFile), world \(index + 1) of \(file) ("
        + zip(parameters, labels).map { "\($0.name)=\($1)" }.joined(separator: ", ") + ")"
      var scenario = try ScenarioLoader.load(json: document.jsonText(), file: label)
      guard scenario.value != nil else {
        throw ScenarioErrors(
          file: file,
          problems: [
            .init(
              path: "$.scenario",
              message: "\(scenarioFile) has no 'value' section, and a world's best policy is the "
                + "one with the highest value_per_1k_users; add a value section to the scenario "
                + "(scenarios/README.md, Value) or give 'value.KEY' parameters")
          ])
      }
      var plan = RunPlan(scenario: scenario)
      if let users { plan.users = users }
      if let replications { plan.replications = replications }
      if let seed { plan.seed = seed }
      // The policies are the base scenario's, priced by its `value` section: an app ships
      // one set of amounts, whatever world it turns out to live in.
      plan.policies =
        policyNames.isEmpty
        ? base.policies
        : policyNames.compactMap { name in base.policies.first { $0.name == name } }
      if !policyNames.isEmpty { plan.settleBaseline() }
      scenario = plan.planned(scenario)
      result.append(
        RobustWorld(index: index, numbers: numbers, labels: labels, scenario: scenario))
    }
    return result
  }

  /// Simulates every world, or with `shard` only shard K of N of each world's work items (see
  /// ``RunOptions/shard``), and returns `tallies[world][replication][policy]`. Every world uses
  /// the same seed: the same users, as far as the drawn parameters leave them alike.
  /// `progress` gets the world being run (from 0), their count, and the engine's progress.
  public func simulate(
    worlds: [RobustWorld], jobs: Int, shard: (index: Int, count: Int)? = nil,
    blockSize: Int = RunOptions.defaultBlockSize,
    progress: (@Sendable (_ world: Int, _ worlds: Int, RunProgress) -> Void)? = nil
  ) throws -> [[[Tally]]] {
    var tallies: [[[Tally]]] = []
    tallies.reserveCapacity(worlds.count)
    try simulate(
      worlds: worlds, jobs: jobs, shard: shard, blockSize: blockSize, progress: progress
    ) { _, worldTallies in tallies.append(worldTallies) }
    return tallies
  }

  /// Runs every world in order and hands each world's tallies to `each` as soon as they are
  /// made, keeping none: memory is one world's tallies whatever the number of worlds.
  public func simulate(
    worlds: [RobustWorld], jobs: Int, shard: (index: Int, count: Int)? = nil,
    blockSize: Int = RunOptions.defaultBlockSize,
    progress: (@Sendable (_ world: Int, _ worlds: Int, RunProgress) -> Void)? = nil,
    each: (RobustWorld, [[Tally]]) throws -> Void
  ) throws {
    for world in worlds {
      let scenario = world.scenario
      let count = worlds.count
      var worldProgress: (@Sendable (RunProgress) -> Void)?
      if let progress {
        let index = world.index
        worldProgress = { @Sendable report in progress(index, count, report) }
      }
      let result = try Experiment.run(
        RunPlan(scenario: scenario, jobs: jobs, shard: shard, blockSize: blockSize),
        on: CompiledScenario(scenario), progress: worldProgress)
      try each(world, result.tallies)
    }
  }
}
