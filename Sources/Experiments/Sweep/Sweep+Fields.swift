import Foundation
import MessageDeferral
import Reports
import Simulation

extension SweepPlan {
  /// The `scenario` key of a sweep or robustness file (a path relative to `file`), read as
  /// (the name to show, its text): the embedded default when absent, `stored` (a partial
  /// result's copy) when given.
  static func readScenario(
    _ scenario: ConfigValue?, file path: String, stored: String?,
    problems: inout [ScenarioErrors.Problem]
  ) -> (file: String, source: String) {
    var scenarioFile = "(embedded indie-subscription)"
    var scenarioSource = ScenarioLoader.embeddedDefaultJSON
    if let stored {
      if case .string(let file)? = scenario { scenarioFile = file }
      scenarioSource = stored
    } else if let scenario {
      if case .string(let file) = scenario {
        let resolved =
          file.hasPrefix("/")
          ? file
          : ((path as NSString).deletingLastPathComponent as NSString).appendingPathComponent(file)
        let candidates = [resolved, file]
        if let found = candidates.first(where: { FileManager.default.fileExists(atPath: $0) }),
          let text = try? String(contentsOfFile: found, encoding: .utf8)
        {
          scenarioFile = found
          scenarioSource = text
        } else {
          problems.append(
            .init(
              path: "$.scenario",
              message: "cannot read scenario '\(file)' (relative paths start at this file)"))
        }
      } else {
        problems.append(.init(path: "$.scenario", message: "must be a file path (a string)"))
      }
    }
    return (scenarioFile, scenarioSource)
  }

  /// The optional `users`, `replications` and `seed` of a sweep or robustness file, read by
  /// the scenario's own rules (``ScenarioFields``): the same bounds, messages and seed forms.
  static func readRunSettings(
    _ root: JSONNode, problems: inout [ScenarioErrors.Problem]
  ) -> (users: Int?, replications: Int?, seed: UInt64?) {
    let users = root["users"].flatMap {
      ScenarioFields.users($0, at: "$.users", problems: &problems)
    }
    let replications = root["replications"].flatMap {
      ScenarioFields.replications($0, at: "$.replications", problems: &problems)
    }
    let seed = root["seed"].flatMap { ScenarioFields.seed($0, at: "$.seed", problems: &problems) }
    return (users, replications, seed)
  }
}
