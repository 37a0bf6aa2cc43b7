import Testing

@testable import Experiments
@testable import Reports

/// Worst regret with ties, computed by hand: `worst_regret_world` names the first world where
/// a policy's regret reaches its maximum, and a policy best in every world (its regret 0
/// everywhere) has no worst world at all.
@Suite("Worst regret with ties")
struct RobustRegretOracleTests {
  /// Values per 1000 users, `values[world][policy]` for x, y, z; regrets (best − value) below.
  ///
  /// | world | x | y | z | regrets x, y, z |
  /// | --- | --- | --- | --- | --- |
  /// | 1 | 3 | 1 | 2 | 0, 2, 1 |
  /// | 2 | 5 | 5 | 4 | 0, 0, 1 |
  /// | 3 | 4 | 2 | 1 | 0, 2, 3 |
  /// | 4 | 6 | 6 | 6 | 0, 0, 0 |
  ///
  /// x: best everywhere (share 1/1 + 1/2 + 1 + 1/3), worst regret 0, no world. y: worst
  /// regret 2, reached in worlds 1 and 3: world 1. z: worst 3 in world 3 (its 1 in worlds 1
  /// and 2 comes first and is not the maximum).
  static let values: [[Double]] = [[3, 1, 2], [5, 5, 4], [4, 2, 1], [6, 6, 6]]

  @Test func theFirstWorldOfTheMaximumAndNoneForAPolicyNeverBeaten() throws {
    let rows = RobustPlan.summaries(names: ["x", "y", "z"], values: Self.values)
    #expect(rows.map(\.policy) == ["x", "y", "z"])
    let byName = Dictionary(uniqueKeysWithValues: rows.map { ($0.policy, $0) })
    let x = try #require(byName["x"])
    let y = try #require(byName["y"])
    let z = try #require(byName["z"])
    #expect(x.worstRegret == 0)
    #expect(x.worstWorld == nil)
    #expect(abs(x.worldsBest - (1 + 0.5 + 1 + 1.0 / 3)) < 1e-12)
    #expect(y.worstRegret == 2)
    #expect(y.worstWorld == 1)
    #expect(y.expectedRegret == 1)
    #expect(z.worstRegret == 3)
    #expect(z.worstWorld == 3)
    #expect(z.expectedRegret == 1.25)
    // robust-summary.csv: the last column is empty for x, 1 for y, 3 for z.
    let lines = RobustPlan.summaryTable(rows, worlds: 4).text.split(
      separator: "\n", omittingEmptySubsequences: false)
    #expect(lines[0].hasSuffix(",worst_regret_per_1k_users,worst_regret_world"))
    let last = lines.dropFirst().filter { !$0.isEmpty }.map {
      $0.split(separator: ",", omittingEmptySubsequences: false).last.map(String.init) ?? "?"
    }
    #expect(last == ["", "1", "3"])
  }

  /// Every policy tied in every world: nobody has a worst world, and each is best in a third.
  @Test func allTiedEverywhereGivesNoWorstWorld() {
    let rows = RobustPlan.summaries(names: ["p", "q", "r"], values: [[1, 1, 1], [-2, -2, -2]])
    #expect(rows.allSatisfy { $0.worstWorld == nil && $0.worstRegret == 0 })
    #expect(rows.allSatisfy { abs($0.shareBest - 1.0 / 3) < 1e-12 })
  }
}
