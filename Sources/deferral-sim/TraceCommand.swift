import Experiments
import MessageDeferral
import Reports
import Simulation

/// `deferral-sim trace`: one synthetic user's life, event by event, from the engine's own run
/// of that user (the same code with a recording sink), under one or two policies; or, with
/// `--find`, the users whose life had a given outcome.
enum TraceCommand {
  static let spec = CommandSpec(
    name: "trace",
    abstract: "Show one synthetic user's life event by event under one or two policies.",
    positionalUsage: "[SCENARIO]",
    positionalCount: (0, 1),
    declaring: [
      policy, user, replication, seed, ScenarioOptions.responses, diff, context, find, limit,
      scan, format,
    ],
    discussion:
      "Each row: simulated time (day and clock, and seconds), the policy (with two: 'both'\n"
      + "when their lives agree), the screen and its kind, what happened, the message (#index\n"
      + "and reason), and for policy rows what the policy decided and why. The user is exactly\n"
      + "the one a 'run' with the same seed simulates.\n\n"
      + "--find scans the users of one replication and lists those whose life under the\n"
      + "policy (each given, or every policy of the scenario) had the outcome: 'interrupted'\n"
      + "(a sheet over a screen of kind launch, onboarding, paywall, checkout or immersive),\n"
      + "'forced' (a fallback fired), 'missed' (a consent deadline passed unshown), 'failed'\n"
      + "(a display attempt failed), 'declined', 'closed' (a consent sheet declined, or\n"
      + "closed without a choice) and 'lost' (a renewal lost) with a 'responses' section,\n"
      + "'differ' (two policies' outcomes differ: messages\n"
      + "displayed, deadlines missed, interrupted visits or forced displays). With two\n"
      + "policies, 'missed', 'interrupted', 'forced', 'declined', 'closed' and 'lost' list\n"
      + "the users whose count of it\n"
      + "differs between them, with the counts ('missed 1 vs 0'). A consent deadline within\n"
      + "the horizon is a row of its own ('consent deadline met' or 'missed').\n\n"
      + "CSV and JSON columns: policy, time_s, clock, screen, kind, what, message, reason,\n"
      + "decision, why (results/README.md). Examples:\n"
      + "  deferral-sim trace --find interrupted --policy storekit-auto --limit 5\n"
      + "  deferral-sim trace --policy storekit-auto --policy deadline-aware --user 5 --diff")

  static let outcomes = [
    "interrupted", "forced", "missed", "failed", "declined", "closed", "lost", "differ",
  ]

  static let policy = Option.text(
    "policy", "name", "Policy to trace; give it twice to compare two.", repeatable: true,
    completion: .choices(PolicyCatalog.presetNames))
  /// Checked against the scenario's users once it is read (``Option/within(_:)``).
  static let user = Option.integer(
    "user", "n", "Which user (0-based index within the replication).", in: 0...Int.max,
    short: "u")
  static let replication = Option.integer(
    "replication", "r", "Which replication (default 0).", in: 0...Int.max, short: "r")
  static let seed = Option.unsigned("seed", "s", "Run seed (default: the scenario's).")
  static let diff = Flag(
    "diff", "With two policies: only the rows where their lives differ, with context.")
  static let context = Option.integer(
    "context", "n", "Rows of shared life shown around each difference (default 2).",
    in: 0...1000)
  static let find = Option.choice(
    "find", outcomes,
    "List users with an outcome: interrupted, forced, missed, failed, declined, closed, lost, "
      + "differ.",
    valueName: "outcome")
  static let limit = Option.integer(
    "limit", "n", "At most this many users with --find (default 20).", in: 1...1_000_000)
  /// `--limit` bounds the users found; this bounds the users scanned, so a rare outcome over
  /// millions of users ends when asked (the output says how many were scanned).
  static let scan = Option.integer(
    "scan", "n", "At most this many users scanned with --find (default: every user).",
    in: 1...Int.max)
  static let format = Option.choice(
    "format", ["text", "csv", "json"], "Output format (default text).")

  static func execute(_ parsed: ParsedArguments, _ output: any OutputStreams) throws -> Int32 {
    var loaded = try RunCommand.loadScenario(parsed.positionals.first)
    try ScenarioOptions.applyResponses(parsed, to: &loaded.scenario)
    // The run's seed as `run` would plan it: the scenario's, or --seed.
    let plan = try RunPlan(
      scenario: loaded.scenario, overrides: RunPlan.Overrides(seed: try parsed.value(Self.seed)))
    let scenario = plan.planned(loaded.scenario)
    let format = try parsed.value(Self.format) ?? "text"
    let replication =
      try parsed.value(Self.replication.within(0...(scenario.replications - 1))) ?? 0
    let names = try parsed.values(Self.policy)
    guard names.count <= 2 else {
      throw UsageError(message: "give '--policy NAME' once or twice", command: "trace")
    }
    let policies = try names.map { try resolve($0, in: scenario) }
    if policies.count == 2, policies[0].name == policies[1].name {
      // Two copies of one policy never differ: a `--find differ` would scan every user.
      throw UsageError(
        message: "'--policy \(policies[0].name)' is given twice; compare two different policies",
        command: "trace")
    }
    let world = CompiledScenario(scenario)

    if parsed.isGiven(Self.scan), !parsed.isGiven(Self.find) {
      throw UsageError(
        message: "'--scan' bounds '--find'; give '--find OUTCOME' too", command: "trace")
    }
    if let outcome = try parsed.value(Self.find) {
      if parsed.isGiven(Self.user) {
        throw UsageError(message: "'--find' lists users; drop '--user'", command: "trace")
      }
      let searched = policies.isEmpty ? scenario.policies : policies
      if outcome == "differ", searched.count != 2 {
        throw UsageError(
          message: "'--find differ' compares two policies: give '--policy' twice",
          command: "trace")
      }
      let limit = try parsed.value(Self.limit) ?? 20
      let scanned = try parsed.value(Self.scan) ?? scenario.users
      let found = try TraceSearch.find(
        outcome, in: world, policies: searched, replication: replication, limit: limit,
        scanning: scanned)
      output.out(
        TraceRender.found(
          found, outcome: outcome, scenario: scenario, replication: replication, format: format))
      return ExitStatus.success
    }

    guard !policies.isEmpty else {
      throw UsageError(
        message: "give '--policy NAME' (once, or twice to compare), or '--find OUTCOME'",
        command: "trace")
    }
    guard let user = try parsed.value(Self.user.within(0...(scenario.users - 1))) else {
      throw UsageError(
        message: "'--user N' is required (find one with '--find interrupted')", command: "trace")
    }
    if parsed.flag(Self.diff), policies.count != 2 {
      throw UsageError(
        message: "'--diff' compares two policies: give '--policy' twice", command: "trace")
    }
    let context = try parsed.value(Self.context) ?? 2
    var stopped: TraceStopped?
    var notes: [String] = []
    let lives = policies.map { policy in
      let traced = Engine.boundedTrace(
        world, policy: policy.configuration, seed: scenario.seed, replication: replication,
        user: user, keepingSteps: Self.maximumSteps)
      if stopped == nil, let error = traced.budgetExceeded {
        stopped = TraceStopped(error: error, policy: policy.name, kept: traced.steps.count)
      } else if traced.droppedSteps > 0 {
        notes.append(
          "\(policy.name): the trace shows the first \(traced.steps.count) of "
            + "\(traced.steps.count + traced.droppedSteps) steps (a trace keeps at most "
            + "\(Self.maximumSteps)); the summary counts them all")
      }
      return TraceLife(
        policy: policy, traced: (traced.steps, traced.outcomes, traced.tally), scenario: scenario)
    }
    defer {
      for note in notes { output.err("note: \(note)") }
      if let stopped { output.err("note: \(stopped.note)") }
    }
    let aligned = TraceAlignment(lives: lives)
    let header =
      "\(scenario.name): user \(user), replication \(replication), seed \(scenario.seed)"
    switch format {
    case "csv": output.out(TraceRender.csv(aligned, diffOnly: parsed.flag(Self.diff)))
    case "json":
      output.out(
        TraceRender.json(
          aligned, lives: lives, scenario: scenario, user: user, replication: replication,
          diffOnly: parsed.flag(Self.diff)))
    default:
      output.out(header)
      output.out(TraceRender.text(aligned, diffOnly: parsed.flag(Self.diff), context: context))
      output.out("")
      for life in lives { output.out(life.summary) }
    }
    if let stopped { throw stopped }
    return ExitStatus.success
  }

  /// The most steps of one life a trace keeps: far more than any finite life takes (a few
  /// hundred to a few thousand), far fewer than the event budget a looping one runs into.
  static let maximumSteps = 200_000

  /// A policy of the scenario or a preset, by name (``PolicyLookup``).
  static func resolve(_ name: String, in scenario: Scenario) throws -> NamedPolicy {
    guard let policy = PolicyLookup.policy(named: name, in: scenario) else {
      throw UsageError(
        message: PolicyLookup.unknownMessage(name, in: scenario), command: "trace")
    }
    return policy
  }
}

/// A traced life that ran into the run's event budget: `trace` shows what it kept (the start
/// of the life, where the loop begins) and exits 1 with the error a run stops at.
struct TraceStopped: Error, CustomStringConvertible {
  var error: EngineError
  var policy: String
  var kept: Int

  var description: String {
    guard
      case .eventBudgetExceeded(let replication, let user, let time, let horizon, let screen, _) =
        error
    else { return error.description }
    return EngineError.eventBudgetExceeded(
      replication: replication, user: user, simulatedTime: time, horizon: horizon,
      screen: screen, policy: policy
    ).description
  }

  var note: String {
    "the trace shows the first \(kept) steps of a life stopped by the event budget of "
      + "\(EngineLimits.eventsPerUser) events"
  }
}
