import Experiments
import Foundation
import MessageDeferral
import Reports
import Simulation
import Testing

/// Random search, the tuner's baseline (`tune --method random`): what a budget buys, where
/// the candidates fall, and that the pick is the best mean of evaluations on the same users.
@Suite("Tune random search")
struct TuneRandomSearchTests {
  /// The tune search's small problem, with `compare` presets and tiny evaluations.
  static func search(
    seed: UInt64 = 11, users: Int = 40, replications: Int = 2
  ) throws
    -> TuneSearch
  {
    var search = try TuneSearchTests.search(seed: seed)
    search.users = users
    search.replications = replications
    return search
  }

  /// The most candidates whose lives, with the compared presets', fit in the budget: every
  /// policy's life counted, as the tuner counts its own.
  @Test(arguments: [0, 79, 80, 159, 160, 161, 239, 240, 1000, 12_345])
  func aBudgetBuysWholeCandidatesBesideThePresets(budget: Int) throws {
    let search = try Self.search()  // 40 users × 2, one compared preset: 80 lives a policy
    let count = search.randomCandidates(budget: budget, users: 40, replications: 2)
    #expect(count == max(0, budget / 80 - 1))
    if count > 0 {
      #expect((count + 1) * 80 <= budget)
      #expect((count + 2) * 80 > budget)
    }
  }

  /// The outcome spends what the budget bought, on the first round's users, the random
  /// candidates first and then the compared preset; the pick is the best mean.
  @Test func thePickIsTheBestMeanOfOneEvaluationEach() throws {
    let search = try Self.search()
    let outcome = try search.randomSearch(budget: 1000)
    #expect(outcome.candidates == 11)
    #expect(
      outcome.policies.map(\.name) == (1...11).map { "random-\($0)" } + ["deadline-aware-value"])
    #expect(outcome.lives == 12 * 80)
    #expect(outcome.lives <= 1000)
    #expect(outcome.evaluations.allSatisfy { $0.users == 40 && $0.replications == 2 })
    #expect(outcome.evaluations.allSatisfy { $0.round == 0 && $0.feasible })
    let means = outcome.evaluations.map(\.mean)
    let best = try #require(means.max())
    #expect(outcome.evaluations[outcome.selected].mean == best)
    #expect(outcome.selected == means.firstIndex(of: best))
    #expect(outcome.best.name == outcome.policies[outcome.selected].name)
    #expect(outcome.policyKnobs.last == [])
    #expect(outcome.policyDefinitions.last! == nil)
    // The same file and seed, the same search.
    let again = try search.randomSearch(budget: 1000)
    #expect(again.evaluations == outcome.evaluations)
    #expect(again.selected == outcome.selected)
  }

  /// A candidate's mean is its own: the same as when it runs alone on the same users (common
  /// random numbers; the others sharing its run change nothing).
  @Test func aCandidatesMeanIsItsOwnRunsMean() throws {
    let search = try Self.search()
    let outcome = try search.randomSearch(budget: 6 * 80)
    for index in [0, outcome.selected, outcome.policies.count - 1] {
      var world = search.scenario
      world.policies = [outcome.policies[index]]
      world.baseline = world.policies[0].name
      world.users = 40
      world.replications = 2
      world.seed = search.seed
      let result = try Experiment.run(
        RunPlan(scenario: world, jobs: 1), on: CompiledScenario(world))
      let values = result.tallies.map { MetricID.valuePer1kUsers.metric.value($0[0], world) ?? 0 }
      let mean = values.reduce(0, +) / Double(values.count)
      #expect(abs(mean - outcome.evaluations[index].mean) <= 1e-9 * max(1, abs(mean)))
    }
  }

  /// The candidates' knobs are drawn independently and uniformly over each range: every value
  /// in range, each integer value and each choice about equally often, a number knob's
  /// values within the Kolmogorov-Smirnov bound of the uniform at the 0.1% level.
  @Test func candidatesAreUniformOverTheKnobs() throws {
    var search = try Self.search(users: 1, replications: 2)
    search.knobs.append(
      TuneKnob(name: "gate.home", domain: .choices([.string("open"), .string("closed")])))
    let n = 600
    let outcome = try search.randomSearch(budget: (n + 1) * 2)
    #expect(outcome.candidates == n)
    let knobs = outcome.policyKnobs.prefix(n)
    // sheets_per_break: integer 1...3, each with probability 1/3; ±4.5 standard deviations.
    let sd3 = (Double(n) * (1.0 / 3) * (2.0 / 3)).squareRoot()
    for value in ["1", "2", "3"] {
      let count = Double(knobs.filter { $0[0] == value }.count)
      #expect(abs(count - Double(n) / 3) <= 4.5 * sd3, "sheets_per_break \(value): \(count)")
    }
    #expect(knobs.allSatisfy { ["1", "2", "3"].contains($0[0]) })
    // return_factor: number in [1, 6].
    let factors = knobs.map { Double($0[1])! }.sorted()
    #expect(factors.allSatisfy { (1...6).contains($0) })
    let ks = factors.enumerated().map { index, x in
      let f = (x - 1) / 5
      return max(abs(Double(index + 1) / Double(n) - f), abs(Double(index) / Double(n) - f))
    }.max()!
    #expect(ks < 1.95 / Double(n).squareRoot(), "KS distance \(ks)")
    // The ceiling: whole seconds within [1h, 24h].
    let ceilings = try knobs.map { try DurationText.seconds(in: $0[2]) }
    // (The text reads back to within rounding of the whole second it was made from.)
    #expect(
      ceilings.allSatisfy { (3599.999...86400.001).contains($0) && abs($0 - $0.rounded()) < 1e-6 })
    // gate.home: each choice with probability 1/2.
    let open = Double(knobs.filter { $0[3] == "open" }.count)
    #expect(abs(open - Double(n) / 2) <= 4.5 * (Double(n) / 4).squareRoot())
    // Another seed, other candidates.
    var other = search
    other.seed = 12
    #expect(try other.randomSearch(budget: 2 * 4 + 2).policyKnobs.first != knobs.first)
  }

  /// Constraint-keeping candidates come first: a bound only the presets keep picks a preset.
  @Test func aConstraintKeepingPolicyIsPickedFirst() throws {
    var search = try Self.search()
    // No sheet over onboarding: the random candidates (deadline-aware-value's knobs) and the
    // preset alike keep it or not; the pick keeps it whenever any policy does.
    search.constraints = [TuneConstraint(metric: .onboardingInterruptionRate, bound: 0)]
    let outcome = try search.randomSearch(budget: 8 * 80)
    let feasible = outcome.evaluations.filter(\.feasible)
    if !feasible.isEmpty {
      #expect(outcome.evaluations[outcome.selected].feasible)
      #expect(outcome.evaluations[outcome.selected].mean == feasible.map(\.mean).max())
    }
  }
}
