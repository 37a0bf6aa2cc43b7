/// A kind of GSL draw, for counting what a run consumed (the benchmarks' RNG floor:
/// `deferral-bench` times GSL drawing the same numbers of the same kinds with no simulation
/// around them).
///
/// Raw values index ``VariateCounts/counts``; append new cases, never renumber.
public enum VariateKind: Int, Sendable, CaseIterable {
  /// `gsl_rng_uniform`: ``RandomStream/uniform()`` and ``RandomStream/bernoulli(_:)``.
  case uniform = 0
  /// `gsl_rng_uniform_pos`.
  case uniformPositive = 1
  /// `gsl_rng_uniform_int`.
  case uniformInt = 2
  /// `gsl_ran_exponential`.
  case exponential = 3
  /// `gsl_ran_lognormal`.
  case lognormal = 4
  /// `gsl_ran_gamma`.
  case gamma = 5
  /// `gsl_ran_weibull`.
  case weibull = 6
  /// `gsl_ran_flat` (a ``DistributionSpec`` `uniform`).
  case flat = 7
  /// `gsl_ran_discrete` (an ``AliasTable``: transitions and empirical distributions).
  case discrete = 8
  /// A `fixed` distribution: no GSL call at all.
  case fixed = 9

  /// The name used in `floor.csv`.
  public var name: String {
    switch self {
    case .uniform: "uniform"
    case .uniformPositive: "uniform_pos"
    case .uniformInt: "uniform_int"
    case .exponential: "exponential"
    case .lognormal: "lognormal"
    case .gamma: "gamma"
    case .weibull: "weibull"
    case .flat: "flat"
    case .discrete: "discrete"
    case .fixed: "fixed"
    }
  }
}

/// How many variates of each ``VariateKind`` were drawn. Merges exactly (integer sums).
///
/// Filled only when a run asks for it (``RunOptions/countsVariates``); otherwise streams hold
/// `nil` and a draw costs one predictable branch on a word next to the generator pointer.
public struct VariateCounts: Sendable, Equatable, Codable {
  /// Indexed by ``VariateKind/rawValue``.
  public var counts = [Int](repeating: 0, count: VariateKind.allCases.count)

  public init() {}

  public subscript(kind: VariateKind) -> Int {
    get { counts[kind.rawValue] }
    set { counts[kind.rawValue] = newValue }
  }

  /// Every variate drawn through GSL (``VariateKind/fixed`` excluded).
  public var gslTotal: Int {
    VariateKind.allCases.reduce(0) { $0 + ($1 == .fixed ? 0 : self[$1]) }
  }

  /// Adds `other` into `self`.
  public mutating func merge(_ other: VariateCounts) {
    for index in counts.indices { counts[index] += other.counts[index] }
  }
}

extension RandomStream {
  /// Counts one draw of `kind` when counting is on (``variateCounts`` is not `nil`).
  @inlinable
  public mutating func countVariate(_ kind: VariateKind) {
    if variateCounts != nil { variateCounts![kind] += 1 }
  }

  /// Moves this stream's counts into `counts` and restarts them from zero (when counting).
  public mutating func drainVariateCounts(into counts: inout VariateCounts) {
    guard let mine = variateCounts else { return }
    counts.merge(mine)
    variateCounts = VariateCounts()
  }
}
