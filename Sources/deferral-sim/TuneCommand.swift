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
      OutputOptions.quiet, method, budget, shard, state,
    ],
    discussion:
      "TUNE is a JSON file: the scenario, the base policy, the knobs and their ranges, the\n"
      + "objective and constraints, the presets to beat, the search's sizes and the selection's\n"
      + "alpha and delta. See the README, section Tune. Candidates run together on the same\n"
      + "users; successive halving keeps the better half and doubles the users each round;\n"
      + "local steps (search.local_steps; default 8 when a knob is continuous, else 0) try\n"
      + "the best finalist's neighbours, one knob changed, on new users, halving a continuous\n"
      + "step where it stays; then Kim and Nelson's procedure selects\n"
      + "among the finalists and the presets with P(correct selection) >= 1 - alpha when the\n"
      + "best leads by at least delta. Writes\n"
      + "tune.csv (every evaluation), tuned-policy.json (the winner as the policy file the\n"
      + "app's MessageDeferralStoreKit loads, as export-policy writes it) and\n"
      + "tuned-scenario-policy.json (the winner as a custom policy for a scenario's\n"
      + "'policies'), verification.csv (the winner against the compared presets and\n"
      + "storekit-auto on new users, paired) and report.html (the search's progress, each\n"
      + "knob's effect). The same file and seed give the same files.\n"
      + "--method random --budget LIVES is the tuner's baseline: candidates drawn uniformly\n"
      + "over the same knobs, each with the compared presets on the first round's users\n"
      + "(search.users x search.replications), as many as LIVES user lives buy; the best mean\n"
      + "is picked (no guarantee). It writes the same files except report.html.\n"
      + "--shard K/N runs shard K of N of one stage of the tune and writes\n"
      + "tune-stage-S-part-K-of-N.json into --out: stage 0 (the first round) without --state,\n"
      + "else the stage that --state tune-state-S.json names. 'deferral-sim merge' of the N parts\n"
      + "(with the same --state) writes tune-state-(S+1).json beside them, or after the last stage\n"
      + "(the verification) the files above: byte for byte those of the tune without shards,\n"
      + "whatever N of each stage. See docs/scaling-out.md, 'A tune over shards'.")

  static let method = Option.choice(
    "method", ["tune", "random"],
    "tune (default), or random: random search spending --budget, the tuner's baseline.")
  static let budget = Option.integer(
    "budget", "lives",
    "User lives random search may spend (a tune prints the lives it spent).",
    in: 1...1_000_000_000_000)

  static let shard = ExecutionOptions.shard.help(
    "Run shard K of N of one stage and write its part (see --state, merge).")
  static let state = Option.text(
    "state", "file",
    "With --shard: the tune-state-S.json a merge wrote, naming the stage to run (default: "
      + "stage 0).")

  /// A knob's value for the terminal: numbers to 4 significant digits (tune.csv keeps them
  /// whole).
  static func short(_ text: String) -> String {
    guard let number = Double(text), text.contains(".") else { return text }
    return String(format: "%.4g", number)
  }

  static func execute(_ parsed: ParsedArguments, _ output: any OutputStreams) throws -> Int32 {
    let path = parsed.positionals[0]
    let random = try parsed.value(Self.method) == "random"
    let budget = try parsed.value(Self.budget)
    if !random, budget != nil {
      throw UsageError(
        message: "'--budget' is random search's; give it with '--method random'", command: "tune")
    }
    if random, budget == nil {
      throw UsageError(
        message: "'--method random' needs '--budget LIVES': the user lives it may spend (a tune "
          + "of the same file prints its own: 'N user lives')", command: "tune")
    }
    let shard = try parsed.value(Self.shard)
    let statePath = try parsed.value(Self.state)
    if random, shard != nil {
      throw UsageError(
        message: "'--shard' is not built for '--method random' (it is one run: run it whole, "
          + "or shard the tune itself)", command: "tune")
    }
    if statePath != nil, shard == nil {
      throw UsageError(
        message: "'--state' names the stage a shard runs; give it with '--shard K/N'",
        command: "tune")
    }
    var plan = try TunePlan.load(contentsOf: path)
    plan.search.jobs =
      try parsed.value(ExecutionOptions.jobs) ?? ProcessInfo.processInfo.activeProcessorCount
    let name = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
    if random, let budget {
      try Self.checkBudget(budget, search: plan.search)
    }
    let written = try OutputOptions(parsed, defaultFolder: "results/tune-\(name)")
    let started = Date()
    let showProgress = output.errorIsTerminal && !written.quiet
    if let shard {
      return try Self.executeShard(
        plan, file: path, name: name, shard: shard, statePath: statePath, written: written,
        output: output, showProgress: showProgress, started: started)
    }
    let folder = try OutputFolder(path: written.folder, mode: .replace)
    if random, let budget {
      return try Self.executeRandom(
        plan, name: name, budget: budget, folder: folder, written: written, output: output,
        showProgress: showProgress, started: started)
    }
    let outcome = try plan.search.run { line in
      if showProgress { output.err("tune: " + line) }
    }
    if showProgress { output.err("tune: verification on new users") }
    let verified = try plan.search.verify(outcome.best)
    return try Self.finish(
      plan, name: name, outcome: outcome, verified: verified, folder: folder,
      written: written, output: output, started: started, lives: "\(outcome.lives) user lives")
  }

  /// Writes a tune's files (`tune`, and `merge` of its last stage) and prints its summary;
  /// `lives` is the summary's count of user lives.
  static func finish(
    _ plan: TunePlan, name: String, outcome: TuneSearch.Outcome,
    verified: (scenario: Scenario, result: RunResult), folder: OutputFolder,
    written: OutputOptions, output: any OutputStreams, started: Date, lives: String
  ) throws -> Int32 {
    let search = plan.search
    try folder.write(
      Self.evaluationTable(outcome.evaluations, search: search, stage: nil).text, to: "tune.csv")
    let best = outcome.selection.selected
    var files = ["tune.csv"]
    try Self.writeWinner(
      outcome.best, definition: outcome.contenderDefinitions[best], plan: plan, folder: folder)
    files += ["tuned-policy.json", "tuned-scenario-policy.json"]
    let verification = try Self.writeVerification(verified, search: search, folder: folder)
    files.append("verification.csv")
    let (metricUnit, unit) = Self.units(search)
    let statement = Self.statement(outcome, search: search, unit: unit)
    if written.htmlReport {
      try folder.write(
        HTMLReport.renderTune(
          name: name, objective: search.objective.name, unit: unit,
          knobs: search.knobs.map(\.name),
          evaluations: outcome.evaluations.map {
            TuneReportEvaluation(
              round: $0.round, policy: $0.policy, knobValues: $0.knobValues, mean: $0.mean,
              feasible: $0.feasible, stage: $0.stage)
          }, winner: outcome.best.name, statement: statement, verification: verification,
          verificationUnit: metricUnit),
        to: "report.html")
      files.append("report.html")
    }
    try folder.commit()
    output.out(
      "\(name): \(search.firstRoundSize) candidates over \(search.knobs.count) knob\(search.knobs.count == 1 ? "" : "s"), "
        + (search.worlds.isEmpty
          ? ""
          : "in \(search.worlds.count) worlds (\(search.acrossWorlds.rawValue)), ")
        + "\(lives), "
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

  /// `tune.csv`: every evaluation, its stage (`round N`, `local N`, `selection`, or `stage` for
  /// all).
  static func evaluationTable(
    _ evaluations: [TuneSearch.Evaluation], search: TuneSearch, stage: String?
  ) -> CSVTable {
    var table = CSVTable(
      header: ["stage", "policy"] + search.knobs.map(\.name) + [
        "users", "replications",
        search.objective.name + (search.worlds.isEmpty ? "" : "_\(search.acrossWorlds.rawValue)"),
        "half_width_95", "feasible",
      ])
    for evaluation in evaluations {
      let knobs =
        evaluation.knobValues.isEmpty
        ? search.knobs.map { _ in CSVField.text("") } : evaluation.knobValues.map(CSVField.text)
      table.append(
        [
          .text(stage ?? evaluation.stage),
          .text(evaluation.policy),
        ] + knobs + [
          .integer(evaluation.users), .integer(evaluation.replications),
          .number(evaluation.mean), .number(evaluation.halfWidth),
          .text(evaluation.feasible ? "yes" : "no"),
        ])
    }
    return table
  }

  /// The winner twice: as the policy file the app loads (with its provenance, value-aware
  /// amounts from the scenario, as export-policy writes it), and as a custom policy named
  /// `tuned` for a scenario's `policies` (the tuned knobs over the base, or a preset that
  /// won as itself).
  static func writeWinner(
    _ best: NamedPolicy, definition: ConfigValue?, plan: TunePlan, folder: OutputFolder
  ) throws {
    let search = plan.search
    let document = ExportPolicyCommand.document(
      best, scenario: search.scenario,
      provenance: PolicyFile.Provenance(
        toolVersion: DeferralSim.version, scenario: search.scenario.name,
        scenarioSHA256: SHA256.hex(Array(plan.scenarioSource.utf8)),
        seed: String(search.seed)))
    try folder.write(document.configValue.jsonText() + "\n", to: "tuned-policy.json")
    var members =
      definition?.objectMembers ?? [
        .init(key: "name", value: .string("tuned")),
        .init(key: "preset", value: .string(best.name)),
      ]
    if let index = members.firstIndex(where: { $0.key == "name" }) {
      members[index].value = .string("tuned")
    }
    try folder.write(
      ConfigValue.object(members).jsonText() + "\n", to: "tuned-scenario-policy.json")
  }

  /// `verification.csv`: the winner against the compared presets on new users.
  static func writeVerification(
    _ verified: (scenario: Scenario, result: RunResult), search: TuneSearch, folder: OutputFolder
  ) throws -> TuneVerification {
    let verification = TuneVerification(
      RunReport(scenario: verified.scenario, result: verified.result, baseline: "tuned"),
      objective: search.objective)
    try folder.write(verification.table.text, to: "verification.csv")
    return verification
  }

  /// The objective's unit, and the same across a study's worlds (its mean, or a regret
  /// against the best compared preset of each world).
  static func units(_ search: TuneSearch) -> (metric: String, objective: String) {
    let metricUnit =
      search.objective.name.hasPrefix("value_")
      ? "\(search.scenario.value?.unit ?? "") per 1000 users"
      : search.objective.metric.unit.rawValue
    let unit =
      search.worlds.isEmpty || search.acrossWorlds == .expectedValue
      ? metricUnit
      : "\(metricUnit) of \(search.acrossWorlds.rawValue.replacingOccurrences(of: "_", with: " "))"
    return (metricUnit, unit)
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
