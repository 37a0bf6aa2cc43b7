import Foundation
import TestSupport
import Testing

/// Issue #17: "no lower bound below 0 in any CSV". At 2 replications of few users a plain
/// Student-t interval leaves the possible range often (a rate's lower end below 0, a share's
/// upper end above 1); every interval a run writes must stay inside. Differences
/// (`paired.csv`, `decision.csv`) and values in the user's units can be negative by nature
/// and are left out; their own ranges are checked by `BoundedIntervalTests`.
@Suite("intervals inside the possible range in every CSV")
struct IntervalRangeTests {
  /// The rows of a CSV as dictionaries from header to cell (no quoted commas in these files'
  /// numeric cells; text cells are policy, screen and metric names).
  static func rows(_ url: URL) throws -> [[String: String]] {
    let lines = try String(contentsOf: url, encoding: .utf8).split(separator: "\n")
    let header = lines[0].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
    return lines.dropFirst().map { line in
      let cells = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
      return Dictionary(uniqueKeysWithValues: zip(header, cells))
    }
  }

  /// Whether a figure named `name` is a rate or share (in [0, 1]).
  static func isRate(_ name: String) -> Bool {
    name.contains("_rate") || name.contains("_share")
  }

  @Test func everyIntervalIsInsideItsRangeAtTwoReplications() throws {
    let out = RunEndToEndTests.temporaryFolder().appendingPathComponent("r")
    let run = try ToolRunner.run([
      "run", "-u", "100", "-r", "2", "-o", out.path, "-q", "--no-report",
      "--policies", "storekit-auto,screen-gate,never,deadline-aware",
    ])
    #expect(run.status == 0, "\(run.stderr)")
    var checked = 0
    // Wide files: every `X_ci95_low` / `X_ci95_high` column.
    for file in ["by-screen.csv", "by-reason.csv"] {
      for row in try Self.rows(out.appendingPathComponent(file)) {
        for (column, cell) in row
        where column.hasSuffix("_ci95_low") || column.hasSuffix("_ci95_high") {
          guard let value = Double(cell) else { continue }
          checked += 1
          #expect(value >= 0, "\(file) \(row["policy"]!) \(column) = \(value)")
          if Self.isRate(column) { #expect(value <= 1, "\(file) \(column) = \(value)") }
        }
        // The pooled figure the interval is about exists and is itself in range.
        if let rate = row["interruption_rate"].flatMap(Double.init) {
          #expect((0...1).contains(rate))
        }
      }
    }
    // Long files: `ci95_low` / `ci95_high` of each metric, values in the user's units aside.
    for file in ["summary.csv", "by-segment.csv"] {
      for row in try Self.rows(out.appendingPathComponent(file)) {
        let metric = row["metric"]!
        guard !metric.hasPrefix("value_") else { continue }
        for column in ["ci95_low", "ci95_high"] {
          guard let value = row[column].flatMap(Double.init) else { continue }
          checked += 1
          #expect(value >= 0, "\(file) \(row["policy"]!) \(metric) \(column) = \(value)")
          if Self.isRate(metric) { #expect(value <= 1, "\(file) \(metric) \(column) = \(value)") }
        }
      }
    }
    // Enough intervals to mean something. At this size plain Student-t intervals left the
    // range: by-screen's splash `interruption_rate_ci95_low` was -0.0024 and by-reason's
    // consent `displayed_share_ci95_high` 1.3459 before they were bounded.
    #expect(checked > 200)
  }
}
