import MessageDeferral
import Testing

@testable import Simulation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Fixed-time campaigns (``MessageCampaign``) against closed forms.
@Suite("Campaigns")
struct CampaignTests {
  static let z = 4.5

  /// Lapsed users whose opens are a Poisson process of rate ν (1 per hour); a win-back
  /// campaign on day 10 to a share s of them. Issued: Binomial(users, s); every message waits
  /// for the next open, Exp(ν) (memoryless): mean latency 1/ν.
  @Test func winBackOnDayTen() throws {
    let nu = 1.0 / 3600
    let share = 0.6
    let users = 2_000
    var scenario = Fixtures.latencyToNextOpen(nu: nu, window: 3600)
    scenario.messages.consent = nil
    scenario.population.subscriberShare = 0
    scenario.horizon = 12 * 86_400
    scenario.messages.campaigns = [
      MessageCampaign(
        reason: .winBackOffer, audience: .lapsed, start: 10 * 86_400, rolloutWindow: 0,
        audienceShare: share, expiry: nil)
    ]
    let tally = try Engine.run(
      CompiledScenario(scenario), policies: scenario.policies,
      options: RunOptions(users: users, replications: 1, seed: 8, jobs: 2)
    ).tallies[0][0]
    let lane = Reason.winBackOffer.laneIndex
    let issued = tally.issued[lane]
    let spread = Self.z * (Double(users) * share * (1 - share)).squareRoot()
    #expect(abs(Double(issued) - Double(users) * share) < spread, "issued \(issued)")
    #expect(tally.displayed[lane] + tally.pending[lane] == issued)
    #expect(tally.issued.reduce(0, +) == issued, "nothing but the campaign is issued")
    let mean = Double(tally.latencySumMilliseconds[lane]) / 1000 / Double(tally.displayed[lane])
    let tolerance = Self.z * (1 / nu) / Double(tally.displayed[lane]).squareRoot()
    #expect(abs(mean - 1 / nu) < tolerance, "mean latency \(mean), expected \(1 / nu)")
  }

  /// The audience is respected (subscribers get no win-back offer unless asked), and a
  /// campaign loads from a file with its defaults.
  @Test func audienceAndDefaults() throws {
    let text = ScenarioTemplates.minimal.replacingAll(
      "\"billing_issue\": {",
      with: "\"campaigns\": [{\"reason\": \"win_back_offer\", \"start\": \"10d\"}], "
        + "\"billing_issue\": {")
    let scenario = try ScenarioLoader.load(json: text, file: "campaign.json")
    #expect(
      scenario.messages.campaigns == [
        MessageCampaign(
          reason: .winBackOffer, audience: .lapsed, start: 10 * 86_400, rolloutWindow: 0,
          audienceShare: 1, expiry: nil)
      ])
    var subscribersOnly = Fixtures.latencyToNextOpen(nu: 1.0 / 3600, window: 3600)
    subscribersOnly.messages.consent = nil
    subscribersOnly.messages.campaigns = scenario.messages.campaigns
    let tally = try Engine.run(
      CompiledScenario(subscribersOnly), policies: subscribersOnly.policies,
      options: RunOptions(users: 200, replications: 1, seed: 8, jobs: 1)
    ).tallies[0][0]
    #expect(tally.issued.reduce(0, +) == 0)
  }
}

/// Billing issues at failed renewals (``BillingRenewals``) against closed forms.
@Suite("Billing at renewals")
struct BillingRenewalTests {
  static func scenario(_ billing: BillingRenewals, horizon: Double) -> Scenario {
    var scenario = Fixtures.latencyToNextOpen(nu: 1.0 / 3600, window: 3600)
    scenario.messages.consent = nil
    scenario.messages.billingRenewals = billing
    scenario.horizon = horizon
    // Billing does not depend on opens: rare ones keep the test fast.
    scenario.sessions.gap = .exponential(mean: 10 * 86_400)
    scenario.policies = [Fixtures.policy("never")]
    scenario.baseline = "never"
    return scenario
  }

  /// Monthly renewals over a year from a uniform phase: E[renewals] = H / P = 12 per
  /// subscriber; with every first retry succeeding nobody lapses, so issued has mean
  /// users · f · 12 and variance at most users · (12 f (1 − f) + f² / 4).
  @Test func issuedPerRenewal() throws {
    let users = 2_000
    let f = 0.1
    let billing = BillingRenewals(
      period: 30 * 86_400, failureProbability: f, retryTimes: [86_400], retrySuccessProbability: 1)
    let scenario = Self.scenario(billing, horizon: 360 * 86_400)
    let tally = try Engine.run(
      CompiledScenario(scenario), policies: scenario.policies,
      options: RunOptions(users: users, replications: 1, seed: 6, jobs: 2)
    ).tallies[0][0]
    let issued = Double(tally.issued[Reason.billingIssue.laneIndex])
    let mean = Double(users) * f * 12
    let spread = 4.5 * (Double(users) * (12 * f * (1 - f) + f * f / 4)).squareRoot()
    #expect(abs(issued - mean) < spread, "issued \(issued), expected \(mean) ± \(spread)")
  }

  /// Retries at 1 d and 3 d, each succeeding with s: a message expires 1 d after issue with
  /// probability s, else 3 d after (resolved at the second retry, or lapsed).
  @Test func retriesResolveOrLapse() throws {
    let s = 0.4
    let billing = BillingRenewals(
      period: 30 * 86_400, failureProbability: 0.5, retryTimes: [86_400, 3 * 86_400],
      retrySuccessProbability: s)
    let scenario = Self.scenario(billing, horizon: 200 * 86_400)
    let world = CompiledScenario(scenario)
    var simulator = UserSimulator(scenario: world, sink: TraceRecorder())
    var tally = Tally(screenCount: scenario.screens.count)
    var oneDay = 0
    var threeDays = 0
    for user in 0..<1_500 {
      simulator.sink = TraceRecorder()
      simulator.run(
        seed: 5, replication: 0, user: user, policyIndex: 0,
        policy: scenario.policies[0].configuration, tally: &tally)
      var issuedAt: [Int: Double] = [:]
      for step in simulator.sink.steps {
        switch step.what {
        case .issued:
          issuedAt[step.message] = step.time
        case .expired:
          let delay = step.time - issuedAt[step.message]!
          if abs(delay - 86_400) < 1e-6 {
            oneDay += 1
          } else if abs(delay - 3 * 86_400) < 1e-6 {
            threeDays += 1
          } else {
            Issue.record("expired \(delay) s after issue")
          }
        default: break
        }
      }
    }
    let total = Double(oneDay + threeDays)
    let observed = Double(oneDay) / total
    let tolerance = 4.5 * (s * (1 - s) / total).squareRoot()
    #expect(abs(observed - s) < tolerance, "resolved at the first retry: \(observed)")
  }
}

extension BillingRenewalTests {
  /// No retry ever succeeds (s = 0): the first failure lapses the subscription, so a user has
  /// at most one billing issue, and P(one) = 1 − (1 − f)^k over exactly k renewals.
  @Test func aLapsedSubscriptionRenewsNoMore() throws {
    let users = 3_000
    let f = 0.2
    let billing = BillingRenewals(
      period: 30 * 86_400, failureProbability: f, retryTimes: [86_400], retrySuccessProbability: 0)
    let scenario = Self.scenario(billing, horizon: 150 * 86_400)
    let world = CompiledScenario(scenario)
    var simulator = UserSimulator(scenario: world, sink: TraceRecorder())
    var tally = Tally(screenCount: scenario.screens.count)
    var withIssue = 0
    for user in 0..<users {
      simulator.sink = TraceRecorder()
      simulator.run(
        seed: 5, replication: 0, user: user, policyIndex: 0,
        policy: scenario.policies[0].configuration, tally: &tally)
      let issued = simulator.sink.steps.filter { $0.what == .issued }.count
      #expect(issued <= 1)
      if issued == 1 { withIssue += 1 }
    }
    let p = 1 - pow(1 - f, 5)
    let observed = Double(withIssue) / Double(users)
    let tolerance = 4.5 * (p * (1 - p) / Double(users)).squareRoot()
    #expect(abs(observed - p) < tolerance, "users with an issue \(observed), expected \(p)")
  }
}
