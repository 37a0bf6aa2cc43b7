import Experiments
import Foundation
import Simulation
import Testing

/// Reading a tune file: every problem named with its JSON path before any work.
@Suite("Tune files")
struct TunePlanTests {
  static let valid = #"""
    {"base": {"preset": "deadline-aware-value"},
     "knobs": {"sheets_per_break": {"integer": [1, 3]},
               "urgent_consent.return_factor": {"number": [1, 6]},
               "ceilings.price_increase_consent": {"duration": ["1h", "48h"]},
               "gate.home": {"choices": ["open", "closed"]}},
     "constraints": {"onboarding_interruption_rate": {"at_most": 0}},
     "compare": ["storekit-auto"],
     "search": {"candidates": 8, "users": 300},
     "selection": {"alpha": 0.1, "delta": 5},
     "seed": 3}
    """#

  func problems(_ text: String) -> [ScenarioErrors.Problem] {
    do {
      _ = try TunePlan.load(source: text, file: "tune.json")
      Issue.record("loaded; expected problems")
      return []
    } catch {
      return error.problems
    }
  }

  @Test func aValidFileReadsWhole() throws {
    let plan = try TunePlan.load(source: Self.valid, file: "tune.json")
    let search = plan.search
    #expect(
      search.knobs.map(\.name) == [
        "sheets_per_break", "urgent_consent.return_factor", "ceilings.price_increase_consent",
        "gate.home",
      ])
    #expect(search.knobs[2].domain == .duration(low: 3600, high: 172_800))
    #expect(search.knobs[0].domain == .integer(low: 1, high: 3))
    #expect(search.objective == .valuePer1kUsers)
    #expect(search.constraints == [TuneConstraint(metric: .onboardingInterruptionRate, bound: 0)])
    #expect(search.compare.map(\.name) == ["storekit-auto"])
    #expect((search.candidates, search.users, search.replications) == (8, 300, 4))
    // Not given, with continuous knobs: 8 local steps; with discrete knobs only, none.
    #expect(search.localSteps == 8)
    let discrete = try TunePlan.load(
      source: #"{"base": "screen-gate", "knobs": {"sheets_per_break": {"integer": [1, 3]}}}"#,
      file: "discrete.json")
    #expect(discrete.search.localSteps == 0)
    let given = try TunePlan.load(
      source: Self.valid.replacingOccurrences(
        of: #""users": 300"#, with: #""users": 300, "local_steps": 0"#),
      file: "given.json")
    #expect(given.search.localSteps == 0)
    #expect((search.selection.alpha, search.selection.delta) == (0.1, 5))
    #expect(search.selection.initialReplications == 10 && search.seed == 3)
    #expect(try search.candidatePolicies().count == 8)
    // The default first round: the Latin hypercube.
    #expect(search.firstRound == .latinHypercube && !search.screensEverySetting)
  }

  /// `search.first_round`: read by name, `latin_hypercube` by default; a value not among the
  /// two, and `every_setting` over a continuous knob or more than 512 settings, refused at its
  /// path.
  @Test func theFirstRoundIsReadAndChecked() throws {
    func tune(_ knobs: String, _ firstRound: String?) -> String {
      #"{"base": "screen-gate", "knobs": {\#(knobs)}"#
        + (firstRound.map { #", "search": {"first_round": \#($0)}"# } ?? "") + "}"
    }
    let gate = #""gate.home": {"choices": ["open", "closed"]}"#
    let discrete = gate + #", "sheets_per_break": {"integer": [1, 3]}"#
    let plain = try TunePlan.load(source: tune(discrete, nil), file: "tune.json").search
    #expect(plain.firstRound == .latinHypercube && plain.firstRoundSize == 24)
    for name in ["latin_hypercube", "every_setting"] {
      let read = try TunePlan.load(source: tune(discrete, "\"\(name)\""), file: "tune.json")
      #expect(read.search.firstRound.rawValue == name)
      #expect(read.search.screensEverySetting == (name == "every_setting"))
      #expect(read.search.firstRoundSize == (name == "every_setting" ? 6 : 24))
    }
    for bad in [#""auto""#, "3"] {
      let found = problems(tune(discrete, bad))
      #expect(found.map(\.path) == ["$.search.first_round"])
      #expect(found.first?.message.contains("latin_hypercube, every_setting") == true)
    }
    let continuous = problems(
      tune(gate + #", "urgent_consent.return_factor": {"number": [1, 6]}"#, #""every_setting""#))
    #expect(continuous.map(\.path) == ["$.search.first_round"])
    #expect(continuous.first?.message.contains("urgent_consent.return_factor") == true)
    let wide = problems(
      tune(gate + #", "sheets_per_break": {"integer": [1, 300]}"#, #""every_setting""#))
    #expect(wide.map(\.path) == ["$.search.first_round"])
    #expect(wide.first?.message.contains("512") == true)
    // The key is named among the search's keys.
    let unknown = problems(#"{"base": "screen-gate", "knobs": {\#(gate)}, "search": {"x": 1}}"#)
    #expect(unknown.first?.message.contains("first_round") == true)
  }

  @Test func everyProblemIsNamedByItsPath() {
    let found = problems(
      #"""
      {"base": {"preset": "nope"},
       "knobs": {"sheets_per_break": {"integer": [3, 1]},
                 "ceilings.price_increase_consent": {"duration": ["soon", "48h"]},
                 "gate.home": {"pick": ["open"]}},
       "objective": "speed",
       "constraints": {"made_up": {"at_most": 0}},
       "compare": ["nobody"],
       "search": {"candidates": 0, "extra": 1, "local_steps": 40},
       "selection": {"alpha": 1.5, "delta": -1, "initial_replications": 20, "max_replications": 5},
       "other": true, "description": 7}
      """#)
    let paths = Set(found.map(\.path))
    for path in [
      "$.base.preset", "$.knobs.sheets_per_break.integer",
      "$.knobs.ceilings.price_increase_consent.duration", "$.knobs.gate.home.pick", "$.objective",
      "$.constraints.made_up", "$.compare[0]", "$.search.candidates", "$.search.extra",
      "$.search.local_steps", "$.selection.alpha", "$.selection.delta",
      "$.selection.max_replications", "$.description",
    ] {
      #expect(paths.contains(path), "no problem at \(path): \(found.map(\.path))")
    }
    #expect(found.contains { $0.message.contains("other") })
  }

  /// The bundled tunes (scenarios/tunes/) read whole, with their scenario beside them.
  @Test func theBundledTunesRead() throws {
    let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(
        "scenarios/tunes")
    let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter {
      $0.hasSuffix(".json")
    }
    // One tune per bundled scenario (#33: the tuned policy against the best preset on each).
    let scenarios = try FileManager.default.contentsOfDirectory(
      atPath: folder.deletingLastPathComponent().path
    ).filter { $0.hasSuffix(".json") && $0 != "schema.json" }
    #expect(Set(scenarios).isSubset(of: files), "scenarios/tunes/ has \(files.sorted())")
    for file in files {
      let plan = try TunePlan.load(contentsOf: folder.appendingPathComponent(file).path)
      // A value objective needs the scenario's value section (the file is refused otherwise).
      if plan.search.objective.metric.name.hasPrefix("value") {
        #expect(plan.search.scenario.value != nil, "\(file)")
      }
      #expect(try plan.search.candidatePolicies().count == plan.search.candidates)
    }
  }

  /// A knob path that is no policy key is refused when the candidates are built, before any
  /// simulation.
  @Test func aKnobThatIsNoPolicyKeyIsRefused() {
    let found = problems(
      #"{"base": "deadline-aware", "knobs": {"sheets_per_brake": {"integer": [1, 2]}}}"#)
    #expect(found.map(\.path) == ["$.knobs.sheets_per_brake"])
    #expect(found.first?.message.contains("sheets_per_brake") == true)
  }
}
