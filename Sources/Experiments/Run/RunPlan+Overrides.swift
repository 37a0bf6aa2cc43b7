import MessageDeferral
import Simulation

extension RunPlan {
  /// Values that replace a scenario's own for one run (the command line's `--users`,
  /// `--replications`, `--seed`, `--policies`, `--baseline`); `nil` keeps the file's value.
  public struct Overrides: Equatable, Sendable {
    public var users: Int?
    public var replications: Int?
    public var seed: UInt64?
    /// Policy names, in report order, each once (``PolicyLookup``).
    public var policies: [String]?
    public var baseline: String?

    public init(
      users: Int? = nil, replications: Int? = nil, seed: UInt64? = nil,
      policies: [String]? = nil, baseline: String? = nil
    ) {
      self.users = users
      self.replications = replications
      self.seed = seed
      self.policies = policies
      self.baseline = baseline
    }
  }

  /// What is wrong with an override: the plan field, and what. The field is named by its
  /// caller (a flag, a JSON key) in ``message(naming:)``.
  public struct Problem: Error, Equatable, Sendable {
    public enum Field: String, Sendable { case users, replications, policies, baseline }
    public enum Kind: Equatable, Sendable {
      case outOfBounds(Int, ClosedRange<Int>)
      case noPolicy
      case unknownPolicy(String)
      case repeatedPolicy(String)
      case unknownBaseline(String, compared: [String])
    }
    public var field: Field
    public var kind: Kind

    public init(field: Field, kind: Kind) {
      self.field = field
      self.kind = kind
    }

    /// The problem as one line with its fix; `label` names the field as the user wrote it
    /// (`--policies`). `scenario` lists the valid policy names.
    public func message(naming label: String, scenario: Scenario) -> String {
      switch kind {
      case .outOfBounds(let value, let bounds):
        "'\(label)' must be between \(bounds.lowerBound) and \(bounds.upperBound), got \(value)"
      case .noPolicy: "'\(label)' needs at least one name"
      case .unknownPolicy(let name): PolicyLookup.unknownMessage(name, in: scenario, where: label)
      case .repeatedPolicy(let name): "policy '\(name)' is listed twice in \(label)"
      case .unknownBaseline(let name, let compared):
        "baseline '\(name)' is not a policy of this run; choose one of "
          + compared.joined(separator: ", ")
      }
    }
  }

  /// The scenario's plan with `overrides` applied: bounds as a scenario file's, policies by
  /// ``PolicyLookup``, the baseline by the one rule
  /// (``settleBaseline(requested:in:)``, asking for `baseline`, else the scenario's). Throws the first
  /// problem.
  public init(
    scenario: Scenario, overrides: Overrides, jobs: Int = 1,
    shard: (index: Int, count: Int)? = nil, sharedTrunk: Bool = true
  ) throws(Problem) {
    self.init(scenario: scenario, jobs: jobs, shard: shard, sharedTrunk: sharedTrunk)
    if let users = overrides.users {
      guard ScenarioLoader.userBounds.contains(users) else {
        throw Problem(field: .users, kind: .outOfBounds(users, ScenarioLoader.userBounds))
      }
      self.users = users
    }
    if let replications = overrides.replications {
      guard ScenarioLoader.replicationBounds.contains(replications) else {
        throw Problem(
          field: .replications, kind: .outOfBounds(replications, ScenarioLoader.replicationBounds))
      }
      self.replications = replications
    }
    if let seed = overrides.seed { self.seed = seed }
    if let names = overrides.policies {
      guard !names.isEmpty else { throw Problem(field: .policies, kind: .noPolicy) }
      var chosen: [NamedPolicy] = []
      for name in names {
        guard let policy = PolicyLookup.policy(named: name, in: scenario) else {
          throw Problem(field: .policies, kind: .unknownPolicy(name))
        }
        guard !chosen.contains(where: { $0.name == name }) else {
          throw Problem(field: .policies, kind: .repeatedPolicy(name))
        }
        chosen.append(policy)
      }
      policies = chosen
    }
    // The scenario file's baseline counts as asked for: it runs even when `policies` leave it
    // out.
    try settleBaseline(requested: overrides.baseline ?? scenario.baseline, in: scenario)
  }
}
