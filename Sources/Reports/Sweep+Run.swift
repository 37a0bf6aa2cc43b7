import MessageDeferral
import Simulation

/// The result of a sweep: `sweep.csv` (one row per point, policy and metric, with intervals)
/// and `pareto.csv` (the points no other beats on both chosen metrics).
public struct SweepOutcome: Sendable {
  public var sweep: CSVTable
  public var pareto: CSVTable
  /// One line per point on the front, for the terminal.
  public var frontLines: [String]
  public var points: Int
  public var events: Int
  /// Every point with both an onboarding interruption rate and a ``tradeOffMetric`` (positive
  /// for a duration, which is drawn on a log axis),
  /// for the report's trade-off plot (grid points in the ink colour, compared presets in
  /// their own, ``ChartPalette/presets``).
  public var tradeOff: [TradeOffPoint] = []
  /// The y metric of the trade-off plot: the sweep's own y when it is a duration or a rate,
  /// else consent p99 latency.
  public var tradeOffMetric = MetricID.consentLatencyP99
  /// The grid's parameters as written, and per parameter its values as text in grid order.
  public var parameterNames: [String] = []
  public var parameterValues: [[String]] = []
  /// Every point and policy with its two Pareto metrics, for the report's charts against each
  /// grid axis.
  public var rows: [SweepRow] = []
  /// What the sweep ran on (from its first scenario point), for `manifest.json` and the
  /// report's provenance block.
  public var scenarioName = ""
  public var seed: UInt64 = 0
  public var users = 0
  public var replications = 0
  /// The policies of the first scenario point: the compared presets, then the policy points.
  public var policies: [String] = []
}

/// One policy at one point of a sweep: its parameter values and its two Pareto metrics.
public struct SweepRow: Sendable, Equatable {
  /// `p1`... for a policy point (`s1`... for a scenario point of a sweep without policy
  /// parameters); a compared preset's scenario point for a preset.
  public var point: String
  public var policy: String
  /// Whether the policy is a compared preset (not the tuned policy).
  public var isPreset: Bool
  /// Per parameter, its value as text (empty for a policy parameter on a preset).
  public var labels: [String]
  /// The Pareto x and y metrics, `nil` without data.
  public var x: MeanInterval?
  public var y: MeanInterval?

  public init(
    point: String, policy: String, isPreset: Bool, labels: [String], x: MeanInterval?,
    y: MeanInterval?
  ) {
    self.point = point
    self.policy = policy
    self.isPreset = isPreset
    self.labels = labels
    self.x = x
    self.y = y
  }
}

/// What a sweep runs at one scenario point: the compared presets and every policy point, in one
/// run on the same users.
struct SweepPointRun {
  /// The point's scenario, its `policies` the compared presets then the policy points.
  var scenario: Scenario
  /// The value of every parameter, per policy (empty for a preset's policy parameters).
  var labels: [[String]]
  /// Per policy: `p1`, `p2`... for policy points, `nil` for compared presets.
  var pointNames: [String?]
}

extension SweepPlan {
  /// The run of every scenario point, in order. Policy points are numbered across scenario
  /// points (`p1`...); a sweep without policy parameters numbers its scenario points instead.
  func pointRuns(file: String) throws -> [SweepPointRun] {
    let policyGrid = policyPoints()
    var pointNumber = 0
    return try scenarioPoints(file: file).map { entry in
      var scenario = entry.scenario
      var policies = compare.map {
        NamedPolicy(name: $0, configuration: PolicyCatalog.preset(named: $0)!.configuration)
      }
      var labels: [[String]] = compare.map { _ in self.labels(scenario: entry.point, policy: nil) }
      var pointNames: [String?] = compare.map { _ in nil }
      for point in policyGrid {
        pointNumber += 1
        let name = "p\(pointNumber)"
        policies.append(try policy(for: point, name: name).get())
        labels.append(self.labels(scenario: entry.point, policy: point))
        pointNames.append(name)
      }
      if policyGrid.isEmpty { pointNumber += 1 }
      scenario.policies = policies
      scenario.baseline = policies[0].name
      return SweepPointRun(scenario: scenario, labels: labels, pointNames: pointNames)
    }
  }

  /// Simulates every scenario point, or with `shard` only shard K of N of each point's work
  /// items (see ``RunOptions/shard``; shards must share `blockSize`), and returns
  /// `tallies[scenario point][replication][policy]`. Every scenario point uses the same seed,
  /// so the users are the same across points. `progress` gets the scenario point being run
  /// (from 0), their count, and the engine's progress within it.
  public func simulate(
    jobs: Int, shard: (index: Int, count: Int)? = nil,
    blockSize: Int = RunOptions.defaultBlockSize, sharedTrunk: Bool = true, file: String,
    progress: (@Sendable (_ point: Int, _ points: Int, RunProgress) -> Void)? = nil
  ) throws -> [[[Tally]]] {
    let runs = try pointRuns(file: file)
    var tallies: [[[Tally]]] = []
    for (index, run) in runs.enumerated() {
      let scenario = run.scenario
      let points = runs.count
      var pointProgress: (@Sendable (RunProgress) -> Void)?
      if let progress {
        pointProgress = { @Sendable report in progress(index, points, report) }
      }
      var options = RunOptions(
        users: scenario.users, replications: scenario.replications, seed: scenario.seed,
        jobs: jobs, blockSize: blockSize, shard: shard)
      options.sharedTrunk = sharedTrunk
      let result = try Engine.run(
        CompiledScenario(scenario), policies: scenario.policies, options: options,
        progress: pointProgress)
      tallies.append(result.tallies)
    }
    return tallies
  }

  /// Runs every point on this machine: ``simulate(jobs:shard:blockSize:sharedTrunk:file:progress:)`` then
  /// ``outcome(tallies:file:)``.
  public func run(
    jobs: Int, sharedTrunk: Bool = true, file: String,
    progress: (@Sendable (_ point: Int, _ points: Int, RunProgress) -> Void)? = nil
  ) throws -> SweepOutcome {
    try outcome(
      tallies: simulate(jobs: jobs, sharedTrunk: sharedTrunk, file: file, progress: progress),
      file: file)
  }

  /// The sweep's tables and front from the tallies of every scenario point (all shards merged).
  public func outcome(tallies: [[[Tally]]], file: String) throws -> SweepOutcome {
    let runs = try pointRuns(file: file)
    precondition(runs.count == tallies.count, "one tally set per scenario point")
    let parameterNames = parameters.map(\.name)
    var sweep = CSVTable(
      header: ["point", "policy"] + parameterNames + [
        "metric", "mean", "ci95_low", "ci95_high", "replications",
      ])
    var candidates: [(point: String, policy: String, labels: [String], x: Double, y: Double)] = []
    var tradeOff: [TradeOffPoint] = []
    var rows: [SweepRow] = []
    let onboardingIndex = MetricID.onboardingInterruptionRate.index
    let paretoYUnit = pareto.y.metric.unit
    let tradeOffMetric =
      paretoYUnit == "seconds" || paretoYUnit == "ratio" ? pareto.y : .consentLatencyP99
    let plotsRate = paretoYUnit == "ratio"
    let durationIndex = tradeOffMetric.index
    var events = 0
    let xIndex = pareto.x.index
    let yIndex = pareto.y.index
    for (done, (run, pointTallies)) in zip(runs, tallies).enumerated() {
      let policies = run.scenario.policies
      let result = RunResult(policies: policies, tallies: pointTallies)
      events += result.events
      let report = RunReport(
        scenario: run.scenario, result: result, baseline: run.scenario.baseline)
      for (index, policy) in policies.enumerated() {
        let point = run.pointNames[index] ?? "s\(done + 1)"
        for (metricIndex, metric) in Metric.all.enumerated() {
          let interval = report.interval(policy: index, metric: metricIndex)
          sweep.append(
            [.text(point), .text(policy.name)] + run.labels[index].map { .text($0) } + [
              .text(metric.name), .number(interval?.mean), .number(interval?.low),
              .number(interval?.high), .integer(interval?.count ?? 0),
            ])
        }
        if let onboarding = report.interval(policy: index, metric: onboardingIndex),
          let duration = report.interval(policy: index, metric: durationIndex),
          duration.mean > 0 || plotsRate
        {
          let style =
            run.pointNames[index] == nil ? ChartPalette.style(for: policy.name) : .ink()
          tradeOff.append(
            TradeOffPoint(
              label: point == policy.name ? point : "\(point) \(policy.name)", style: style,
              onboarding: onboarding,
              duration: duration))
        }
        let xInterval = report.interval(policy: index, metric: xIndex)
        let yInterval = report.interval(policy: index, metric: yIndex)
        rows.append(
          SweepRow(
            point: point, policy: policy.name, isPreset: run.pointNames[index] == nil,
            labels: run.labels[index], x: xInterval, y: yInterval))
        if let x = xInterval?.mean, let y = yInterval?.mean {
          candidates.append((point, policy.name, run.labels[index], x, y))
        }
      }
    }
    let front = Pareto.front(candidates.map { ($0.x, $0.y) }).map { candidates[$0] }.sorted {
      ($0.x, $0.y) < ($1.x, $1.y)
    }
    var paretoTable = CSVTable(
      header: ["point", "policy"] + parameterNames + [pareto.x.name, pareto.y.name])
    // Readable units on the terminal (full precision is in pareto.csv).
    let xUnit = Metric.all[xIndex].unit
    let yUnit = Metric.all[yIndex].unit
    var lines: [String] = []
    for point in front {
      paretoTable.append(
        [.text(point.point), .text(point.policy)] + point.labels.map { .text($0) } + [
          .number(point.x), .number(point.y),
        ])
      let settings = zip(parameterNames, point.labels).filter { !$0.1.isEmpty }.map {
        "\($0)=\($1)"
      }
      lines.append(
        "\(point.point == point.policy ? point.point : point.point + " " + point.policy)"
          + "\(settings.isEmpty ? "" : " (" + settings.joined(separator: ", ") + ")"): "
          + "\(pareto.x.name) \(TerminalTable.format(point.x, xUnit)), "
          + "\(pareto.y.name) \(TerminalTable.format(point.y, yUnit))")
    }
    let first = runs.first?.scenario
    return SweepOutcome(
      sweep: sweep, pareto: paretoTable, frontLines: lines,
      points: pointCount, events: events,
      tradeOff: tradeOff, tradeOffMetric: tradeOffMetric, parameterNames: parameterNames,
      parameterValues: parameters.map { $0.values.map(Self.text) }, rows: rows,
      scenarioName: first?.name ?? "", seed: first?.seed ?? 0, users: first?.users ?? 0,
      replications: first?.replications ?? 0, policies: first?.policies.map(\.name) ?? [])
  }
}
