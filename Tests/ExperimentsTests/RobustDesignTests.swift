import Foundation
import MessageDeferral
import Testing

@testable import Experiments
@testable import Reports

/// The space-filling designs, the parameters' quantile functions and the statistics of
/// `deferral-sim robust`, against their definitions and closed forms.
@Suite("robust: designs and statistics")
struct RobustDesignTests {
  /// A Latin hypercube puts exactly one point in each of the N equal strata of every
  /// coordinate, whatever N, the dimension or the seed.
  @Test(arguments: [(1, 1, 1), (7, 3, 42), (64, 12, 42), (101, 5, 9)])
  func latinHypercubeHitsEveryStratumOnce(count: Int, dimensions: Int, seed: UInt64) {
    let points = RobustDesign.lhs.points(count: count, dimensions: dimensions, seed: seed)
    #expect(points.count == count)
    for dimension in 0..<dimensions {
      let strata = points.map { Int($0[dimension] * Double(count)) }
      #expect(strata.sorted() == Array(0..<count), "dimension \(dimension)")
      #expect(points.allSatisfy { $0[dimension] >= 0 && $0[dimension] < 1 })
    }
  }

  @Test func latinHypercubeDependsOnTheSeedOnly() {
    let a = RobustDesign.lhs.points(count: 16, dimensions: 4, seed: 5)
    #expect(a == RobustDesign.lhs.points(count: 16, dimensions: 4, seed: 5))
    #expect(a != RobustDesign.lhs.points(count: 16, dimensions: 4, seed: 6))
  }

  /// GSL's Sobol sequence: in [0, 1), starting at (½, …, ½), the same whatever the seed, and
  /// its first 2^k points put 2^(k−1) points in each half of every coordinate (a (0, 1)
  /// sequence per coordinate, less the origin GSL skips: the half holding 0 gets one fewer,
  /// the other one more, at most).
  @Test func sobolIsInTheUnitCubeAndBalanced() {
    let points = RobustDesign.sobol.points(count: 64, dimensions: 40, seed: 1)
    #expect(points.count == 64)
    #expect(points[0] == Array(repeating: 0.5, count: 40))
    #expect(points == RobustDesign.sobol.points(count: 64, dimensions: 40, seed: 99))
    #expect(Set(points).count == 64)
    for dimension in 0..<40 {
      #expect(points.allSatisfy { $0[dimension] >= 0 && $0[dimension] < 1 })
      let low = points.filter { $0[dimension] < 0.5 }.count
      #expect(abs(low - 32) <= 1, "dimension \(dimension): \(low) of 64 below one half")
    }
    #expect(RobustDesign.sobolMaximumDimension == 40)
  }

  /// Each distribution's quantile function at known points.
  @Test func drawsFollowTheQuantileFunctions() throws {
    func parameter(
      _ distribution: RobustParameter.Distribution, duration: Bool = false
    )
      -> RobustParameter
    {
      RobustParameter(name: "p", distribution: distribution, isDuration: duration, source: "s")
    }
    let uniform = parameter(.uniform(min: 2, max: 6))
    #expect(uniform.draw(0).number == 2)
    #expect(uniform.draw(0.25).number == 3)
    let logUniform = parameter(.logUniform(min: 1, max: 100))
    #expect(abs(logUniform.draw(0.5).number - 10) < 1e-12)
    // Triangular: F(mode) = (mode − min) / (max − min); the median of (0, 0, 1) is 1 − √½.
    let triangular = parameter(.triangular(min: 0, mode: 0.25, max: 1))
    #expect(abs(triangular.draw(0.25).number - 0.25) < 1e-12)
    let leaning = parameter(.triangular(min: 0, mode: 0, max: 1))
    #expect(abs(leaning.draw(0.5).number - (1 - 0.5.squareRoot())) < 1e-12)
    let list = parameter(.values([.string("a"), .string("b"), .string("c")]))
    #expect(list.draw(0.34).value == .string("b"))
    #expect(list.draw(0.34).number == 1)
    #expect(list.draw(0.999).value == .string("c"))
    // Durations come back as whole milliseconds in a duration string.
    let hours = parameter(.uniform(min: 3600, max: 7200), duration: true)
    #expect(hours.draw(0.5).value == .string("1.5h"))
    #expect(hours.draw(0.5).number == 5400)
  }

  /// Spearman's rho against hand-computed values, ties averaged.
  @Test func spearmanMatchesHandComputedValues() throws {
    #expect(RobustStatistics.spearman([1, 2, 3, 4], [10, 20, 30, 40]) == 1)
    #expect(RobustStatistics.spearman([1, 2, 3, 4], [9, 1, 0, -5]) == -1)
    // Monotone but not linear: still 1.
    #expect(RobustStatistics.spearman([1, 2, 3, 4, 5], [1, 4, 9, 16, 1000]) == 1)
    // Ranks x = 1..5, y = (2, 1, 4, 3, 5): Σd² = 4, rho = 1 − 6·4 / (5·24) = 0.8.
    let rho = try #require(RobustStatistics.spearman([1, 2, 3, 4, 5], [20, 10, 40, 30, 50]))
    #expect(abs(rho - 0.8) < 1e-12)
    #expect(RobustStatistics.ranks([5, 1, 5, 3]) == [3.5, 1, 3.5, 2])
    #expect(RobustStatistics.spearman([1, 1, 1], [1, 2, 3]) == nil)
    #expect(RobustStatistics.spearman([1, 2], [1, 2]) == nil)
  }

  /// Wilson's interval: 0 of 10 gives [0, 0.2775] (the textbook value), and it stays in
  /// [0, 1] and contains the share.
  @Test func wilsonIntervalMatchesTheTextbook() {
    let none = RobustStatistics.wilson(share: 0, count: 10)
    #expect(none.low == 0)
    #expect(abs(none.high - 0.2775) < 5e-5)
    for share in stride(from: 0.0, through: 1.0, by: 0.125) {
      let interval = RobustStatistics.wilson(share: share, count: 8)
      #expect(interval.low >= 0 && interval.high <= 1)
      #expect(interval.low <= share && share <= interval.high)
    }
  }

  /// Regret is at least 0 and 0 for the best; ties split a world so shares sum to 1.
  @Test func summariesSplitTiesAndNeverRegretBelowZero() {
    let values: [[Double]] = [[3, 1, 3], [0, 2, 1], [5, 5, 5], [-1, -2, -0.5]]
    let rows = RobustPlan.summaries(names: ["a", "b", "c"], values: values)
    let shares = rows.map(\.shareBest).reduce(0, +)
    #expect(abs(shares - 1) < 1e-12)
    let byName = Dictionary(uniqueKeysWithValues: rows.map { ($0.policy, $0) })
    // a: ½ + 0 + ⅓ + 0; c: ½ + 0 + ⅓ + 1.
    #expect(abs(byName["a"]!.worldsBest - (0.5 + 1.0 / 3)) < 1e-12)
    #expect(abs(byName["c"]!.worldsBest - (0.5 + 1.0 / 3 + 1)) < 1e-12)
    #expect(rows[0].policy == "c")
    #expect(rows.allSatisfy { $0.expectedRegret >= 0 && $0.worstRegret >= 0 })
    // b's regrets: 2, 0, 0, 1.5 → mean 0.875, worst 2 in world 1.
    #expect(byName["b"]!.expectedRegret == 0.875)
    #expect(byName["b"]!.worstRegret == 2)
    #expect(byName["b"]!.worstWorld == 1)
  }
}
