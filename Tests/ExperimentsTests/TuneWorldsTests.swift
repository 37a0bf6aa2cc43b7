import MessageDeferral
import Simulation
import Testing

@testable import Experiments

/// A tune across the worlds of an uncertainty study (`study`, `across_worlds`): each
/// evaluation is the per-world evaluations summed up as the file says, against per-world
/// runs computed here.
@Suite("Tune across worlds")
struct TuneWorldsTests {
  static func search(_ across: TuneSearch.AcrossWorlds) throws -> TuneSearch {
    let plan = try RobustPlan.load(
      source: """
        {"users": 50, "replications": 2, "worlds": 4,
         "parameters": {"value.consent_deadline_missed": {"uniform": {"min": 5, "max": 90},
                                                          "source": "assumption"},
                        "scenario.population.new_user_share": {"uniform": {"min": 0.1,
                                                          "max": 0.5}, "source": "assumption"}}}
        """, file: "study.json")
    let scenario = try ScenarioLoader.load(json: plan.scenarioSource, file: plan.scenarioFile)
    let preset = { (name: String) in
      NamedPolicy(name: name, configuration: PolicyCatalog.preset(named: name)!.configuration)
    }
    var search = TuneSearch(
      scenario: scenario, base: [.init(key: "preset", value: .string("deadline-aware"))],
      knobs: [TuneKnob(name: "sheets_per_break", domain: .integer(low: 1, high: 3))],
      objective: .valuePer1kUsers, candidates: 3, users: 120, replications: 2, finalists: 1,
      selection: IndifferenceZoneSelection(
        alpha: 0.05, delta: 50, initialReplications: 2, maximumReplications: 3),
      selectionUsers: 120, compare: [preset("storekit-auto"), preset("never")], seed: 4)
    search.worlds = try plan.drawWorlds(file: "study.json").map(\.scenario)
    search.acrossWorlds = across
    return search
  }

  @Test func expectedValueIsTheMeanOverWorldsAndRegretIsAgainstTheBestPreset() throws {
    let mean = try Self.search(.expectedValue)
    let policies = try mean.candidatePolicies().map(\.policy)
    #expect(mean.worlds.count == 4)
    let combined = try mean.evaluate(policies, users: 120, replications: 2, seed: 9).values
    // The same users in each world, one world at a time, with the compared presets beside.
    let everyone = policies + mean.compare
    let each = try mean.worlds.map {
      try mean.evaluate(everyone, in: $0, users: 120, replications: 2, seed: 9).values
    }
    for replication in 0..<2 {
      for policy in policies.indices {
        let own = each.map { $0[replication][policy] }
        #expect(abs(combined[replication][policy] - own.reduce(0, +) / 4) < 1e-9)
      }
    }
    // Regret: the better of storekit-auto and never in each world less the policy's value
    // (a shared trunk gives each policy the same value whoever shares its run).
    let regret = try Self.search(.expectedRegret)
    let worst = try Self.search(.worstRegret)
    let regrets = try regret.evaluate(policies, users: 120, replications: 2, seed: 9).values
    let worsts = try worst.evaluate(policies, users: 120, replications: 2, seed: 9).values
    for replication in 0..<2 {
      for policy in policies.indices {
        let byWorld = each.map { world in
          max(world[replication][policies.count], world[replication][policies.count + 1])
            - world[replication][policy]
        }
        #expect(abs(regrets[replication][policy] - byWorld.reduce(0, +) / 4) < 1e-9)
        #expect(abs(worsts[replication][policy] - byWorld.max()!) < 1e-9)
      }
    }
    #expect(regret.direction == -1 && mean.direction == 1)
  }

  @Test func aTuneFileNamesItsStudy() throws {
    let problems: [String]
    do {
      _ = try TunePlan.load(
        source: #"""
          {"scenario": "a.json", "study": "b.json", "across_worlds": "median",
           "base": "deadline-aware", "knobs": {"sheets_per_break": {"integer": [1, 2]}}}
          """#, file: "tune.json")
      problems = []
    } catch {
      problems = error.problems.map(\.path)
    }
    #expect(problems.contains("$.study") && problems.contains("$.across_worlds"), "\(problems)")
  }
}
