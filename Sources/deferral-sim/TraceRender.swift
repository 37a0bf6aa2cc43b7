import MessageDeferral
import Reports
import Simulation

/// Traces as text (aligned columns), CSV and JSON; and `--find`'s list of users.
enum TraceRender {
  static let csvHeader = [
    "policy", "time_s", "clock", "screen", "kind", "what", "message", "reason", "decision", "why",
  ]

  /// Aligned columns; with two policies a shared row is printed once, as `both`. With
  /// `diffOnly`, only rows one policy had, with `context` shared rows around each run of them.
  static func text(_ aligned: TraceAlignment, diffOnly: Bool, context: Int) -> String {
    let two = aligned.names.count == 2
    var shown: [Int?] = []  // entry indices, nil for an elision mark
    if diffOnly {
      let differing = aligned.entries.indices.filter {
        if case .only = aligned.entries[$0] { true } else { false }
      }
      if differing.isEmpty {
        return "the two lives are the same: no row differs"
      }
      var keep = Set<Int>()
      for index in differing {
        for near in max(0, index - context)...min(aligned.entries.count - 1, index + context) {
          keep.insert(near)
        }
      }
      var last = -1
      for index in keep.sorted() {
        if last >= 0, index > last + 1 { shown.append(nil) }
        if last < 0, index > 0 { shown.append(nil) }
        shown.append(index)
        last = index
      }
      if last < aligned.entries.count - 1 { shown.append(nil) }
    } else {
      shown = aligned.entries.indices.map { $0 }
    }
    var header = ["time"]
    if two { header.append("policy") }
    header += ["screen", "what", "message", "decision", "why"]
    var table: [[String]?] = [header]
    for item in shown {
      guard let index = item else {
        table.append(nil)
        continue
      }
      let entry = aligned.entries[index]
      let row = entry.row
      var cells = [TraceFormat.clock(row.time)]
      if two {
        switch entry {
        case .both: cells.append("both")
        case .only(let life, _): cells.append(aligned.names[life])
        }
      }
      let screen = row.screen.isEmpty ? "—" : "\(row.screen) (\(row.kind))"
      let message = row.message.isEmpty ? "" : "\(row.message) \(row.reason)"
      cells += [screen, row.what, message, row.decision, row.why]
      table.append(cells)
    }
    let widths = header.indices.map { column in
      table.compactMap { $0?[column].count }.max() ?? 0
    }
    return table.map { cells in
      guard let cells else { return "  ⋮" }
      return cells.enumerated().map { $1.padding(to: widths[$0]) }.joined(separator: "  ")
        .trimmed()
    }.joined(separator: "\n")
  }

  /// One CSV row per event of each life (a shared event once per policy, so each policy's
  /// rows are its whole life); with `diffOnly`, only the rows one policy had.
  static func csv(_ aligned: TraceAlignment, diffOnly: Bool) -> String {
    var table = CSVTable(header: csvHeader)
    for entry in aligned.entries {
      switch entry {
      case .both(let row):
        guard !diffOnly else { continue }
        for name in aligned.names { table.append(fields(name, row)) }
      case .only(let life, let row):
        table.append(fields(aligned.names[life], row))
      }
    }
    return String(table.text.dropLast())
  }

  static func fields(_ policy: String, _ row: TraceRow) -> [CSVField] {
    [
      .text(policy), .number(row.time), .text(TraceFormat.clock(row.time)), .text(row.screen),
      .text(row.kind), .text(row.what), .text(row.message), .text(row.reason),
      .text(row.decision), .text(row.why),
    ]
  }

  /// A JSON document: the user, each policy's summary, and the rows as in ``csv(_:diffOnly:)``.
  static func json(
    _ aligned: TraceAlignment, lives: [TraceLife], scenario: Scenario, user: Int,
    replication: Int, diffOnly: Bool
  ) -> String {
    var rows: [ConfigValue] = []
    func object(_ policy: String, _ row: TraceRow) -> ConfigValue {
      let values = fields(policy, row).map { field -> ConfigValue in
        if case .number(let number?) = field { return .number(number) }
        if case .text(let text) = field { return .string(text) }
        return .null
      }
      return .object(zip(csvHeader, values).map { ConfigValue.Member(key: $0, value: $1) })
    }
    for entry in aligned.entries {
      switch entry {
      case .both(let row):
        guard !diffOnly else { continue }
        for name in aligned.names { rows.append(object(name, row)) }
      case .only(let life, let row): rows.append(object(aligned.names[life], row))
      }
    }
    let policies = lives.map { life in
      ConfigValue.object([
        .init(key: "name", value: .string(life.policy.name)),
        .init(key: "messages", value: .number(Double(life.outcomes.count))),
        .init(key: "displayed", value: .number(Double(life.displayed))),
        .init(key: "interrupted_visits", value: .number(Double(life.interruptions))),
        .init(
          key: "onboarding_runs_started", value: .number(Double(life.tally.onboardingRunsStarted))),
        .init(
          key: "onboarding_runs_interrupted",
          value: .number(Double(life.tally.onboardingRunsInterrupted))),
        .init(key: "forced", value: .number(Double(life.tally.fallbackFired))),
        .init(key: "failed_displays", value: .number(Double(life.tally.displayFailures))),
        .init(
          key: "consent_deadlines_missed", value: .number(Double(life.tally.consentDeadlineMisses))),
        .init(
          key: "consent_deadlines",
          value: .array(
            life.deadlines.map { deadline in
              .object([
                .init(key: "message", value: .number(Double(deadline.message))),
                .init(key: "time_s", value: .number(deadline.at)),
                .init(key: "met", value: deadline.met.map { .bool($0) } ?? .null),
              ])
            })),
      ])
    }
    let document = ConfigValue.object([
      .init(key: "scenario", value: .string(scenario.name)),
      .init(key: "user", value: .number(Double(user))),
      .init(key: "replication", value: .number(Double(replication))),
      .init(key: "seed", value: .string(String(scenario.seed))),
      .init(key: "policies", value: .array(policies)),
      .init(key: "rows", value: .array(rows)),
    ])
    return document.jsonText()
  }

  /// `--find`'s answer: the users found, each with every searched policy's summary.
  static func found(
    _ found: TraceSearch.Found, outcome: String, scenario: Scenario, replication: Int,
    format: String
  ) -> String {
    switch format {
    case "csv":
      var table = CSVTable(header: ["user", "policy", "outcome"])
      for (user, policies) in found.users {
        for policy in policies { table.append([.integer(user), .text(policy), .text(outcome)]) }
      }
      return String(table.text.dropLast())
    case "json":
      let users = found.users.map { user, policies in
        ConfigValue.object(
          [
            .init(key: "user", value: .number(Double(user))),
            .init(key: "policies", value: .array(policies.map { .string($0) })),
          ]
            + (found.differences[user].map {
              [.init(key: "differences", value: .array($0.map { .string($0) }))]
            } ?? []))
      }
      return ConfigValue.object([
        .init(key: "scenario", value: .string(scenario.name)),
        .init(key: "replication", value: .number(Double(replication))),
        .init(key: "outcome", value: .string(outcome)),
        .init(key: "scanned", value: .number(Double(found.scanned))),
        .init(key: "users", value: .array(users)),
      ]).jsonText()
    default:
      let what: String
      if let between = found.between {
        let compared = outcome == "differ" ? TraceLife.compared.joined(separator: ", ") : outcome
        what =
          "whose outcome (\(compared)) differs between \(between.joined(separator: " and "))"
      } else {
        what = "with '\(outcome)'"
      }
      var lines = [
        "\(scenario.name), replication \(replication): \(found.users.count) user(s) \(what) "
          + "among the first \(found.scanned) of \(scenario.users) scanned"
          + (found.users.isEmpty ? "" : ":")
      ]
      for (user, policies) in found.users {
        let differences = found.differences[user].map { " (\($0.joined(separator: ", ")))" }
        lines.append("  user \(user): \(policies.joined(separator: ", "))\(differences ?? "")")
      }
      if let (user, policies) = found.users.first {
        // Found by how two lives differ: see both, where they differ.
        let flags = (found.between ?? Array(policies.prefix(2))).map { "--policy \($0)" }
          .joined(separator: " ")
        lines.append(
          "See one: deferral-sim trace \(flags) --user \(user)"
            + (found.between != nil ? " --diff" : ""))
      }
      return lines.joined(separator: "\n")
    }
  }
}

/// `trace --find`: the users of one replication whose life had an outcome.
enum TraceSearch {
  struct Found {
    /// Each user found, with the policies under which it had the outcome.
    var users: [(Int, [String])] = []
    /// With two policies, how the two lives' outcomes differ for each user found, by user:
    /// `missed 1 vs 0` (the counts in the order the policies were given).
    var differences: [Int: [String]] = [:]
    /// The two policies compared, when users were found by how their outcome differs.
    var between: [String]?
    var scanned = 0
  }

  /// How two lives differ in `outcomes`: `missed 1 vs 0` for each that differs.
  static func differences(_ a: TraceLife, _ b: TraceLife, in outcomes: [String]) -> [String] {
    outcomes.compactMap { outcome in
      let counts = (a.count(outcome), b.count(outcome))
      return counts.0 == counts.1 ? nil : "\(outcome) \(counts.0) vs \(counts.1)"
    }
  }

  /// - Throws: ``TraceStopped`` when a life runs into the run's event budget (as `run` would
  ///   stop there), so a looping scenario ends with its error, not with gigabytes of steps.
  static func find(
    _ outcome: String, in world: CompiledScenario, policies: [NamedPolicy], replication: Int,
    limit: Int, scanning: Int = .max
  ) throws(TraceStopped) -> Found {
    var found = Found()
    let scenario = world.scenario
    // Every outcome is read from the tally and the messages' outcomes alone.
    let keeping = 0
    for user in 0..<min(scenario.users, scanning) {
      found.scanned = user + 1
      var lives: [TraceLife] = []
      for policy in policies {
        let traced = Engine.boundedTrace(
          world, policy: policy.configuration, seed: scenario.seed, replication: replication,
          user: user, keepingSteps: keeping)
        if let error = traced.budgetExceeded {
          throw TraceStopped(error: error, policy: policy.name, kept: 0)
        }
        lives.append(
          TraceLife(
            policy: policy, traced: (traced.steps, traced.outcomes, traced.tally),
            scenario: scenario))
      }
      let matching: [String]
      // Two policies: the users whose outcome differs between them (`differ`: in any outcome
      // a reader compares; `missed`, `interrupted`, `forced`: in that one), not those whose
      // events differ anywhere or who had the outcome under both alike.
      if lives.count == 2, outcome == "differ" || TraceLife.pairwise.contains(outcome) {
        let compared = outcome == "differ" ? TraceLife.compared : [outcome]
        let differences = differences(lives[0], lives[1], in: compared)
        matching =
          differences.isEmpty
          ? []
          : outcome == "differ"
            ? lives.map(\.policy.name) : lives.filter { $0.had(outcome) }.map(\.policy.name)
        if !differences.isEmpty { found.differences[user] = differences }
        found.between = lives.map(\.policy.name)
      } else {
        matching = lives.filter { $0.had(outcome) }.map(\.policy.name)
      }
      if !matching.isEmpty { found.users.append((user, matching)) }
      if found.users.count >= limit { break }
    }
    return found
  }
}
