import MessageDeferral
import Simulation

/// Paired differences said as counts for the app (the scenario's `app` section,
/// ``AppSize``): "over 30 days, for your 40,000 users and 6,000 subscribers: 18 [15, 22]
/// more lapsed renewals than storekit-auto". Per replication, the difference of the two
/// policies' counts per simulated user (the same users, so the same denominator) times the
/// app users one simulated user stands for; the 95% Student-t interval over replications.
public enum AppCounts {
  /// One outcome counted for the app.
  public struct Outcome: Sendable {
    /// The stem of its `decision.csv` columns (`lapsed_renewals`).
    public var name: String
    /// How a count of it reads: `lapsed renewals`.
    public var noun: String
    /// Whether it happens to subscribers (scaled by the app's subscribers when given).
    public var amongSubscribers: Bool
    /// Its count in one replication's tally.
    public var count: @Sendable (Tally, Scenario) -> Int
    /// Whether fewer is better.
    public var fewerIsBetter: Bool
    /// How it reads with a response model (``Scenario/responses``), when it counts otherwise.
    public var responseNoun: String? = nil
  }

  /// The outcomes, in the order they are printed and written.
  public static let outcomes: [Outcome] = [
    // With a response model a renewal lapses when the consent is declined or not agreed by the
    // deadline, in the app or outside it; without one, when the deadline is missed.
    Outcome(
      name: "lapsed_renewals", noun: "lapsed renewals (consent deadlines missed)",
      amongSubscribers: true,
      count: { tally, scenario in
        scenario.responses == nil
          ? tally.consentDeadlineMisses : tally.consentDeadlinesDue - tally.consentKept
      },
      fewerIsBetter: true,
      responseNoun: "lapsed renewals (consents declined or not agreed by the deadline)"),
    Outcome(
      name: "interrupted_onboardings", noun: "interrupted onboardings", amongSubscribers: false,
      count: { tally, _ in tally.onboardingRunsInterrupted }, fewerIsBetter: true),
    Outcome(
      name: "completed_onboardings", noun: "completed onboardings", amongSubscribers: false,
      count: { tally, _ in tally.newUsersCompleted }, fewerIsBetter: false),
    Outcome(
      name: "interrupted_checkouts", noun: "interrupted checkouts", amongSubscribers: false,
      count: { tally, scenario in Metric.interruptedVisits(tally, scenario, kind: .checkout) },
      fewerIsBetter: true),
    Outcome(
      name: "interrupted_immersive_screens", noun: "sheets over immersive screens",
      amongSubscribers: false,
      count: { tally, scenario in Metric.interruptedVisits(tally, scenario, kind: .immersive) },
      fewerIsBetter: true),
    Outcome(
      name: "unresolved_billing_issues", noun: "unresolved billing issues", amongSubscribers: true,
      count: { tally, scenario in
        scenario.responses == nil
          ? tally.pending[.billingIssue] : tally.issued[.billingIssue] - tally.billingRecovered
      }, fewerIsBetter: true),
  ]

  /// The paired difference `a − b` of `outcome` in the app's counts over its period, `nil`
  /// without an `app` section or without users.
  public static func difference(
    _ report: RunReport, _ a: Int, _ b: Int, _ outcome: Outcome
  ) -> MeanInterval? {
    let scenario = report.scenario
    guard
      let scale = scenario.appUsersPerSimulatedUser(forSubscribers: outcome.amongSubscribers)
    else { return nil }
    let values = report.result.tallies.compactMap { row -> Double? in
      guard row[a].users > 0, row[b].users > 0 else { return nil }
      let left = Double(outcome.count(row[a], scenario)) / Double(row[a].users)
      let right = Double(outcome.count(row[b], scenario)) / Double(row[b].users)
      return (left - right) * scale
    }
    return MeanInterval(values: values)
  }

  /// `over 30 days, for your 40,000 users and 6,000 subscribers`, `nil` without an `app`
  /// section.
  public static func audience(_ scenario: Scenario) -> String? {
    guard let app = scenario.app else { return nil }
    let who = [
      app.users.map { "\(whole($0)) users" }, app.subscribers.map { "\(whole($0)) subscribers" },
    ].compactMap { $0 }
    let period = scenario.appPeriod
    let days = period / 86400
    let span =
      days == days.rounded() && days >= 1
      ? "\(Int(days)) day\(days == 1 ? "" : "s")" : DurationText.format(period)
    return "over \(span), for your "
      + who.joined(separator: " and ")
  }

  /// The counts of `a` against `b` in words: first the outcomes whose paired interval is clear
  /// of zero (`18 [15, 22] more lapsed renewals`), then the others (`no clear difference in
  /// interrupted checkouts (3 [-2, 8])`); outcomes whose interval rounds to 0 [0, 0] for the
  /// app are left out. `nil` without an `app` section; "no difference in any count" when all are identical.
  public static func sentence(_ report: RunReport, _ a: Int, against b: Int) -> String? {
    guard report.scenario.app != nil else { return nil }
    func noun(_ outcome: Outcome) -> String {
      report.scenario.responses == nil ? outcome.noun : outcome.responseNoun ?? outcome.noun
    }
    var clear: [String] = []
    var unclear: [String] = []
    for outcome in outcomes {
      guard let difference = difference(report, a, b, outcome) else { continue }
      // Identical, or so close it reads 0 [0, 0] for the app: nothing to say.
      if whole(difference.low) == "0", whole(difference.high) == "0" { continue }
      let bracket = "[\(whole(difference.low)), \(whole(difference.high))]"
      if difference.low > 0 || difference.high < 0 {
        let more = difference.mean > 0
        let ends = more ? (difference.low, difference.high) : (-difference.high, -difference.low)
        clear.append(
          "\(whole(abs(difference.mean))) [\(whole(ends.0)), \(whole(ends.1))] "
            + "\(more ? "more" : "fewer") \(noun(outcome))")
      } else {
        unclear.append("\(noun(outcome)) (\(whole(difference.mean)) \(bracket))")
      }
    }
    var parts = clear
    if !unclear.isEmpty {
      parts.append("no clear difference in " + unclear.joined(separator: ", "))
    }
    return parts.isEmpty ? "no difference in any count" : parts.joined(separator: "; ")
  }

  /// A count rounded to a whole number, with thousands separated: `40,000`, `-3`.
  public static func whole(_ value: Double) -> String { HTMLReport.grouped(Int(value.rounded())) }

}
