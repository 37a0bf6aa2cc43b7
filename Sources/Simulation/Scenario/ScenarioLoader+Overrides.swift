import MessageDeferral

/// Values given on the command line that replace a scenario's own for one run
/// (`--users`, `--replications`, `--seed`, `--policies`, `--baseline`); `nil` keeps the
/// file's value.
public struct ScenarioOverrides: Equatable, Sendable {
  public var users: Int?
  public var replications: Int?
  public var seed: UInt64?
  /// Policy names, in report order: the scenario's own policies (custom ones included) by
  /// name, or presets.
  public var policies: [String]?
  public var baseline: String?

  public init(
    users: Int? = nil, replications: Int? = nil, seed: UInt64? = nil, policies: [String]? = nil,
    baseline: String? = nil
  ) {
    self.users = users
    self.replications = replications
    self.seed = seed
    self.policies = policies
    self.baseline = baseline
  }
}

extension ScenarioLoader {
  /// The scenario with `overrides` applied, checked against the same bounds as a file.
  ///
  /// Each problem's path is the flag (`--users`); `source` names where the values came from
  /// in ``ScenarioErrors/file`` (`command line`). Without `baseline`, the scenario's baseline
  /// is kept if it is still compared, else `storekit-auto` if compared, else the first policy.
  public static func apply(
    _ overrides: ScenarioOverrides, to scenario: Scenario, source: String = "command line"
  ) throws(ScenarioErrors) -> Scenario {
    var result = scenario
    var problems: [ScenarioErrors.Problem] = []
    func check(_ value: Int?, _ bounds: ClosedRange<Int>, _ flag: String, _ what: String) -> Int? {
      guard let value else { return nil }
      guard bounds.contains(value) else {
        problems.append(
          ScenarioErrors.Problem(
            path: flag,
            message: "must be between \(bounds.lowerBound) and \(bounds.upperBound), got \(value); "
              + "give \(what) in that range"))
        return nil
      }
      return value
    }
    if let users = check(overrides.users, userBounds, "--users", "a number of users") {
      result.users = users
    }
    if let replications = check(
      overrides.replications, replicationBounds, "--replications", "a number of replications")
    {
      result.replications = replications
    }
    if let seed = overrides.seed { result.seed = seed }
    if let names = overrides.policies {
      var chosen: [NamedPolicy] = []
      for name in names {
        if chosen.contains(where: { $0.name == name }) {
          problems.append(
            ScenarioErrors.Problem(
              path: "--policies", message: "'\(name)' is listed twice; list each policy once"))
        } else if let own = scenario.policies.first(where: { $0.name == name }) {
          chosen.append(own)
        } else {
          switch PolicyCatalog.definition(from: .string(name), at: "--policies") {
          case .success(let policy): chosen.append(policy)
          case .failure(let issues):
            let valid = scenario.policies.map(\.name).filter {
              !PolicyCatalog.presetNames.contains($0)
            }
            let suffix =
              valid.isEmpty ? "" : " (the scenario also defines: \(valid.joined(separator: ", ")))"
            problems += issues.issues.map {
              ScenarioErrors.Problem(path: $0.path, message: "'\(name)': " + $0.message + suffix)
            }
          }
        }
      }
      if chosen.isEmpty && problems.isEmpty {
        problems.append(
          ScenarioErrors.Problem(
            path: "--policies", message: "no policy given; list at least one, such as storekit-auto"
          ))
      }
      result.policies = chosen
    }
    let names = result.policies.map(\.name)
    if let baseline = overrides.baseline {
      if names.contains(baseline) {
        result.baseline = baseline
      } else {
        problems.append(
          ScenarioErrors.Problem(
            path: "--baseline",
            message: "'\(baseline)' is not one of the policies compared; choose one of: "
              + names.joined(separator: ", ")))
      }
    } else if !names.contains(result.baseline) {
      result.baseline = names.contains("storekit-auto") ? "storekit-auto" : names.first ?? ""
    }
    guard problems.isEmpty else { throw ScenarioErrors(file: source, problems: problems) }
    return result
  }
}
