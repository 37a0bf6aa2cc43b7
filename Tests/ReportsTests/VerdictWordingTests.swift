import MessageDeferral
import Simulation
import Testing

@testable import Reports

/// #34's "one consistent verdict": the runner-up named by the same rule as the
/// recommendation, the bootstrap share said as how often a policy leads (not as a test), an
/// identical value said as no difference, and a recommendation off the front explained.
@Suite("Verdict wording")
struct VerdictWordingTests {
  typealias World = ValueVerdictWorld
  static let value = ValueModel(unit: "USD", onboardingCompleted: 6)

  /// `a` leads; `b` is close with noisy differences (40, −20, −60 USD per 1000 users as in
  /// the oracle); `c` is clearly lower on every replication.
  static func report() -> RunReport {
    World.report(
      ["a", "b", "c"],
      [
        [
          World.tally(completed: 40, player: 0), World.tally(completed: 43, player: 0),
          World.tally(completed: 41, player: 0),
        ],
        [
          World.tally(completed: 50, player: 0), World.tally(completed: 38, player: 0),
          World.tally(completed: 31, player: 0),
        ],
        [
          World.tally(completed: 30, player: 0), World.tally(completed: 33, player: 0),
          World.tally(completed: 31, player: 0),
        ],
      ], value: value)
  }

  @Test func theRunnerUpAndTheBootstrapShareCannotBeReadAsContradicting() throws {
    let sentences = Decision(Self.report()).sentences
    let text = sentences.joined(separator: "\n")
    #expect(sentences[0].contains("cannot separate it from b"), "\(text)")
    #expect(text.contains("Runner-up (the next-highest mean): b,"), "\(text)")
    #expect(text.contains(": not separated."), "\(text)")
    #expect(text.contains("How often each leads: a has the highest mean in"), "\(text)")
    #expect(text.contains("not that the lead is real"), "\(text)")
    #expect(!text.contains("Probability a is best"), "\(text)")
    #expect(text.contains("To ship a: this project's MessageDeferralStoreKit library"), "\(text)")
    // The tuned policy is the next step (#33 item 6): the recommendation names the command.
    #expect(text.contains("deferral-sim tune searches the knobs"), "\(text)")
  }

  @Test func identicalPoliciesReadAsNoDifference() throws {
    let same = World.tally(completed: 40, player: 0)
    let report = World.report(
      ["a", "b"], [[same, same, same], [same, same, same]], value: Self.value)
    let text = Decision(report).sentences.joined(separator: "\n")
    #expect(text.contains("identical value in every replication (no difference)"), "\(text)")
  }

  @Test func aRecommendationOffTheFrontIsExplainedAndOneOnItIsNot() throws {
    // Without onboarding runs there is no front: nothing to explain.
    #expect(Decision.offFrontSentence(Self.report(), decision: Decision(Self.report())) == nil)
    // On the default scenario at a small size deadline-aware-value is on the front: no line.
    var scenario = ScenarioLoader.embeddedDefault()
    scenario.users = 300
    scenario.replications = 2
    let result = try Engine.run(
      CompiledScenario(scenario), policies: scenario.policies,
      options: RunOptions(users: 300, replications: 2, seed: 5, jobs: 2))
    let run = RunReport(scenario: scenario, result: result, baseline: "storekit-auto")
    let best = try #require(Decision(run).rows.first { $0.rank == 1 }?.policy)
    let index = try #require(run.result.policies.firstIndex { $0.name == best })
    let onFront = Decision.frontIndices(run).contains(index)
    let sentence = Decision.offFrontSentence(run, decision: Decision(run))
    #expect(onFront == (sentence == nil), "\(best): \(sentence ?? "none")")
    if let sentence {
      #expect(sentence.hasPrefix("\(best) is recommended on value but is not on the front"))
    }
  }
}
