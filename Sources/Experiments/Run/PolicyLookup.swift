import MessageDeferral
import Simulation

/// The one rule for naming policies, used by `run`, `trace`, `merge`, sweeps and robustness
/// studies: a name is the scenario's own policy of that name (custom ones included), else the
/// preset of that name.
public enum PolicyLookup {
  /// The scenario's policy named `name`, else the preset priced by the scenario
  /// (``Scenario/priced(_:definition:)``); `nil` when neither exists.
  public static func policy(named name: String, in scenario: Scenario) -> NamedPolicy? {
    if let own = scenario.policies.first(where: { $0.name == name }) { return own }
    if let preset = PolicyCatalog.preset(named: name) {
      return scenario.priced(
        NamedPolicy(name: name, configuration: preset.configuration), definition: nil)
    }
    return nil
  }

  /// Every name ``policy(named:in:)`` accepts: the scenario's policies in its order, then the
  /// presets it does not define.
  public static func validNames(in scenario: Scenario) -> [String] {
    let own = scenario.policies.map(\.name)
    return own + PolicyCatalog.presetNames.filter { !own.contains($0) }
  }

  /// `unknown policy 'NAME'[ in WHERE]; did you mean 'NEAR'? Valid: ...`.
  public static func unknownMessage(
    _ name: String, in scenario: Scenario, where place: String? = nil
  ) -> String {
    let valid = validNames(in: scenario)
    var message = "unknown policy '\(name)'" + (place.map { " in \($0)" } ?? "")
    if let near = Spelling.closest(to: name, in: valid) { message += "; did you mean '\(near)'?" }
    return message + " Valid: \(valid.joined(separator: ", "))"
  }
}
