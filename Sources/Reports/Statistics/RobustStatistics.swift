import Foundation

/// The statistics a robustness study reports: rank correlations for the tornado chart and the
/// interval of a share of worlds.
public enum RobustStatistics {
  /// The ranks of `values` from 1, tied values sharing the mean of their ranks (so the ranks
  /// of n values always sum to n(n + 1)/2).
  public static func ranks(_ values: [Double]) -> [Double] {
    let order = values.indices.sorted { (values[$0], $0) < (values[$1], $1) }
    var ranks = Array(repeating: 0.0, count: values.count)
    var start = 0
    while start < order.count {
      var end = start
      while end + 1 < order.count, values[order[end + 1]] == values[order[start]] { end += 1 }
      let shared = Double(start + end) / 2 + 1
      for position in start...end { ranks[order[position]] = shared }
      start = end + 1
    }
    return ranks
  }

  /// Spearman's rank correlation of `x` and `y`: the Pearson correlation of their ranks
  /// (``ranks(_:)``, ties averaged), in [−1, 1]. `nil` when fewer than 3 pairs or when either
  /// side is constant (no ranking to correlate).
  public static func spearman(_ x: [Double], _ y: [Double]) -> Double? {
    precondition(x.count == y.count, "Spearman needs pairs")
    guard x.count >= 3 else { return nil }
    let rx = ranks(x)
    let ry = ranks(y)
    let mean = Double(x.count + 1) / 2
    var sxy = 0.0
    var sxx = 0.0
    var syy = 0.0
    for (a, b) in zip(rx, ry) {
      sxy += (a - mean) * (b - mean)
      sxx += (a - mean) * (a - mean)
      syy += (b - mean) * (b - mean)
    }
    guard sxx > 0, syy > 0 else { return nil }
    return Swift.min(1, Swift.max(-1, sxy / (sxx * syy).squareRoot()))
  }

  /// About how large |rho| gets by chance between unrelated things over `count` worlds: the
  /// two-sided 95% level of Spearman's rho under independence, 1.96 / √(count − 1) (the
  /// large-sample normal approximation).
  public static func noiseLevel(worlds count: Int) -> Double {
    count > 1 ? 1.96 / Double(count - 1).squareRoot() : 1
  }

  /// Wilson's 95% score interval for a share `share` of `count` trials, inside [0, 1].
  public static func wilson(share: Double, count: Int) -> (low: Double, high: Double) {
    guard count > 0 else { return (0, 1) }
    let z = 1.959_963_984_540_054
    let n = Double(count)
    let denominator = 1 + z * z / n
    let centre = (share + z * z / (2 * n)) / denominator
    let half =
      z / denominator * (share * (1 - share) / n + z * z / (4 * n * n)).squareRoot()
    return (Swift.max(0, centre - half), Swift.min(1, centre + half))
  }
}
