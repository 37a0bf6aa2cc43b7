import CGSL

/// A mean with its two-sided 95% Student-t confidence interval over independent replications.
public struct MeanInterval: Equatable, Sendable {
  /// The sample mean.
  public var mean: Double
  /// The lower and upper ends of the 95% interval; equal to `mean` when there is one value.
  public var low: Double
  public var high: Double
  /// How many values it was computed from.
  public var count: Int

  /// The mean of `values` and the interval mean ± t(0.975, n−1) · s / √n.
  ///
  /// Uses GSL's `gsl_cdf_tdist_Pinv` for the quantile. With a single value the interval has
  /// zero width (no spread can be estimated); it is not a claim of certainty. Returns `nil`
  /// for no values.
  public init?(values: [Double]) {
    guard !values.isEmpty else { return nil }
    let n = values.count
    let mean = values.reduce(0, +) / Double(n)
    self.mean = mean
    self.count = n
    guard n > 1 else {
      low = mean
      high = mean
      return
    }
    var squares = 0.0
    for value in values { squares += (value - mean) * (value - mean) }
    let standardError = (squares / Double(n - 1)).squareRoot() / Double(n).squareRoot()
    let half = gsl_cdf_tdist_Pinv(0.975, Double(n - 1)) * standardError
    low = mean - half
    high = mean + half
  }
}
