import Simulation

/// The result of a sweep: `sweep.csv` (one row per point, policy and metric, with intervals)
/// and `pareto.csv` (the points no other beats on both chosen metrics).
public struct SweepOutcome: Sendable {
  public var sweep: CSVTable
  public var pareto: CSVTable
  /// One line per point on the front, for the terminal.
  public var frontLines: [String]
  public var points: Int
  public var events: Int
  /// Every point with both an onboarding interruption rate and a ``tradeOffMetric`` (positive
  /// for a duration, which is drawn on a log axis),
  /// for the report's trade-off plot (grid points in the ink colour, compared presets in
  /// their own, ``ChartPalette/presets``).
  public var tradeOff: [TradeOffPoint] = []
  /// The y metric of the trade-off plot: the sweep's own y when it is a duration or a rate,
  /// else consent p99 latency.
  public var tradeOffMetric = MetricID.consentLatencyP99
  /// The grid's parameters as written, and per parameter its values as text in grid order.
  public var parameterNames: [String] = []
  public var parameterValues: [[String]] = []
  /// Every point and policy with its two Pareto metrics, for the report's charts against each
  /// grid axis.
  public var rows: [SweepRow] = []
  /// What the sweep ran on (from its first scenario point), for `manifest.json` and the
  /// report's provenance block.
  public var scenarioName = ""
  public var seed: UInt64 = 0
  public var users = 0
  public var replications = 0
  /// The policies of the first scenario point: the compared presets, then the policy points.
  public var policies: [String] = []

  /// Every field, as computed by the layer that runs the experiment.
  public init(
    sweep: CSVTable, pareto: CSVTable, frontLines: [String], points: Int, events: Int,
    tradeOff: [TradeOffPoint] = [], tradeOffMetric: MetricID = .consentLatencyP99,
    parameterNames: [String] = [], parameterValues: [[String]] = [], rows: [SweepRow] = [],
    scenarioName: String = "", seed: UInt64 = 0, users: Int = 0, replications: Int = 0,
    policies: [String] = []
  ) {
    self.sweep = sweep
    self.pareto = pareto
    self.frontLines = frontLines
    self.points = points
    self.events = events
    self.tradeOff = tradeOff
    self.tradeOffMetric = tradeOffMetric
    self.parameterNames = parameterNames
    self.parameterValues = parameterValues
    self.rows = rows
    self.scenarioName = scenarioName
    self.seed = seed
    self.users = users
    self.replications = replications
    self.policies = policies
  }
}

extension SweepOutcome {
  /// Each compared preset's style on the sweep's page: one colour per preset
  /// (``ChartPalette/styles(for:)`` over the presets the sweep compares).
  public var presetStyles: [String: SeriesStyle] {
    ChartPalette.styles(for: rows.filter(\.isPreset).map(\.policy))
  }

  /// Whether a parameter varies the world (`scenario.…`) rather than the policy: its points
  /// are worlds, not choices, and no Pareto front is drawn over them.
  public var variesWorld: Bool { parameterNames.contains { $0.hasPrefix("scenario.") } }
}

/// One policy at one point of a sweep: its parameter values and its two Pareto metrics.
public struct SweepRow: Sendable, Equatable {
  /// `p1`... for a policy point (`s1`... for a scenario point of a sweep without policy
  /// parameters); a compared preset's scenario point for a preset.
  public var point: String
  public var policy: String
  /// Whether the policy is a compared preset (not the tuned policy).
  public var isPreset: Bool
  /// Per parameter, its value as text (empty for a policy parameter on a preset).
  public var labels: [String]
  /// The Pareto x and y metrics, `nil` without data.
  public var x: MeanInterval?
  public var y: MeanInterval?

  public init(
    point: String, policy: String, isPreset: Bool, labels: [String], x: MeanInterval?,
    y: MeanInterval?
  ) {
    self.point = point
    self.policy = policy
    self.isPreset = isPreset
    self.labels = labels
    self.x = x
    self.y = y
  }
}
