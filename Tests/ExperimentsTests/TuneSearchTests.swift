import MessageDeferral
import Reports
import Simulation
import Testing

@testable import Experiments

/// The search of `tune` on the default scenario at small sizes: candidates from the knobs,
/// successive halving, the selection stage among finalists and compared presets.
@Suite("Tune search")
struct TuneSearchTests {
  static func search(seed: UInt64 = 11) throws -> TuneSearch {
    let scenario = try ScenarioLoader.load(
      json: ScenarioLoader.embeddedDefaultJSON, file: "indie-subscription.json")
    return TuneSearch(
      scenario: scenario, base: [.init(key: "preset", value: .string("deadline-aware-value"))],
      knobs: [
        TuneKnob(name: "sheets_per_break", domain: .integer(low: 1, high: 3)),
        TuneKnob(name: "urgent_consent.return_factor", domain: .number(low: 1, high: 6)),
        TuneKnob(
          name: "ceilings.price_increase_consent", domain: .duration(low: 3600, high: 86400)),
      ],
      objective: .valuePer1kUsers, candidates: 6, users: 150, replications: 2, finalists: 2,
      selection: IndifferenceZoneSelection(
        alpha: 0.05, delta: 20, initialReplications: 3, maximumReplications: 6),
      selectionUsers: 200,
      compare: [PolicyCatalog.preset(named: "deadline-aware-value")!].map {
        NamedPolicy(name: $0.name, configuration: $0.configuration)
      },
      seed: seed)
  }

  /// Each knob's value lands in the candidate's configuration, and the design spreads them.
  @Test func candidatesCarryTheirKnobs() throws {
    let candidates = try Self.search().candidatePolicies()
    #expect(candidates.map(\.policy.name) == (1...6).map { "tune-\($0)" })
    for candidate in candidates {
      #expect(candidate.policy.configuration.sheetsPerBreak.map(String.init) == candidate.knobs[0])
      let factor = try #require(candidate.policy.configuration.urgentConsent?.returnFactor)
      #expect(abs(factor - Double(candidate.knobs[1])!) < 1e-9 * max(1, factor))
      #expect((1...6).contains(factor))
    }
    // A Latin hypercube of 6 points over 3 sheet counts: each count twice.
    let counts = Dictionary(grouping: candidates.map { $0.knobs[0] }, by: { $0 }).mapValues(\.count)
    #expect(counts == ["1": 2, "2": 2, "3": 2])
  }

  /// Rounds halve the candidates and double the users until the finalists are left; the
  /// selection stage runs the finalists and the compared preset; the same seed gives the
  /// same tune.
  @Test func halvingThenSelectionIsDeterministic() throws {
    let search = try Self.search()
    let outcome = try search.run()
    let rounds = Dictionary(grouping: outcome.evaluations.compactMap(\.round), by: { $0 })
      .mapValues(\.count)
    #expect(rounds == [0: 6, 1: 3, 2: 2])
    let users = outcome.evaluations.filter { $0.round != nil }.map { ($0.round!, $0.users) }
    #expect(users.allSatisfy { $0.1 == 150 << $0.0 })
    #expect(outcome.contenders.count == 3)
    #expect(outcome.contenders.last?.name == "deadline-aware-value")
    #expect(outcome.contenders.contains { $0.name == outcome.best.name })
    #expect(outcome.selection.replications.allSatisfy { (3...6).contains($0) })
    // Every life counted: 6 × 300 + 3 × 600 + 2 × 1200 in the rounds, then the selection's.
    let selectionLives = outcome.selection.replications.reduce(0, +) * 200
    #expect(outcome.lives == 6 * 300 + 3 * 600 + 2 * 1200 + selectionLives)
    let again = try search.run()
    #expect(again.evaluations == outcome.evaluations)
    #expect(again.best.name == outcome.best.name)
  }

  /// A neighbour changes one knob: another choice, the next integer, a tenth of a continuous
  /// range either way, never past the range's ends.
  @Test func neighboursChangeOneKnobEach() throws {
    var search = try Self.search()
    search.knobs.append(
      TuneKnob(name: "gate.home", domain: .choices([.string("open"), .string("closed")])))
    let middle = search.neighbours(of: [0.5, 0.5, 0.05, 0.2])
    let expected: [[Double]] = [
      [0.5 / 3, 0.5, 0.05, 0.2], [2.5 / 3, 0.5, 0.05, 0.2],
      [0.5, 0.4, 0.05, 0.2], [0.5, 0.6, 0.05, 0.2],
      [0.5, 0.5, 0, 0.2], [0.5, 0.5, 0.15, 0.2],
      [0.5, 0.5, 0.05, 0.75],
    ]
    #expect(middle.count == expected.count)
    for (found, wanted) in zip(middle, expected) {
      #expect(zip(found, wanted).allSatisfy { abs($0 - $1) < 1e-12 }, "\(found) vs \(wanted)")
    }
    // At the ends: one integer neighbour, no step below 0, the top kept below 1.
    let edge = search.neighbours(of: [0, 0, 0.99, 0.9])
    #expect(edge.count == 5)
    #expect(edge.allSatisfy { point in point.allSatisfy { (0..<1).contains($0) } })
    #expect(edge.map { zip($0, [0, 0, 0.99, 0.9]).filter { $0 != $1 }.count } == [1, 1, 1, 1, 1])
  }

  /// When the incumbent stays and a knob is continuous, the steps go on from it with the
  /// continuous step halved (a compass search), down to an eighth of the first; a move keeps
  /// the step; they end once the incumbent stays at the finest step.
  @Test func aStayHalvesTheContinuousStep() throws {
    let (search, _, local, steps) = try Self.localRun(steps: 12)
    #expect(steps == Array(0..<steps.count))
    // The ranges of the continuous knobs (return_factor 1 to 6, the ceiling 1 h to 24 h).
    let ranges: [Int: Double] = [1: 5, 2: 86400 - 3600]
    var share = TuneSearch.localStepShare
    var shares: [Double] = []
    var stayed = false
    for step in steps {
      let members = local.filter { $0.localStep == step }
      let incumbent = members[0]
      shares.append(share)
      // Each neighbour that changes one continuous knob moves it at most `share` of its range,
      // and some neighbour moves one by exactly that (the incumbents here are inside the range).
      var exact = false
      for member in members.dropFirst() {
        let changed = (0..<3).filter { member.knobValues[$0] != incumbent.knobValues[$0] }
        #expect(changed.count == 1, "\(member.knobValues) vs \(incumbent.knobValues)")
        guard let knob = changed.first, let range = ranges[knob] else { continue }
        let delta = abs(
          Self.number(member.knobValues[knob]) - Self.number(incumbent.knobValues[knob]))
        let tolerance = knob == 2 ? 1.0 : 1e-9
        #expect(delta <= share * range + tolerance, "step \(step): \(delta) > \(share * range)")
        if abs(delta - share * range) <= tolerance { exact = true }
      }
      #expect(exact, "step \(step): no neighbour \(share) of a range away")
      stayed = Self.best(of: members).policy == incumbent.policy
      if stayed { share /= 2 }
    }
    // The rule was exercised: a stay halved the step, and the steps ended either at the budget
    // or after a stay at the finest step.
    #expect(shares.contains { $0 < TuneSearch.localStepShare })
    #expect(shares.allSatisfy { $0 >= TuneSearch.smallestStepShare })
    if steps.count < search.localSteps {
      #expect(stayed && shares.last == TuneSearch.smallestStepShare)
    }
  }

  /// The test search with `steps` local steps, run: the search, its outcome, the local steps'
  /// evaluations and the step numbers seen.
  static func localRun(
    steps: Int
  ) throws -> (TuneSearch, TuneSearch.Outcome, [TuneSearch.Evaluation], [Int]) {
    var search = try Self.search()
    search.localSteps = steps
    let outcome = try search.run()
    let local = outcome.evaluations.filter { $0.localStep != nil }
    return (search, outcome, local, Set(local.compactMap(\.localStep)).sorted())
  }

  /// The step's best member as the search ranks it: constraint-keeping first, then the mean;
  /// ties to the earlier (the incumbent first).
  static func best(of members: [TuneSearch.Evaluation]) -> TuneSearch.Evaluation {
    var best = members[0]
    for member in members.dropFirst()
    where (member.feasible ? 1 : 0, member.mean) > (best.feasible ? 1 : 0, best.mean) {
      best = member
    }
    return best
  }

  /// A knob value as the tune writes it: a number, or a duration (`"90m"`, `"3600s"`).
  static func number(_ text: String) -> Double {
    Double(text) ?? (try? DurationText.seconds(in: text)) ?? .nan
  }

  /// Local steps start from the best of the last round, evaluate it beside its neighbours
  /// on that round's users, move to the best, and hand the last incumbent to the selection
  /// first; every life is counted; the same seed gives the same tune.
  @Test func localStepsHandTheBestNeighbourToTheSelection() throws {
    let (search, outcome, local, steps) = try Self.localRun(steps: 3)
    #expect(!steps.isEmpty && steps.count <= 3 && steps == Array(0..<steps.count))
    #expect(local.allSatisfy { $0.users == 600 && $0.replications == 2 })
    #expect(
      local.allSatisfy { $0.stage == "local \($0.localStep! + 1)" && $0.round == 3 + $0.localStep! }
    )
    // Step 1 starts from the last round's best.
    let lastRound = outcome.evaluations.filter { $0.round == 2 && $0.localStep == nil }
    let leader = lastRound.max { ($0.feasible ? 1 : 0, $0.mean) < ($1.feasible ? 1 : 0, $1.mean) }
    #expect(local.first?.policy == leader?.policy)
    // Each step's first policy is the previous step's best; the last step's best is the
    // first contender.
    var incumbent = local.first!.policy
    for step in steps {
      let members = local.filter { $0.localStep == step }
      #expect(members.first?.policy == incumbent)
      #expect(Set(members.map(\.knobValues)).count == members.count)
      incumbent = Self.best(of: members).policy
    }
    #expect(outcome.contenders.first?.name == incumbent)
    #expect(outcome.contenders.count == 3)
    // Neighbours (each step's members after its incumbent) are named on from the first
    // round's six.
    #expect(
      steps.allSatisfy { step in
        local.filter { $0.localStep == step }.dropFirst().allSatisfy {
          Int($0.policy.dropFirst(5))! > 6
        }
      })
    let selectionLives = outcome.selection.replications.reduce(0, +) * 200
    #expect(outcome.lives == 6 * 300 + 3 * 600 + 2 * 1200 + local.count * 1200 + selectionLives)
    let again = try search.run()
    #expect(again.evaluations == outcome.evaluations)
  }
}
