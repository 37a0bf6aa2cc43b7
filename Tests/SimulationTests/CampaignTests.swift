import MessageDeferral
import Testing

@testable import Simulation

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
    let users = 4_000
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
