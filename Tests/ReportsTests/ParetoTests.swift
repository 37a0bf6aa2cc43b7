import Testing

@testable import Reports

/// ``Pareto``: the one dominance rule every front in the reports uses.
@Suite("Pareto front")
struct ParetoTests {
  @Test func dominanceNeedsOneStrictlyBetterCoordinate() {
    #expect(Pareto.dominates((1, 1), (2, 2)))
    #expect(Pareto.dominates((1, 2), (2, 2)))
    #expect(Pareto.dominates((2, 1), (2, 2)))
    #expect(!Pareto.dominates((2, 2), (2, 2)), "equal points do not dominate")
    #expect(!Pareto.dominates((1, 3), (2, 2)), "better on one, worse on the other")
    #expect(!Pareto.dominates((3, 3), (2, 2)))
  }

  @Test func frontKeepsUndominatedPointsAndTiesInInputOrder() {
    let points: [(x: Double, y: Double)] = [(1, 5), (2, 3), (3, 4), (0.5, 9), (2, 3), (4, 1)]
    #expect(Pareto.front(points) == [0, 1, 3, 4, 5])
    #expect(Pareto.front([]) == [])
    #expect(Pareto.front([(7, 7)]) == [0])
    // A chain: each point dominates the next, only the first stays.
    #expect(Pareto.front([(1, 1), (2, 2), (3, 3)]) == [0])
  }

  /// The front by brute force over a grid agrees with the definition: a point is on it
  /// exactly when no other point dominates it.
  @Test func frontMatchesTheDefinitionOnAGrid() {
    var points: [(x: Double, y: Double)] = []
    for index in 0..<60 {
      points.append((Double((index * 37) % 11), Double((index * 53) % 13)))
    }
    let front = Set(Pareto.front(points))
    for index in points.indices {
      let dominated = points.contains { Pareto.dominates($0, points[index]) }
      #expect(front.contains(index) == !dominated)
    }
    #expect(!front.isEmpty)
  }

  /// The run report's front (the HTML report's and the recommendation's) agrees with the
  /// front of the policies' means.
  @Test func runReportFrontIsTheFrontOfTheMeans() throws {
    let report = HTMLReportFixture.report()
    let x = MetricID.onboardingInterruptionRate
    let y = MetricID.consentLatencyP99
    let front = report.paretoFront(x: x, y: y)
    let withData = report.result.policies.indices.filter {
      report.interval(policy: $0, metric: x) != nil && report.interval(policy: $0, metric: y) != nil
    }
    try #require(withData.count >= 2)
    for policy in withData {
      let point = (
        x: report.interval(policy: policy, metric: x)!.mean,
        y: report.interval(policy: policy, metric: y)!.mean
      )
      let beaten = withData.contains { other in
        Pareto.dominates(
          (
            report.interval(policy: other, metric: x)!.mean,
            report.interval(policy: other, metric: y)!.mean
          ), point)
      }
      #expect(front.contains(policy) == !beaten)
    }
  }
}
