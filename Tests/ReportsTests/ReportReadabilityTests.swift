import Foundation
import MessageDeferral
import Simulation
import Testing

@testable import Experiments
@testable import Reports

/// Reports that read at a glance (#34, item 5): one colour per policy, one precision per
/// panel, overlapping consent curves told apart, sweep points keyed by their values, a front
/// only over policy choices. The browser checks the same pages' layout
/// (``HTMLReportBrowserTests``).
@Suite("Reports: readable at a glance")
struct ReportReadabilityTests {
  /// Every preset and two custom policies on the default scenario: presets that share a
  /// colour in the catalog, and custom names that could take a preset's.
  static let richReport: RunReport = {
    var scenario = ScenarioLoader.embeddedDefault()
    scenario.users = 150
    scenario.replications = 2
    scenario.policies =
      PolicyCatalog.presets.map { NamedPolicy(name: $0.name, configuration: $0.configuration) }
      + [
        NamedPolicy(
          name: "my-policy",
          configuration: PolicyCatalog.preset(named: "screen-gate")!.configuration),
        NamedPolicy(
          name: "tuned-gate",
          configuration: PolicyCatalog.preset(named: "adapty-manual")!.configuration),
      ]
    let result = try! Engine.run(
      CompiledScenario(scenario), policies: scenario.policies,
      options: RunOptions(
        users: scenario.users, replications: scenario.replications, seed: scenario.seed, jobs: 2))
    return RunReport(scenario: scenario, result: result, baseline: scenario.baseline)
  }()

  /// The iPad scenario, whose immersive visits are interrupted at near-equal tiny rates
  /// (0.06741% and 0.06738%): labels that tell them apart would not fit their bars.
  static func iPadPage() throws -> String {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
    var scenario = try ScenarioLoader.load(
      json: String(
        contentsOf: root.appendingPathComponent("scenarios/ipad-multiwindow.json"),
        encoding: .utf8),
      file: "ipad-multiwindow.json")
    scenario.users = 300
    scenario.replications = 2
    let result = try Engine.run(
      CompiledScenario(scenario), policies: scenario.policies,
      options: RunOptions(
        users: scenario.users, replications: scenario.replications, seed: scenario.seed, jobs: 2))
    let report = RunReport(scenario: scenario, result: result, baseline: scenario.baseline)
    return HTMLReport.render(report, manifest: HTMLReportFixture.manifest(for: report))
  }

  static func richPage() -> String {
    HTMLReport.render(richReport, manifest: HTMLReportFixture.manifest(for: richReport))
  }

  /// A sweep over the world alone: its points are worlds, not choices.
  static let worldSweep: SweepOutcome = {
    let source = """
      {"users": 120, "replications": 2, "seed": 7,
       "grid": {"scenario.population.new_user_share": [0.2, 0.4],
                "scenario.sessions.delivery": ["launch", "launch_and_resume"]},
       "compare": ["storekit-auto", "deadline-aware", "revenuecat-manual-legacy"]}
      """
    let plan = try! SweepPlan.load(source: source, file: "world.json")
    return try! plan.run(jobs: 2, file: "world.json")
  }()

  static func worldPage() -> String {
    HTMLReport.renderSweep(
      name: "world", outcome: worldSweep,
      pareto: (MetricID.onboardingInterruptionRate, MetricID.consentLatencyP99))
  }

  @Test func everyPolicyOfTheRichReportHasItsOwnColour() {
    let swatches = ChartPaletteTests.swatches(Self.richPage())
    #expect(swatches.count == PolicyCatalog.presets.count + 2)
    let colours = swatches.values.map { $0.split(separator: " ").first! }
    #expect(Set(colours).count == colours.count, "\(swatches)")
  }

  /// Curves that draw as one line are one line in the ink colour, named together.
  @Test func identicalConsentCurvesAreOneLineNamedTogether() throws {
    var report = HTMLReportFixture.report()
    var result = report.result
    var copy = result.policies[0]
    copy.name = "storekit-copy"
    result.policies.append(copy)
    result.tallies = result.tallies.map { $0 + [$0[0]] }
    var scenario = report.scenario
    scenario.policies = result.policies
    report = RunReport(scenario: scenario, result: result, baseline: report.baseline)
    let html = HTMLReport.render(report, manifest: HTMLReportFixture.manifest(for: report))
    let svg = try HTMLSweepReportTests.chart(html, id: "consent-chart")
    #expect(svg.contains("one curve for "), "\(svg)")
    #expect(svg.contains("storekit-auto (") && svg.contains("storekit-copy ("))
    // One line for the two, in ink; none in either's own colour.
    let styles = ChartPalette.styles(for: result.policies.map(\.name))
    for name in ["storekit-auto", "storekit-copy"] {
      #expect(!svg.contains("class=\"series-line \(styles[name]!.classes)\""), "\(name)")
    }
    #expect(svg.contains("series-line series-ink"))
    // Distinct curves are not grouped.
    let points: [(seconds: Double, fraction: Double)] = [(1, 0), (10, 0.5), (100, 1)]
    let other: [(seconds: Double, fraction: Double)] = [(1, 0), (10, 0.2), (100, 1)]
    let near: [(seconds: Double, fraction: Double)] = [(1, 0), (10, 0.503), (100, 1)]
    #expect(
      HTMLReport.curveGroups([points, other, near, points], from: 1, to: 100) == [[0, 2, 3], [1]])
  }

  /// The default run's consent chart (the "7 of 9 curves overlap into one line") says
  /// which policies share a line.
  @Test func theRichReportGroupsItsOverlappingCurves() throws {
    let svg = try HTMLSweepReportTests.chart(Self.richPage(), id: "consent-chart")
    #expect(svg.contains("one curve for "), "no curves grouped")
  }

  /// Bar labels at one precision per panel: the fallback and failure bars, each interruption
  /// panel.
  @Test func barLabelsHaveOnePrecisionPerPanel() throws {
    let html = Self.richPage()
    for id in ["fallback-chart", "failures-chart"] {
      let svg = try HTMLSweepReportTests.chart(html, id: id)
      let labels = svg.components(separatedBy: "class=\"value-label\">").dropFirst().map {
        String($0.prefix { $0 != "<" })
      }
      #expect(!labels.isEmpty)
      let decimals = Set(
        labels.compactMap { label -> Int? in
          let number = label.drop { !$0.isNumber }.prefix { $0.isNumber || $0 == "." }
          return number.isEmpty ? nil : (number.split(separator: ".").dropFirst().first?.count ?? 0)
        })
      #expect(decimals.count <= 1, "\(id): \(labels)")
    }
  }

  /// A sweep over world parameters draws no front (its points are worlds, not choices), keys
  /// its points by their parameter values, and lists a front per world over its presets.
  @Test func aWorldSweepHasNoFrontAndKeysItsPoints() throws {
    let html = Self.worldPage()
    let tradeOff = try HTMLSweepReportTests.chart(html, id: "sweep-tradeoff")
    #expect(!tradeOff.contains("class=\"front\""))
    #expect(!tradeOff.contains("front-region"))
    #expect(!tradeOff.contains("dominated"))
    #expect(!tradeOff.contains("Pareto front:"))
    #expect(html.contains("No Pareto front is drawn: the grid varies the world"))
    // The key: every point label with its values.
    #expect(html.contains("id=\"point-key\""))
    #expect(
      html.contains(
        "<th scope=\"row\">s1</th><td><code>scenario.population.new_user_share</code> = 0.2, <code>scenario.sessions.delivery</code> = launch</td>"
      ))
    // A front per world, over the presets it compares.
    #expect(
      html.contains(
        "<h3>scenario.population.new_user_share=0.2, scenario.sessions.delivery=launch</h3>"))
    // A sweep over the policy alone still draws its front.
    let policy = try SweepPlan.load(
      source: """
        {"users": 100, "replications": 2, "seed": 7, "policy": {"preset": "deadline-aware"},
         "grid": {"policy.sheets_per_break": [1, 2]}, "compare": ["storekit-auto"]}
        """, file: "policy.json")
    let outcome = try policy.run(jobs: 2, file: "policy.json")
    #expect(!outcome.variesWorld)
    let page = HTMLReport.renderSweep(name: "policy", outcome: outcome, pareto: policy.pareto)
    #expect(try HTMLSweepReportTests.chart(page, id: "sweep-tradeoff").contains("class=\"front\""))
  }

  /// The sweep metrics panel (a chart per metric and parameter): no name cut with an
  /// ellipsis; each line is numbered at its end and named whole in the key.
  @Test func theSweepMetricsPanelCutsNoLabel() throws {
    let html = Self.worldPage()
    for id in ["axis-0-x", "axis-0-y", "axis-1-x", "axis-1-y"] {
      let svg = try HTMLSweepReportTests.chart(html, id: id)
      #expect(!svg.contains("…"), "\(id)")
      #expect(svg.contains(": revenuecat-manual-legacy"), "\(id): the key names it whole")
    }
  }
}
