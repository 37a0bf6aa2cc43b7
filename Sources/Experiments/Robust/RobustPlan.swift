import Foundation
import MessageDeferral
import Reports
import Simulation

/// A robustness study (`deferral-sim robust UNCERTAINTY.json`): ranges for uncertain scenario
/// and value parameters, N worlds drawn from them by a space-filling design, every policy run
/// in each world on common random numbers, and which policy is best how often.
///
/// File format (JSON; documented in README, "Robustness", and scenarios/uncertainty/README.md):
/// ```json
/// {
///   "scenario": "../indie-subscription.json",   // optional: the embedded default
///   "users": 2000, "replications": 4, "seed": 42, // optional overrides
///   "worlds": 64, "design": "lhs",               // or "sobol"
///   "policies": ["storekit-auto", "deadline-aware"], // optional: a subset of the scenario's
///   "parameters": {
///     "scenario.population.new_user_share": {"uniform": {"min": 0.15, "max": 0.45},
///                                            "source": "scenarios/README.md, Population"},
///     "scenario.sessions.gap.lognormal.median": {"log_uniform": {"min": "3h", "max": "14h"},
///                                                "source": "assumption"},
///     "value.onboarding_completed": {"triangular": {"min": 2, "mode": 6, "max": 15},
///                                    "source": "..."},
///     "scenario.sessions.delivery": {"values": ["launch_and_resume", "launch_only"],
///                                    "source": "..."}
///   }
/// }
/// ```
/// `scenario.PATH` is a dotted path into the scenario file as in sweeps; `value.KEY` is an
/// amount of its `value` section (created when the scenario leaves it out). Every world's
/// scenario is validated like a file, and must have a `value` section: a world's best policy
/// is the one with the highest `value_per_1k_users`.
public struct RobustPlan: Sendable {
  /// The study file's text, kept for partial results (`robust --shard K/N`).
  public var source: String
  /// The text of the scenario the worlds vary (the embedded default when the file names none).
  public var scenarioSource: String
  public var scenarioFile: String
  public var users: Int?
  public var replications: Int?
  public var seed: UInt64?
  /// The number of worlds.
  public var worlds: Int
  public var design: RobustDesign
  /// The policies to compare (a subset of the scenario's, in its order); empty: all of them.
  public var policyNames: [String]
  public var parameters: [RobustParameter]

  /// The default number of worlds.
  public static let defaultWorlds = 64
  /// The fewest and most worlds a study may ask for.
  public static let worldBounds = 4...10_000

  /// The keys a study file may have.
  static let keys = [
    "description", "scenario", "users", "replications", "seed", "worlds", "design", "policies",
    "parameters",
  ]

  /// Reads and checks a study file, and every world it draws; every problem of the file itself
  /// is reported at once.
  public static func load(contentsOf path: String) throws(ScenarioErrors) -> RobustPlan {
    try load(source: try ExperimentFile.text(contentsOf: path), file: path)
  }

  /// Checks a study file's text. `scenarioSource`, when given, is the text of the scenario it
  /// names (as a partial result stores it), read instead of the file on disk.
  public static func load(
    source: String, file path: String, scenarioSource stored: String? = nil
  ) throws(ScenarioErrors) -> RobustPlan {
    let root: JSONNode
    do {
      root = try JSONReader.parse(Array(source.utf8))
    } catch {
      throw ScenarioErrors(
        file: path, problems: [.init(path: "", message: error.message, position: error.position)])
    }
    let value = root.configValue
    guard case .object = value else {
      throw ScenarioErrors(
        file: path,
        problems: [
          .init(path: "$", message: "a robustness file is a JSON object; see README, Robustness")
        ])
    }
    if value["screens"] != nil || value["grid"] != nil {
      let what =
        value["grid"] != nil ? "a sweep file (run it with 'deferral-sim sweep')" : "a scenario"
      throw ScenarioErrors(
        file: path,
        problems: [
          .init(
            path: "$",
            message: "this is \(what), not an uncertainty file; give robust a file that names "
              + "the scenario and the ranges: {\"scenario\": \"...json\", \"parameters\": {...}} "
              + "(README, Robustness)")
        ])
    }
    var problems: [ScenarioErrors.Problem] = []
    ScenarioFields.checkKeys(root, at: "$", keys: keys, problems: &problems)
    let (scenarioFile, scenarioSource) = SweepPlan.readScenario(
      value["scenario"], file: path, stored: stored, problems: &problems)
    let (users, replications, seed) = SweepPlan.readRunSettings(root, problems: &problems)
    // An unusable value is a problem, thrown below; the default only fills the gap meanwhile.
    let worlds =
      root["worlds"].map {
        ScenarioFields.integer(
          $0, at: "$.worlds", bounds: worldBounds, what: "a number of worlds",
          problems: &problems) ?? defaultWorlds
      } ?? defaultWorlds
    var design = RobustDesign.lhs
    if let item = value["design"] {
      if case .string(let name) = item, let known = RobustDesign(rawValue: name) {
        design = known
      } else {
        problems.append(
          .init(path: "$.design", message: "must be \"lhs\" (Latin hypercube) or \"sobol\""))
      }
    }
    var policyNames: [String] = []
    if let list = value["policies"] {
      if case .array(let items) = list, items.count >= 2 {
        for (index, item) in items.enumerated() {
          guard case .string(let name) = item, !policyNames.contains(name) else {
            problems.append(
              .init(path: "$.policies[\(index)]", message: "must be a policy name, each once"))
            continue
          }
          policyNames.append(name)
        }
      } else {
        problems.append(
          .init(
            path: "$.policies",
            message: "must be an array of at least two of the scenario's policy names"))
      }
    }
    var parameters: [RobustParameter] = []
    if case .object(let entries)? = value["parameters"], !entries.isEmpty {
      var seen: Set<String> = []
      for entry in entries {
        // A parameter given twice would be drawn once and the second range ignored.
        guard seen.insert(entry.key).inserted else {
          problems.append(
            .init(
              path: "$.parameters.\(entry.key)",
              message:
                "duplicate parameter '\(entry.key)'; give each parameter once, with one range"))
          continue
        }
        if let parameter = RobustParameter.read(
          name: entry.key, entry.value, at: "$.parameters.\(entry.key)", problems: &problems)
        {
          parameters.append(parameter)
        }
      }
      if design == .sobol, entries.count > RobustDesign.sobolMaximumDimension {
        problems.append(
          .init(
            path: "$.design",
            message: "sobol takes at most \(RobustDesign.sobolMaximumDimension) parameters, "
              + "not \(entries.count); use \"lhs\""))
      }
    } else {
      problems.append(
        .init(
          path: "$.parameters",
          message: "missing or empty; give at least one uncertain parameter with its range"))
    }
    guard problems.isEmpty else { throw ScenarioErrors(file: path, problems: problems) }
    let plan = RobustPlan(
      source: source, scenarioSource: scenarioSource, scenarioFile: scenarioFile, users: users,
      replications: replications, seed: seed, worlds: worlds, design: design,
      policyNames: policyNames, parameters: parameters)
    // Draw and check every world now, before any work: bad values are input errors.
    _ = try plan.drawWorlds(file: path)
    return plan
  }

  /// Whether the file at `path` is meant as a robustness study: a JSON object with a
  /// `parameters` key and no `grid` (``SweepPlan/isSweep(contentsOf:)``).
  public static func isStudy(contentsOf path: String) -> Bool {
    guard let value = ExperimentFile.topLevel(contentsOf: path) else { return false }
    return value["parameters"] != nil && value["grid"] == nil && value["screens"] == nil
  }
}
