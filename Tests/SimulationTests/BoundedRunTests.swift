import Foundation
import MessageDeferral
import Simulation
import Testing

/// Every scenario `validate` accepts finishes (issue #16): screen loops on which time stands
/// still and message processes too fast to hold are refused, and the engine's per-user event
/// budget stops whatever else loops, naming the user.
@Suite("bounded runs")
struct BoundedRunTests {
  static let zeroDwellLoop = ScenarioTemplates.minimal(replacing: [
    (
      #""dwell": {"uniform": {"low": "5s", "high": "60s"}},"#,
      #""dwell": {"fixed": "0s"},"#
    ),
    (#""transitions": {"player": 0.5, "background": 0.5}"#, #""transitions": {"player": 1}"#),
    (
      #""dwell": {"gamma": {"shape": 2, "scale": "3m"}},"#,
      #""dwell": {"empirical": {"values": ["0s"], "weights": [1]}},"#
    ),
    (
      #""transitions": {"home": 0.6, "background": 0.4}"#,
      #""transitions": {"home": 0.9999999999, "background": 1e-10}"#
    ),
  ])

  @Test func aLoopOfZeroDwellScreensIsRefused() throws {
    let errors = try #require(ScenarioTemplates.errors(of: Self.zeroDwellLoop))
    let problem = try #require(errors.problems.first { $0.message.contains("lead to one another") })
    #expect(problem.path == "$.screens[2].dwell")
    #expect(problem.message.contains("'home', 'player'"))
  }

  @Test func aZeroDwellScreenOffAnyLoopIsAccepted() {
    let text = ScenarioTemplates.minimal(replacing: [
      (#""dwell": {"uniform": {"low": "5s", "high": "60s"}},"#, #""dwell": {"fixed": "0s"},"#)
    ])
    #expect(ScenarioTemplates.errors(of: text) == nil)
  }

  @Test func messagesEveryFewMillisecondsAreRefused() throws {
    let text = ScenarioTemplates.minimal(replacing: [
      (#""mean_interval": "120d""#, #""mean_interval": "10ms""#)
    ])
    let errors = try #require(ScenarioTemplates.errors(of: text))
    let problem = try #require(errors.problems.first)
    #expect(problem.path == "$.messages.billing_issue.mean_interval")
    // 30 days / 10 ms = 259,200,000 messages; the bound allows 100,000: 25.92 s at least.
    #expect(problem.message.contains("259200000"))
    #expect(problem.message.contains("at least 25.92s"))
  }

  /// Two screens of 1 ms that lead to one another (nearly) for ever. Fixed 1 ms dwells are
  /// refused by the loader since #35 (``aLoopTooShortForTheEventBudgetIsRefused``); a mean of
  /// 1 ms is not bounded above, so it loads and the engine's budget stops it.
  static let millisecondLoop = ScenarioTemplates.minimal(replacing: [
    (
      #""dwell": {"uniform": {"low": "5s", "high": "60s"}},"#,
      #""dwell": {"exponential": {"mean": "1ms"}},"#
    ),
    (#""transitions": {"player": 0.5, "background": 0.5}"#, #""transitions": {"player": 1}"#),
    (
      #""dwell": {"gamma": {"shape": 2, "scale": "3m"}},"#,
      #""dwell": {"exponential": {"mean": "1ms"}},"#
    ),
    (
      #""transitions": {"home": 0.6, "background": 0.4}"#,
      #""transitions": {"home": 0.9999999999, "background": 1e-10}"#
    ),
  ])

  /// What `run` would stop at, `validate` refuses (#35): screens that lead to one another and
  /// can never last long enough for a run's event budget to cover the horizon.
  @Test func aLoopTooShortForTheEventBudgetIsRefused() throws {
    let text = ScenarioTemplates.minimal(replacing: [
      (#""dwell": {"uniform": {"low": "5s", "high": "60s"}},"#, #""dwell": {"fixed": "1ms"},"#),
      (#""transitions": {"player": 0.5, "background": 0.5}"#, #""transitions": {"player": 1}"#),
      (
        #""dwell": {"gamma": {"shape": 2, "scale": "3m"}},"#,
        #""dwell": {"uniform": {"low": "0s", "high": "2ms"}},"#
      ),
    ])
    let errors = try #require(ScenarioTemplates.errors(of: text))
    let problem = try #require(errors.problems.first { $0.message.contains("lead to one another") })
    #expect(problem.message.contains("'home', 'player'"), "\(problem.message)")
    #expect(problem.message.contains("10000000 events a run allows"), "\(problem.message)")
  }

  /// `trace` of a looping life (#35): bounded by the run's event budget, with the run's error,
  /// and keeping at most the steps asked for, whatever the life.
  @Test func aTraceOfALoopingLifeStopsAtTheBudgetWithBoundedSteps() throws {
    let scenario = try ScenarioLoader.load(json: Self.millisecondLoop, file: "loop.json")
    let traced = Engine.boundedTrace(
      CompiledScenario(scenario), policy: scenario.policies[0].configuration, seed: 1,
      replication: 0, user: 0, eventBudget: 20_000, keepingSteps: 500)
    #expect(traced.steps.count == 500)
    #expect(traced.droppedSteps > 10_000, "\(traced.droppedSteps)")
    guard
      case .eventBudgetExceeded(_, let user, let time, let horizon, _, _)? =
        traced.budgetExceeded
    else {
      Issue.record("no budget error: \(String(describing: traced.budgetExceeded))")
      return
    }
    #expect(user == 0 && time < horizon)
  }

  @Test func theEventBudgetStopsALoopingUserAndNamesIt() throws {
    let text = ScenarioTemplates.minimal(replacing: [
      (
        #""dwell": {"uniform": {"low": "5s", "high": "60s"}},"#,
        #""dwell": {"exponential": {"mean": "1ms"}},"#
      ),
      (#""transitions": {"player": 0.5, "background": 0.5}"#, #""transitions": {"player": 1}"#),
      (
        #""dwell": {"gamma": {"shape": 2, "scale": "3m"}},"#,
        #""dwell": {"exponential": {"mean": "1ms"}},"#
      ),
      (
        #""transitions": {"home": 0.6, "background": 0.4}"#,
        #""transitions": {"home": 0.9999999999, "background": 1e-10}"#
      ),
    ])
    let scenario = try ScenarioLoader.load(json: text, file: "loop.json")
    var options = RunOptions(users: 3, replications: 2, seed: 1, jobs: 2)
    options.eventBudgetPerUser = 5_000
    #expect {
      _ = try Engine.run(
        CompiledScenario(scenario), policies: scenario.policies, options: options)
    } throws: { error in
      guard
        case .eventBudgetExceeded(_, _, let time, let horizon, let screen, let policy)? =
          error as? EngineError
      else { return false }
      let text = (error as! EngineError).description
      // The engine names no command (the tool adds the trace hint, FailureTests).
      return time < horizon && ["home", "player"].contains(screen ?? "") && !policy.isEmpty
        && text.contains("loops without time advancing") && !text.contains("--")
    }
  }

  /// Scenarios drawn across the format's ranges (durations from 0 to a year, probabilities
  /// from 1e-10 to 1, every distribution kind): each is refused by the loader, or runs to
  /// the horizon with messages conserved, or stops cleanly at the event budget. Nothing
  /// traps and nothing hangs.
  @Test func randomValidScenariosFinish() throws {
    var accepted = 0
    var budgetStops = 0
    for seed in UInt64(0)..<300 {
      var random = _SplitMix(seed: seed)
      let text = Self.randomScenario(&random)
      guard let scenario = try? ScenarioLoader.load(json: text, file: "random-\(seed).json")
      else { continue }
      accepted += 1
      var options = RunOptions(users: 3, replications: 2, seed: seed, jobs: 1)
      options.eventBudgetPerUser = 20_000
      do {
        _ = try Engine.run(
          CompiledScenario(scenario), policies: [scenario.policies[0]], options: options)
      } catch {
        guard case .eventBudgetExceeded = error else {
          Issue.record("seed \(seed): \(error)\n\(text)")
          continue
        }
        budgetStops += 1
      }
    }
    // The draw must exercise both outcomes, or the property says little.
    #expect(accepted >= 45, "only \(accepted) of 300 random scenarios were valid")
    #expect(accepted - budgetStops >= 30, "\(budgetStops) of \(accepted) hit the budget")
  }

  static func randomScenario(_ random: inout _SplitMix) -> String {
    let durations = ["1ms", "20ms", "1s", "45s", "10m", "8h", "3d", "365d"]
    func duration() -> String { durations[random.index(durations.count)] }
    func probability() -> Double {
      [0, 1e-10, 0.01, 0.3, 0.5, 0.9, 1][random.index(7)]
    }
    func shape() -> Double { [0, 0.3, 1, 2.5][random.index(4)] }
    func distribution() -> String {
      switch random.index(7) {
      case 0: #"{"fixed": "\#(random.index(3) == 0 ? "0s" : duration())"}"#
      case 1: #"{"exponential": {"mean": "\#(duration())"}}"#
      case 2: #"{"lognormal": {"median": "\#(duration())", "sigma": \#(shape())}}"#
      case 3: #"{"gamma": {"shape": \#(shape()), "scale": "\#(duration())"}}"#
      case 4: #"{"weibull": {"shape": \#(shape()), "scale": "\#(duration())"}}"#
      case 5: #"{"uniform": {"low": "0s", "high": "\#(duration())"}}"#
      default: #"{"empirical": {"values": ["0s", "\#(duration())"], "weights": [1, 1]}}"#
      }
    }
    let home = [1e-10, 0.01, 0.5, 0.9, 1][random.index(5)]
    let player = [1e-10, 0.01, 0.5, 0.9, 1][random.index(5)]
    return ScenarioTemplates.minimal(replacing: [
      (#""horizon": "30d""#, #""horizon": "\#(["1h", "2d", "30d", "365d"][random.index(4)])""#),
      (#""new_user_share": 0.3"#, #""new_user_share": \#(probability())"#),
      (#""subscriber_share": 0.4"#, #""subscriber_share": \#(probability())"#),
      (#""gap": {"exponential": {"mean": "8h"}}"#, #""gap": \#(distribution())"#),
      (
        #""background_termination_probability": 0.5"#,
        #""background_termination_probability": \#(probability())"#
      ),
      (#""dwell": {"uniform": {"low": "5s", "high": "60s"}},"#, #""dwell": \#(distribution()),"#),
      (
        #""transitions": {"player": 0.5, "background": 0.5}"#,
        #""transitions": {"player": \#(home), "background": \#(1 - home)}"#
      ),
      (#""dwell": {"gamma": {"shape": 2, "scale": "3m"}},"#, #""dwell": \#(distribution()),"#),
      (
        #""transitions": {"home": 0.6, "background": 0.4}"#,
        #""transitions": {"home": \#(player), "background": \#(1 - player)}"#
      ),
      (#""mean_interval": "120d""#, #""mean_interval": "\#(duration())""#),
      (
        #""display_failure_probability": 0.01"#,
        #""display_failure_probability": \#(probability())"#
      ),
    ])
  }
}

/// SplitMix64: a tiny seeded generator for drawing test inputs (not the simulation's streams).
struct _SplitMix {
  var state: UInt64
  init(seed: UInt64) { state = seed }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  mutating func index(_ count: Int) -> Int { Int(next() % UInt64(count)) }
}
