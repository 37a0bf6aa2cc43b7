import MessageDeferral
import Reports
import Simulation

/// `deferral-sim trace`: one synthetic user's life, event by event, from the engine's own run
/// of that user (the same code with a recording sink), under one or two policies.
enum TraceCommand {
  static let spec = CommandSpec(
    name: "trace",
    abstract: "Show one synthetic user's life event by event under one or two policies.",
    positionalUsage: "[SCENARIO]",
    positionalCount: (0, 1),
    options: [
      .value("policy", "name", "Policy to trace; give it twice to compare two.", repeatable: true),
      .value("user", "n", "Which user (0-based index within the replication)."),
      .value("replication", "r", "Which replication (default 0)."),
      .value("seed", "s", "Run seed (default: the scenario's)."),
    ],
    discussion:
      "Each row: simulated time (day and clock), the screen and its kind, what happened, the\n"
      + "message (#index and reason), and for rows marked 'policy' what the policy decided\n"
      + "and why. The user is exactly the one a 'run' with the same seed simulates.")

  static func execute(_ parsed: ParsedArguments, _ output: any OutputStreams) throws -> Int32 {
    var loaded = try RunCommand.loadScenario(parsed.positionals.first)
    let names = parsed.allValues("policy")
    guard !names.isEmpty, names.count <= 2 else {
      throw UsageError(message: "give '--policy NAME' once or twice", command: "trace")
    }
    guard let user = try parsed.integer("user", in: 0...(loaded.scenario.users - 1)) else {
      throw UsageError(message: "'--user N' is required", command: "trace")
    }
    let replication =
      try parsed.integer("replication", in: 0...(loaded.scenario.replications - 1)) ?? 0
    if let seed = try parsed.unsigned("seed") { loaded.scenario.seed = seed }
    let scenario = loaded.scenario
    let policies = try names.map { name -> NamedPolicy in
      if let policy = scenario.policies.first(where: { $0.name == name }) { return policy }
      if let preset = PolicyCatalog.preset(named: name) {
        return NamedPolicy(name: name, configuration: preset.configuration)
      }
      let valid = Array(Set(scenario.policies.map(\.name) + PolicyCatalog.presetNames)).sorted()
      var message = "unknown policy '\(name)'"
      if let near = Spelling.closest(to: name, in: valid) { message += "; did you mean '\(near)'?" }
      throw UsageError(
        message: message + " Valid: \(valid.joined(separator: ", "))", command: "trace")
    }

    let world = CompiledScenario(scenario)
    var rows: [(time: Double, order: Int, cells: [String])] = []
    var summaries: [String] = []
    for (index, policy) in policies.enumerated() {
      let traced = Engine.trace(
        world, policy: policy.configuration, seed: scenario.seed, replication: replication,
        user: user)
      for (order, step) in traced.steps.enumerated() {
        let screen =
          step.screen >= 0
          ? "\(scenario.screens[step.screen].name) (\(scenario.screens[step.screen].kind.rawValue))"
          : "—"
        let message = step.message >= 0 ? "#\(step.message) \(step.reason?.name ?? "")" : ""
        var cells = [TraceFormat.clock(step.time)]
        if policies.count > 1 { cells.append(policy.name) }
        cells += [screen, step.what.rawValue, message, step.decision, step.why]
        rows.append((step.time, order * policies.count + index, cells))
      }
      let tally = traced.tally
      let interrupted = tally.screenInterrupted.reduce(0, +)
      let displayed = traced.outcomes.filter { $0.outcome == "displayed" }.count
      summaries.append(
        "\(policy.name): \(traced.outcomes.count) messages, \(displayed) displayed, "
          + "\(interrupted) interrupted screen visit(s), "
          + "\(tally.onboardingRunsInterrupted)/\(tally.onboardingRunsStarted) onboarding runs "
          + "interrupted, \(tally.fallbackFired) forced")
    }
    rows.sort { ($0.time, $0.order) < ($1.time, $1.order) }
    var header = ["time"]
    if policies.count > 1 { header.append("policy") }
    header += ["screen", "what", "message", "decision", "why"]
    let table = [header] + rows.map(\.cells)
    let widths = header.indices.map { column in table.map { $0[column].count }.max() ?? 0 }
    output.out(
      "\(scenario.name): user \(user), replication \(replication), seed \(scenario.seed)")
    for row in table {
      output.out(
        row.enumerated().map { $1.padding(to: widths[$0]) }.joined(separator: "  ").trimmed())
    }
    output.out("")
    for summary in summaries { output.out(summary) }
    return ExitStatus.success
  }
}
