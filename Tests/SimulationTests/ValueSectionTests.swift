import Simulation
import Testing

/// The optional `value` section (scenarios/README.md, "Value"): the decoder and
/// `scenarios/schema.json` accept and reject the same documents.
@Suite("Value section")
struct ValueSectionTests {
  static let anchor = "\"schema\": 1,"

  static func document(_ value: String) -> String {
    ScenarioTemplates.minimal(replacing: [(anchor, anchor + " \"value\": " + value + ",")])
  }

  static func schemaViolations(_ text: String) throws -> [String] {
    var schema = MiniJSONSchema(try JSONReader.parse(try ScenarioFixtures.bytes(of: "schema.json")))
    let found = schema.violations(of: try JSONReader.parse(text))
    #expect(schema.unsupported.isEmpty, "schema uses \(schema.unsupported)")
    return found.map { "\($0)" }
  }

  @Test func fullSectionLoadsAndTheSchemaAccepts() throws {
    let text = Self.document(
      """
      {"unit": "EUR", "onboarding_completed": 4.5, "consent_deadline_missed": 30,
       "billing_issue_unresolved": 8, "checkout_interrupted": 2.5, "immersive_interrupted": 0.1,
       "sources": {"onboarding_completed": "our dashboard"}}
      """)
    let scenario = try ScenarioLoader.load(json: text, file: "value.json")
    let model = try #require(scenario.value)
    #expect(model.unit == "EUR")
    #expect(model.onboardingCompleted == 4.5 && model.consentDeadlineMissed == 30)
    #expect(model.billingIssueUnresolved == 8 && model.checkoutInterrupted == 2.5)
    #expect(model.immersiveInterrupted == 0.1)
    #expect(try Self.schemaViolations(text) == [])
  }

  @Test func absentSectionAndAbsentKeys() throws {
    let plain = try ScenarioLoader.load(json: ScenarioTemplates.minimal, file: "plain.json")
    #expect(plain.value == nil)
    let partial = try ScenarioLoader.load(
      json: Self.document("{\"consent_deadline_missed\": 12}"), file: "partial.json")
    #expect(partial.value == ValueModel(unit: "value", consentDeadlineMissed: 12))
  }

  @Test(arguments: [
    ("{\"consent_deadline_missed\": -5}", "$.value.consent_deadline_missed", "at least 0"),
    ("{\"onboarding_completed\": \"6 USD\"}", "$.value.onboarding_completed", "at least 0"),
    ("{\"onboarding_complete\": 6}", "$.value.onboarding_complete", "onboarding_completed"),
    ("{\"unit\": 3}", "$.value.unit", "string"),
    ("[1, 2]", "$.value", "must be an object"),
  ])
  func badSectionsAreRejectedByBoth(value: String, path: String, fragment: String) throws {
    let text = Self.document(value)
    let errors = try #require(ScenarioTemplates.errors(of: text))
    let problem = try #require(errors.problems.first)
    #expect(problem.path == path)
    #expect(problem.message.contains(fragment), "\(problem.message)")
    #expect(try !Self.schemaViolations(text).isEmpty)
  }
}
