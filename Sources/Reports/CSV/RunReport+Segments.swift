import Simulation

// `by-segment.csv`: the headline metrics split by who the user is (``UserSegment``).

extension RunReport {
  /// A headline metric of one segment in one replication (`nil`: no data).
  struct SegmentMetric: Sendable {
    var name: String
    /// What the metric can take: its interval stays inside.
    var range: ValueRange = .nonNegative
    var value: @Sendable (SegmentTally) -> Double?
  }

  static let segmentMetrics: [SegmentMetric] = [
    SegmentMetric(name: "users") { Double($0.users) },
    SegmentMetric(name: "onboarding_interruption_rate", range: .unit) {
      ratio($0.onboardingRunsInterrupted, $0.onboardingRunsStarted)
    },
    SegmentMetric(name: "consent_latency_p50_s") { $0.consentLatency.quantile(0.5) },
    SegmentMetric(name: "consent_latency_p99_s") { $0.consentLatency.quantile(0.99) },
    SegmentMetric(name: "consent_deadline_miss_rate", range: .unit) {
      ratio($0.consentDeadlineMisses, $0.consentDeadlinesDue)
    },
    SegmentMetric(name: "fallback_fired_per_1k_users") {
      $0.users > 0 ? Double($0.fallbackFired) * 1000 / Double($0.users) : nil
    },
    SegmentMetric(name: "messages_pending_at_end") { Double($0.pending) },
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
        for metric in Self.segmentMetrics {
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
