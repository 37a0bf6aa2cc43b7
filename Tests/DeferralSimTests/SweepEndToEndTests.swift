import Foundation
import Testing

@Suite("sweep, end to end")
struct SweepEndToEndTests {
  @Test func writesEveryPointTheFrontAndAReport() throws {
    let folder = RunEndToEndTests.temporaryFolder()
    let file = folder.appendingPathComponent("tiny.json")
    let scenario = RunEndToEndTests.defaultScenario
    try """
    {"scenario": "\(scenario)", "users": 60, "replications": 2,
     "policy": {"preset": "deadline-aware"},
     "grid": {"policy.sheets_per_break": [1, 2],
              "scenario.population.new_user_share": [0.3, 0.5]},
     "compare": ["storekit-auto"]}
    """.write(to: file, atomically: true, encoding: .utf8)
    let out = folder.appendingPathComponent("out")
    let result = try ToolRunner.run(["sweep", file.path, "--out", out.path, "--quiet"])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.contains("Pareto front"))
    let sweep = try RunEndToEndTests.read(out, "sweep.csv")
    let rows = RunEndToEndTests.rows(sweep)
    #expect(
      rows[0]
        == [
          "point", "policy", "policy.sheets_per_break", "scenario.population.new_user_share",
          "metric", "mean", "ci95_low", "ci95_high", "replications",
        ])
    // 2 scenario points × (1 preset + 2 policy points) × every metric.
    let points = Set(rows.dropFirst().map { "\($0[0]) \($0[1]) \($0[3])" })
    #expect(points.count == 6)
    let pareto = try RunEndToEndTests.read(out, "pareto.csv")
    #expect(RunEndToEndTests.rows(pareto).count >= 2)
    let html = try RunEndToEndTests.read(out, "report.html")
    #expect(html.contains("<svg"))
    #expect(!html.contains("<script"))
  }

  @Test func aBadGridIsABadInput() throws {
    let folder = RunEndToEndTests.temporaryFolder()
    let file = folder.appendingPathComponent("bad.json")
    try #"{"grid": {"policy.sheets_per_break": [0]}, "pareto": ["nope", "x"]}"#
      .write(to: file, atomically: true, encoding: .utf8)
    let result = try ToolRunner.run([
      "sweep", file.path, "--out", folder.appendingPathComponent("o").path,
    ])
    #expect(result.status == 2)
    #expect(result.stderr.contains("$.pareto"))
  }
}
