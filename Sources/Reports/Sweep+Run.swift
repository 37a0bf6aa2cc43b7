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
  /// Every point with both an onboarding interruption rate and a consent p99 latency, for
  /// the report's trade-off plot (series 0 for grid points, 1... for compared presets).
  public var tradeOff: [TradeOffPoint] = []
}

extension SweepPlan {
  /// Runs every point. For each scenario point, the compared presets and every policy point
  /// run together on the same users; every scenario point uses the same seed.
  public func run(
    jobs: Int, file: String, progress: ((Int, Int) -> Void)? = nil
  ) throws -> SweepOutcome {
    let scenarios = try scenarioPoints(file: file)
    let policyGrid = policyPoints()
    let parameterNames = parameters.map(\.name)
    var sweep = CSVTable(
      header: ["point", "policy"] + parameterNames + [
        "metric", "mean", "ci95_low", "ci95_high", "replications",
      ])
    var candidates: [(point: String, policy: String, labels: [String], x: Double, y: Double)] = []
    var tradeOff: [TradeOffPoint] = []
    let onboardingIndex = Metric.all.firstIndex { $0.name == "onboarding_interruption_rate" }!
    let p99Index = Metric.all.firstIndex { $0.name == "consent_latency_p99_s" }!
    var events = 0
    let xIndex = Metric.all.firstIndex { $0.name == pareto.x }!
    let yIndex = Metric.all.firstIndex { $0.name == pareto.y }!
    var pointNumber = 0
    for (done, entry) in scenarios.enumerated() {
      var scenario = entry.scenario
      var policies = compare.map {
        NamedPolicy(name: $0, configuration: PolicyCatalog.preset(named: $0)!.configuration)
      }
      var policyLabels: [[String]] = compare.map { _ in labels(scenario: entry.point, policy: nil) }
      var pointNames: [String] = compare.map { _ in "-" }
      for point in policyGrid {
        pointNumber += 1
        let name = "p\(pointNumber)"
        policies.append(try policy(for: point, name: name).get())
        policyLabels.append(labels(scenario: entry.point, policy: point))
        pointNames.append(name)
      }
      // Presets compared once per scenario point are labelled by their scenario values only.
      if policyGrid.isEmpty { pointNumber += 1 }
      scenario.policies = policies
      scenario.baseline = policies[0].name
      let result = try Engine.run(
        CompiledScenario(scenario), policies: policies,
        options: RunOptions(
          users: scenario.users, replications: scenario.replications, seed: scenario.seed,
          jobs: jobs))
      events += result.events
      let report = RunReport(scenario: scenario, result: result, baseline: scenario.baseline)
      for (index, policy) in policies.enumerated() {
        let point = pointNames[index] == "-" ? "s\(done + 1)" : pointNames[index]
        for (metricIndex, metric) in Metric.all.enumerated() {
          let interval = report.interval(policy: index, metric: metricIndex)
          sweep.append(
            [.text(point), .text(policy.name)] + policyLabels[index].map { .text($0) } + [
              .text(metric.name), .number(interval?.mean), .number(interval?.low),
              .number(interval?.high), .integer(interval?.count ?? 0),
            ])
        }
        if let onboarding = report.interval(policy: index, metric: onboardingIndex),
          let p99 = report.interval(policy: index, metric: p99Index), p99.mean > 0
        {
          let series = pointNames[index] == "-" ? 1 + (compare.firstIndex(of: policy.name) ?? 0) : 0
          tradeOff.append(
            TradeOffPoint(
              label: "\(point) \(policy.name)", series: series, onboarding: onboarding,
              consentP99: p99))
        }
        if let x = report.interval(policy: index, metric: xIndex)?.mean,
          let y = report.interval(policy: index, metric: yIndex)?.mean
        {
          candidates.append((point, policy.name, policyLabels[index], x, y))
        }
      }
      progress?(done + 1, scenarios.count)
    }
    let front = candidates.filter { point in
      !candidates.contains { other in
        other.x <= point.x && other.y <= point.y && (other.x < point.x || other.y < point.y)
      }
    }.sorted { ($0.x, $0.y) < ($1.x, $1.y) }
    var paretoTable = CSVTable(
      header: ["point", "policy"] + parameterNames + [pareto.x, pareto.y])
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
        "\(point.point) \(point.policy)\(settings.isEmpty ? "" : " (" + settings.joined(separator: ", ") + ")"): "
          + "\(pareto.x) \(CSVField.format(point.x)), \(pareto.y) \(CSVField.format(point.y))")
    }
    return SweepOutcome(
      sweep: sweep, pareto: paretoTable, frontLines: lines,
      points: scenarios.count * (compare.count + policyGrid.count), events: events,
      tradeOff: tradeOff)
  }
}
