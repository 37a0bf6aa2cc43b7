import Foundation
import Simulation
import TestSupport
import Testing

@testable import Experiments
@testable import Reports

/// `deferral-sim robust` in process: a study where one parameter alone flips the decision,
/// the checks of a study file, and the report page.
@Suite("robust: studies")
struct RobustStudyTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
  static let scenario = root.appendingPathComponent("scenarios/indie-subscription.json").path

  /// storekit-auto against never, in a world made so a consent sheet at launch ends a new
  /// user's onboarding for good (every new user a returning subscriber in the price-increase
  /// audience, who quits at a sheet and never comes back): storekit-auto loses onboardings,
  /// never loses renewals. Which is worse turns on the cost of a missed consent deadline
  /// alone, drawn from 0 to 100 USD; the other varying parameters move the gap little.
  static let flipStudy = """
    {"scenario": "\(scenario)", "users": 200, "replications": 2, "seed": 7, "worlds": 10,
     "policies": ["storekit-auto", "never"],
     "parameters": {
      "scenario.sheet_dwell.lognormal.median": {"log_uniform": {"min": "3s", "max": "9s"},
                                                "source": "test"},
      "value.checkout_interrupted": {"uniform": {"min": 0, "max": 1}, "source": "test"},
      "value.consent_deadline_missed": {"uniform": {"min": 0, "max": 100}, "source": "test"},
      "value.onboarding_completed": {"values": [50], "source": "test"},
      "value.billing_issue_unresolved": {"values": [0], "source": "test"},
      "scenario.population.new_user_share": {"values": [0.8], "source": "test"},
      "scenario.population.returning_subscriber_share": {"values": [1], "source": "test"},
      "scenario.onboarding.quit_after_sheet_probability": {"values": [1], "source": "test"},
      "scenario.onboarding.never_return_after_leaving_probability": {"values": [1],
                                                                     "source": "test"}
     }}
    """

  static func run(
    _ source: String, jobs: Int = 2
  ) throws -> (
    plan: RobustPlan, worlds: [RobustWorld], outcome: RobustOutcome
  ) {
    let plan = try RobustPlan.load(source: source, file: "study.json")
    let worlds = try plan.drawWorlds(file: "study.json")
    let tallies = try plan.simulate(worlds: worlds, jobs: jobs)
    return (plan, worlds, plan.outcome(worlds: worlds, tallies: tallies))
  }

  /// `robust` streams each world's rows and drops its tallies (#35): what it writes equals,
  /// byte for byte, the outcome of every world's tallies kept (what `merge` computes), and the
  /// streaming tabulation holds no rows of its own.
  @Test func worldByWorldTabulationWritesWhatTheWholeOutcomeDoes() throws {
    let (plan, worlds, whole) = try Self.run(Self.flipStudy)
    var tabulation = RobustTabulation(plan: plan, first: worlds[0])
    var streamed = tabulation.headerText
    try plan.simulate(worlds: worlds, jobs: 2) { world, tallies in
      streamed += tabulation.add(world, tallies: tallies, keepingRows: false)
    }
    #expect(tabulation.table.rows.isEmpty, "no rows kept while streaming")
    let outcome = tabulation.outcome(worlds: worlds)
    #expect(streamed == whole.table.text)
    #expect(outcome.summaryTable.text == whole.summaryTable.text)
    #expect(outcome.tornadoTable.text == whole.tornadoTable.text)
    #expect(outcome.events == whole.events)
  }

  @Test func theOneParameterThatFlipsTheDecisionLeadsTheTornado() throws {
    let (_, _, outcome) = try Self.run(Self.flipStudy)
    // It flips: each policy is best in some worlds.
    #expect(outcome.policies.allSatisfy { $0.worldsBest > 0 }, "\(outcome.policies)")
    #expect(outcome.tornado[0].parameter == "value.consent_deadline_missed")
    let rho = try #require(outcome.tornado[0].rho)
    // The gap storekit-auto − never rises with the cost of a missed deadline (or falls, when
    // never leads): either way |rho| is far above the noise of 10 worlds (0.65).
    #expect(abs(rho) > 0.9)
    for other in outcome.tornado.dropFirst() {
      #expect(abs(other.rho ?? 0) < abs(rho), "\(other.parameter)")
    }
    // Constant parameters have no rank correlation and come last.
    #expect(outcome.tornado.suffix(6).allSatisfy { $0.rho == nil })
    #expect(abs(outcome.policies.map(\.shareBest).reduce(0, +) - 1) < 1e-12)
    #expect(outcome.policies.allSatisfy { $0.expectedRegret >= 0 && $0.worstRegret >= 0 })
    // robust.csv: the best policy of each world has regret exactly 0, the other at least 0.
    let header = outcome.table.header
    let metric = header.firstIndex(of: "metric")!
    let mean = header.firstIndex(of: "mean")!
    var regrets: [String: [Double]] = [:]
    for line in outcome.table.text.split(separator: "\n").dropFirst() {
      let fields = line.split(separator: ",", omittingEmptySubsequences: false)
      guard fields[metric] == "regret_per_1k_users" else { continue }
      regrets[String(fields[0]), default: []].append(Double(String(fields[mean]))!)
    }
    #expect(regrets.count == 10)
    for (world, values) in regrets {
      #expect(values.min() == 0, "world \(world)")
      #expect(values.allSatisfy { $0 >= 0 }, "world \(world)")
    }
  }

  /// A categorical parameter (a list of words) has no "larger": the terminal and the report
  /// describe it by level, each with the policy that wins most of its worlds (#34), and the
  /// shares are those of `robust.csv`'s regrets.
  @Test func aCategoricalParameterIsDescribedByLevel() throws {
    let study = Self.flipStudy.replacingOccurrences(
      of: #""parameters": {"#,
      with: #""parameters": {"scenario.sessions.delivery": "#
        + #"{"values": ["launch_and_resume", "launch"], "source": "test"},"#)
    let (plan, worlds, outcome) = try Self.run(study)
    let delivery = try #require(
      outcome.tornado.first { $0.parameter == "scenario.sessions.delivery" })
    let levels = try #require(delivery.levels)
    #expect(outcome.tornado.filter { $0.levels != nil }.count == 1, "only delivery is categorical")
    #expect(levels.map(\.worlds).reduce(0, +) == 10)
    // Each level's winners and worlds best, from robust.csv: regret 0 is best (a tie shares).
    let header = outcome.table.header
    let column = header.firstIndex(of: "scenario.sessions.delivery")!
    let metric = header.firstIndex(of: "metric")!
    let mean = header.firstIndex(of: "mean")!
    let policy = header.firstIndex(of: "policy")!
    var best: [String: [String: [String]]] = [:]  // level → world → best policies
    for line in outcome.table.text.split(separator: "\n").dropFirst() {
      let fields = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
      guard fields[metric] == "regret_per_1k_users", Double(fields[mean]) == 0 else { continue }
      best[fields[column], default: [:]][fields[0], default: []].append(fields[policy])
    }
    for level in levels {
      var wins: [String: Double] = [:]
      for (_, policies) in best[level.value] ?? [:] {
        for name in policies { wins[name, default: 0] += 1 / Double(policies.count) }
      }
      let most = wins.values.max() ?? 0
      #expect(abs(level.worldsBest - most) < 1e-9, "\(level.value)")
      #expect(Set(level.winners) == Set(wins.filter { abs($0.value - most) < 1e-9 }.keys))
    }
    let lines = outcome.terminalLines
    for level in levels {
      let sentence = RobustOutcome.sentence(level, of: delivery)
      #expect(sentence.hasPrefix("with `\(level.value)` delivery, "), "\(sentence)")
      #expect(sentence.contains(" of worlds ("), "\(sentence)")
      #expect(lines.contains("    " + sentence), "\(lines)")
    }
    let row = try #require(lines.first { $0.hasPrefix("  scenario.sessions.delivery ") })
    #expect(!row.contains("larger favours"), "\(row)")
    #expect(row.hasSuffix("by level (no order):"), "\(row)")
    // A numeric parameter keeps its direction.
    #expect(
      lines.contains {
        $0.contains("value.consent_deadline_missed") && $0.contains("larger favours")
      })
    let html = HTMLReport.renderRobust(name: "s", plan: plan, worlds: worlds, outcome: outcome)
    #expect(html.contains("<code>scenario.sessions.delivery</code> has no order"))
    #expect(html.contains("with <code>\(levels[0].value)</code> delivery, "))
  }

  @Test func aLevelSentenceNamesTheWinnerAndTheShare() {
    let delivery = RobustOutcome.Influence(
      parameter: "scenario.sessions.delivery", rho: 0.4, source: "s", levels: [])
    #expect(
      RobustOutcome.sentence(
        .init(value: "launch", worlds: 10, winners: ["storekit-auto"], worldsBest: 7),
        of: delivery) == "with `launch` delivery, storekit-auto wins 70% of worlds (7 of 10)")
    #expect(
      RobustOutcome.sentence(
        .init(value: "launch", worlds: 4, winners: ["a", "b"], worldsBest: 1.5), of: delivery)
        == "with `launch` delivery, a and b each win 38% of worlds (1.5 of 4)")
  }

  /// Bad study files: every problem at once, each with its JSON path and a fix.
  @Test(arguments: [
    (
      #"{"parameters": {"value.onboarding_completed": {"uniform": {"min": 1, "max": 2}, "source": "s"}}, "wolds": 3}"#,
      "$.wolds: unknown key 'wolds'; did you mean 'worlds'?"
    ),
    (
      #"{"parameters": {"value.onboarding_completed": {"uniform": {"min": 2, "max": 1}, "source": "s"}}}"#,
      "$.parameters.value.onboarding_completed.uniform: min 2 must be below max 1"
    ),
    (
      #"{"parameters": {"value.onboarding_completed": {"uniform": {"min": 1, "max": 2}}}}"#,
      "$.parameters.value.onboarding_completed.source: missing"
    ),
    (
      #"{"parameters": {"value.onboarding": {"uniform": {"min": 1, "max": 2}, "source": "s"}}}"#,
      "did you mean 'value.onboarding_completed'?"
    ),
    (
      #"{"parameters": {"scenario.population.nope": {"uniform": {"min": 0.1, "max": 0.2}, "source": "s"}}}"#,
      "$.parameters.scenario.population.nope: the scenario has no value at 'population.nope'"
    ),
    (
      #"{"parameters": {"scenario.horizon": {"log_uniform": {"min": "0s", "max": "2d"}, "source": "s"}}}"#,
      "$.parameters.scenario.horizon.log_uniform.min: must be above 0"
    ),
    (
      #"{"parameters": {"scenario.horizon": {"uniform": {"min": "1d", "max": 9}, "source": "s"}}}"#,
      "write every bound as a duration"
    ),
    (
      #"{"parameters": {"scenario.horizon": {"uniform": {"min": "1x", "max": "2d"}, "source": "s"}}}"#,
      "$.parameters.scenario.horizon.uniform.min: unknown unit 'x'"
    ),
    (
      #"{"worlds": 2, "design": "grid", "parameters": {}}"#,
      "$.worlds: must be between 4 and 10000, got 2; give a number of worlds in that range"
    ),
    (
      #"{"policies": ["storekit-auto", "nope"], "parameters": {"value.onboarding_completed": {"values": [1], "source": "s"}}}"#,
      "$.policies[1]: 'nope' is not a policy of the scenario"
    ),
    (
      #"{"parameters": {"scenario.population.new_user_share": {"uniform": {"min": 0.5, "max": 1.5}, "source": "s"}}}"#,
      "world"
    ),
  ])
  func badFilesNameThePathAndTheFix(source: String, expected: String) {
    do {
      _ = try RobustPlan.load(source: source, file: "bad.json")
      Issue.record("accepted: \(source)")
    } catch {
      #expect(error.description.contains(expected), "\(error.description)")
    }
  }

  /// A scenario without a value section cannot rank policies: refused, with the fix.
  @Test func aScenarioWithoutValuesIsRefused() throws {
    let mobile = Self.root.appendingPathComponent("scenarios/mobile-game.json").path
    let source = """
      {"scenario": "\(mobile)",
       "parameters": {"scenario.population.new_user_share": {"uniform": {"min": 0.1, "max": 0.2},
                      "source": "s"}}}
      """
    do {
      _ = try RobustPlan.load(source: source, file: "novalue.json")
      Issue.record("a scenario without a value section was accepted")
    } catch {
      #expect(error.description.contains("novalue.json: $.scenario: "), "\(error)")
      #expect(error.description.contains("no 'value' section"), "\(error)")
    }
    // A value.KEY parameter creates the section: accepted.
    let priced = source.replacingOccurrences(
      of: "\"parameters\": {",
      with: "\"parameters\": {\"value.onboarding_completed\": "
        + "{\"values\": [5], \"source\": \"s\"}, ")
    let plan = try RobustPlan.load(source: priced, file: "priced.json")
    let worlds = try plan.drawWorlds(file: "priced.json")
    #expect(worlds.allSatisfy { $0.scenario.value?.onboardingCompleted == 5 })
  }

  /// The report: both charts, well-formed, nothing loaded or run, names escaped.
  @Test func reportHoldsBothChartsAndIsSelfContained() throws {
    let (plan, worlds, outcome) = try Self.run(
      Self.flipStudy.replacingOccurrences(of: "\"worlds\": 10", with: "\"worlds\": 4")
        .replacingOccurrences(of: "\"users\": 200", with: "\"users\": 40"))
    let html = HTMLReport.renderRobust(
      name: "<study>", plan: plan, worlds: worlds, outcome: outcome)
    #expect(html.contains("id=\"robust-share-best\""))
    #expect(html.contains("id=\"robust-tornado\""))
    #expect(html.contains("&lt;study&gt;"))
    #expect(!html.contains("<study>"))
    #expect(!html.contains("<script"))
    try HTMLReportTests.expectWellFormedCharts(html, charts: 2)
  }

  /// The page in a real headless browser, as ``HTMLReportBrowserTests`` checks a run's: loads
  /// without a console message, holds its two charts, draws a screenshot that is not blank.
  @Test(
    .enabled(
      if: HTMLReportBrowserTests.browser != nil || HTMLReportBrowserTests.isCI,
      Comment(rawValue: "skipped: no headless Chromium on the PATH")),
    .timeLimit(.minutes(3)))
  func reportLoadsCleanlyInABrowser() throws {
    guard HTMLReportBrowserTests.browser != nil else {
      Issue.record("CI=true but no headless Chromium on the PATH")
      return
    }
    let (plan, worlds, outcome) = try Self.run(
      Self.flipStudy.replacingOccurrences(of: "\"worlds\": 10", with: "\"worlds\": 4")
        .replacingOccurrences(of: "\"users\": 200", with: "\"users\": 40"))
    let folder = TestScratch.directory.appendingPathComponent(
      "robust-browser-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let page = folder.appendingPathComponent("report.html")
    try Data(
      HTMLReport.renderRobust(name: "flip", plan: plan, worlds: worlds, outcome: outcome).utf8
    ).write(to: page)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/bash")
    process.arguments = [
      Self.root.appendingPathComponent("scripts/browser-check.sh").path, page.path,
      folder.appendingPathComponent("report.png").path,
    ]
    process.environment = ProcessInfo.processInfo.environment.merging(
      ["BROWSER_CHECK_MIN_CHARTS": "2"]
    ) { _, new in new }
    let output = Pipe()
    process.standardOutput = output
    process.standardError = output
    try process.run()
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationStatus == 0, "browser-check.sh failed:\n\(text)")
    #expect(text.contains("browser-check: ok"), "\(text)")
    #expect(text.contains("browser-check: layout ok"), "\(text)")
  }
}
