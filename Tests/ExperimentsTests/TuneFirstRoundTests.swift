import MessageDeferral
import Reports
import Simulation
import Testing

@testable import Experiments

/// The first round of a tune (``TuneSearch/FirstRound``): every distinct setting of a small
/// discrete space, in an order drawn from the seed, and the best `candidates` of it handed on.
@Suite("Tune first round")
struct TuneFirstRoundTests {
  static let gate = TuneKnob(
    name: "gate.home", domain: .choices([.string("open"), .string("closed"), .string("unchanged")]))
  static let sheets = TuneKnob(name: "sheets_per_break", domain: .integer(low: 1, high: 3))

  static func search(
    knobs: [TuneKnob] = [gate, sheets], candidates: Int = 4, seed: UInt64 = 5
  ) throws -> TuneSearch {
    let scenario = try ScenarioLoader.load(
      json: ScenarioLoader.embeddedDefaultJSON, file: "indie-subscription.json")
    var search = TuneSearch(
      scenario: scenario, base: [.init(key: "preset", value: .string("screen-gate"))],
      knobs: knobs, objective: .valuePer1kUsers, candidates: candidates, users: 120,
      replications: 2, finalists: 2,
      selection: IndifferenceZoneSelection(
        alpha: 0.05, delta: 20, initialReplications: 3, maximumReplications: 5),
      selectionUsers: 150, seed: seed)
    search.firstRound = .everySetting
    return search
  }

  /// Discrete knobs within the limit: every setting once, in an order drawn from the seed
  /// (the same seed, the same order; another, another), whatever `candidates`; `latin_hypercube`,
  /// or (in code) a continuous knob or a space past the limit: the Latin hypercube's `candidates`.
  @Test func everySettingOnceWhenTheSpaceIsSmallAndDiscrete() throws {
    let search = try Self.search()
    #expect(search.screensEverySetting)
    let knobs = try search.candidatePolicies().map(\.knobs)
    var grid: [[String]] = []
    for gate in ["open", "closed", "unchanged"] {
      for sheets in ["1", "2", "3"] { grid.append([gate, sheets]) }
    }
    #expect(knobs.count == 9 && Set(knobs) == Set(grid))
    #expect(knobs != grid, "the grid's own order")
    #expect(try search.candidatePolicies().map(\.knobs) == knobs)
    #expect(try Self.search(seed: 6).candidatePolicies().map(\.knobs) != knobs)
    #expect(search.firstRoundSize == 9)
    // Each policy carries its knobs.
    for candidate in try search.candidatePolicies() {
      #expect(candidate.policy.configuration.sheetsPerBreak.map(String.init) == candidate.knobs[1])
    }

    var hypercube = search
    hypercube.firstRound = .latinHypercube
    #expect(!hypercube.screensEverySetting)
    #expect(try hypercube.candidatePolicies().count == 4)

    let factor = TuneKnob(name: "urgent_consent.return_factor", domain: .number(low: 1, high: 6))
    let continuous = try Self.search(knobs: [Self.gate, factor])
    #expect(continuous.firstRound == .everySetting && !continuous.screensEverySetting)
    #expect(try continuous.candidatePolicies().count == 4)

    // 3 × 170 = 510 settings: within the limit; 3 × 171 = 513: one past it.
    func sheets(_ high: Int) -> TuneKnob {
      TuneKnob(name: "sheets_per_break", domain: .integer(low: 1, high: high))
    }
    #expect(TuneSearch.settingsCount(of: [Self.gate, sheets(170)]) == 510)
    #expect(TuneSearch.settingsCount(of: [Self.gate, sheets(171)]) == nil)
    #expect(TuneSearch.settingsCount(of: [Self.gate, factor]) == nil)
    let wide = try Self.search(knobs: [Self.gate, sheets(171)])
    #expect(try wide.candidatePolicies().count == 4)
  }

  /// A choice listed twice is one setting: the first round holds it once.
  @Test func aRepeatedChoiceIsOneSetting() throws {
    let twice = TuneKnob(
      name: "gate.home", domain: .choices([.string("open"), .string("closed"), .string("open")]))
    let search = try Self.search(knobs: [twice])
    #expect(Set(try search.candidatePolicies().map(\.knobs)) == [["open"], ["closed"]])
    #expect(search.firstRoundSize == 2)
  }

  /// While more than `candidates` are left (after a first round of every setting), the better
  /// half goes on, never fewer than `candidates`, on new users of the first round's size; from
  /// `candidates` on, the better half with twice the users, to the finalists: 9, 5, 4 on 120
  /// users, then 2 on 240. Every life of every round is counted.
  @Test func theHalvingKeepsTheUsersUntilCandidatesAreLeft() throws {
    let search = try Self.search()
    let outcome = try search.run()
    func round(_ number: Int) -> [TuneSearch.Evaluation] {
      outcome.evaluations.filter { $0.round == number }
    }
    #expect([0, 1, 2, 3, 4].map { round($0).count } == [9, 5, 4, 2, 0])
    #expect([0, 1, 2, 3].map { Set(round($0).map(\.users)) } == [[120], [120], [120], [240]])
    // Each round's candidates are the previous round's best: none ranked below one left out.
    for number in 1...3 {
      let kept = Set(round(number).map(\.policy))
      let before = round(number - 1)
      let worstKept = before.filter { kept.contains($0.policy) }.map(\.mean).min()!
      let bestDropped = before.filter { !kept.contains($0.policy) }.map(\.mean).max()
      #expect(bestDropped.map { $0 <= worstKept } ?? true, "round \(number + 1)")
      #expect(kept.isSubset(of: Set(before.map(\.policy))))
    }
    // 9 × 240 + 5 × 240 + 4 × 240 + 2 × 480 lives in the rounds, then the selection's.
    let selectionLives = outcome.selection.replications.reduce(0, +) * 150
    #expect(outcome.lives == (9 + 5 + 4) * 240 + 2 * 480 + selectionLives)
    let again = try search.run()
    #expect(again.evaluations == outcome.evaluations)
  }
}
