/// The result of a robustness study: `robust.csv` (every metric of every policy in every
/// world), `robust-summary.csv` (per policy: share of worlds where it is best, expected and
/// worst regret) and the tornado of which parameters decide between the top two
/// (results/README.md, "robust.csv and robust-summary.csv").
public struct RobustOutcome: Sendable {
  /// One policy's line of the summary.
  public struct PolicySummary: Sendable {
    public var policy: String
    /// Worlds where it has the highest value per 1000 users; a world where k policies tie
    /// counts 1/k to each, so the shares sum to 1.
    public var worldsBest: Double
    public var shareBest: Double
    /// Wilson 95% interval of the share, treating worlds as independent draws.
    public var shareLow: Double
    public var shareHigh: Double
    /// Mean over worlds of its value per 1000 users.
    public var meanValue: Double
    /// Mean over worlds of (the world's best value − its value): at least 0.
    public var expectedRegret: Double
    /// The largest regret, and the first world (from 1) where it happens (`nil` for a
    /// policy best in every world).
    public var worstRegret: Double
    public var worstWorld: Int?

    /// Every field, as computed by the layer that runs the experiment.
    public init(
      policy: String, worldsBest: Double, shareBest: Double, shareLow: Double, shareHigh: Double,
      meanValue: Double, expectedRegret: Double, worstRegret: Double, worstWorld: Int?
    ) {
      self.policy = policy
      self.worldsBest = worldsBest
      self.shareBest = shareBest
      self.shareLow = shareLow
      self.shareHigh = shareHigh
      self.meanValue = meanValue
      self.expectedRegret = expectedRegret
      self.worstRegret = worstRegret
      self.worstWorld = worstWorld
    }
  }

  /// One bar of the tornado: a parameter's Spearman rank correlation with the value gap
  /// between the top two policies, `nil` when the parameter or the gap does not vary.
  ///
  /// A categorical parameter (a list of values that are not all numbers, such as
  /// `scenario.sessions.delivery`) has no "larger": its `rho` ranks the list's order, which
  /// means nothing, so it is described by ``levels`` instead.
  public struct Influence: Sendable {
    public var parameter: String
    public var rho: Double?
    public var source: String
    /// For a categorical parameter, each level drawn (in the list's order) with the policy
    /// best in most of its worlds; `nil` for a numeric one.
    public var levels: [Level]?

    /// Every field, as computed by the layer that runs the experiment.
    public init(
      parameter: String, rho: Double?, source: String, levels: [Level]? = nil
    ) {
      self.parameter = parameter
      self.rho = rho
      self.source = source
      self.levels = levels
    }

    /// What the parameter is called in a sentence: the last part of its path (`delivery`).
    public var shortName: String {
      String(parameter.split(separator: ".").last ?? Substring(parameter))
    }
  }

  /// One level of a categorical parameter: the worlds that drew it, and the policies best in
  /// most of them (more than one on a tie).
  public struct Level: Sendable, Equatable {
    /// The level as written in the study file (`launch`).
    public var value: String
    public var worlds: Int
    /// The policies with the most worlds best at this level, in rank order.
    public var winners: [String]
    /// How many of the level's worlds each winner is best in (a world where k policies tie
    /// counts 1/k to each, as in ``PolicySummary/worldsBest``).
    public var worldsBest: Double

    /// Every field, as computed by the layer that runs the experiment.
    public init(value: String, worlds: Int, winners: [String], worldsBest: Double) {
      self.value = value
      self.worlds = worlds
      self.winners = winners
      self.worldsBest = worldsBest
    }

    /// The share of the level's worlds each winner is best in.
    public var share: Double { worlds > 0 ? worldsBest / Double(worlds) : 0 }
  }

  public var table: CSVTable
  public var summaryTable: CSVTable
  /// In rank order: share best (highest first), then expected regret (lowest first).
  public var policies: [PolicySummary]
  /// Sorted by |rho|, largest first; parameters without a rho last.
  public var tornado: [Influence]
  /// The top policy and the runner-up the tornado compares (the next in rank order whose value
  /// differs from the top one's in some world); `nil` when none differs.
  public var leader: String
  public var runnerUp: String?
  public var worlds: Int
  public var events: Int
  /// The value section's unit (`USD`).
  public var unit: String
  public var design: RobustDesign

  /// The metric every world ranks policies by.
  public static let decidingMetric = MetricID.valuePer1kUsers

  /// Every field, as computed by the layer that runs the experiment.
  public init(
    table: CSVTable, summaryTable: CSVTable, policies: [PolicySummary], tornado: [Influence],
    leader: String, runnerUp: String?, worlds: Int, events: Int, unit: String, design: RobustDesign
  ) {
    self.table = table
    self.summaryTable = summaryTable
    self.policies = policies
    self.tornado = tornado
    self.leader = leader
    self.runnerUp = runnerUp
    self.worlds = worlds
    self.events = events
    self.unit = unit
    self.design = design
  }
}

/// How a robustness study spreads its worlds over the parameters' ranges: points in the unit
/// hypercube [0, 1)^d, one per world, that each parameter maps through its quantile function
/// (Experiments draws the points, `RobustDesign+Points.swift`, and maps them,
/// `RobustParameter.draw`). Reports only says which design a study used.
public enum RobustDesign: String, Sendable, CaseIterable {
  /// Latin hypercube: each parameter's range is cut into N equal-probability strata and every
  /// stratum holds exactly one world; strata are paired across parameters by independent
  /// random permutations and each point is uniform within its stratum. Depends on the seed.
  case lhs
  /// The Sobol low-discrepancy sequence (GSL's `gsl_qrng_sobol`, its first N points, which
  /// start at (0.5, …, 0.5)): fills the cube more evenly than random points and is the same
  /// whatever the seed. At most GSL's Sobol dimension (40) parameters.
  case sobol
}
