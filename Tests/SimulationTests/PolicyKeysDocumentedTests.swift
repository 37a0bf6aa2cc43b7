import MessageDeferral
import Simulation
import Testing

/// Every key the policy decoder accepts is documented in `scenarios/README.md` ("Policy keys":
/// values, default, meaning) and in `scenarios/schema.json`; a key
/// either lacks fails here.
@Suite("Policy keys documented")
struct PolicyKeysDocumentedTests {
  /// The README's row for each key: its cells, split on ` | `.
  static func readmeRows() throws -> [String: [String]] {
    let readme = String(decoding: try ScenarioFixtures.bytes(of: "README.md"), as: UTF8.self)
    guard let start = readme.range(of: "#### Policy keys") else { return [:] }
    var rows: [String: [String]] = [:]
    for line in readme[start.upperBound...].split(separator: "\n") where line.hasPrefix("| `") {
      let cells = line.dropFirst(2).dropLast(2).components(separatedBy: " | ")
      let key = cells[0].trimmingCharacters(in: ["`"])
      rows[key] = cells
    }
    return rows
  }

  static func schemaPolicyProperties() throws -> [String] {
    let root = try JSONReader.parse(try ScenarioFixtures.bytes(of: "schema.json"))
    guard case .array(let branches)? = root["$defs"]?["policy"]?["anyOf"]?.value,
      case .object(let members)? = branches.last?["properties"]?.value
    else { return [] }
    return members.map(\.key)
  }

  /// The decoder's keys: every key it reads, found by giving it each key alone.
  static var decodedKeys: [String] {
    PolicyConfiguration().configValue.objectMembers.filter { member in
      let value = ConfigValue.object([
        .init(key: "name", value: .string("probe")), .init(key: member.key, value: member.value),
      ])
      if case .success = PolicyCatalog.definition(from: value, at: "$") { return true }
      return false
    }.map(\.key)
  }

  @Test func theDecoderReadsEveryKeyItWrites() {
    #expect(Self.decodedKeys == PolicyConfiguration.keys)
  }

  @Test func everyKeyHasAReadmeRow() throws {
    let rows = try Self.readmeRows()
    for key in Self.decodedKeys {
      guard let cells = rows[key] else {
        Issue.record("scenarios/README.md has no 'Policy keys' row for `\(key)`")
        continue
      }
      #expect(cells.count == 4, "`\(key)`: key, values, default, meaning")
    }
    let extra = Set(rows.keys).subtracting(PolicyConfiguration.keys)
    #expect(extra.isEmpty, "README rows for keys the decoder does not read: \(extra)")
  }

  /// The keys a preset sets are those a custom policy starting from the defaults must set to
  /// equal it: applying exactly them reads back as the preset (the README's "keys it sets").
  @Test(arguments: PolicyCatalog.presetNames)
  func aPresetIsTheDefaultsWithTheKeysItSets(name: String) throws {
    let preset = try #require(PolicyCatalog.preset(named: name))
    let value = preset.configuration.configValue
    let members: [ConfigValue.Member] =
      [.init(key: "name", value: .string("probe"))]
      + preset.keysSet.map { .init(key: $0, value: value[$0]!) }
    guard case .success(let read) = PolicyCatalog.definition(from: .object(members), at: "$")
    else {
      Issue.record("\(name): its keys do not read back")
      return
    }
    #expect(read.configuration == preset.configuration)
    #expect(!preset.keysSet.isEmpty)
  }

  @Test func everyKeyIsInTheSchema() throws {
    let properties = try Self.schemaPolicyProperties()
    #expect(properties == ["name", "preset"] + Self.decodedKeys)
  }

  /// A document with one custom policy `{"name": "probe", key: value}`.
  static func document(_ key: String, _ value: String) -> String {
    ScenarioTemplates.minimal(replacing: [
      (
        #""policies": ["storekit-auto", "deadline-aware"]"#,
        #""policies": ["storekit-auto", {"name": "probe", "\#(key)": \#(value)}]"#
      )
    ])
  }

  /// Both refuse a key the decoder does not read (the schema allows no other properties),
  /// and both accept every key the decoder reads, as `policies --json` writes its default.
  @Test func theSchemaAndTheDecoderAgreeOnKeys() throws {
    var schema = MiniJSONSchema(try JSONReader.parse(try ScenarioFixtures.bytes(of: "schema.json")))
    let unknown = Self.document("not_a_key", "true")
    #expect(ScenarioTemplates.errors(of: unknown) != nil)
    #expect(!schema.violations(of: try JSONReader.parse(unknown)).isEmpty)
    for member in PolicyConfiguration().configValue.objectMembers {
      let text = Self.document(member.key, member.value.jsonText())
      #expect(ScenarioTemplates.errors(of: text) == nil, "decoder refuses `\(member.key)`")
      #expect(schema.violations(of: try JSONReader.parse(text)) == [], "schema: `\(member.key)`")
    }
    #expect(schema.unsupported.isEmpty)
  }
}
