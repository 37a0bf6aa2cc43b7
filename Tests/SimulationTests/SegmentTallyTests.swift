import MessageDeferral
import Testing

@testable import Simulation

/// The per-segment figures (`by-segment.csv`) split the totals exactly, and each segment's
/// share of users is the population's closed form.
@Suite("Segments")
struct SegmentTallyTests {
  @Test func segmentsSplitTheTotalsAndMatchThePopulation() throws {
    var scenario = ScenarioLoader.embeddedDefault()
    scenario.horizon = 10 * 86_400
    scenario.population.installWindow = 0...(8 * 86_400)
    scenario.messages.consent?.start = 86_400
    let users = 3_000
    let result = try Engine.run(
      CompiledScenario(scenario), policies: scenario.policies,
      options: RunOptions(users: users, replications: 1, seed: 4, jobs: 2))
    for tally in result.tallies[0] {
      let segments = tally.segments
      #expect(segments.map(\.users).reduce(0, +) == tally.users)
      #expect(segments.map(\.onboardingRunsStarted).reduce(0, +) == tally.onboardingRunsStarted)
      #expect(
        segments.map(\.onboardingRunsInterrupted).reduce(0, +) == tally.onboardingRunsInterrupted)
      #expect(segments.map(\.consentLatency.count).reduce(0, +) == tally.latency[0].count)
      #expect(segments.map(\.consentDeadlinesDue).reduce(0, +) == tally.consentDeadlinesDue)
      #expect(segments.map(\.consentDeadlineMisses).reduce(0, +) == tally.consentDeadlineMisses)
      #expect(segments.map(\.fallbackFired).reduce(0, +) == tally.fallbackFired)
      #expect(segments.map(\.pending).reduce(0, +) == tally.pending.reduce(0, +))
      // Existing users never onboard.
      #expect(segments[UserSegment.existingSubscriber.rawValue].onboardingRunsStarted == 0)
      #expect(segments[UserSegment.lapsed.rawValue].onboardingRunsStarted == 0)
      var merged = Tally(screenCount: scenario.screens.count)
      merged.merge(tally)
      merged.merge(tally)
      #expect(merged.segments[0].users == 2 * segments[0].users)
    }
    let population = scenario.population
    let newShare = population.newUserShare
    let expected = [
      newShare * (1 - population.returningSubscriberShare),
      newShare * population.returningSubscriberShare,
      (1 - newShare) * population.subscriberShare,
      (1 - newShare) * (1 - population.subscriberShare),
    ]
    for segment in UserSegment.allCases {
      let p = expected[segment.rawValue]
      let observed = Double(result.tallies[0][0].segments[segment.rawValue].users) / Double(users)
      let tolerance = 4.5 * (p * (1 - p) / Double(users)).squareRoot()
      #expect(abs(observed - p) < tolerance, "\(segment.name): \(observed), expected \(p)")
    }
  }
}
