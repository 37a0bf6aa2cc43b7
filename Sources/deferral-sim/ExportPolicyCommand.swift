import Experiments
import Foundation
import MessageDeferral
import Reports
import Simulation

/// `deferral-sim export-policy NAME [SCENARIO] [-o FILE]`: writes one policy as the file the
/// app's `MessageDeferralStoreKit` loads (``PolicyFile``), with its provenance.
enum ExportPolicyCommand {
  static let spec = CommandSpec(
    name: "export-policy",
    abstract: "Write one policy as the versioned JSON file an app's MessageDeferralStoreKit loads.",
    positionalUsage: "NAME [SCENARIO]",
    positionalCount: (1, 2),
    declaring: [out],
    discussion:
      "NAME is a preset or one of the scenario's custom policies (without SCENARIO: the\n"
      + "embedded default scenario, indie-subscription). A value-aware policy\n"
      + "(urgent_consent.value) gets the scenario's 'value' amounts: renewal from\n"
      + "consent_deadline_missed, the checkout and immersive costs from their interruption\n"
      + "costs, the onboarding cost as quit_after_sheet_probability x onboarding_completed.\n"
      + "The file names the tool version, the scenario's name and SHA-256, and its seed.\n"
      + "Every 'run' folder also gets recommended-policy.json, the run's recommended policy.\n"
      + "Examples:\n"
      + "  deferral-sim export-policy deadline-aware-value -o recommended-policy.json\n"
      + "  deferral-sim export-policy my-policy scenarios/my-app.json")

  static let out = Option.text(
    "out", "file", "Where to write the file (default: standard output).", short: "o")

  static func execute(_ parsed: ParsedArguments, _ output: any OutputStreams) throws -> Int32 {
    let name = parsed.positionals[0]
    let scenarioPath = parsed.positionals.count > 1 ? parsed.positionals[1] : nil
    let loaded = try RunCommand.loadScenario(scenarioPath)
    let scenario = loaded.scenario
    guard let policy = PolicyLookup.policy(named: name, in: scenario) else {
      throw UsageError(
        message: PolicyLookup.unknownMessage(
          name, in: scenario, where: scenarioPath.map { "'\($0)'" } ?? "the default scenario"),
        command: "export-policy")
    }
    let document = Self.document(
      policy, scenario: scenario,
      provenance: PolicyFile.Provenance(
        toolVersion: DeferralSim.version, scenario: scenario.name,
        scenarioSHA256: SHA256.hex(loaded.bytes), seed: String(scenario.seed)))
    let text = document.configValue.jsonText() + "\n"
    guard let path = try parsed.value(Self.out) else {
      output.out(String(text.dropLast()))
      return ExitStatus.success
    }
    let folderPath = (path as NSString).deletingLastPathComponent
    // One file beside others (an app's resources folder): not a unit of its own.
    let folder = try OutputFolder(path: folderPath.isEmpty ? "." : folderPath, mode: .shared)
    try folder.write(text, to: (path as NSString).lastPathComponent)
    output.out("Wrote \(path) (policy \(policy.name), format version \(PolicyFile.formatVersion))")
    return ExitStatus.success
  }

  /// The file for `policy` of `scenario` (a value-aware policy is already priced by it,
  /// ``Scenario/priced(_:definition:)``); the provenance says whether it weighs the scenario's
  /// amounts.
  static func document(
    _ policy: NamedPolicy, scenario: Scenario, provenance: PolicyFile.Provenance
  ) -> PolicyFile.Document {
    var provenance = provenance
    provenance.valueFromScenario = !scenario.amountsFromScenario(of: policy).isEmpty
    return PolicyFile.Document(policy: policy, provenance: provenance)
  }

  /// `recommended-policy.json` of a run folder: the policy the run's decision ranks first.
  static func recommended(
    _ report: RunReport, scenario: Scenario, manifest: Manifest
  )
    -> String?
  {
    guard let best = Decision(report).rows.min(by: { $0.rank < $1.rank }),
      let policy = scenario.policies.first(where: { $0.name == best.policy })
    else { return nil }
    let document = Self.document(
      policy, scenario: scenario,
      provenance: PolicyFile.Provenance(
        toolVersion: manifest.toolVersion, scenario: manifest.scenarioName,
        scenarioSHA256: manifest.scenarioSHA256, seed: String(manifest.seed)))
    return document.configValue.jsonText() + "\n"
  }
}
