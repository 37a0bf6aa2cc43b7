import MessageDeferral
import MessageDeferralStoreKit
import Testing

@Suite("Policy files: what export-policy writes, the library reads back exactly")
struct PolicyFileTests {
  static func text(_ name: String, _ configuration: PolicyConfiguration) -> String {
    PolicyFile.Document(
      policy: NamedPolicy(name: name, configuration: configuration),
      provenance: PolicyFile.Provenance(toolVersion: "test", scenario: "s", seed: "1")
    ).configValue.jsonText()
  }

  @Test("every preset round-trips", arguments: PolicyCatalog.presets.map(\.name))
  func presetRoundTrips(name: String) {
    let preset = PolicyCatalog.preset(named: name)!
    let loaded = ShippedPolicy.decode(
      jsonText: Self.text(name, preset.configuration), file: "p.json")
    #expect(loaded.fallbackReason == nil)
    #expect(loaded.name == name)
    #expect(loaded.configuration == preset.configuration)
    #expect(loaded.provenance?.seed == "1")
  }

  @Test("a newer format version falls back to StoreKit's default, naming the key and the fix")
  func newerVersionRefused() {
    let text = Self.text("deadline-aware", PolicyCatalog.Preset.deadlineAware.configuration)
      .replacingFirst(
        "\"format_version\": 1", with: "\"format_version\": 2")
    let loaded = ShippedPolicy.decode(jsonText: text, file: "p.json")
    #expect(loaded.configuration == nil)
    let reason = loaded.fallbackReason ?? ""
    #expect(reason.contains("p.json: $.format_version"))
    #expect(reason.contains("update MessageDeferralStoreKit"))
  }

  @Test("a key the decoder cannot honour is refused with its JSON path")
  func badKeyRefused() {
    let text = Self.text("deadline-aware", PolicyCatalog.Preset.deadlineAware.configuration)
      .replacingFirst(
        "\"price_increase_consent\": \"1d\"", with: "\"price_increase_consent\": \"soon\"")
    let loaded = ShippedPolicy.decode(jsonText: text, file: "p.json")
    #expect(loaded.configuration == nil)
    #expect(loaded.fallbackReason?.contains("$.policy.ceilings.price_increase_consent") == true)
  }

  @Test("text that is not JSON names the line and column")
  func notJSON() {
    let loaded = ShippedPolicy.decode(jsonText: "{\n  \"format\": ,\n}", file: "p.json")
    #expect(loaded.configuration == nil)
    #expect(loaded.fallbackReason?.hasPrefix("p.json:2:13: not JSON") == true)
  }

  @Test("a missing file falls back, saying so")
  func missingFile() {
    let loaded = ShippedPolicy.load(path: "/nonexistent/recommended-policy.json")
    #expect(loaded.configuration == nil)
    #expect(loaded.fallbackReason?.contains("cannot be read") == true)
  }
}

extension String {
  func replacingFirst(_ target: String, with replacement: String) -> String {
    guard let range = range(of: target) else { return self }
    return replacingCharacters(in: range, with: replacement)
  }
}
