import MessageDeferral
import Testing

@testable import Simulation

/// `lifecycle` (lifecycle phases by session index): read, refused with the path and the fix, and
/// simulated as the tables, entries and gaps each phase names.
@Suite("lifecycle")
struct PhasesDecodingTests {
  static let policies = #""policies": ["storekit-auto", "deadline-aware"]"#

  /// The minimal template with `lifecycle` set to `lifecycle`.
  static func document(_ phases: String) -> String {
    ScenarioTemplates.minimal(replacing: [(policies, #""lifecycle": "# + phases + ", " + policies)])
  }

  @Test func phasesAreReadAndAbsentWithoutTheKey() throws {
    let scenario = try ScenarioLoader.load(
      json: Self.document(
        #"[{"name": "first", "from_session": 1}, {"name": "loyal", "from_session": 4, "#
          + #""transitions": {"home": {"player": 0.8, "background": 0.2}}, "#
          + #""returning_mix": {"player": 0.5, "home": 0.5}, "gap": {"fixed": "20h"}}]"#),
      file: "phases.json")
    #expect(
      scenario.phases == [
        LifecyclePhase(name: "first", fromSession: 1),
        LifecyclePhase(
          name: "loyal", fromSession: 4,
          transitions: [
            LifecyclePhase.Override(
              screen: 2,
              transitions: [
                Screen.Transition(target: .screen(3), probability: 0.8),
                Screen.Transition(target: .background, probability: 0.2),
              ])
          ],
          returningMix: [
            Entries.Weighted(screen: 3, probability: 0.5),
            Entries.Weighted(screen: 2, probability: 0.5),
          ], gap: .fixed(72_000)),
      ])
    // Existing users start in the last phase unless one says otherwise.
    #expect(scenario.existingUsersPhase == 1)
    let flagged = try ScenarioLoader.load(
      json: Self.document(
        #"[{"name": "first", "from_session": 1, "existing_users": true}, "#
          + #"{"name": "loyal", "from_session": 4}]"#),
      file: "phases.json")
    #expect(flagged.existingUsersPhase == 0)
    let plain = try ScenarioLoader.load(json: ScenarioTemplates.minimal, file: "plain.json")
    #expect(plain.phases.isEmpty)
  }

  static let one = #"{"name": "later", "from_session": 2, "#

  @Test(arguments: [
    ("[]", "$.lifecycle", "got an empty one"),
    ("{}", "$.lifecycle", "non-empty array"),
    (#"[{"name": "a"}]"#, "$.lifecycle[0]", "missing key 'from_session'"),
    (#"[{"name": "a", "from_session": 0}]"#, "$.lifecycle[0].from_session", "between 1 and"),
    (#"[{"name": "a", "from_session": 1.5}]"#, "$.lifecycle[0].from_session", "whole number"),
    (
      #"[{"name": "a", "from_session": 3}, {"name": "b", "from_session": 3}]"#,
      "$.lifecycle[1].from_session", "greater than the previous phase's from_session (3)"
    ),
    (
      #"[{"name": "a", "from_session": 1}, {"name": "a", "from_session": 3}]"#,
      "$.lifecycle[1].name", "duplicate phase name 'a'"
    ),
    (
      #"[{"name": "a", "from_session": 1, "existing_users": true}, "#
        + #"{"name": "b", "from_session": 3, "existing_users": true}]"#,
      "$.lifecycle[1].existing_users", "only one phase holds existing users"
    ),
    (
      #"[{"name": "a", "from_session": 1, "existing_users": 1}]"#, "$.lifecycle[0].existing_users",
      "true or false"
    ),
    (#"[{"name": "a", "from_sesion": 1}]"#, "$.lifecycle[0].from_sesion", "did you mean"),
    (
      "[" + one + #""transitions": {"hom": {"background": 1}}}]"#, "$.lifecycle[0].transitions.hom",
      "did you mean 'home'?"
    ),
    (
      "[" + one + #""transitions": {"splash": {"background": 1}}}]"#,
      "$.lifecycle[0].transitions.splash", "launch screen has no transitions"
    ),
    (
      "[" + one + #""transitions": {"home": {"background": 0.5}}}]"#,
      "$.lifecycle[0].transitions.home", "sum to 0.5, not 1"
    ),
    (
      "[" + one + #""transitions": {"home": {"playr": 1}}}]"#,
      "$.lifecycle[0].transitions.home.playr", "did you mean 'player'?"
    ),
    ("[" + one + #""transitions": {}}]"#, "$.lifecycle[0].transitions", "got an empty one"),
    (
      "[" + one + #""returning_mix": {"intro": 1}}]"#, "$.lifecycle[0].returning_mix.intro",
      "onboarding"
    ),
    (
      "[" + one + #""returning_mix": {"home": 0.5}}]"#, "$.lifecycle[0].returning_mix", "sum to 0.5"
    ),
    ("[" + one + #""gap": {"fixed": "-1s"}}]"#, "$.lifecycle[0].gap.fixed", "negative"),
  ])
  func badPhasesNameThePathAndTheFix(phases: String, path: String, fragment: String) throws {
    let errors = try #require(ScenarioTemplates.errors(of: Self.document(phases)))
    let problem = try #require(errors.problems.first)
    #expect(problem.path == path, "\(errors.problems)")
    #expect(problem.message.contains(fragment), "\(problem.message)")
  }

  @Test func atMostAHundredPhases() throws {
    let phases = (1...101).map { #"{"name": "p\#($0)", "from_session": \#($0)}"# }
    let errors = try #require(
      ScenarioTemplates.errors(of: Self.document("[" + phases.joined(separator: ", ") + "]")))
    #expect(errors.problems.map(\.path) == ["$.lifecycle"])
    #expect(errors.problems.first?.message.contains("at most 100 phases, got 101") == true)
  }

  /// The scenario's own tables leave from every screen, but in phase 'later' home goes only
  /// to player and player only to home: a trap only the phase makes.
  @Test func aTrapOnlyAPhaseMakesIsFound() throws {
    let phases =
      "[" + Self.one
      + #""transitions": {"home": {"player": 1}, "player": {"home": 1}}}]"#
    let errors = try #require(ScenarioTemplates.errors(of: Self.document(phases)))
    let problem = try #require(errors.problems.first)
    #expect(errors.problems.count == 1)
    #expect(problem.path.hasPrefix("$.lifecycle[0].transitions."), "\(problem.path)")
    #expect(
      problem.message.contains("in phase 'later', screen '")
        && problem.message.contains("can never lead to the background"),
      "\(problem.message)")
  }

  /// A screen that only a phase's table leads to is reachable.
  @Test func aScreenOnlyAPhaseLeadsToIsShown() throws {
    let text = ScenarioTemplates.minimal(replacing: [
      (
        #""transitions": {"player": 0.5, "background": 0.5}"#,
        #""transitions": {"background": 1}"#
      ),
      (
        Self.policies,
        #""lifecycle": [{"name": "b", "from_session": 2, "transitions": "#
          + #"{"home": {"player": 0.5, "background": 0.5}}}], "# + Self.policies
      ),
    ])
    #expect(ScenarioTemplates.errors(of: text) == nil)
  }
}

@Suite("Engine: lifecycle phases")
struct PhasesEngineTests {
  /// Splash, home, player. Every stay in the background ends the process (cold launches), new
  /// users skip onboarding and install at 0, so every session is splash → home (or the
  /// phase's entry) → ...
  static func scenario(
    home: [Screen.Transition], phases: [LifecyclePhase],
    gap: DistributionSpec = .exponential(mean: 3600),
    newUsers: Bool = true, horizon: Double = 40 * 86_400
  ) -> Scenario {
    let screens = [
      Screen(name: "splash", kind: .launch, dwell: .fixed(0), transitions: []),
      Screen(name: "home", kind: .home, dwell: .fixed(10), transitions: home),
      Screen(
        name: "player", kind: .immersive, dwell: .fixed(10),
        transitions: [Fixtures.transition(.background, 1)]),
    ]
    var scenario = Fixtures.base(
      screens: screens, entries: Entries(coldLaunch: 0, newUser: 1, returning: 1),
      horizon: horizon, gap: gap, newUserShare: newUsers ? 1 : 0)
    scenario.population.onboardingShare = 0
    scenario.sessions.backgroundTerminationProbability = 1
    scenario.phases = phases
    return scenario
  }

  static let halfPlayer = [
    Fixtures.transition(.screen(2), 0.5), Fixtures.transition(.background, 0.5),
  ]
  static let mostlyPlayer = [
    LifecyclePhase.Override(
      screen: 1,
      transitions: [
        Fixtures.transition(.screen(2), 0.9), Fixtures.transition(.background, 0.1),
      ])
  ]

  /// Sessions 1 and 2 go on to the player with 0.5, later ones with 0.9. Given a user's
  /// count of sessions *S* (their home visits), the expected player visits are
  /// 0.5 min(*S*, 2) + 0.9 max(*S* − 2, 0), a sum of independent Bernoullis: the total over
  /// users is compared with that, within 5 standard deviations.
  @Test(arguments: [true, false])
  func eachSessionUsesItsPhasesTable(newUsers: Bool) throws {
    let phases = [
      LifecyclePhase(name: "first", fromSession: 1),
      LifecyclePhase(name: "later", fromSession: 3, transitions: Self.mostlyPlayer),
    ]
    var scenario = Self.scenario(home: Self.halfPlayer, phases: phases, newUsers: newUsers)
    // Existing users start in the first phase here (session 1), as new users do.
    scenario.existingUsersPhase = 0
    let compiled = CompiledScenario(scenario)
    var observed = 0
    var expected = 0.0
    var variance = 0.0
    var sessions = 0
    for user in 0..<400 {
      let tally = Engine.trace(
        compiled, policy: PolicyCatalog.Preset.storeKitAuto.configuration, seed: 5, replication: 0,
        user: user
      ).tally
      let count = Int(tally.screenVisits[1])
      sessions += count
      observed += Int(tally.screenVisits[2])
      let early = Double(min(count, 2))
      let late = Double(max(count - 2, 0))
      expected += 0.5 * early + 0.9 * late
      variance += 0.25 * early + 0.09 * late
    }
    #expect(sessions > 100_000, "\(sessions) sessions")
    let tolerance = 5 * variance.squareRoot()
    #expect(
      abs(Double(observed) - expected) < tolerance,
      "player visits \(observed) vs \(expected) ± \(tolerance)")
    // One table for every session would be far off.
    let firstOrder = 0.5 * Double(sessions)
    #expect(abs(firstOrder - expected) > 20 * tolerance)
  }

  /// Existing users start in the last phase by default: every session of theirs uses its table.
  @Test func existingUsersStartInTheLastPhase() throws {
    let phases = [
      LifecyclePhase(name: "first", fromSession: 1),
      LifecyclePhase(name: "later", fromSession: 3, transitions: Self.mostlyPlayer),
    ]
    let scenario = Self.scenario(home: Self.halfPlayer, phases: phases, newUsers: false)
    var last = scenario
    last.existingUsersPhase = 1
    let compiled = CompiledScenario(last)
    #expect(compiled.existingFirstSession == 3)
    var homes = 0
    var players = 0
    for user in 0..<300 {
      let tally = Engine.trace(
        compiled, policy: PolicyCatalog.Preset.storeKitAuto.configuration, seed: 5, replication: 0,
        user: user
      ).tally
      homes += Int(tally.screenVisits[1])
      players += Int(tally.screenVisits[2])
    }
    let expected = 0.9 * Double(homes)
    let tolerance = 5 * (0.09 * Double(homes)).squareRoot()
    #expect(abs(Double(players) - expected) < tolerance, "\(players) vs \(expected)")
  }

  /// Fixed dwells and gaps make the session starts exact: sessions at 0, then a gap of 1 h
  /// after each of the first two sessions, 10 h after every later one (phase 'later' from
  /// session 3), each session 10 s long.
  @Test func eachPhasesGapFollowsItsSessions() throws {
    let horizon = 3 * 86_400.0
    let phases = [LifecyclePhase(name: "later", fromSession: 3, gap: .fixed(36_000))]
    let compiled = CompiledScenario(
      Self.scenario(
        home: [Fixtures.transition(.background, 1)], phases: phases, gap: .fixed(3600),
        horizon: horizon))
    var start = 0.0
    var expected = 0
    while start < horizon {
      expected += 1
      start += 10 + (expected < 3 ? 3600 : 36_000)
    }
    for user in 0..<5 {
      let tally = Engine.trace(
        compiled, policy: PolicyCatalog.Preset.storeKitAuto.configuration, seed: 1, replication: 0,
        user: user
      ).tally
      #expect(Int(tally.screenVisits[1]) == expected, "user \(user)")
    }
    #expect(expected == 9)
  }

  /// A phase's `returning_mix` decides where its cold launches land.
  @Test func aPhasesEntryMixIsUsedFromItsSession() throws {
    var scenario = Self.scenario(home: [Fixtures.transition(.background, 1)], phases: [])
    scenario.phases = [
      LifecyclePhase(
        name: "later", fromSession: 2,
        returningMix: [Entries.Weighted(screen: 2, probability: 1)])
    ]
    let compiled = CompiledScenario(scenario)
    for user in 0..<20 {
      let tally = Engine.trace(
        compiled, policy: PolicyCatalog.Preset.storeKitAuto.configuration, seed: 2, replication: 0,
        user: user
      ).tally
      #expect(tally.screenVisits[1] == 1)
      #expect(tally.screenVisits[2] > 100)
    }
  }

  /// A phase that changes nothing draws what the scenario draws without phases.
  @Test func anEmptyPhaseChangesNoDraw() throws {
    let plain = Self.scenario(home: Self.halfPlayer, phases: [])
    let phased = Self.scenario(
      home: Self.halfPlayer, phases: [LifecyclePhase(name: "x", fromSession: 2)])
    Fixtures.expectSameLives(plain, phased, users: 20, seed: 3)
  }
}
