import MessageDeferral
import Simulation

// `by-screen.csv` and `by-reason.csv`: totals over all replications, and for every figure
// that a replication gives on its own, the 95% interval over replications inside the figure's
// range (columns `..._ci95_low`, `..._ci95_high`, empty with no data): rates and shares in
// [0, 1], counts per user, times and latencies at least 0 (results/README.md, "Intervals").

extension RunReport {
  /// The interval over replications of `value(tally of that replication)`, inside `range`, as
  /// two fields.
  func intervalFields(
    policy: Int, range: ValueRange, _ value: (Tally) -> Double?
  ) -> [CSVField] {
    let interval = MeanInterval(
      values: result.tallies.compactMap { value($0[policy]) }, range: range)
    return [.number(interval?.low), .number(interval?.high)]
  }

  static func ratio(_ part: some BinaryInteger, _ whole: some BinaryInteger) -> Double? {
    whole > 0 ? Double(part) / Double(whole) : nil
  }

  /// Per policy and screen: visits and interruptions (totals), the interruption rate, visits
  /// and foreground time per user, and mean time per visit, each with its interval.
  public var byScreen: CSVTable {
    var table = CSVTable(header: [
      "policy", "screen", "kind", "visits", "interrupted", "interruption_rate",
      "interruption_rate_ci95_low", "interruption_rate_ci95_high", "visits_per_user",
      "visits_per_user_ci95_low", "visits_per_user_ci95_high", "time_s", "time_per_user_s",
      "time_per_user_s_ci95_low", "time_per_user_s_ci95_high", "time_per_visit_s",
      "time_per_visit_s_ci95_low", "time_per_visit_s_ci95_high",
    ])
    let responses = scenario.responses != nil
    if responses {
      table.header += [
        "consent_shown", "consent_accepted", MetricID.consentAcceptanceRate.name,
        MetricID.consentAcceptanceRate.name + "_ci95_low",
        MetricID.consentAcceptanceRate.name + "_ci95_high",
      ]
    }
    for (policy, name) in policyNames.enumerated() {
      let total = pooled(policy)
      for (index, screen) in scenario.screens.enumerated() {
        let visits = total.screenVisits[index]
        let seconds = Double(total.screenMilliseconds[index]) / 1000
        func perUser(_ tally: Tally) -> Double? {
          Self.ratio(tally.screenVisits[index], tally.users)
        }
        func timePerUser(_ tally: Tally) -> Double? {
          Self.ratio(tally.screenMilliseconds[index], tally.users).map { $0 / 1000 }
        }
        func timePerVisit(_ tally: Tally) -> Double? {
          Self.ratio(tally.screenMilliseconds[index], tally.screenVisits[index]).map { $0 / 1000 }
        }
        var row: [CSVField] = [
          .text(name), .text(screen.name), .text(screen.kind.rawValue), .integer(visits),
          .integer(total.screenInterrupted[index]),
          .number(Self.ratio(total.screenInterrupted[index], visits)),
        ]
        row += intervalFields(policy: policy, range: .unit) {
          Self.ratio($0.screenInterrupted[index], $0.screenVisits[index])
        }
        row += [.number(perUser(total))]
        row += intervalFields(policy: policy, range: .nonNegative, perUser)
        row += [.number(seconds), .number(timePerUser(total))]
        row += intervalFields(policy: policy, range: .nonNegative, timePerUser)
        row += [.number(timePerVisit(total))]
        row += intervalFields(policy: policy, range: .nonNegative, timePerVisit)
        if responses {
          row += [
            .integer(total.screenConsentShown[index]), .integer(total.screenConsentAccepted[index]),
            .number(
              Self.ratio(total.screenConsentAccepted[index], total.screenConsentShown[index])),
          ]
          row += intervalFields(policy: policy, range: .unit) {
            Self.ratio($0.screenConsentAccepted[index], $0.screenConsentShown[index])
          }
        }
        table.append(row)
      }
    }
    return table
  }

  /// Per policy and reason: messages issued, displayed, expired and pending (totals) with the
  /// shares of issued and their intervals, and latency quantiles of all replications pooled
  /// with the interval of the replications' own quantiles.
  public var byReason: CSVTable {
    let quantiles = [(0.5, "latency_p50_s"), (0.9, "latency_p90_s"), (0.99, "latency_p99_s")]
    var header = [
      "policy", "reason", "issued", "displayed", "expired", "pending", "latency_p50_s",
      "latency_p90_s", "latency_p99_s", "issued_per_user", "issued_per_user_ci95_low",
      "issued_per_user_ci95_high",
    ]
    for share in ["displayed_share", "expired_share", "pending_share"] {
      header += [share, share + "_ci95_low", share + "_ci95_high"]
    }
    for (_, name) in quantiles { header += [name + "_ci95_low", name + "_ci95_high"] }
    let responses = scenario.responses != nil
    if responses {
      header += ["responded", "response_rate", "response_rate_ci95_low", "response_rate_ci95_high"]
    }
    var table = CSVTable(header: header)
    for (policy, name) in policyNames.enumerated() {
      let total = pooled(policy)
      for lane in 0..<Reason.laneCount {
        var row: [CSVField] = [
          .text(name), .text(Tally.laneName(lane)), .integer(total.issued[lane]),
          .integer(total.displayed[lane]), .integer(total.expired[lane]),
          .integer(total.pending[lane]),
        ]
        row += quantiles.map { .number(total.latency[lane].quantile($0.0)) }
        row += [.number(Self.ratio(total.issued[lane], total.users))]
        row += intervalFields(policy: policy, range: .nonNegative) {
          Self.ratio($0.issued[lane], $0.users)
        }
        let counts: [@Sendable (Tally) -> Int] = [
          { $0.displayed[lane] }, { $0.expired[lane] }, { $0.pending[lane] },
        ]
        for count in counts {
          row += [.number(Self.ratio(count(total), total.issued[lane]))]
          row += intervalFields(policy: policy, range: .unit) {
            Self.ratio(count($0), $0.issued[lane])
          }
        }
        for (p, _) in quantiles {
          row += intervalFields(policy: policy, range: .nonNegative) {
            $0.latency[lane].quantile(p)
          }
        }
        if responses {
          row += [
            .integer(total.responded(lane: lane)),
            .number(Self.ratio(total.responded(lane: lane), total.displayed[lane])),
          ]
          row += intervalFields(policy: policy, range: .unit) {
            Self.ratio($0.responded(lane: lane), $0.displayed[lane])
          }
        }
        table.append(row)
      }
    }
    return table
  }
}
