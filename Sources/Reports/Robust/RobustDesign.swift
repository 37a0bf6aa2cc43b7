/// How a robustness study spreads its worlds over the parameters' ranges: points in the unit
/// hypercube [0, 1)^d, one per world, that each parameter maps through its quantile function
/// (``RobustParameter/draw(_:)``).
public enum RobustDesign: String, Sendable, CaseIterable {
  /// Latin hypercube: each parameter's range is cut into N equal-probability strata and every
  /// stratum holds exactly one world; strata are paired across parameters by independent
  /// random permutations and each point is uniform within its stratum. Depends on the seed.
  case lhs
  /// The Sobol low-discrepancy sequence (GSL's `gsl_qrng_sobol`, its first N points, which
  /// start at (0.5, …, 0.5)): fills the cube more evenly than random points and is the same
  /// whatever the seed. At most ``sobolMaximumDimension`` parameters.
  case sobol
}
