import Foundation
import MessageDeferral
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

  /// The optional `users`, `replications` and `seed` of a sweep or robustness file.
  static func readRunSettings(
    _ value: ConfigValue, problems: inout [ScenarioErrors.Problem]
  ) -> (users: Int?, replications: Int?, seed: UInt64?) {
    func integer(_ key: String, _ range: ClosedRange<Int>) -> Int? {
      guard let item = value[key] else { return nil }
      if case .number(let number) = item, number == number.rounded(),
        number >= Double(range.lowerBound), number <= Double(range.upperBound)
      {
        return Int(number)
      }
      problems.append(
        .init(
          path: "$.\(key)",
          message: "must be a whole number from \(range.lowerBound) to \(range.upperBound)"))
      return nil
    }
    let users = integer("users", ScenarioLoader.userBounds)
    let replications = integer("replications", ScenarioLoader.replicationBounds)
    var seed: UInt64?
    if let item = value["seed"] {
      switch item {
      case .number(let number) where number >= 0 && number == number.rounded() && number < 9e15:
        seed = UInt64(number)
      case .string(let digits) where UInt64(digits) != nil: seed = UInt64(digits)
      default: problems.append(.init(path: "$.seed", message: "must be a whole number ≥ 0"))
      }
    }
    return (users, replications, seed)
  }
}
