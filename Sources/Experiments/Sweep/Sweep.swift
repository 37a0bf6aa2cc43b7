import Foundation
import MessageDeferral
import Reports
import Simulation

/// A parameter sweep (`deferral-sim sweep SWEEP.json`): a grid over policy parameters and
/// scenario parameters, every point run on the same users (common random numbers across points
/// too: one seed, and every policy point of a scenario point in one run).
///
/// File format (JSON; documented in README, "Sweeps"):
/// ```json
/// {
///   "scenario": "scenarios/indie-subscription.json",   // optional: the embedded default
///   "users": 5000, "replications": 6, "seed": 42,      // optional overrides
///   "policy": {"preset": "deadline-aware"},             // the policy being tuned
///   "grid": {
///     "policy.ceilings.price_increase_consent": ["2h", "6h", "12h", "24h"],
///     "policy.sheets_per_break": [1, 2, 3],
///     "scenario.population.new_user_share": [0.2, 0.4]
///   },
///   "compare": ["storekit-auto", "screen-gate-ceiling"], // run once per scenario point
///   "pareto": ["onboarding_interruption_rate", "consent_latency_p99_s"]
/// }
/// ```
/// A `policy.KEY` parameter overrides a key of the tuned policy (any key of
/// ``PolicyConfiguration/keys``, dotted into objects); a `scenario.PATH` parameter replaces
/// the value at a dotted path of the scenario file (`[i]` for array items, or a screen's
/// name: `scenario.screens.paywall.dwell`). Every grid point's scenario is validated like a
/// file.
public struct SweepPlan: Sendable {
  public struct Parameter: Sendable {
    /// As written: `policy.sheets_per_break`, `scenario.population.new_user_share`.
    public var name: String
    public var values: [ConfigValue]
    var isPolicy: Bool { name.hasPrefix("policy.") }
    var path: [String] { Array(name.split(separator: ".").dropFirst().map(String.init)) }
  }

  /// The sweep file's text, kept for partial results (`sweep --shard K/N`).
  public var source: String
  /// The text of the scenario the sweep runs on (the embedded default when it names none).
  public var scenarioSource: String
  public var scenarioFile: String
  public var users: Int?
  public var replications: Int?
  public var seed: UInt64?
  public var basePolicy: [ConfigValue.Member]
  public var parameters: [Parameter]
  public var compare: [String]
  public var pareto: (x: MetricID, y: MetricID)
  /// The pair when the sweep names none: onboarding interruptions against consent p99 latency.
  public static let defaultPareto: (x: MetricID, y: MetricID) = (
    .onboardingInterruptionRate, .consentLatencyP99
  )

  /// Reads and checks a sweep file; every problem is reported at once.
  public static func load(contentsOf path: String) throws(ScenarioErrors) -> SweepPlan {
    try load(source: try ExperimentFile.text(contentsOf: path), file: path)
  }

  /// Checks a sweep file's text. `scenarioSource`, when given, is the text of the scenario the
  /// file names (as a partial result stores it), read instead of the file on disk.
  public static func load(
    source: String, file path: String, scenarioSource storedScenario: String? = nil
  ) throws(ScenarioErrors) -> SweepPlan {
    func fail(_ problems: [ScenarioErrors.Problem]) -> ScenarioErrors {
      ScenarioErrors(file: path, problems: problems)
    }
    let root: JSONNode
    do {
      root = try JSONReader.parse(Array(source.utf8))
    } catch {
      throw fail([.init(path: "", message: error.message, position: error.position)])
    }
    var problems: [ScenarioErrors.Problem] = []
    let value = root.configValue
    let keys = ["scenario", "users", "replications", "seed", "policy", "grid", "compare", "pareto"]
    guard case .object = value else {
      throw fail([.init(path: "$", message: "a sweep file is a JSON object; see README, Sweeps")])
    }
    ScenarioFields.checkKeys(root, at: "$", keys: keys, problems: &problems)

    let (scenarioFile, scenarioSource) = readScenario(
      value["scenario"], file: path, stored: storedScenario, problems: &problems)
    let (users, replications, seed) = readRunSettings(root, problems: &problems)
    var basePolicy: [ConfigValue.Member] = [.init(key: "preset", value: .string("deadline-aware"))]
    if let policy = value["policy"] {
      if case .object(let policyMembers) = policy {
        basePolicy = policyMembers.filter { $0.key != "name" }
      } else {
        problems.append(
          .init(
            path: "$.policy",
            message: "must be a policy object, e.g. {\"preset\": \"deadline-aware\"}"))
      }
    }
    var parameters: [Parameter] = []
    if case .object(let grid)? = value["grid"], !grid.isEmpty {
      for entry in grid {
        let at = "$.grid.\(entry.key)"
        guard entry.key.hasPrefix("policy.") || entry.key.hasPrefix("scenario."),
          entry.key.split(separator: ".").count >= 2
        else {
          problems.append(
            .init(
              path: at,
              message:
                "a parameter is 'policy.KEY' or 'scenario.PATH', e.g. 'policy.sheets_per_break'"))
          continue
        }
        guard case .array(let values) = entry.value, !values.isEmpty else {
          problems.append(.init(path: at, message: "must be a non-empty array of values to try"))
          continue
        }
        parameters.append(Parameter(name: entry.key, values: values))
      }
    } else {
      problems.append(
        .init(
          path: "$.grid", message: "missing or empty; give at least one parameter with its values"))
    }
    let points = parameters.reduce(1) { $0 * $1.values.count }
    if points > 10_000 {
      problems.append(.init(path: "$.grid", message: "\(points) points; at most 10000 per sweep"))
    }
    var compare: [String] = []
    if let list = value["compare"] {
      if case .array(let items) = list {
        for (index, item) in items.enumerated() {
          if case .string(let name) = item, PolicyCatalog.preset(named: name) != nil {
            compare.append(name)
          } else {
            problems.append(
              .init(
                path: "$.compare[\(index)]",
                message:
                  "must be a preset name: \(PolicyCatalog.presetNames.joined(separator: ", "))"))
          }
        }
      } else {
        problems.append(.init(path: "$.compare", message: "must be an array of preset names"))
      }
    }
    var pareto = SweepPlan.defaultPareto
    if let pair = value["pareto"] {
      if case .array(let items) = pair, items.count == 2, case .string(let x) = items[0],
        case .string(let y) = items[1], let xID = MetricID(name: x), let yID = MetricID(name: y)
      {
        pareto = (xID, yID)
      } else {
        problems.append(
          .init(
            path: "$.pareto",
            message:
              "must be two metric names, e.g. [\"\(SweepPlan.defaultPareto.x.name)\", "
              + "\"\(SweepPlan.defaultPareto.y.name)\"] (one of: \(MetricID.namesList))"))
      }
    }
    guard problems.isEmpty else { throw fail(problems) }
    let plan = SweepPlan(
      source: source, scenarioSource: scenarioSource, scenarioFile: scenarioFile, users: users,
      replications: replications, seed: seed, basePolicy: basePolicy, parameters: parameters,
      compare: compare, pareto: pareto)
    // Check every point now, before any work: bad values are input errors.
    _ = try plan.scenarioPoints(file: path)
    for point in plan.policyPoints() {
      if case .failure(let issues) = plan.policy(for: point, name: "p") {
        throw fail(issues.issues.map { .init(path: $0.path, message: $0.message) })
      }
    }
    return plan
  }

  /// One combination of the scenario parameters' values (indices into each `values`).
  public typealias Point = [Int]

  /// Whether the file at `path` is meant as a sweep: a JSON object with a `grid` key. Anything
  /// else (unreadable, malformed, a scenario) is not, and is best reported as a scenario.
  /// Whether the file at `path` is a JSON Schema, such as `scenarios/schema.json`, which
  /// `validate scenarios/*.json` meets and skips: a top-level `$schema` and `properties` or
  /// `$defs`, and none of a scenario's or a sweep's keys (scenarios name their schema in
  /// `$schema` too).
  public static func isJSONSchema(contentsOf path: String) -> Bool {
    guard let value = ExperimentFile.topLevel(contentsOf: path),
      case .string? = value["$schema"]
    else { return false }
    return (value["properties"] != nil || value["$defs"] != nil) && value["screens"] == nil
      && value["grid"] == nil
  }

  public static func isSweep(contentsOf path: String) -> Bool {
    ExperimentFile.topLevel(contentsOf: path)?["grid"] != nil
  }

  /// The points the sweep reports: each scenario point × (compared presets + policy points).
  public var pointCount: Int {
    scenarioPointCount * (compare.count + policyPoints().count)
  }

  /// How many scenario points the sweep runs (one engine run each).
  public var scenarioPointCount: Int {
    scenarioParameters.reduce(1) { $0 * $1.values.count }
  }

  var scenarioParameters: [Parameter] { parameters.filter { !$0.isPolicy } }
  var policyParameters: [Parameter] { parameters.filter(\.isPolicy) }

  static func combinations(_ parameters: [Parameter]) -> [Point] {
    parameters.reduce([[]]) { points, parameter in
      points.flatMap { point in parameter.values.indices.map { point + [$0] } }
    }
  }

  func policyPoints() -> [Point] { Self.combinations(policyParameters) }

  /// The scenario of every scenario point, validated.
  func scenarioPoints(file: String) throws(ScenarioErrors) -> [(point: Point, scenario: Scenario)] {
    let root = try ScenarioErrors.parsing(scenarioSource, file: scenarioFile)
    var result: [(Point, Scenario)] = []
    for point in Self.combinations(scenarioParameters) {
      var document = root.configValue
      for (parameter, index) in zip(scenarioParameters, point) {
        guard document.replace(at: parameter.path[...], with: parameter.values[index]) else {
          throw ScenarioErrors(
            file: file,
            problems: [
              .init(
                path: "$.grid.\(parameter.name)",
                message: "the scenario has no value at '\(parameter.path.joined(separator: "."))'")
            ])
        }
      }
      let label =
        "\(scenarioFile) with "
        + zip(scenarioParameters, point).map {
          "\($0.name)=\($0.values[$1].jsonText())"
        }.joined(separator: ", ")
      var scenario = try ScenarioLoader.load(json: document.jsonText(), file: label)
      if let users { scenario.users = users }
      if let replications { scenario.replications = replications }
      if let seed { scenario.seed = seed }
      result.append((point, scenario))
    }
    return result
  }

  /// The tuned policy at a policy point, and its object as a scenario file would define it.
  func policy(
    for point: Point, name: String
  ) -> Result<(policy: NamedPolicy, definition: ConfigValue), ConfigIssues> {
    var members = basePolicy + [ConfigValue.Member(key: "name", value: .string(name))]
    for (parameter, index) in zip(policyParameters, point) {
      var object = ConfigValue.object(members)
      guard object.replace(at: parameter.path[...], with: parameter.values[index], creating: true)
      else {
        return .failure(
          ConfigIssues([
            ConfigIssue(path: "$.grid.\(parameter.name)", message: "not a policy key path")
          ]))
      }
      members = object.objectMembers
    }
    return PolicyCatalog.definition(from: .object(members), at: "$.policy").map {
      ($0, .object(members))
    }
  }

  /// The value of each parameter at a (scenario point, policy point) as CSV text.
  func labels(scenario: Point, policy: Point?) -> [String] {
    var scenarioIndex = 0
    var policyIndex = 0
    return parameters.map { parameter in
      if parameter.isPolicy {
        defer { policyIndex += 1 }
        guard let policy else { return "" }
        return Self.text(parameter.values[policy[policyIndex]])
      }
      defer { scenarioIndex += 1 }
      return Self.text(parameter.values[scenario[scenarioIndex]])
    }
  }

  static func text(_ value: ConfigValue) -> String {
    switch value {
    case .string(let text): text
    case .number(let number): CSVField.format(number)
    default: value.jsonText()
    }
  }
}

extension ScenarioErrors {
  /// The JSON tree of a scenario file's text that a sweep or a study varies, or the syntax
  /// error as a problem of `file`.
  static func parsing(_ source: String, file: String) throws(ScenarioErrors) -> JSONNode {
    do {
      return try JSONReader.parse(source)
    } catch {
      throw ScenarioErrors(
        file: file,
        problems: [.init(path: "", message: error.message, position: error.position)])
    }
  }
}

extension ConfigValue {
  /// Replaces the value at a dotted path (object keys, `[i]`-free indices as numbers, or the
  /// `name` of an array item); with `creating`, missing object keys are added. Returns whether
  /// the path existed (or could be created).
  mutating func replace(
    at path: ArraySlice<String>, with newValue: ConfigValue, creating: Bool = false
  )
    -> Bool
  {
    guard let head = path.first else {
      self = newValue
      return true
    }
    let rest = path.dropFirst()
    switch self {
    case .object(var members):
      if let index = members.firstIndex(where: { $0.key == head }) {
        guard members[index].value.replace(at: rest, with: newValue, creating: creating) else {
          return false
        }
      } else if creating {
        var child = ConfigValue.object([])
        guard child.replace(at: rest, with: newValue, creating: true) else { return false }
        members.append(Member(key: head, value: child))
      } else {
        return false
      }
      self = .object(members)
      return true
    case .array(var items):
      let index =
        Int(head)
        ?? items.firstIndex { $0["name"] == .string(head) }
      guard let index, items.indices.contains(index),
        items[index].replace(at: rest, with: newValue, creating: creating)
      else { return false }
      self = .array(items)
      return true
    default:
      return false
    }
  }
}
