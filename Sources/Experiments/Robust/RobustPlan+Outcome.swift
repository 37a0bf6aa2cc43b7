import MessageDeferral
import Reports
import Simulation

/// A study's outcome built world by world, so that a world's tallies can be dropped once its
/// rows are made: what keeps `robust`'s memory independent of the number of worlds (its
/// `robust.csv` rows go to a file as they are made; each world leaves one value per policy).
public struct RobustTabulation {
  let plan: RobustPlan
  let names: [String]
  /// `robust.csv`: every row added with `keepingRows`, else the header alone.
  public private(set) var table: CSVTable
  var values: [[Double]] = []  // values[world][policy]
  var events = 0

  /// Starts the tabulation of `plan`'s worlds, whose policies are those of `first`.
  public init(plan: RobustPlan, first: RobustWorld) {
    self.plan = plan
    names = first.scenario.policies.map(\.name)
    table = CSVTable(
      header: ["world"] + plan.parameters.map(\.name) + [
        "policy", "metric", "mean", "ci95_low", "ci95_high", "replications",
      ])
  }

  /// The header line of `robust.csv`.
  public var headerText: String { CSVTable(header: table.header).text }

  /// Adds one world's tallies (worlds in order) and returns its rows of `robust.csv` as text;
  /// with `keepingRows` they are kept in ``table`` too.
  public mutating func add(
    _ world: RobustWorld, tallies worldTallies: [[Tally]], keepingRows: Bool
  ) -> String {
    let valueIndex = RobustOutcome.decidingMetric.index
    let result = RunResult(policies: world.scenario.policies, tallies: worldTallies)
    events += result.events
    let report = RunReport(
      scenario: world.scenario, result: result, baseline: world.scenario.baseline)
    // Every world has a value section (checked when drawn), so every replication has a value.
    let worldValues = names.indices.map {
      report.interval(policy: $0, metric: valueIndex)?.mean ?? 0
    }
    let best = worldValues.max() ?? 0
    let prefix: [CSVField] = [.integer(world.index + 1)] + world.labels.map { .text($0) }
    var rows = CSVTable(header: table.header)
    for (policy, name) in names.enumerated() {
      for (metricIndex, metric) in Metric.all.enumerated()
      where metric.isReported(for: report.scenario) {
        let interval = report.interval(policy: policy, metric: metricIndex)
        rows.append(
          prefix + [
            .text(name), .text(metric.name), .number(interval?.mean), .number(interval?.low),
            .number(interval?.high), .integer(interval?.count ?? 0),
          ])
      }
      rows.append(
        prefix + [
          .text(name), .text("regret_per_1k_users"), .number(best - worldValues[policy]),
          .number(nil), .number(nil), .integer(worldTallies.count),
        ])
    }
    if keepingRows { table.appendRows(of: rows) }
    values.append(worldValues)
    return String(rows.text.drop { $0 != "\n" }.dropFirst())
  }

  /// For a categorical parameter (``RobustParameter/isCategorical``), each level drawn, in
  /// the list's order, with the policies best in most of its worlds (ties in `ranked` order);
  /// `nil` for a numeric one.
  func levels(
    of parameter: Int, worlds: [RobustWorld], ranked: [String]
  ) -> [RobustOutcome.Level]? {
    guard case .values(let items) = plan.parameters[parameter].distribution,
      plan.parameters[parameter].isCategorical
    else { return nil }
    var order: [String] = []
    for item in items.map(SweepPlan.text) where !order.contains(item) { order.append(item) }
    return order.compactMap { level in
      let drawn = worlds.indices.filter { worlds[$0].labels[parameter] == level }
      guard !drawn.isEmpty else { return nil }
      let summaries = RobustPlan.summaries(names: names, values: drawn.map { values[$0] })
      let most = summaries.map(\.worldsBest).max() ?? 0
      let winners = ranked.filter { name in
        summaries.contains { $0.policy == name && $0.worldsBest == most }
      }
      return RobustOutcome.Level(
        value: level, worlds: drawn.count, winners: winners, worldsBest: most)
    }
  }

  /// The study's tables and tornado once every world is added.
  public func outcome(worlds: [RobustWorld]) -> RobustOutcome {
    precondition(worlds.count == values.count, "one tally set per world")
    let policies = RobustPlan.summaries(names: names, values: values)
    let leaderIndex = names.firstIndex(of: policies[0].policy)!
    let runnerUpIndex = policies.dropFirst().lazy.compactMap { names.firstIndex(of: $0.policy) }
      .first { candidate in values.contains { $0[candidate] != $0[leaderIndex] } }
    var tornado: [RobustOutcome.Influence] = []
    for (index, parameter) in plan.parameters.enumerated() {
      var rho: Double?
      if let runnerUpIndex {
        rho = RobustStatistics.spearman(
          worlds.map { $0.numbers[index] }, values.map { $0[leaderIndex] - $0[runnerUpIndex] })
      }
      tornado.append(
        .init(
          parameter: parameter.name, rho: rho, source: parameter.source,
          levels: levels(of: index, worlds: worlds, ranked: policies.map(\.policy))))
    }
    tornado = tornado.enumerated().sorted { left, right in
      (-(left.element.rho.map(abs) ?? -1), left.offset)
        < (-(right.element.rho.map(abs) ?? -1), right.offset)
    }.map(\.element)
    return RobustOutcome(
      table: table, summaryTable: RobustPlan.summaryTable(policies, worlds: worlds.count),
      policies: policies, tornado: tornado, leader: policies[0].policy,
      runnerUp: runnerUpIndex.map { names[$0] }, worlds: worlds.count, events: events,
      unit: worlds[0].scenario.value?.unit ?? "value", design: plan.design)
  }
}

extension RobustPlan {
  /// The study's tables and tornado from the tallies of every world (all shards merged).
  public func outcome(worlds: [RobustWorld], tallies: [[[Tally]]]) -> RobustOutcome {
    precondition(worlds.count == tallies.count, "one tally set per world")
    var tabulation = RobustTabulation(plan: self, first: worlds[0])
    for (world, worldTallies) in zip(worlds, tallies) {
      _ = tabulation.add(world, tallies: worldTallies, keepingRows: true)
    }
    return tabulation.outcome(worlds: worlds)
  }

  /// Each policy's share best and regrets from `values[world][policy]`, in rank order.
  static func summaries(names: [String], values: [[Double]]) -> [RobustOutcome.PolicySummary] {
    let count = values.count
    var rows: [RobustOutcome.PolicySummary] = names.map {
      .init(
        policy: $0, worldsBest: 0, shareBest: 0, shareLow: 0, shareHigh: 0, meanValue: 0,
        expectedRegret: 0, worstRegret: 0, worstWorld: nil)
    }
    for (world, worldValues) in values.enumerated() {
      let best = worldValues.max() ?? 0
      let winners = worldValues.filter { $0 == best }.count
      for (policy, value) in worldValues.enumerated() {
        let regret = best - value
        if regret == 0 { rows[policy].worldsBest += 1 / Double(winners) }
        rows[policy].meanValue += value / Double(count)
        rows[policy].expectedRegret += regret / Double(count)
        if regret > rows[policy].worstRegret {
          rows[policy].worstRegret = regret
          rows[policy].worstWorld = world + 1
        }
      }
    }
    for index in rows.indices {
      rows[index].shareBest = rows[index].worldsBest / Double(count)
      (rows[index].shareLow, rows[index].shareHigh) = RobustStatistics.wilson(
        share: rows[index].shareBest, count: count)
    }
    return rows.enumerated().sorted { left, right in
      (-left.element.shareBest, left.element.expectedRegret, left.offset)
        < (-right.element.shareBest, right.element.expectedRegret, right.offset)
    }.map(\.element)
  }

  static func summaryTable(_ rows: [RobustOutcome.PolicySummary], worlds: Int) -> CSVTable {
    var table = CSVTable(header: [
      "rank", "policy", "worlds", "worlds_best", "share_best", "share_best_ci95_low",
      "share_best_ci95_high", "mean_value_per_1k_users", "expected_regret_per_1k_users",
      "worst_regret_per_1k_users", "worst_regret_world",
    ])
    for (rank, row) in rows.enumerated() {
      table.append([
        .integer(rank + 1), .text(row.policy), .integer(worlds), .number(row.worldsBest),
        .number(row.shareBest), .number(row.shareLow), .number(row.shareHigh),
        .number(row.meanValue), .number(row.expectedRegret), .number(row.worstRegret),
        .text(row.worstWorld.map(String.init) ?? ""),
      ])
    }
    return table
  }
}

extension HTMLReport {
  /// The robustness study's page (``HTMLReport/renderRobust(name:scenarioFile:parameterCount:scenario:outcome:)``)
  /// for a plan and the worlds it drew.
  ///
  /// - Precondition: `worlds` is not empty (a study draws at least ``RobustPlan/worldBounds``'s
  ///   lower bound).
  public static func renderRobust(
    name: String, plan: RobustPlan, worlds: [RobustWorld], outcome: RobustOutcome
  ) -> String {
    renderRobust(
      name: name, scenarioFile: plan.scenarioFile, parameterCount: plan.parameters.count,
      scenario: worlds[0].scenario, outcome: outcome)
  }
}
