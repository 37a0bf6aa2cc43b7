import MessageDeferral

/// A scenario prepared for drawing: samplers and alias tables built once per run and shared,
/// read-only, by every worker.
public struct CompiledScenario: Sendable {
  public let scenario: Scenario
  let dwell: [Sampler]
  /// Per screen: the alias table over its transitions (`nil` for a screen with none).
  let transitionTables: [AliasTable?]
  let transitionTargets: [[ScreenTarget]]
  let gap: Sampler
  let fetchDelay: Sampler
  let activationDelay: Sampler
  let sheetDwell: Sampler
  let consentDeadline: Sampler?
  let consentExpiry: Sampler?
  let recurringExpiry: [Sampler?]
  /// Exponential gaps between issuances of each recurring process (a Poisson process).
  let recurringGap: [Sampler]
  /// Each screen's kind, by index (read on every screen change).
  let screenKinds: ContiguousArray<ScreenKind>

  public init(_ scenario: Scenario) {
    self.scenario = scenario
    dwell = scenario.screens.map { Sampler($0.dwell) }
    transitionTables = scenario.screens.map { screen in
      screen.transitions.isEmpty ? nil : AliasTable(weights: screen.transitions.map(\.probability))
    }
    transitionTargets = scenario.screens.map { $0.transitions.map(\.target) }
    gap = Sampler(scenario.sessions.gap)
    fetchDelay = Sampler(scenario.sessions.fetchDelay)
    activationDelay = Sampler(scenario.scene.activationDelay)
    sheetDwell = Sampler(scenario.sheetDwell)
    consentDeadline = scenario.messages.consent.map { Sampler($0.deadline) }
    consentExpiry = scenario.messages.consent?.expiry.map { Sampler($0) }
    recurringExpiry = scenario.messages.recurring.map { $0.expiry.map { Sampler($0) } }
    screenKinds = ContiguousArray(scenario.screens.map(\.kind))
    recurringGap = scenario.messages.recurring.map { Sampler(.exponential(mean: $0.meanInterval)) }
  }
}
