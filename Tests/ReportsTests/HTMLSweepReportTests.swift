import Foundation
import Testing

@testable import Experiments
@testable import Reports

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// The sweep's report.html, on a tiny sweep (2 scenario points × (1 preset + 2 policy points),
/// 150 users, 2 replications; the one `SweepShardTests` in ExperimentsTests shards), simulated
/// once.
@Suite("Sweep report.html")
struct HTMLSweepReportTests {
  static let source = """
    {"users": 150, "replications": 2, "seed": 7,
     "policy": {"preset": "deadline-aware"},
     "grid": {"policy.sheets_per_break": [1, 2],
              "scenario.population.new_user_share": [0.3, 0.5]},
     "compare": ["storekit-auto"]}
    """

  static let run: (plan: SweepPlan, outcome: SweepOutcome) = {
    let plan = try! SweepPlan.load(source: source, file: "tiny.json")
    return (plan, try! plan.run(jobs: 2, file: "tiny.json"))
  }()

  static let manifest = run.outcome.manifest(
    toolVersion: "9.9.9-test", commandLine: ["deferral-sim", "sweep", "tiny.json"],
    sweepName: "tiny", plan: run.plan, jobs: 2, started: Date(timeIntervalSince1970: 1_735_787_000),
    finished: Date(timeIntervalSince1970: 1_735_787_004))

  static func render() throws -> String {
    HTMLReport.renderSweep(
      name: "tiny", outcome: run.outcome, pareto: run.plan.pareto, manifest: manifest)
  }

  /// The `<svg>` element with `id` in `html`.
  static func chart(_ html: String, id: String) throws -> String {
    let marker = try #require(html.range(of: "id=\"\(id)\">"))
    let start = try #require(html[..<marker.lowerBound].range(of: "<svg", options: .backwards))
    let end = try #require(html.range(of: "</svg>", range: marker.upperBound..<html.endIndex))
    return String(html[start.lowerBound..<end.upperBound])
  }

  /// One line chart per Pareto metric and grid parameter, each with a line, whiskers and a
  /// label per line.
  @Test func chartsEachMetricAgainstEachAxis() throws {
    let html = try Self.render()
    let outcome = Self.run.outcome
    #expect(outcome.parameterNames.count == 2)
    for axis in 0..<2 {
      for metric in ["x", "y"] {
        let svg = try Self.chart(html, id: "axis-\(axis)-\(metric)")
        #expect(svg.contains(outcome.parameterNames[axis]))
        #expect(svg.contains("class=\"series-line"), "axis \(axis) \(metric): no line")
        #expect(svg.contains("class=\"whisker"), "axis \(axis) \(metric): no interval")
        #expect(svg.contains(">storekit-auto"), "axis \(axis) \(metric): the preset's label")
        #expect(!HTMLReportTests.containsNonFinite(svg))
        #if canImport(FoundationXML) || canImport(Darwin)
          #expect(XMLParser(data: Data(svg.utf8)).parse())
        #endif
      }
    }
    // Against the policy parameter, the tuned policy has one line per value of the scenario
    // parameter, labelled by it; the preset is a flat line per scenario point.
    let policyAxis = try Self.chart(html, id: "axis-0-y")
    #expect(policyAxis.contains(": new_user_share=0.3<"), "the key names the line in full")
    #expect(!policyAxis.contains("…"))
    let lines = HTMLReport.axisLines(outcome, axis: 0, useX: false)
    #expect(lines.count == 4, "\(lines.map(\.name))")
    #expect(lines.filter { $0.style.colour == nil }.allSatisfy { $0.points.count == 2 })
  }

  /// Every point of the trade-off plot has a label (none hidden, the grid is small), and the
  /// legend names the grid points and each compared preset in its own colour.
  @Test func tradeOffLabelsEveryPointWithALegend() throws {
    let html = try Self.render()
    let svg = try Self.chart(html, id: "sweep-tradeoff")
    let labels = svg.components(separatedBy: "class=\"point-label").dropFirst().map {
      String($0.drop { $0 != ">" }.dropFirst().prefix { $0 != "<" })
    }
    let named = Set(labels.flatMap { $0.components(separatedBy: ", ") })
    for point in Self.run.outcome.tradeOff {
      #expect(named.contains(point.label), "\(point.label) has no label in \(labels)")
    }
    #expect(svg.contains("class=\"legend\""))
    #expect(svg.contains("tuned policy at a grid point"))
    let style = ChartPalette.presets["storekit-auto"]!.classes
    #expect(svg.contains("class=\"point \(style)\""), "the legend's storekit-auto marker")
  }

  /// The provenance block: the facts the results fix and the hashes, nothing that differs
  /// between a sweep run whole and merged from shards.
  @Test func holdsTheProvenanceBlock() throws {
    let html = try Self.render()
    let manifest = Self.manifest
    for fact in [
      "<dt>Scenario</dt>", "<dt>Seed</dt><dd><code>7</code>", "<dt>Points</dt><dd>6</dd>",
      "<dt>Version</dt><dd>9.9.9-test</dd>", manifest.scenarioSHA256, manifest.sweep!.sha256,
      "manifest.json",
    ] {
      #expect(html.contains(fact), "missing \(fact)")
    }
    #expect(!html.contains("tiny.json"), "the command line stays in manifest.json")
    #expect(try Self.render() == html, "deterministic")
  }

  /// A sweep's manifest.json: a run's fields, plus the sweep's name, hash and points.
  @Test func manifestNamesTheSweep() throws {
    let json = Self.manifest.json
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
    #expect(object["sweep"] as? String == "tiny")
    #expect(object["points"] as? Int == 6)
    #expect(
      object["sweep_sha256"] as? String == SHA256.hex(Array(Self.run.plan.source.utf8)))
    #expect(object["seed"] as? String == "7")
    #expect(object["users"] as? Int == 150)
    #expect((object["policies"] as? [String])?.first == "storekit-auto")
    #expect((object["wall_seconds"] as? NSNumber)?.doubleValue == 4)
  }
}
