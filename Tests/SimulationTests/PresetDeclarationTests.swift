import Foundation
import MessageDeferral
import Simulation
import Testing

/// A preset is declared once, in ``PolicyCatalog/presets``: a scenario's `"policies": "all"`,
/// the README's policy table, the fuzz dictionary and the bundled scenarios follow from it.
@Suite("Preset declarations")
struct PresetDeclarationTests {
  func load(policies: String) throws(ScenarioErrors) -> Scenario {
    try ScenarioLoader.load(
      json: ScenarioTemplates.minimal(replacing: [(InvalidScenarioCase.policies, policies)]),
      file: "all.json")
  }

  func problems(policies: String) -> [ScenarioErrors.Problem] {
    do {
      _ = try load(policies: policies)
      Issue.record("\(policies) loaded; expected a ScenarioErrors")
      return []
    } catch {
      return error.problems
    }
  }

  @Test func allIsEveryPresetInCatalogOrder() throws {
    let scenario = try load(policies: #""all""#)
    #expect(scenario.policies.map(\.name) == PolicyCatalog.presetNames)
    for (policy, preset) in zip(scenario.policies, PolicyCatalog.presets) {
      #expect(policy.configuration == preset.configuration, "\(preset.name)")
    }
    #expect(scenario.baseline == "storekit-auto")
  }

  @Test func allInAnArrayLeavesOutThePresetsItNamesAndKeepsCustomOnes() throws {
    let scenario = try load(
      policies: #"["deadline-aware", "all", {"name": "mine", "preset": "never"}]"#)
    let others = PolicyCatalog.presetNames.filter { $0 != "deadline-aware" }
    #expect(scenario.policies.map(\.name) == ["deadline-aware"] + others + ["mine"])
    #expect(scenario.policies.last?.configuration == PolicyCatalog.Preset.never.configuration)
  }

  @Test func allTwiceOrAsACustomNameIsRefused() {
    let twice = problems(policies: #"["all", "all"]"#)
    #expect(twice.map(\.path) == ["$.policies[1]"])
    #expect(twice.first?.message.contains("listed twice") == true)
    let custom = problems(policies: #"[{"name": "all", "preset": "never"}]"#)
    #expect(custom.map(\.path) == ["$.policies[0].name"])
    #expect(custom.first?.message.contains("every preset") == true)
    let other = problems(policies: #""some""#)
    #expect(other.map(\.path) == ["$.policies"])
    #expect(other.first?.message.contains(#"must be "all""#) == true)
  }

  /// Every bundled scenario that says `"all"` compares exactly what it listed before it did.
  @Test(arguments: ScenarioFixtures.bundled)
  func bundledScenariosSayAll(file: String) throws {
    let text = String(decoding: try ScenarioFixtures.bytes(of: file), as: UTF8.self)
    #expect(text.contains(#""policies": "all""#), "\(file) lists the presets one by one")
    let scenario = try ScenarioLoader.load(json: text, file: file)
    #expect(scenario.policies.map(\.name) == PolicyCatalog.presetNames)
  }

  /// The README's policy table is the catalog's (`deferral-sim policies --markdown`).
  @Test func readmeTableIsTheCatalogs() throws {
    let readme = try String(
      contentsOf: ScenarioFixtures.root.appendingPathComponent("README.md"), encoding: .utf8)
    let lines = readme.components(separatedBy: "\n")
    guard let header = lines.firstIndex(of: "| name | what it reproduces | keys it sets |") else {
      Issue.record("README.md has no policy table")
      return
    }
    let table = lines[header...].prefix { $0.hasPrefix("|") }.joined(separator: "\n")
    #expect(table == PolicyCatalog.markdownTable)
  }

  /// The fuzzer's committed dictionary (`Fuzz/scenario.dict`) holds `all` and no preset name:
  /// `scripts/fuzz.sh` appends every preset of the catalog at fuzz time (the fuzzer prints
  /// them), so no copy of the list can lag it.
  @Test func fuzzDictionaryLeavesPresetNamesToTheCatalog() throws {
    let dictionary = try String(
      contentsOf: ScenarioFixtures.root.appendingPathComponent("Fuzz/scenario.dict"),
      encoding: .utf8)
    #expect(dictionary.contains(#"="\"\#(PolicyCatalog.allPresets)\"""#))
    for name in PolicyCatalog.presetNames {
      #expect(
        !dictionary.contains(#""\"\#(name)\"""#),
        "Fuzz/scenario.dict names \(name): scripts/fuzz.sh adds preset names itself")
    }
  }
}
