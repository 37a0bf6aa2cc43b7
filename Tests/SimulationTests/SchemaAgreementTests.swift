import Foundation
import MessageDeferral
import Simulation
import Testing

/// `scenarios/schema.json` (for editors) and ``ScenarioLoader`` (for runs) must agree.
///
/// The schema can only see structure: types, keys, enumerations, ranges and duration syntax.
/// Graph checks (reachability, leaving, onboarding completion, sums of transitions, targets
/// and entries naming screens), cross-field checks (windows within the horizon, low < high,
/// lengths of empirical lists), repeated keys, unique names and "0s" where a positive
/// duration is needed are the decoder's alone: for those documents this suite checks that
/// the schema *accepts* them, so the boundary is stated, not guessed.
@Suite("Schema agreement")
struct SchemaAgreementTests {
  static func schema() throws -> MiniJSONSchema {
    MiniJSONSchema(try JSONReader.parse(try ScenarioFixtures.bytes(of: "schema.json")))
  }

  @Test(arguments: ScenarioFixtures.bundled)
  func schemaAcceptsBundledScenario(file: String) throws {
    var schema = try Self.schema()
    let document = try JSONReader.parse(try ScenarioFixtures.bytes(of: file))
    #expect(schema.violations(of: document) == [])
    #expect(schema.unsupported.isEmpty, "schema uses \(schema.unsupported)")
  }

  @Test func schemaAcceptsTheMinimalTemplate() throws {
    var schema = try Self.schema()
    #expect(schema.violations(of: try JSONReader.parse(ScenarioTemplates.minimal)) == [])
    #expect(schema.unsupported.isEmpty, "schema uses \(schema.unsupported)")
  }

  @Test(arguments: InvalidScenarioCase.all)
  func schemaAndDecoderAgree(_ invalid: InvalidScenarioCase) throws {
    #expect(ScenarioTemplates.errors(of: invalid.document) != nil, "the decoder accepted it")
    switch invalid.schema {
    case .notJSON:
      #expect(throws: JSONSyntaxError.self) { try JSONReader.parse(invalid.document) }
    case .rejects:
      var schema = try Self.schema()
      #expect(!schema.violations(of: try JSONReader.parse(invalid.document)).isEmpty)
      #expect(schema.unsupported.isEmpty, "schema uses \(schema.unsupported)")
    case .decoderOnly:
      var schema = try Self.schema()
      let violations = schema.violations(of: try JSONReader.parse(invalid.document))
      #expect(violations == [], "the schema sees this too; mark the case .rejects")
    }
  }

  @Test func enumerationsMatchTheModel() throws {
    let root = try JSONReader.parse(try ScenarioFixtures.bytes(of: "schema.json"))
    let definitions = try #require(root["$defs"])
    func strings(_ node: JSONNode?) -> [String] {
      guard case .array(let elements)? = node?.value else { return [] }
      return elements.compactMap { if case .string(let text) = $0.value { text } else { nil } }
    }
    func branches(_ node: JSONNode?) -> [JSONNode] {
      guard case .array(let elements)? = node?.value else { return [] }
      return elements
    }
    let screenBranches = branches(definitions["screen"]?["oneOf"])
    let kinds =
      [screenBranches.first?["properties"]?["kind"]?["const"]].compactMap { node -> String? in
        if case .string(let text)? = node?.value { text } else { nil }
      } + strings(screenBranches.last?["properties"]?["kind"]?["enum"])
    #expect(kinds == ScreenKind.allCases.map(\.rawValue))
    #expect(
      strings(root["properties"]?["sessions"]?["properties"]?["delivery"]?["enum"])
        == DeliveryMode.allCases.map(\.rawValue))
    #expect(
      strings(definitions["recurring"]?["properties"]?["audience"]?["enum"])
        == Audience.allCases.map(\.rawValue))
    let policyBranches = branches(definitions["policy"]?["anyOf"])
    #expect(strings(policyBranches.first?["enum"]) == PolicyCatalog.presetNames)
    let distributionKinds = branches(definitions["distribution"]?["oneOf"]).compactMap { branch in
      strings(branch["required"]).first
    }
    #expect(
      distributionKinds
        == ["fixed", "exponential", "lognormal", "gamma", "weibull", "uniform", "empirical"])
    #expect(
      strings(root["required"]) == [
        "schema", "name", "horizon", "population", "sessions", "screens", "entries", "onboarding",
        "scene", "sheet_dwell", "messages", "policies",
      ])
  }

  /// Every key the schema names is documented in scenarios/README.md (as `key`).
  @Test func readmeDocumentsEveryKey() throws {
    let root = try JSONReader.parse(try ScenarioFixtures.bytes(of: "schema.json"))
    let readme = String(decoding: try ScenarioFixtures.bytes(of: "README.md"), as: UTF8.self)
    var keys: Set<String> = []
    func collect(_ node: JSONNode) {
      switch node.value {
      case .object(let members):
        for member in members {
          if member.key == "properties", case .object(let properties) = member.value.value {
            keys.formUnion(properties.map(\.key))
          }
          collect(member.value)
        }
      case .array(let elements): elements.forEach(collect)
      default: break
      }
    }
    collect(root)
    // The walk found the schema's keys (an empty set would check nothing): at least the
    // required top-level ones and keys of nested sections.
    let required = [
      "schema", "name", "horizon", "population", "sessions", "screens", "entries", "onboarding",
      "scene", "sheet_dwell", "messages", "policies",
    ]
    #expect(keys.isSuperset(of: required + ["new_user_share", "gap", "transitions", "audience"]))
    for key in keys.sorted() where key != "$schema" {
      #expect(readme.contains("`\(key)`"), "scenarios/README.md does not document `\(key)`")
    }
  }
}
