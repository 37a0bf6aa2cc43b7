import MessageDeferral
import Testing

@testable import Simulation

/// `transitions_after` (second-order transitions): read, refused with the path and the fix,
/// and simulated as the chain with memory it describes.
@Suite("screens[].transitions_after")
struct SessionMemoryDecodingTests {
  static let playerTransitions = #""transitions": {"home": 0.6, "background": 0.4}"#

  /// The minimal template with `after` as the player screen's `transitions_after`.
  static func document(_ after: String) -> String {
    ScenarioTemplates.minimal(replacing: [
      (playerTransitions, playerTransitions + #", "transitions_after": "# + after)
    ])
  }

  @Test func aTableIsReadAndAbsentWithoutTheKey() throws {
    let scenario = try ScenarioLoader.load(
      json: Self.document(#"{"home": {"home": 0.9, "background": 0.1}}"#), file: "after.json")
    let player = scenario.screens[3]
    #expect(
      player.transitionsAfter == [
        Screen.Context(
          previous: 2,
          transitions: [
            Screen.Transition(target: .screen(2), probability: 0.9),
            Screen.Transition(target: .background, probability: 0.1),
          ])
      ])
    let plain = try ScenarioLoader.load(json: ScenarioTemplates.minimal, file: "plain.json")
    #expect(plain.screens.allSatisfy { $0.transitionsAfter.isEmpty })
  }

  @Test(arguments: [
    (#"{"hom": {"home": 1}}"#, "$.screens[3].transitions_after.hom", "did you mean 'home'?"),
    (#"{"splash": {"home": 1}}"#, "$.screens[3].transitions_after.splash", "not counted"),
    (#"{"background": {"home": 1}}"#, "$.screens[3].transitions_after.background", "not a screen"),
    (#"{"intro": {"home": 1}}"#, "$.screens[3].transitions_after.intro", "never used"),
    (#"{"home": {"home": 0.5}}"#, "$.screens[3].transitions_after.home", "sum to 0.5, not 1"),
    (#"{"home": {"hme": 1}}"#, "$.screens[3].transitions_after.home.hme", "did you mean 'home'?"),
    (#"{"home": {"splash": 1}}"#, "$.screens[3].transitions_after.home.splash", "launch screen"),
    (#"{"home": {"home": 2}}"#, "$.screens[3].transitions_after.home.home", "probability"),
    ("{}", "$.screens[3].transitions_after", "got an empty one"),
    (
      #"{"home": {"home": 1}, "home": {"background": 1}}"#, "$.screens[3].transitions_after.home",
      "duplicate previous screen 'home'"
    ),
    (
      #"{"home": {"home": 0.5, "home": 0.5}}"#, "$.screens[3].transitions_after.home.home",
      "duplicate target"
    ),
    (#"["home"]"#, "$.screens[3].transitions_after", "non-empty object"),
    (#"{"home": 1}"#, "$.screens[3].transitions_after.home", "must be an object"),
  ])
  func badTablesNameThePathAndTheFix(after: String, path: String, fragment: String) throws {
    let errors = try #require(ScenarioTemplates.errors(of: Self.document(after)))
    let problem = try #require(errors.problems.first)
    #expect(problem.path == path)
    #expect(problem.message.contains(fragment), "\(problem.message)")
  }

  @Test func theSplashTakesNoTable() throws {
    let text = ScenarioTemplates.minimal(replacing: [
      (
        #""kind": "launch", "dwell": {"fixed": {"value": 1.5}}"#,
        #""kind": "launch", "dwell": {"fixed": {"value": 1.5}}, "transitions_after": {"home": {}}"#
      )
    ])
    let errors = try #require(ScenarioTemplates.errors(of: text))
    #expect(errors.problems.map(\.path) == ["$.screens[0].transitions_after"])
  }

  /// Every screen leaves in the union of the tables, but with memory home after player goes
  /// only to player and player after home only to home: a loop the union cannot see.
  @Test func aTrapOnlyTheMemoryMakesIsFound() throws {
    let text = ScenarioTemplates.minimal(replacing: [
      (
        #""transitions": {"player": 0.5, "background": 0.5}"#,
        #""transitions": {"player": 0.5, "background": 0.5}, "transitions_after": "#
          + #"{"player": {"player": 1}}"#
      ),
      (
        Self.playerTransitions,
        Self.playerTransitions + #", "transitions_after": {"home": {"home": 1}}"#
      ),
    ])
    let errors = try #require(ScenarioTemplates.errors(of: text))
    let problem = try #require(errors.problems.first)
    #expect(errors.problems.count == 1)
    #expect(problem.path == "$.screens[3].transitions_after.home")
    #expect(
      problem.message.contains("after 'home', screen 'player' can never lead to the background"),
      "\(problem.message)")
  }
}

@Suite("Engine: second-order transitions")
struct SessionMemoryEngineTests {
  typealias Row = [(ScreenTarget, Double)]
  /// Screens 1–4 (0 is the splash): their own rows, and two `transitions_after` tables on
  /// screen 4, after screen 2 and after screen 3.
  static let rows: [Row] = [
    [(.screen(2), 0.5), (.screen(3), 0.3), (.background, 0.2)],
    [(.screen(4), 0.6), (.screen(1), 0.3), (.background, 0.1)],
    [(.screen(4), 0.7), (.screen(1), 0.2), (.background, 0.1)],
    [(.screen(1), 0.5), (.background, 0.5)],
  ]
  static let contexts: [(previous: Int, row: Row)] = [
    (2, [(.screen(2), 0.6), (.background, 0.4)]),
    (3, [(.screen(3), 0.8), (.screen(1), 0.2)]),
  ]

  static func scenario(withMemory: Bool) -> Scenario {
    let kinds: [ScreenKind] = [.home, .content, .settings, .paywall]
    var screens = [Screen(name: "splash", kind: .launch, dwell: .fixed(0.5), transitions: [])]
    for (index, row) in rows.enumerated() {
      screens.append(
        Screen(
          name: "s\(index + 1)", kind: kinds[index], dwell: .exponential(mean: 5),
          transitions: row.map { Fixtures.transition($0.0, $0.1) }))
    }
    if withMemory {
      screens[4].transitionsAfter = contexts.map { context in
        Screen.Context(
          previous: context.previous,
          transitions: context.row.map { Fixtures.transition($0.0, $0.1) })
      }
    }
    return Fixtures.base(
      screens: screens, entries: Entries(coldLaunch: 0, newUser: 1, returning: 1),
      horizon: 20_000, gap: .exponential(mean: 60))
  }

  /// The visit frequencies of screens 1–4 under the chain on (screen, previous) states. No
  /// process is terminated, so after the background the user resumes on the same screen
  /// without a visit and with no previous screen (memory resets at every session open).
  static func visitShares(withMemory: Bool) -> [Double] {
    // State = screen × 5 + previous (0: none, else the screen index).
    func row(_ screen: Int, _ previous: Int) -> Row {
      if withMemory, screen == 4, let context = contexts.first(where: { $0.previous == previous }) {
        return context.row
      }
      return rows[screen - 1]
    }
    var pi = [Double](repeating: 0, count: 25)
    pi[1 * 5] = 1
    var visits = [Double](repeating: 0, count: 5)
    for _ in 0..<5000 {
      var next = [Double](repeating: 0, count: 25)
      visits = [Double](repeating: 0, count: 5)
      for state in pi.indices where pi[state] > 0 {
        let screen = state / 5
        for (target, p) in row(screen, state % 5) {
          switch target {
          case .screen(let to):
            next[to * 5 + screen] += pi[state] * p
            visits[to] += pi[state] * p
          case .background:
            next[screen * 5] += pi[state] * p
          }
        }
      }
      pi = next
    }
    let total = visits.reduce(0, +)
    return (1...4).map { visits[$0] / total }
  }

  @Test func visitFrequenciesMatchTheChainWithMemory() throws {
    let expected = Self.visitShares(withMemory: true)
    let firstOrder = Self.visitShares(withMemory: false)
    let compiled = CompiledScenario(Self.scenario(withMemory: true))
    let (shares, meanVisits) = Fixtures.visitShares(compiled, users: 300, seed: 9)
    #expect(meanVisits > 500, "long journeys: \(meanVisits) visits per user")
    var largest = 0.0
    for j in 0..<4 {
      let (mean, error) = Fixtures.shareMean(shares, j)
      // 5 standard errors, plus the start-up bias of a chain begun at s1 (a few visits).
      let tolerance = 5 * error + 3 / meanVisits
      #expect(
        abs(mean - expected[j]) < tolerance, "s\(j + 1): \(mean) vs \(expected[j]) ± \(tolerance)")
      largest = max(largest, tolerance)
    }
    // The memory moves the shares far more than the tolerance: ignoring it would fail.
    let moved = zip(firstOrder, expected).map { abs($0 - $1) }.max()!
    #expect(moved > 5 * largest, "first order moves a share by \(moved); tolerance \(largest)")
  }

  /// Without `transitions_after` nothing changes: the same draws, the same tally.
  @Test func noTablesMeansTheFirstOrderChainDrawForDraw() throws {
    let plain = Self.scenario(withMemory: false)
    var unusedTable = plain
    // A table on s4 after s1, which never leads to s4: compiled, never used.
    unusedTable.screens[4].transitionsAfter = [
      Screen.Context(previous: 1, transitions: [Fixtures.transition(.background, 1)])
    ]
    Fixtures.expectSameLives(plain, unusedTable, users: 20, seed: 3)
  }
}
