import Foundation
import MessageDeferral
import Simulation
import Testing

@Suite("Scenario loader")
struct ScenarioLoaderTests {
  @Test func minimalTemplateLoadsWithDefaults() throws {
    let scenario = try ScenarioLoader.load(json: ScenarioTemplates.minimal, file: "tiny.json")
    #expect(scenario.name == "tiny")
    #expect(scenario.description == "")
    #expect(scenario.horizon == 30 * 86_400)
    #expect(scenario.users == ScenarioLoader.defaultUsers)
    #expect(scenario.replications == ScenarioLoader.defaultReplications)
    #expect(scenario.seed == ScenarioLoader.defaultSeed)
    #expect(scenario.baseline == "storekit-auto")
    #expect(scenario.policies.map(\.name) == ["storekit-auto", "deadline-aware"])
    #expect(scenario.population.installWindow == 0...(25 * 86_400))
    #expect(scenario.sessions.gap == .exponential(mean: 8 * 3600))
    #expect(scenario.sessions.fetchDelay == .fixed(1))
    #expect(scenario.sessions.delivery == .launch)
    #expect(scenario.screens.map(\.name) == ["splash", "intro", "home", "player"])
    #expect(scenario.screens[0].dwell == .fixed(1.5))
    #expect(scenario.screens[0].transitions.isEmpty)
    #expect(scenario.screens[1].dwell == .lognormal(median: 10, sigma: 0.8))
    #expect(scenario.screens[2].dwell == .uniform(low: 5, high: 60))
    #expect(scenario.screens[3].dwell == .gamma(shape: 2, scale: 180))
    #expect(scenario.scene.activationDelay == .weibull(shape: 1.5, scale: 0.3))
    #expect(scenario.sheetDwell == .empirical(values: [3, 6, 12], weights: [1, 2, 1]))
    #expect(
      scenario.screens[2].transitions == [
        .init(target: .screen(3), probability: 0.5), .init(target: .background, probability: 0.5),
      ])
    #expect(scenario.entries == Entries(coldLaunch: 0, newUser: 1, returning: 2))
    let consent = try #require(scenario.messages.consent)
    #expect(consent.start == 3 * 86_400)
    #expect(consent.rolloutWindow == 2 * 86_400)
    #expect(consent.audienceShare == 0.8)
    #expect(consent.deadline == .uniform(low: 7 * 86_400, high: 30 * 86_400))
    #expect(consent.expiry == nil)
    #expect(
      scenario.messages.recurring == [
        RecurringMessages(
          reason: .billingIssue, audience: .subscribers, meanInterval: 120 * 86_400,
          expiry: .exponential(mean: 3 * 86_400)),
        RecurringMessages(
          reason: .unknown(rawValue: 7), audience: .all, meanInterval: 365 * 86_400, expiry: nil),
      ])
  }

  @Test func transitionsKeepFileOrder() throws {
    let text = ScenarioTemplates.minimal(replacing: [
      (
        InvalidScenarioCase.homeTransitions,
        "\"transitions\": {\"background\": 0.5, \"player\": 0.5}"
      )
    ])
    let scenario = try ScenarioLoader.load(json: text, file: "t.json")
    #expect(scenario.screens[2].transitions.map(\.target) == [.background, .screen(3)])
  }

  /// 0.1 + 0.2 + 0.7 is 1.0000000000000002 in binary floating point: within 1e-9, accepted.
  @Test func transitionSumToleratesRounding() throws {
    let text = ScenarioTemplates.minimal(replacing: [
      (
        InvalidScenarioCase.homeTransitions,
        "\"transitions\": {\"player\": 0.1, \"home\": 0.2, \"background\": 0.7}"
      )
    ])
    #expect(throws: Never.self) { try ScenarioLoader.load(json: text, file: "t.json") }
  }

  @Test func explicitRunSizeSeedAndBaseline() throws {
    let text = ScenarioTemplates.minimal(replacing: [
      (
        InvalidScenarioCase.horizon,
        "\"horizon\": 2592000, \"users\": 1e3, \"replications\": 2, "
          + "\"seed\": 18446744073709551615, \"baseline\": \"deadline-aware\","
      )
    ])
    let scenario = try ScenarioLoader.load(json: text, file: "t.json")
    #expect(scenario.horizon == 30 * 86_400)
    #expect(scenario.users == 1000)
    #expect(scenario.replications == 2)
    #expect(scenario.seed == UInt64.max)
    #expect(scenario.baseline == "deadline-aware")
  }

  @Test func seedAsAStringOfDigits() throws {
    let text = ScenarioTemplates.minimal(replacing: [
      (InvalidScenarioCase.horizon, "\"horizon\": \"30d\", \"seed\": \"9007199254740993\",")
    ])
    #expect(try ScenarioLoader.load(json: text, file: "t.json").seed == 9_007_199_254_740_993)
  }

  @Test func baselineDefaultsToTheFirstPolicyWithoutStoreKitAuto() throws {
    let text = ScenarioTemplates.minimal(replacing: [
      (InvalidScenarioCase.policies, "[\"never\", \"deadline-aware\"]")
    ])
    #expect(try ScenarioLoader.load(json: text, file: "t.json").baseline == "never")
  }

  @Test(arguments: InvalidScenarioCase.all)
  func invalidDocumentIsReported(_ invalid: InvalidScenarioCase) throws {
    let errors = try #require(
      ScenarioTemplates.errors(of: invalid.document), "the document was accepted")
    let matching = errors.problems.filter {
      $0.path == invalid.path && $0.message.contains(invalid.fragment)
    }
    #expect(
      !matching.isEmpty,
      "expected \(invalid.path): ...\(invalid.fragment)...; got:\n\(errors.description)")
    for problem in errors.problems {
      #expect(problem.message.contains("; "), "no fix given: \(problem)")
    }
    for line in errors.description.split(separator: "\n") {
      #expect(line.hasPrefix("test.json: "))
    }
    if invalid.path.isEmpty { #expect(matching.first?.position != nil) }
  }

  @Test func issueExampleLineIsRenderedExactly() throws {
    let text = ScenarioTemplates.minimal(replacing: [("\"sigma\": 0.8", "\"sigma\": -1")])
    let errors = try #require(ScenarioTemplates.errors(of: text, file: "app.json"))
    #expect(
      errors.description
        == "app.json: $.screens[1].dwell.lognormal.sigma: must be > 0, got -1; give a positive "
        + "sigma such as 0.8")
    #expect(errors.problems.first?.position == SourcePosition(line: 22, column: 57))
  }

  @Test func everyProblemOfADocumentIsReportedInFileOrder() throws {
    let text = ScenarioTemplates.minimal(replacing: [
      (InvalidScenarioCase.schemaVersion, "\"schema\": 2,"),
      (InvalidScenarioCase.horizon, InvalidScenarioCase.horizon + " \"users\": 0,"),
      (
        "\"background_termination_probability\": 0.5",
        "\"background_termination_probability\": 1.5"
      ),
      ("\"dwell\": {\"lognormal\"", "\"dwel\": {\"lognormal\""),
      (
        InvalidScenarioCase.homeTransitions,
        "\"transitions\": {\"player\": 0.4, \"background\": 0.5}"
      ),
      ("{\"gamma\":", "{\"gama\":"),
      ("\"campaign_start\": \"3d\"", "\"campaign_start\": \"3\""),
      (InvalidScenarioCase.policies, "[\"storekit-auto\", \"deadline-awar\"]"),
    ])
    let errors = try #require(ScenarioTemplates.errors(of: text))
    #expect(
      errors.problems.map(\.path) == [
        "$.schema", "$.users", "$.sessions.background_termination_probability",
        "$.screens[1].dwel", "$.screens[2].transitions", "$.screens[3].dwell.gama",
        "$.messages.price_increase_consent.campaign_start", "$.policies[1]",
      ], "\(errors)")
    #expect(errors.description.split(separator: "\n").count == 8)
  }

  /// A misspelled transition target is one mistake: it is not also reported as an unreachable
  /// screen or a screen that cannot leave.
  @Test func aMisspelledTargetIsReportedOnce() throws {
    let text = ScenarioTemplates.minimal(replacing: [
      (
        InvalidScenarioCase.homeTransitions,
        "\"transitions\": {\"playr\": 0.5, \"background\": 0.5}"
      )
    ])
    let errors = try #require(ScenarioTemplates.errors(of: text))
    #expect(errors.problems.count == 1, "\(errors)")
  }

  @Test func launchScreenMayHaveEmptyTransitions() throws {
    let splash = InvalidScenarioCase.splash
    let text = ScenarioTemplates.minimal(replacing: [
      (splash, String(splash.dropLast()) + ", \"transitions\": {}}")
    ])
    #expect(throws: Never.self) { try ScenarioLoader.load(json: text, file: "t.json") }
  }

  /// `{}` on a screen that needs transitions is one problem, not also an unreachable screen
  /// and a screen that cannot leave.
  @Test func emptyTransitionsAreReportedOnce() throws {
    let text = ScenarioTemplates.minimal(replacing: [
      (InvalidScenarioCase.homeTransitions, "\"transitions\": {}")
    ])
    let errors = try #require(ScenarioTemplates.errors(of: text))
    #expect(errors.problems.count == 1, "\(errors)")
  }

  /// "note" is closest to "name", but a screen already has a name: no suggestion then.
  @Test func suggestionsSkipKeysAlreadyPresent() throws {
    let text = ScenarioTemplates.minimal(replacing: [
      (InvalidScenarioCase.playerTransitions, "\"note\": 1")
    ])
    let errors = try #require(ScenarioTemplates.errors(of: text))
    #expect(
      errors.problems.contains {
        $0.message
          == "unknown key 'note'; valid keys: name, kind, dwell, transitions, transitions_after"
      }, "\(errors)")
  }

  @Test func syntaxErrorsCarryLineAndColumn() throws {
    let text = "{\n  \"schema\": 1\n  \"name\": \"x\"\n}\n"
    let errors = try #require(ScenarioTemplates.errors(of: text, file: "bad.json"))
    #expect(errors.problems.count == 1)
    #expect(errors.problems[0].path == "")
    #expect(errors.problems[0].position == SourcePosition(line: 3, column: 3))
    #expect(
      errors.description
        == "bad.json: line 3, column 3: expected ',' or '}' after an object member, found '\"'; "
        + "separate members with ',' and close the object with '}'")
  }

  @Test(arguments: [
    ("[]", "a scenario must be a JSON object, got an array"),
    ("\"x\"", "a scenario must be a JSON object, got a string"),
    ("{}", "missing key 'schema'"),
  ])
  func documentsThatAreNotScenarios(text: String, fragment: String) throws {
    let errors = try #require(ScenarioTemplates.errors(of: text))
    #expect(errors.problems.contains { $0.message.contains(fragment) }, "\(errors)")
  }

  @Test func anEmptyObjectReportsEveryRequiredKey() throws {
    let errors = try #require(ScenarioTemplates.errors(of: "{}"))
    let missing = errors.problems.compactMap { problem -> String? in
      guard problem.message.hasPrefix("missing key '") else { return nil }
      return String(problem.message.dropFirst(13).prefix { $0 != "'" })
    }
    #expect(
      missing == [
        "schema", "name", "horizon", "population", "sessions", "screens", "entries", "onboarding",
        "scene", "sheet_dwell", "messages", "policies",
      ])
  }

  /// A large hostile graph: 2000 screens in a cycle that never leaves. Each is reported,
  /// with a short message (the trapped screens listed are capped), and nothing else.
  @Test func manyTrappedScreensAreEachReportedBriefly() throws {
    let count = 2000
    let cycle = (0..<count).map { index in
      "{\"name\": \"s\(index)\", \"kind\": \"content\", \"dwell\": {\"fixed\": \"1s\"}, "
        + "\"transitions\": {\"s\((index + 1) % count)\": 1}}"
    }.joined(separator: ", ")
    let text = ScenarioTemplates.minimal(replacing: [
      (
        InvalidScenarioCase.homeTransitions,
        "\"transitions\": {\"player\": 0.5, \"background\": 0.4, \"s0\": 0.1}"
      ),
      (InvalidScenarioCase.splash, InvalidScenarioCase.splash + ", " + cycle),
    ])
    let errors = try #require(ScenarioTemplates.errors(of: text))
    #expect(errors.problems.count == count)
    #expect(errors.problems.allSatisfy { $0.message.contains("can never go to the background") })
    #expect(errors.problems.allSatisfy { $0.message.count < 300 })
  }

  @Test func missingFileAndFolderAreReported() throws {
    let missing = "/nonexistent/deferral-sim/scenario.json"
    #expect {
      try ScenarioLoader.load(contentsOf: missing)
    } throws: { error in
      (error as? ScenarioErrors)?.description.hasPrefix("\(missing): no such file") == true
    }
    let folder = ScenarioFixtures.scenariosFolder.path
    #expect {
      try ScenarioLoader.load(contentsOf: folder)
    } throws: { error in
      (error as? ScenarioErrors)?.description.contains("is a folder") == true
    }
  }
}
