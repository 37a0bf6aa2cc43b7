/// Pareto dominance, written once: every front in the reports (terminal, HTML, decision,
/// sweep) is taken by these functions.
public enum Pareto {
  /// `true` when `a` dominates `b`: at most as large on both coordinates and smaller on one
  /// (lower is better).
  public static func dominates(_ a: (x: Double, y: Double), _ b: (x: Double, y: Double)) -> Bool {
    a.x <= b.x && a.y <= b.y && (a.x < b.x || a.y < b.y)
  }

  /// The indices of the points no other point dominates, in input order. Equal points do not
  /// dominate each other, so ties on the front all stay.
  ///
  /// - Complexity: O(n²), for the few points of a run or a sweep grid.
  public static func front(_ points: [(x: Double, y: Double)]) -> [Int] {
    points.indices.filter { index in
      !points.contains { dominates($0, points[index]) }
    }
  }
}

extension RunReport {
  /// The policies on the front of the means of `x` and `y` (lower is better for both), in
  /// report order; policies without data on either are left out.
  public func paretoFront(x: MetricID, y: MetricID) -> [Int] {
    let withData = result.policies.indices.compactMap { policy -> (Int, Double, Double)? in
      guard let a = interval(policy: policy, metric: x)?.mean,
        let b = interval(policy: policy, metric: y)?.mean
      else { return nil }
      return (policy, a, b)
    }
    return Pareto.front(withData.map { ($0.1, $0.2) }).map { withData[$0].0 }
  }
}
