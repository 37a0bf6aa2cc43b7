import Foundation
import MessageDeferral
import Simulation
import Testing

@testable import Reports

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// A small real run for the report tests: the embedded default scenario, 150 users, 2
/// replications, four policies (one that never displays), simulated once.
enum HTMLReportFixture {
  static let policyNames = ["storekit-auto", "screen-gate-ceiling", "never", "deadline-aware"]

  static let scenario: Scenario = {
    var scenario = ScenarioLoader.embeddedDefault()
    scenario.users = 150
    scenario.replications = 2
    scenario.policies = policyNames.map { name in
      scenario.policies.first { $0.name == name }
        ?? NamedPolicy(name: name, configuration: PolicyCatalog.preset(named: name)!.configuration)
    }
    return scenario
  }()

  static let result: RunResult = {
    try! Engine.run(
      CompiledScenario(scenario), policies: scenario.policies,
      options: RunOptions(
        users: scenario.users, replications: scenario.replications, seed: scenario.seed, jobs: 2))
  }()

  /// The report, optionally with the scenario and policies renamed (the tallies unchanged).
  static func report(scenarioName: String? = nil, policyNames: [String]? = nil) -> RunReport {
    var scenario = scenario
    var result = result
    if let scenarioName { scenario.name = scenarioName }
    var baseline = scenario.baseline
    if let policyNames {
      for index in result.policies.indices {
        if result.policies[index].name == baseline { baseline = policyNames[index] }
        result.policies[index].name = policyNames[index]
      }
      scenario.policies = result.policies
      scenario.baseline = baseline
    }
    return RunReport(scenario: scenario, result: result, baseline: baseline)
  }

  static func manifest(for report: RunReport) -> Manifest {
    Manifest(
      toolVersion: "9.9.9-test", commandLine: ["deferral-sim", "run", "--users", "150"],
      scenarioName: report.scenario.name, scenarioSHA256: String(repeating: "ab", count: 32),
      seed: report.scenario.seed, users: report.scenario.users,
      replications: report.scenario.replications, jobs: 2,
      policies: report.result.policies.map(\.name), baseline: report.baseline,
      started: Date(timeIntervalSince1970: 1_735_787_000),
      finished: Date(timeIntervalSince1970: 1_735_787_042.5), events: report.result.events)
  }

  static func render(scenarioName: String? = nil, policyNames: [String]? = nil) throws -> String {
    let report = report(scenarioName: scenarioName, policyNames: policyNames)
    return HTMLReport.render(report, manifest: manifest(for: report))
  }
}

@Suite("HTML report")
struct HTMLReportTests {
  @Test func holdsEverySectionAndTheHeaderFacts() throws {
    let html = try HTMLReportFixture.render()
    for id in [
      "recommendation", "summary", "headline", "consent", "interruptions", "tradeoff", "counts",
    ] {
      #expect(html.contains("id=\"\(id)\""), "section \(id)")
    }
    for fact in [
      "150 per replication", "<dd>2</dd>", "<code>\(HTMLReportFixture.scenario.seed)</code>",
      "<dd>9.9.9-test</dd>", "2025-01-02 03:04 UTC", "43 s", "indie-subscription",
    ] {
      #expect(html.contains(fact), "header fact \(fact)")
    }
    #expect(html.components(separatedBy: "<svg").count - 1 == 5)
    #expect(html.contains("interrupts onboarding in"))
    #expect(html.contains("none displayed"), "the never policy's legend entry")
    // The trade-off plots deadlines missed, which `never` has (it shows no consent at all).
    #expect(!html.contains("Not plotted"))
    #expect(html.contains("Consent deadlines missed (lower is better)"))
    #expect(html.contains("Recommendation: "))
    #expect(html.contains("earliest consent deadline 7 d"))
    #expect(!Self.containsNonFinite(html))
    for name in HTMLReportFixture.policyNames {
      #expect(html.contains(name))
    }
    // The consent table: one row per policy, each a header cell and eight numbers (issued,
    // displayed, share, three latency quantiles, two hold quantiles).
    let consent = try #require(html.range(of: "<th scope=\"col\">Hold p99</th>"))
    let body = html[consent.upperBound...]
    let table = String(body[..<(body.range(of: "</tbody>")?.lowerBound ?? body.endIndex)])
    let rows = table.components(separatedBy: "<tr>").dropFirst()
    #expect(rows.count == HTMLReportFixture.policyNames.count)
    for row in rows {
      #expect(row.hasPrefix("<th scope=\"row\">"), "\(row)")
      #expect(row.components(separatedBy: "<td>").count - 1 == 8, "\(row)")
    }
  }

  /// Nothing is loaded from anywhere and nothing runs: no script, no external reference, and a
  /// Content-Security-Policy that forbids both.
  @Test func isSelfContained() throws {
    let html = try HTMLReportFixture.render().lowercased()
    for forbidden in ["<script", "src=", "href=", "url(", "@import", "<link", "<iframe", "<img"] {
      #expect(!html.contains(forbidden), "\(forbidden)")
    }
    let withoutNamespace = html.replacingOccurrences(
      of: "xmlns=\"http://www.w3.org/2000/svg\"", with: "")
    #expect(!withoutNamespace.contains("http:") && !withoutNamespace.contains("https:"))
    #expect(html.contains("content-security-policy"))
    #expect(html.contains("default-src 'none'"))
    #expect(html.contains("prefers-color-scheme:dark"))
    #expect(html.contains("@media print"))
  }

  @Test func escapesScenarioAndPolicyNames() throws {
    let hostile = ["<b>storekit</b>", "a&b \"quoted\"", "it's <never>", "x<y>z&amp;"]
    let html = try HTMLReportFixture.render(
      scenarioName: "<script>alert('x')</script> & co", policyNames: hostile)
    #expect(!html.contains("<script>"))
    #expect(html.contains("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; co"))
    for name in hostile {
      #expect(!html.contains(name), "raw \(name)")
      #expect(html.contains(Chart.escape(name)), "escaped \(name)")
    }
    #expect(html.contains("x&lt;y&gt;z&amp;amp;"))
    try Self.expectWellFormedCharts(html)
  }

  /// Every chart is well-formed XML (so escaping holds inside SVG too).
  @Test func chartsAreWellFormedXML() throws {
    try Self.expectWellFormedCharts(try HTMLReportFixture.render())
  }

  /// A run with no data at all (no users, so every metric is empty or zero) still renders:
  /// dashes instead of numbers, no NaN or infinity, the charts that have nothing to show left
  /// out, and well-formed charts for the rest.
  @Test func rendersARunWithoutData() throws {
    var scenario = HTMLReportFixture.scenario
    scenario.messages.consent = nil
    let empty = Tally(screenCount: scenario.screens.count)
    let result = RunResult(
      policies: scenario.policies,
      tallies: Array(repeating: Array(repeating: empty, count: scenario.policies.count), count: 2))
    let report = RunReport(scenario: scenario, result: result, baseline: scenario.baseline)
    let html = HTMLReport.render(report, manifest: HTMLReportFixture.manifest(for: report))
    #expect(html.contains("—"))
    #expect(html.contains("none displayed"))
    #expect(!html.contains("id=\"tradeoff\""), "no point to plot")
    #expect(Self.containsNonFinite("a NaN b") && !Self.containsNonFinite("information"))
    #expect(!Self.containsNonFinite(html))
    var rest = html[...]
    while let start = rest.range(of: "<svg "),
      let end = rest.range(of: "</svg>", range: start.upperBound..<rest.endIndex)
    {
      #if canImport(FoundationXML) || canImport(Darwin)
        #expect(XMLParser(data: Data(rest[start.lowerBound..<end.upperBound].utf8)).parse())
      #endif
      rest = rest[end.upperBound...]
    }
  }

  @Test func isDeterministic() throws {
    #expect(try HTMLReportFixture.render() == HTMLReportFixture.render())
  }

  /// Whether `text` holds a printed NaN or infinity (`nan`, `inf`, `-inf` as words).
  static func containsNonFinite(_ text: String) -> Bool {
    let pattern = try! NSRegularExpression(
      pattern: "\\b(nan|inf|infinity)\\b", options: .caseInsensitive)
    return pattern.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
  }

  static func expectWellFormedCharts(_ html: String, charts: Int = 5) throws {
    var rest = html[...]
    var count = 0
    while let start = rest.range(of: "<svg "),
      let end = rest.range(of: "</svg>", range: start.upperBound..<rest.endIndex)
    {
      let svg = String(rest[start.lowerBound..<end.upperBound])
      count += 1
      #if canImport(FoundationXML) || canImport(Darwin)
        let parser = XMLParser(data: Data(svg.utf8))
        #expect(
          parser.parse(),
          "chart \(count) is not well-formed: \(String(describing: parser.parserError))")
      #endif
      rest = rest[end.upperBound...]
    }
    #expect(count == charts)
  }

  @Test func cumulativeCurveIsExactAtBinEdges() throws {
    var histogram = LatencyHistogram()
    for seconds in [30.0, 120, 120, 3600] { histogram.record(seconds) }
    let curve = HTMLReport.cumulativeCurve(histogram, from: 60, to: 86400)
    #expect(curve.first?.seconds == 60)
    #expect(curve.first?.fraction == 0.25)
    #expect(curve.last?.seconds == 86400)
    #expect(curve.last?.fraction == 1)
    for (before, after) in zip(curve, curve.dropFirst()) {
      #expect(before.seconds <= after.seconds && before.fraction <= after.fraction)
    }
    // Between the 120 s bin and the 3600 s bin the CDF is flat at 3/4.
    #expect(curve.contains { $0.seconds > 121 && $0.seconds < 3500 && $0.fraction == 0.75 })
    #expect(!curve.contains { $0.seconds < 119 && $0.fraction > 0.25 })
    #expect(HTMLReport.cumulativeCurve(LatencyHistogram(), from: 60, to: 600).isEmpty)
  }

  @Test func deadlineMarks() {
    let day = 86400.0
    let uniform = HTMLReport.deadlineMark(.uniform(low: 7 * day, high: 30 * day))
    #expect(uniform.seconds == 7 * day)
    #expect(uniform.band?.0 == 7 * day && uniform.band?.1 == 30 * day)
    #expect(uniform.label == "earliest consent deadline 7 d")
    #expect(HTMLReport.deadlineMark(.fixed(3 * day)).seconds == 3 * day)
    #expect(HTMLReport.deadlineMark(.lognormal(median: 5 * day, sigma: 1)).seconds == 5 * day)
    let exponential = HTMLReport.deadlineMark(.exponential(mean: 10)).seconds
    #expect(abs(exponential - 10 * log(2)) < 1e-12)
    // Gamma of shape 1 is the exponential: the same median.
    let gamma = HTMLReport.deadlineMark(.gamma(shape: 1, scale: 10)).seconds
    #expect(abs(gamma - 10 * log(2)) < 1e-9)
    let weibull = HTMLReport.deadlineMark(.weibull(shape: 2, scale: 10)).seconds
    #expect(abs(weibull - 10 * log(2).squareRoot()) < 1e-12)
    let empirical = HTMLReport.deadlineMark(.empirical(values: [9, 2, 5], weights: [1, 0, 1]))
    #expect(empirical.seconds == 5 && empirical.band?.1 == 9)
  }

  @Test(arguments: [
    (0.062, 0.058, 0.066, "ratio", "6.2%", "[5.8, 6.6]"),
    (0.0004, -0.0002, 0.001, "ratio", "0.04%", "[0.00, 0.10]"),
    (0.0, 0.0, 0.0, "ratio", "0.0%", "[0.0, 0.0]"),
    (0.999, 0.99, 1.01, "ratio", "99.9%", "[99.0, 100.0]"),
    (16_560.0, 14_400, 18_720, "seconds", "4.6 h", "[4.0, 5.2]"),
    (45.0, 40, 50, "seconds", "45.0 s", "[40.0, 50.0]"),
    (12.34, -1, 25.5, "count", "12.3", "[0.0, 25.5]"),
    (425.2, 393, 456.7, "count", "425", "[393, 457]"),
  ])
  func valuesReadWithTheirUnit(
    mean: Double, low: Double, high: Double, unit: String, text: String, range: String
  ) throws {
    var interval = try #require(MeanInterval(values: [mean]))
    interval.low = low
    interval.high = high
    let value = HTMLReport.valueText(interval, unit: try #require(MetricUnit(rawValue: unit)))
    #expect(value.mean == text)
    #expect(value.range == range)
  }

  /// A sweep-sized trade-off plot labels only its front and stays well-formed.
  @Test func tradeOffChartScalesToAGrid() throws {
    var points: [TradeOffPoint] = []
    for index in 0..<40 {
      let x = Double(index % 8) / 100 + 0.001
      let y = 3600 * Double(1 + (index * 7) % 11)
      points.append(
        TradeOffPoint(
          label: "grid \(index)", style: ChartPalette.free[index % 8],
          onboarding: try #require(MeanInterval(values: [x, x * 1.1])),
          duration: try #require(MeanInterval(values: [y, y * 1.2]))))
    }
    let svg = HTMLReport.tradeOffChart(points)
    let front = Pareto.front(points.map { ($0.onboarding.mean, $0.duration.mean) })
    let labels = svg.components(separatedBy: "class=\"point-label").count - 1
    #expect(labels >= 1 && labels <= front.count)
    for index in points.indices where !front.contains(index) {
      for pattern in [">grid \(index)<", ">grid \(index),", " grid \(index)<", " grid \(index),"] {
        #expect(!svg.contains(pattern), "dominated point \(index) is not labelled")
      }
    }
    #expect(svg.components(separatedBy: "class=\"point ").count - 1 == points.count)
    #if canImport(FoundationXML) || canImport(Darwin)
      #expect(XMLParser(data: Data(svg.utf8)).parse())
    #endif
  }
}
