import Foundation
import MessageDeferral
import Reports
import Simulation

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
        scenario.priced(
          NamedPolicy(name: $0, configuration: PolicyCatalog.preset(named: $0)!.configuration),
          definition: nil)
      }
      var labels: [[String]] = compare.map { _ in self.labels(scenario: entry.point, policy: nil) }
      var pointNames: [String?] = compare.map { _ in nil }
      for point in policyGrid {
        pointNumber += 1
        let name = "p\(pointNumber)"
        let tuned = try policy(for: point, name: name).get()
        policies.append(scenario.priced(tuned.policy, definition: tuned.definition))
        labels.append(self.labels(scenario: entry.point, policy: point))
        pointNames.append(name)
      }
      if policyGrid.isEmpty { pointNumber += 1 }
      // The first policy (the first compared preset, else p1) is the baseline it asks for.
      var plan = RunPlan(scenario: scenario)
      plan.policies = policies
      try plan.settleBaseline(requested: policies[0].name, in: scenario)
      scenario = plan.planned(scenario)
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
      let plan = RunPlan(
        scenario: scenario, jobs: jobs, shard: shard, sharedTrunk: sharedTrunk,
        blockSize: blockSize)
      let result = try Experiment.run(plan, on: CompiledScenario(scenario), progress: pointProgress)
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
      paretoYUnit == .seconds || paretoYUnit == .ratio ? pareto.y : .consentLatencyP99
    let plotsRate = paretoYUnit == .ratio
    let durationIndex = tradeOffMetric.index
    var events = 0
    // One colour per compared preset across the sweep's page (``ChartPalette/styles(for:)``).
    let presetStyles = ChartPalette.styles(
      for: runs.flatMap { run in
        run.scenario.policies.indices.filter { run.pointNames[$0] == nil }.map {
          run.scenario.policies[$0].name
        }
      })
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
        for (metricIndex, metric) in Metric.all.enumerated()
        where metric.isReported(for: run.scenario) {
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
            run.pointNames[index] == nil ? presetStyles[policy.name]! : .ink()
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
      // In parts: one expression of them is too much for the type checker.
      let name: String =
        point.point == point.policy ? point.point : "\(point.point) \(point.policy)"
      let setting: String = settings.isEmpty ? "" : " (\(settings.joined(separator: ", ")))"
      let x = "\(pareto.x) \(TerminalTable.format(point.x, xUnit))"
      let y = "\(pareto.y) \(TerminalTable.format(point.y, yUnit))"
      lines.append("\(name)\(setting): \(x), \(y)")
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

extension SweepOutcome {
  /// The sweep's `manifest.json`: the scenario facts of its first point, the SHA-256 of the
  /// scenario and sweep texts, and `sweep` set.
  public func manifest(
    toolVersion: String, commandLine: [String], sweepName: String, plan: SweepPlan, jobs: Int,
    started: Date, finished: Date
  ) -> Manifest {
    var manifest = Manifest(
      toolVersion: toolVersion, commandLine: commandLine, scenarioName: scenarioName,
      scenarioSHA256: SHA256.hex(Array(plan.scenarioSource.utf8)), seed: seed, users: users,
      replications: replications, jobs: jobs, policies: policies,
      baseline: policies.first ?? "", started: started, finished: finished, events: events)
    manifest.sweep = (sweepName, SHA256.hex(Array(plan.source.utf8)), points)
    return manifest
  }
}
