import Simulation

// `by-segment.csv`: the headline metrics split by who the user is (``UserSegment``).

extension RunReport {
  /// A headline metric of one segment in one replication (`nil`: no data).
  struct SegmentMetric: Sendable {
    var name: String
    /// What the metric can take: its interval stays inside.
    var range: ValueRange = .nonNegative
    var value: @Sendable (SegmentTally) -> Double?

    init(
      name: String, range: ValueRange = .nonNegative,
      _ value: @escaping @Sendable (SegmentTally) -> Double?
    ) {
      self.name = name
      self.range = range
      self.value = value
    }

    /// The segment's share of metric `id`, under the metric's name.
    init(
      _ id: MetricID, range: ValueRange = .nonNegative,
      _ value: @escaping @Sendable (SegmentTally) -> Double?
    ) {
      self.init(name: id.name, range: range, value)
    }
  }

  static let segmentMetrics: [SegmentMetric] = [
    SegmentMetric(name: "users") { Double($0.users) },
    SegmentMetric(.onboardingInterruptionRate, range: .unit) {
      ratio($0.onboardingRunsInterrupted, $0.onboardingRunsStarted)
    },
    SegmentMetric(.consentLatencyP50) { $0.consentLatency.quantile(0.5) },
    SegmentMetric(.consentLatencyP99) { $0.consentLatency.quantile(0.99) },
    SegmentMetric(.consentDeadlineMissRate, range: .unit) {
      ratio($0.consentDeadlineMisses, $0.consentDeadlinesDue)
    },
    SegmentMetric(.fallbackFiredPer1kUsers) {
      $0.users > 0 ? Double($0.fallbackFired) * 1000 / Double($0.users) : nil
    },
    SegmentMetric(.messagesPendingAtEnd) { Double($0.pending) },
  ]

  /// The segment metrics of a scenario with a response model (``Scenario/responses``).
  static let segmentResponseMetrics: [SegmentMetric] = [
    SegmentMetric(.consentAcceptanceRate, range: .unit) {
      ratio($0.consentAccepted, $0.consentShown)
    },
    SegmentMetric(.renewalsKeptRate, range: .unit) {
      ratio($0.consentKept, $0.consentDeadlinesDue)
    },
  ]

  /// Per policy, segment and headline metric: the mean over replications with data and its
  /// 95% interval inside the metric's range (the layout of `summary.csv`, with a `segment`
  /// column).
  public var bySegment: CSVTable {
    var table = CSVTable(header: [
      "policy", "segment", "metric", "mean", "ci95_low", "ci95_high", "replications",
    ])
    for (policy, name) in policyNames.enumerated() {
      for segment in UserSegment.allCases {
        for metric in Self.segmentMetrics
          + (scenario.responses == nil ? [] : Self.segmentResponseMetrics)
        {
          let values = result.tallies.compactMap {
            metric.value($0[policy].segments[segment.rawValue])
          }
          let interval = MeanInterval(values: values, range: metric.range)
          table.append([
            .text(name), .text(segment.name), .text(metric.name), .number(interval?.mean),
            .number(interval?.low), .number(interval?.high), .integer(interval?.count ?? 0),
          ])
        }
      }
    }
    return table
  }
}
