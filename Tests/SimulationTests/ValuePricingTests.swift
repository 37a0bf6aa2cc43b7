import MessageDeferral
import Simulation
import Testing

/// A value-aware policy (`deadline-aware-value`) weighs the scenario's `value` amounts unless
/// it sets its own (``Scenario/priced(_:definition:)``), so what `run` simulates is what
/// `export-policy` writes.
@Suite("Value-aware policies priced by the scenario")
struct ValuePricingTests {
  static let value =
    #"{"unit": "EUR", "onboarding_completed": 8, "consent_deadline_missed": 40, "#
    + #""checkout_interrupted": 5, "immersive_interrupted": 2}"#

  static func scenario(value: String?, policies: String) throws -> Scenario {
    var edits = [
      (#""policies": ["storekit-auto", "deadline-aware"]"#, #""policies": "# + policies)
    ]
    if let value { edits.append(("\"schema\": 1,", "\"schema\": 1, \"value\": \(value),")) }
    return try ScenarioLoader.load(
      json: ScenarioTemplates.minimal(replacing: edits), file: "pricing.json")
  }

  static func test(_ scenario: Scenario, _ name: String) throws -> ConsentValue {
    let policy = try #require(scenario.policies.first { $0.name == name })
    return try #require(policy.configuration.urgentConsent?.value)
  }

  @Test func aPresetTakesEveryAmountTheSectionSets() throws {
    let scenario = try Self.scenario(value: Self.value, policies: #"["deadline-aware-value"]"#)
    let test = try Self.test(scenario, "deadline-aware-value")
    #expect(test.renewal == 40)
    // The template's quit_after_sheet_probability is 0.25: 0.25 × 8.
    #expect(test.costs[ScreenKind.onboarding.index] == 2)
    #expect(test.costs[ScreenKind.checkout.index] == 5)
    #expect(test.costs[ScreenKind.immersive.index] == 2)
    // No counterpart in the section: the preset's own.
    #expect(test.costs[ScreenKind.paywall.index] == ConsentValue.defaults.costs[2])
    #expect(test.freshNoReturn == ConsentValue.defaults.freshNoReturn)
    #expect(scenario.amountsFromScenario(of: scenario.policies[0]).count == 4)
    let note = try #require(scenario.pricingNote(for: scenario.policies[0]))
    #expect(
      note
        == "deadline-aware-value weighs a renewal at 40 EUR against sheets over onboarding 2, "
        + "paywall 0.6, checkout 5, immersive 2 EUR (from the scenario's value section)")
  }

  @Test func anAmountThePolicySetsIsKept() throws {
    let scenario = try Self.scenario(
      value: Self.value,
      policies: #"""
        [{"name": "mine", "preset": "deadline-aware-value",
          "urgent_consent": {"value": {"renewal": 30, "costs": {"checkout": 9}}}}]
        """#)
    let test = try Self.test(scenario, "mine")
    #expect(test.renewal == 30)
    #expect(test.costs[ScreenKind.checkout.index] == 9)
    #expect(test.costs[ScreenKind.onboarding.index] == 2)
    #expect(test.costs[ScreenKind.immersive.index] == 2)
    #expect(scenario.amountsFromScenario(of: scenario.policies[0]) == ["onboarding", "immersive"])
  }

  @Test func withoutASectionThePresetKeepsItsAmounts() throws {
    let scenario = try Self.scenario(value: nil, policies: #"["deadline-aware-value"]"#)
    #expect(try Self.test(scenario, "deadline-aware-value") == ConsentValue.defaults)
    #expect(scenario.consentAmounts.isEmpty)
    let note = try #require(scenario.pricingNote(for: scenario.policies[0]))
    #expect(note.hasSuffix("(its own amounts; the scenario has no value section)"), "\(note)")
  }

  @Test func policiesWithoutAValueTestAreUntouched() throws {
    let scenario = try Self.scenario(
      value: Self.value, policies: #"["deadline-aware", "storekit-auto", "all"]"#)
    for policy in scenario.policies where policy.name != "deadline-aware-value" {
      let preset = try #require(PolicyCatalog.preset(named: policy.name))
      #expect(policy.configuration == preset.configuration, "\(policy.name)")
      #expect(scenario.pricingNote(for: policy) == nil)
    }
    // "all" includes deadline-aware-value, priced too.
    #expect(try Self.test(scenario, "deadline-aware-value").renewal == 40)
  }
}
