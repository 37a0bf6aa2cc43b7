import Foundation
import MessageDeferral
import Reports
import Simulation

/// A tune file, checked: the world, the base policy, the knobs and their ranges, the
/// objective and constraints, the presets to beat, the search's sizes and the selection's
/// guarantee. Every problem is reported with its JSON path before any work.
///
/// ```json
/// {"scenario": "indie-subscription.json", "base": {"preset": "deadline-aware-value"},
///  "knobs": {"sheets_per_break": {"integer": [1, 3]},
///            "urgent_consent.return_factor": {"number": [1, 6]},
///            "ceilings.price_increase_consent": {"duration": ["1h", "48h"]},
///            "gate.home": {"choices": ["open", "closed"]}},
///  "objective": "value_per_1k_users",
///  "constraints": {"onboarding_interruption_rate": {"at_most": 0}},
///  "compare": ["storekit-auto", "deadline-aware-value"],
///  "search": {"candidates": 24, "users": 1000, "replications": 4, "finalists": 4},
///  "selection": {"alpha": 0.05, "delta": 2, "users": 2000, "initial_replications": 10,
///                "max_replications": 100},
///  "seed": 7}
/// ```
public struct TunePlan: Sendable {
  /// The scenario's file (or the embedded default's name), its text, and the search, ready
  /// to run.
  public var scenarioFile: String
  public var scenarioSource: String
  public var search: TuneSearch
  /// The tune file's text, and the text of the study it names (`nil` without `study`): with
  /// ``scenarioSource``, all a tune over shards stores to load the tune again
  /// (``load(source:file:scenarioSource:studySource:)``).
  public var source = ""
  public var studySource: String?

  /// Reads and checks a tune file.
  public static func load(contentsOf path: String) throws(ScenarioErrors) -> TunePlan {
    try load(source: try ExperimentFile.text(contentsOf: path), file: path)
  }

  /// Whether the file at `path` is a tune file (a JSON object with `knobs`), for `validate`.
  public static func isTune(contentsOf path: String) -> Bool {
    ExperimentFile.topLevel(contentsOf: path)?["knobs"] != nil
  }

  /// `study` (an uncertainty study's file, whose scenario and worlds the tune runs in) and
  /// `across_worlds` (how a policy's objective over the worlds is summed up).
  static func readStudy(
    _ value: ConfigValue, file path: String, stored: (study: String, scenario: String)?,
    problems: inout [ScenarioErrors.Problem]
  ) -> (plan: RobustPlan, worlds: [Scenario], across: TuneSearch.AcrossWorlds)? {
    var across = TuneSearch.AcrossWorlds.expectedValue
    if let node = value["across_worlds"] {
      let names = TuneSearch.AcrossWorlds.allCases.map(\.rawValue)
      if case .string(let text) = node, let read = TuneSearch.AcrossWorlds(rawValue: text) {
        across = read
      } else {
        problems.append(
          .init(path: "$.across_worlds", message: "must be one of \(names.joined(separator: ", "))")
        )
      }
      if value["study"] == nil {
        problems.append(
          .init(path: "$.across_worlds", message: "needs 'study': the worlds to sum up over"))
      }
    }
    guard let node = value["study"] else { return nil }
    if value["scenario"] != nil {
      problems.append(
        .init(
          path: "$.study",
          message: "give 'scenario' or 'study', not both: a study names its own scenario"))
      return nil
    }
    guard case .string(let file) = node else {
      problems.append(.init(path: "$.study", message: "must be a file path (a string)"))
      return nil
    }
    let resolved =
      file.hasPrefix("/")
      ? file
      : ((path as NSString).deletingLastPathComponent as NSString).appendingPathComponent(file)
    do {
      let plan =
        try stored.map {
          try RobustPlan.load(source: $0.study, file: file, scenarioSource: $0.scenario)
        } ?? RobustPlan.load(contentsOf: resolved)
      let worlds = try plan.drawWorlds(file: resolved).map(\.scenario)
      return (plan, worlds, across)
    } catch {
      problems.append(
        .init(
          path: "$.study",
          message: "the study '\(file)' has problems (relative paths start at this file); run "
            + "'deferral-sim validate \(resolved)'"))
      return nil
    }
  }

  static func isString(_ value: ConfigValue) -> Bool {
    if case .string = value { return true }
    return false
  }

  /// The keys a tune file may have.
  static let keys = [
    "description", "scenario", "study", "across_worlds", "base", "knobs", "objective",
    "constraints", "compare", "search", "selection", "seed",
  ]

  /// Checks a tune file's text (`file` names it in problems and resolves `scenario`). With
  /// `scenarioSource` (and `studySource` for a tune with `study`), the texts a tune over
  /// shards stored are read instead of the files the tune names.
  public static func load(
    source: String, file path: String, scenarioSource storedScenario: String? = nil,
    studySource storedStudy: String? = nil
  ) throws(ScenarioErrors) -> TunePlan {
    let root = try ScenarioErrors.parsing(source, file: path)
    var problems: [ScenarioErrors.Problem] = []
    let value = root.configValue
    guard case .object = value else {
      throw ScenarioErrors(
        file: path,
        problems: [.init(path: "$", message: "a tune file is a JSON object; see README, Tune")])
    }
    ScenarioFields.checkKeys(root, at: "$", keys: keys, problems: &problems)
    if let description = value["description"], !Self.isString(description) {
      problems.append(
        .init(path: "$.description", message: "must be a string: what the tune is for"))
    }
    var (scenarioFile, scenarioSource) = SweepPlan.readScenario(
      value["scenario"], file: path, stored: storedStudy == nil ? storedScenario : nil,
      problems: &problems)
    let study = readStudy(
      value, file: path,
      stored: storedStudy.flatMap { study in storedScenario.map { (study, $0) } },
      problems: &problems)
    if let study {
      scenarioFile = study.plan.scenarioFile
      scenarioSource = study.plan.scenarioSource
    }
    var scenario: Scenario?
    do {
      scenario = try ScenarioLoader.load(json: scenarioSource, file: scenarioFile)
    } catch {
      problems.append(
        .init(
          path: "$.scenario",
          message: "the scenario has problems; run 'deferral-sim validate \(scenarioFile)'"))
    }
    let base = readBase(value["base"], problems: &problems)
    let knobs = readKnobs(value["knobs"], problems: &problems)
    var objective = MetricID.valuePer1kUsers
    if let text = value["objective"] {
      if case .string(let name) = text, let id = MetricID(name: name) {
        objective = id
      } else {
        problems.append(
          .init(path: "$.objective", message: "must be a metric name: \(MetricID.namesList)"))
      }
    }
    if objective.metric.name.hasPrefix("value"), let scenario, scenario.value == nil {
      problems.append(
        .init(
          path: "$.objective",
          message: "\(objective.name) needs the scenario's 'value' section; add one, or tune "
            + "another metric (e.g. consent_deadline_miss_rate)"))
    }
    let constraints = readConstraints(value["constraints"], problems: &problems)
    let compare = readCompare(value["compare"], scenario: scenario, problems: &problems)
    let search = readObject(
      value["search"], at: "$.search",
      defaults: [
        "candidates": 24, "users": 1000, "replications": 4, "finalists": 4, "local_steps": 0,
      ],
      integerRanges: [
        "candidates": 1...512, "users": 1...1_000_000, "replications": 2...1000,
        "finalists": 1...64, "local_steps": 0...32,
      ], textKeys: ["first_round"], problems: &problems)
    let firstRound = readFirstRound(
      value["search"]?["first_round"], knobs: knobs, problems: &problems)
    let selection = readObject(
      value["selection"], at: "$.selection",
      defaults: [
        "alpha": 0.05, "delta": 1, "users": 2000, "initial_replications": 10,
        "max_replications": 100,
      ],
      integerRanges: [
        "users": 1...1_000_000, "initial_replications": 2...1000, "max_replications": 2...100_000,
      ], problems: &problems)
    if let alpha = selection["alpha"], !(alpha > 0 && alpha < 1) {
      problems.append(.init(path: "$.selection.alpha", message: "must be in (0, 1), e.g. 0.05"))
    }
    if let delta = selection["delta"], !(delta > 0 && delta.isFinite) {
      problems.append(
        .init(
          path: "$.selection.delta",
          message: "must be a positive number in the objective's unit: the smallest difference "
            + "worth telling apart"))
    }
    if let first = selection["initial_replications"], let most = selection["max_replications"],
      most < first
    {
      problems.append(
        .init(
          path: "$.selection.max_replications",
          message: "\(Int(most)) is below initial_replications (\(Int(first)))"))
    }
    var seed: UInt64 = scenario?.seed ?? 1
    if let node = root["seed"],
      let read = ScenarioFields.seed(node, at: "$.seed", problems: &problems)
    {
      seed = read
    }
    guard problems.isEmpty, let scenario else {
      throw ScenarioErrors(file: path, problems: problems)
    }
    var tune = TuneSearch(
      scenario: scenario, base: base, knobs: knobs, objective: objective,
      constraints: constraints, candidates: Int(search["candidates"]!),
      users: Int(search["users"]!), replications: Int(search["replications"]!),
      finalists: Int(search["finalists"]!),
      selection: IndifferenceZoneSelection(
        alpha: selection["alpha"]!, delta: selection["delta"]!,
        initialReplications: Int(selection["initial_replications"]!),
        maximumReplications: Int(selection["max_replications"]!)),
      selectionUsers: Int(selection["users"]!), compare: compare, seed: seed)
    tune.localSteps =
      value["search"]?["local_steps"] == nil
      ? TuneSearch.defaultLocalSteps(for: knobs) : Int(search["local_steps"]!)
    tune.firstRound = firstRound
    if let study {
      tune.worlds = study.worlds
      tune.acrossWorlds = study.across
    }
    // Every candidate must be a policy: a bad knob value is an input error, found now.
    do {
      _ = try tune.candidatePolicies()
    } catch {
      // A problem under a knob's key is the knob's: name it by the knob, as the file does.
      throw ScenarioErrors(
        file: path,
        problems: error.issues.map { issue in
          let knob = knobs.first { issue.path.hasPrefix("$.base.\($0.name)") }
          return .init(
            path: knob.map { "$.knobs.\($0.name)" } ?? issue.path, message: issue.message)
        })
    }
    var plan = TunePlan(scenarioFile: scenarioFile, scenarioSource: scenarioSource, search: tune)
    plan.source = source
    plan.studySource = study?.plan.source
    return plan
  }

  static func readBase(
    _ value: ConfigValue?, problems: inout [ScenarioErrors.Problem]
  ) -> [ConfigValue.Member] {
    switch value {
    case nil:
      problems.append(
        .init(
          path: "$.base",
          message: "missing; the policy the knobs change, e.g. {\"preset\": \"deadline-aware\"}"))
    case .string(let name)? where PolicyCatalog.preset(named: name) != nil:
      return [.init(key: "preset", value: .string(name))]
    case .object(let members)?:
      let kept = members.filter { $0.key != "name" }
      let probe = [ConfigValue.Member(key: "name", value: .string("base"))] + kept
      if case .failure(let issues) = PolicyCatalog.definition(from: .object(probe), at: "$.base") {
        problems += issues.issues.map { .init(path: $0.path, message: $0.message) }
      }
      return kept
    default:
      problems.append(
        .init(
          path: "$.base",
          message: "must be a preset name or a policy object, e.g. {\"preset\": \"deadline-aware\"}"
        ))
    }
    return []
  }

  static func readKnobs(
    _ value: ConfigValue?, problems: inout [ScenarioErrors.Problem]
  ) -> [TuneKnob] {
    guard case .object(let members)? = value, !members.isEmpty else {
      problems.append(
        .init(
          path: "$.knobs",
          message: "missing or empty; give policy keys with their ranges, e.g. "
            + "{\"sheets_per_break\": {\"integer\": [1, 3]}}"))
      return []
    }
    var knobs: [TuneKnob] = []
    for member in members {
      let at = "$.knobs.\(member.key)"
      let form =
        "one of {\"number\": [low, high]}, {\"integer\": [low, high]}, "
        + "{\"duration\": [\"1h\", \"48h\"]}, {\"choices\": [value, ...]}"
      guard case .object(let kinds) = member.value, kinds.count == 1, let kind = kinds.first else {
        problems.append(.init(path: at, message: "must be \(form)"))
        continue
      }
      let kindPath = "\(at).\(kind.key)"
      func pair() -> (ConfigValue, ConfigValue)? {
        guard case .array(let items) = kind.value, items.count == 2 else {
          problems.append(.init(path: kindPath, message: "must be [low, high]"))
          return nil
        }
        return (items[0], items[1])
      }
      switch kind.key {
      case "number", "integer":
        guard let (low, high) = pair() else { continue }
        guard case .number(let a) = low, case .number(let b) = high, a.isFinite, b.isFinite,
          a <= b
        else {
          problems.append(.init(path: kindPath, message: "must be two numbers, low ≤ high"))
          continue
        }
        if kind.key == "number" {
          knobs.append(TuneKnob(name: member.key, domain: .number(low: a, high: b)))
        } else if a.rounded() == a, b.rounded() == b, abs(a) < 1e9, abs(b) < 1e9 {
          knobs.append(TuneKnob(name: member.key, domain: .integer(low: Int(a), high: Int(b))))
        } else {
          problems.append(.init(path: kindPath, message: "must be two whole numbers"))
        }
      case "duration":
        guard let (low, high) = pair() else { continue }
        guard case .string(let a) = low, case .string(let b) = high,
          let from = try? DurationText.seconds(in: a), let to = try? DurationText.seconds(in: b),
          from <= to
        else {
          problems.append(
            .init(
              path: kindPath,
              message: "must be two durations, low ≤ high, e.g. [\"1h\", \"48h\"] (units: "
                + "\(DurationText.unitList))"))
          continue
        }
        knobs.append(TuneKnob(name: member.key, domain: .duration(low: from, high: to)))
      case "choices":
        guard case .array(let items) = kind.value, !items.isEmpty else {
          problems.append(.init(path: kindPath, message: "must be a non-empty array of values"))
          continue
        }
        knobs.append(TuneKnob(name: member.key, domain: .choices(items)))
      default:
        problems.append(.init(path: kindPath, message: "unknown range kind; use \(form)"))
      }
    }
    return knobs
  }

  static func readConstraints(
    _ value: ConfigValue?, problems: inout [ScenarioErrors.Problem]
  ) -> [TuneConstraint] {
    guard let value else { return [] }
    guard case .object(let members) = value else {
      problems.append(
        .init(
          path: "$.constraints",
          message: "must be an object: metric name → {\"at_most\": x} or {\"at_least\": x}"))
      return []
    }
    var constraints: [TuneConstraint] = []
    for member in members {
      let at = "$.constraints.\(member.key)"
      guard let metric = MetricID(name: member.key) else {
        problems.append(.init(path: at, message: "not a metric; one of: \(MetricID.namesList)"))
        continue
      }
      guard case .object(let bound) = member.value, bound.count == 1,
        ["at_most", "at_least"].contains(bound[0].key), case .number(let number) = bound[0].value,
        number.isFinite
      else {
        problems.append(.init(path: at, message: "must be {\"at_most\": x} or {\"at_least\": x}"))
        continue
      }
      constraints.append(
        TuneConstraint(metric: metric, bound: number, atMost: bound[0].key == "at_most"))
    }
    return constraints
  }

  static func readCompare(
    _ value: ConfigValue?, scenario: Scenario?, problems: inout [ScenarioErrors.Problem]
  ) -> [NamedPolicy] {
    guard let value else {
      return PolicyCatalog.presets.map {
        NamedPolicy(name: $0.name, configuration: $0.configuration)
      }
    }
    guard case .array(let items) = value else {
      problems.append(
        .init(path: "$.compare", message: "must be an array of preset or scenario policy names"))
      return []
    }
    var result: [NamedPolicy] = []
    for (index, item) in items.enumerated() {
      if case .string(let name) = item {
        if let own = scenario?.policies.first(where: { $0.name == name }) {
          result.append(own)
          continue
        }
        if let preset = PolicyCatalog.preset(named: name) {
          let policy = NamedPolicy(name: name, configuration: preset.configuration)
          result.append(scenario?.priced(policy, definition: nil) ?? policy)
          continue
        }
      }
      problems.append(
        .init(
          path: "$.compare[\(index)]",
          message: "must be a preset or a policy of the scenario: "
            + PolicyCatalog.presetNames.joined(separator: ", ")))
    }
    return result
  }

  /// `search.first_round` (default `latin_hypercube`): one of ``TuneSearch/FirstRound``;
  /// `every_setting` needs discrete knobs and at most ``TuneSearch/maximumSettingsScreened``
  /// settings.
  static func readFirstRound(
    _ value: ConfigValue?, knobs: [TuneKnob], problems: inout [ScenarioErrors.Problem]
  ) -> TuneSearch.FirstRound {
    guard let value else { return .latinHypercube }
    let at = "$.search.first_round"
    let names = TuneSearch.FirstRound.allCases.map(\.rawValue).joined(separator: ", ")
    guard case .string(let text) = value, let read = TuneSearch.FirstRound(rawValue: text) else {
      problems.append(.init(path: at, message: "must be one of \(names)"))
      return .latinHypercube
    }
    if read == .everySetting, !knobs.isEmpty, TuneSearch.settingsCount(of: knobs) == nil {
      let limit = TuneSearch.maximumSettingsScreened
      if let continuous = knobs.first(where: { $0.levels == nil }) {
        problems.append(
          .init(
            path: at,
            message: "every_setting needs every knob discrete (choices or integer); "
              + "'\(continuous.name)' is continuous: use latin_hypercube"))
      } else {
        problems.append(
          .init(
            path: at,
            message: "every_setting screens at most \(limit) settings and these knobs have "
              + "more: narrow them, or use latin_hypercube (a Latin hypercube of 'candidates')"))
      }
    }
    return read
  }

  /// An object of numbers with defaults; integer keys checked against their ranges. Keys in
  /// `textKeys` are left to the caller (they are not numbers) and named among the keys.
  static func readObject(
    _ value: ConfigValue?, at path: String, defaults: [String: Double],
    integerRanges: [String: ClosedRange<Int>], textKeys: Set<String> = [],
    problems: inout [ScenarioErrors.Problem]
  ) -> [String: Double] {
    var result = defaults
    guard let value else { return result }
    guard case .object(let members) = value else {
      problems.append(.init(path: path, message: "must be an object"))
      return result
    }
    for member in members where !textKeys.contains(member.key) {
      let at = "\(path).\(member.key)"
      guard defaults[member.key] != nil else {
        problems.append(
          .init(
            path: at,
            message: "unknown key; the keys are "
              + (Array(defaults.keys) + textKeys).sorted().joined(separator: ", ")))
        continue
      }
      guard case .number(let number) = member.value, number.isFinite else {
        problems.append(.init(path: at, message: "must be a number"))
        continue
      }
      if let range = integerRanges[member.key] {
        guard number.rounded() == number, number >= Double(range.lowerBound),
          number <= Double(range.upperBound)
        else {
          problems.append(
            .init(
              path: at,
              message: "must be a whole number from \(range.lowerBound) to \(range.upperBound)"))
          continue
        }
      }
      result[member.key] = number
    }
    return result
  }
}
