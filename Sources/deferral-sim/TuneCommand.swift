import Experiments
import Foundation
import MessageDeferral
import Reports
import Simulation

/// `deferral-sim tune`: searches a policy's knobs for the best setting for this app, on the
/// same users, and selects among the finalists and the presets to beat with a stated
/// probability of correct selection.
enum TuneCommand {
  static let spec = CommandSpec(
    name: "tune",
    abstract: "Search a policy's knobs for this app and select the best with a stated guarantee.",
    positionalUsage: "TUNE",
    positionalCount: (1, 1),
    declaring: [
      ExecutionOptions.jobs, OutputOptions.out(default: "results/tune-<file name>/"),
      OutputOptions.quiet,
    ],
    discussion:
      "TUNE is a JSON file: the scenario, the base policy, the knobs and their ranges, the\n"
      + "objective and constraints, the presets to beat, the search's sizes and the selection's\n"
      + "alpha and delta. See the README, section Tune. Candidates run together on the same\n"
      + "users; successive halving keeps the better half and doubles the users each round; then\n"
      + "Kim and Nelson's procedure selects among the finalists and the presets with\n"
      + "P(correct selection) >= 1 - alpha when the best leads by at least delta. Writes\n"
      + "tune.csv (every evaluation), tuned-policy.json (the winner as the policy file the\n"
      + "app's MessageDeferralStoreKit loads, as export-policy writes it) and\n"
      + "tuned-scenario-policy.json (the winner as a custom policy for a scenario's\n"
      + "'policies'), verification.csv (the winner against the compared presets and\n"
      + "storekit-auto on new users, paired) and report.html (the search's progress, each\n"
      + "knob's effect). The same file and seed give the same files.")

  /// A knob's value for the terminal: numbers to 4 significant digits (tune.csv keeps them
  /// whole).
  static func short(_ text: String) -> String {
    guard let number = Double(text), text.contains(".") else { return text }
    return String(format: "%.4g", number)
  }

  static func execute(_ parsed: ParsedArguments, _ output: any OutputStreams) throws -> Int32 {
    let path = parsed.positionals[0]
    var plan = try TunePlan.load(contentsOf: path)
    plan.search.jobs =
      try parsed.value(ExecutionOptions.jobs) ?? ProcessInfo.processInfo.activeProcessorCount
    let name = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
    let written = try OutputOptions(parsed, defaultFolder: "results/tune-\(name)")
    let folder = try OutputFolder(path: written.folder, mode: .replace)
    let started = Date()
    let showProgress = output.errorIsTerminal && !written.quiet
    let outcome = try plan.search.run { line in
      if showProgress { output.err("tune: " + line) }
    }
    let search = plan.search
    var table = CSVTable(
      header: ["stage", "policy"] + search.knobs.map(\.name) + [
        "users", "replications",
        search.objective.name + (search.worlds.isEmpty ? "" : "_\(search.acrossWorlds.rawValue)"),
        "half_width_95", "feasible",
      ])
    for evaluation in outcome.evaluations {
      let knobs =
        evaluation.knobValues.isEmpty
        ? search.knobs.map { _ in CSVField.text("") } : evaluation.knobValues.map(CSVField.text)
      table.append(
        [
          .text(evaluation.round.map { "round \($0 + 1)" } ?? "selection"),
          .text(evaluation.policy),
        ] + knobs + [
          .integer(evaluation.users), .integer(evaluation.replications),
          .number(evaluation.mean), .number(evaluation.halfWidth),
          .text(evaluation.feasible ? "yes" : "no"),
        ])
    }
    try folder.write(table.text, to: "tune.csv")
    let best = outcome.selection.selected
    var files = ["tune.csv"]
    // The winner twice: as the policy file the app loads (with its provenance, value-aware
    // amounts from the scenario, as export-policy writes it), and as a custom policy named
    // `tuned` for a scenario's `policies` (the tuned knobs over the base, or a preset that
    // won as itself).
    let document = ExportPolicyCommand.document(
      outcome.best, scenario: search.scenario,
      provenance: PolicyFile.Provenance(
        toolVersion: DeferralSim.version, scenario: search.scenario.name,
        scenarioSHA256: SHA256.hex(Array(plan.scenarioSource.utf8)),
        seed: String(search.seed)))
    try folder.write(document.configValue.jsonText() + "\n", to: "tuned-policy.json")
    var members =
      outcome.contenderDefinitions[best]?.objectMembers ?? [
        .init(key: "name", value: .string("tuned")),
        .init(key: "preset", value: .string(outcome.best.name)),
      ]
    if let index = members.firstIndex(where: { $0.key == "name" }) {
      members[index].value = .string("tuned")
    }
    try folder.write(
      ConfigValue.object(members).jsonText() + "\n", to: "tuned-scenario-policy.json")
    files += ["tuned-policy.json", "tuned-scenario-policy.json"]
    if showProgress { output.err("tune: verification on new users") }
    let verified = try search.verify(outcome.best)
    let verification = TuneVerification(
      RunReport(scenario: verified.scenario, result: verified.result, baseline: "tuned"),
      objective: search.objective)
    try folder.write(verification.table.text, to: "verification.csv")
    files.append("verification.csv")
    let metricUnit =
      search.objective.name.hasPrefix("value_")
      ? "\(search.scenario.value?.unit ?? "") per 1000 users"
      : search.objective.metric.unit.rawValue
    // Across a study's worlds the objective is its mean, or a regret against the best
    // compared preset of each world.
    let unit =
      search.worlds.isEmpty || search.acrossWorlds == .expectedValue
      ? metricUnit
      : "\(metricUnit) of \(search.acrossWorlds.rawValue.replacingOccurrences(of: "_", with: " "))"
    let statement = Self.statement(outcome, search: search, unit: unit)
    try folder.write(
      HTMLReport.renderTune(
        name: name, objective: search.objective.name, unit: unit,
        knobs: search.knobs.map(\.name),
        evaluations: outcome.evaluations.map {
          TuneReportEvaluation(
            round: $0.round, policy: $0.policy, knobValues: $0.knobValues, mean: $0.mean,
            feasible: $0.feasible)
        }, winner: outcome.best.name, statement: statement, verification: verification,
        verificationUnit: metricUnit),
      to: "report.html")
    files.append("report.html")
    try folder.commit()
    output.out(
      "\(name): \(search.candidates) candidates over \(search.knobs.count) knobs, "
        + (search.worlds.isEmpty
          ? ""
          : "in \(search.worlds.count) worlds (\(search.acrossWorlds.rawValue)), ")
        + "\(outcome.lives) user lives, "
        + "\(TerminalTable.fixed(Date().timeIntervalSince(started), 1)) s")
    output.out("Selection among \(outcome.contenders.count) (finalists and presets to beat):")
    let width = outcome.contenders.map(\.name.count).max() ?? 0
    for (index, policy) in outcome.contenders.enumerated() {
      let mark =
        index == best
        ? "best"
        : outcome.selection.eliminatedAfter[index].map {
          "out after \($0) replications"
        } ?? "kept"
      let knobs = outcome.contenderKnobs[index]
      let setting =
        knobs.isEmpty
        ? ""
        : "  " + zip(search.knobs, knobs).map { "\($0.name)=\(short($1))" }.joined(separator: " ")
      output.out(
        "  " + policy.name.padding(toLength: width, withPad: " ", startingAt: 0) + "  "
          + TerminalTable.fixed(search.direction * outcome.selection.means[index] + 0, 2)
          + " \(unit)"
          + " over \(outcome.selection.replications[index]) replications  \(mark)\(setting)")
    }
    output.out(statement)
    for line in verification.lines(unit: metricUnit) { output.out(line) }
    if !search.worlds.isEmpty {
      output.out("  (the verification runs in the study's scenario itself, not in its worlds)")
    }
    output.out("Wrote \(files.joined(separator: ", ")) to \(written.folder)/")
    return ExitStatus.success
  }

  /// The selection's statement: its guarantee, or why there is none.
  static func statement(_ outcome: TuneSearch.Outcome, search: TuneSearch, unit: String) -> String {
    let selection = search.selection
    if outcome.selection.guaranteed {
      return "\(outcome.best.name) is the best with probability at least "
        + "\(TerminalTable.fixed((1 - selection.alpha) * 100, 0))% if the best leads the "
        + "rest by \(TerminalTable.fixed(selection.delta, 2)) \(unit) or more; otherwise it "
        + "is within that of the best with the same probability."
    }
    return "No guarantee: the selection ran out of replications (max_replications "
      + "\(selection.maximumReplications)) with several left; \(outcome.best.name) has the "
      + "largest mean. Raise max_replications or delta."
  }
}
