import Simulation

/// `run`'s own options; the shared ones are ``ScenarioOptions``, ``ExecutionOptions`` and
/// ``OutputOptions``.
extension RunCommand {
  static let messagesLog = Flag(
    "messages-log", "Also write messages.csv, one row per message.")
  static let eventsLog = Flag(
    "events-log",
    "Also write events.csv (one policy's screen views, for 'fit') and events-map.json.")
  static let eventsLogPolicy = Option.text(
    "events-log-policy", "name",
    "With --events-log: the policy whose rows are written (default: the baseline; 'all': "
      + "every policy's, one file as large per policy and a slower run).")
  static let format = Option.choice(
    "format", ["table", "csv", "json"],
    "What goes to standard output: the table (default), or summary.csv as CSV or JSON.")
  static let precision = Option.positive(
    "precision", "rel",
    "Add replications until every headline metric's 95% half-width is below REL of its "
      + "mean (e.g. 0.05).", below: 1)
  static let maxReplications = Option.integer(
    "max-replications", "n", "The most replications --precision may run (default 64).",
    in: ScenarioLoader.replicationBounds)

  /// Every option of `run`, in the order its help lists them.
  static let options: [any OptionDeclaration] = [
    ScenarioOptions.policies, ScenarioOptions.baseline, ScenarioOptions.users,
    ScenarioOptions.replications, ScenarioOptions.seed, ScenarioOptions.responses,
    ExecutionOptions.jobs,
    OutputOptions.out(default: "results/<scenario name>/"), ExecutionOptions.shard, messagesLog,
    eventsLog, eventsLogPolicy, OutputOptions.noReport, OutputOptions.quiet,
    ExecutionOptions.noSharedTrunk,
    format, OutputOptions.wide, precision, maxReplications,
  ]
}
