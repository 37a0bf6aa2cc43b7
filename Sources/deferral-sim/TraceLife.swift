import MessageDeferral
import Reports
import Simulation

/// One row of a trace, in words: what `trace` prints, writes as CSV, or as JSON.
struct TraceRow: Equatable {
  var time: Double
  var screen: String
  var kind: String
  var what: String
  var message: String
  var reason: String
  var decision: String
  var why: String

  /// The fields two policies' rows are compared on (all of them).
  var key: [String] { [String(time), screen, what, message, decision, why] }
}

/// One user's life under one policy, as rows and a one-line summary.
struct TraceLife {
  var policy: NamedPolicy
  var rows: [TraceRow]
  var tally: Tally
  var outcomes: [MessageOutcome]
  let interruptingScreens: [Bool]
  /// Each consent message's deadline, in issue order (from the steps: none when none kept).
  var deadlines: [ConsentDeadline] = []

  /// A consent message's deadline and whether it was met: shown by then, or expired by then
  /// (the rule of `consent_deadline_missed`); `met` is nil for a deadline past the horizon,
  /// which no run counts.
  struct ConsentDeadline: Equatable {
    var message: Int
    var reason: String
    var at: Double
    var met: Bool?

    /// `#0 at d12 03:00:00.000, missed`.
    var text: String {
      let fate = met.map { $0 ? "met" : "missed" } ?? "after the horizon"
      return "#\(message) at \(TraceFormat.clock(at)), \(fate)"
    }
  }

  init(
    policy: NamedPolicy,
    traced: (steps: [TraceStep], outcomes: [MessageOutcome], tally: Tally),
    scenario: Scenario
  ) {
    self.policy = policy
    tally = traced.tally
    outcomes = traced.outcomes
    interruptingScreens = scenario.screens.map { TraceLife.interrupting.contains($0.kind) }
    rows = traced.steps.map { step in
      // A cold launch starts on no screen yet: the engine's step still carries the screen
      // the process died on.
      let shown = step.what == .coldLaunch ? -1 : step.screen
      return TraceRow(
        time: step.time,
        screen: shown >= 0 ? scenario.screens[shown].name : "",
        kind: shown >= 0 ? scenario.screens[shown].kind.rawValue : "",
        what: step.what.rawValue,
        message: step.message >= 0 ? "#\(step.message)" : "",
        reason: step.reason?.name ?? "",
        // A display row's response (with a `responses` section) goes in the decision column.
        decision: step.decision?.text
          ?? (step.response == .none ? "" : "response: \(step.response.name)"),
        why: step.decision?.why ?? "")
    }
    deadlines = Self.deadlines(traced.steps, outcomes: traced.outcomes, horizon: scenario.horizon)
    // A row at each deadline within the horizon, after every step at or before it.
    for deadline in deadlines {
      guard let met = deadline.met else { continue }
      let at = rows.lastIndex { $0.time <= deadline.at }.map { $0 + 1 } ?? 0
      rows.insert(
        TraceRow(
          time: deadline.at, screen: "", kind: "",
          what: met ? Self.deadlineMet : Self.deadlineMissed, message: "#\(deadline.message)",
          reason: deadline.reason, decision: "", why: ""),
        at: at)
    }
  }

  /// The `what` of the row at a consent deadline: shown (or expired) by then, or not.
  static let deadlineMet = "consent deadline met"
  static let deadlineMissed = "consent deadline missed"

  /// The consent deadlines the steps carry, one per message, with the engine's rule for a
  /// miss: the deadline falls within the horizon and the message was neither displayed nor
  /// expired by then.
  static func deadlines(
    _ steps: [TraceStep], outcomes: [MessageOutcome], horizon: Double
  ) -> [ConsentDeadline] {
    var found: [ConsentDeadline] = []
    var seen = Set<Int>()
    for step in steps where step.message >= 0 {
      guard let at = step.deadline, seen.insert(step.message).inserted else { continue }
      var met: Bool?
      if at <= horizon {
        let displayedAt = outcomes.first { $0.message == step.message }?.displayedAt
        let expiredAt = steps.first { $0.message == step.message && $0.what == .expired }?.time
        met = (displayedAt.map { $0 <= at } ?? false) || (expiredAt.map { $0 <= at } ?? false)
      }
      found.append(
        ConsentDeadline(
          message: step.message, reason: step.reason?.name ?? "", at: at, met: met))
    }
    return found
  }

  /// Screen kinds over which a sheet is an interruption.
  static let interrupting: Set<ScreenKind> = [
    .launch, .onboarding, .paywall, .checkout, .immersive,
  ]

  /// Interrupted visits to screens of an interrupting kind.
  var interruptions: Int {
    zip(tally.screenInterrupted, interruptingScreens).reduce(0) { $0 + ($1.1 ? $1.0 : 0) }
  }

  var displayed: Int { outcomes.filter { $0.outcome == .displayed }.count }

  /// How many times the life had `outcome`: `displayed` messages, `interrupted` screen visits,
  /// `forced` displays, `missed` consent deadlines, `failed` displays.
  func count(_ outcome: String) -> Int {
    switch outcome {
    case "displayed": displayed
    case "interrupted": interruptions
    case "forced": tally.fallbackFired
    case "missed": tally.consentDeadlineMisses
    case "failed": tally.displayFailures
    case "declined": tally.consentDeclined
    case "closed": tally.consentClosed
    case "lost": tally.consentDeadlinesDue - tally.consentKept
    default: 0
    }
  }

  /// Whether the life had `outcome` (one of ``TraceCommand/outcomes`` but `differ`).
  func had(_ outcome: String) -> Bool { count(outcome) > 0 }

  /// The outcomes `--find differ` compares two lives on.
  static let compared = ["displayed", "missed", "interrupted", "forced"]

  /// The outcomes whose counts `--find` compares between two policies: ``compared`` and the
  /// responses (a scenario with a `responses` section).
  static let pairwise = compared + ["declined", "closed", "lost"]

  var summary: String {
    "\(policy.name): \(outcomes.count) messages, \(displayed) displayed, "
      + "\(interruptions) interrupted screen visit(s), "
      + "\(tally.onboardingRunsInterrupted)/\(tally.onboardingRunsStarted) onboarding runs "
      + "interrupted, \(tally.fallbackFired) forced, \(tally.displayFailures) failed display(s), "
      + "\(tally.consentDeadlineMisses) consent deadline(s) missed"
      + (tally.consentAccepted + tally.consentDeclined + tally.consentClosed > 0
        ? ", consent \(tally.consentAccepted) accepted / \(tally.consentDeclined) declined / "
          + "\(tally.consentClosed) closed" : "")
      + (deadlines.isEmpty
        ? "" : " (deadline " + deadlines.map(\.text).joined(separator: "; ") + ")")
  }
}

/// Two lives lined up: the rows they share (`both`) and those only one had, in time order.
/// With one life every row is its own.
struct TraceAlignment {
  enum Entry: Equatable {
    case both(TraceRow)
    case only(Int, TraceRow)

    var row: TraceRow {
      switch self {
      case .both(let row), .only(_, let row): row
      }
    }
  }

  var entries: [Entry] = []
  var names: [String]

  /// The most cells of the longest-common-subsequence table; beyond it the middle of two
  /// lives that differ is listed without alignment (still in time order).
  static let alignmentBudget = 4_000_000

  init(lives: [TraceLife]) {
    names = lives.map(\.policy.name)
    guard lives.count == 2 else {
      entries = lives.first?.rows.map { .only(0, $0) } ?? []
      return
    }
    let a = lives[0].rows
    let b = lives[1].rows
    var prefix = 0
    while prefix < min(a.count, b.count), a[prefix].key == b[prefix].key { prefix += 1 }
    var suffix = 0
    while suffix < min(a.count, b.count) - prefix,
      a[a.count - 1 - suffix].key == b[b.count - 1 - suffix].key
    {
      suffix += 1
    }
    entries = a[..<prefix].map { .both($0) }
    let middleA = Array(a[prefix..<(a.count - suffix)])
    let middleB = Array(b[prefix..<(b.count - suffix)])
    entries += Self.align(middleA, middleB)
    entries += a[(a.count - suffix)...].map { .both($0) }
  }

  /// Longest common subsequence of the two middles, or a time-ordered merge when too large.
  static func align(_ a: [TraceRow], _ b: [TraceRow]) -> [Entry] {
    guard !a.isEmpty || !b.isEmpty else { return [] }
    guard (a.count + 1) * (b.count + 1) <= alignmentBudget else {
      let tagged = a.map { Entry.only(0, $0) } + b.map { Entry.only(1, $0) }
      return tagged.enumerated().sorted {
        ($0.element.row.time, $0.offset) < ($1.element.row.time, $1.offset)
      }.map(\.element)
    }
    let width = b.count + 1
    var lengths = [Int](repeating: 0, count: (a.count + 1) * width)
    for i in stride(from: a.count - 1, through: 0, by: -1) {
      for j in stride(from: b.count - 1, through: 0, by: -1) {
        lengths[i * width + j] =
          a[i].key == b[j].key
          ? lengths[(i + 1) * width + j + 1] + 1
          : max(lengths[(i + 1) * width + j], lengths[i * width + j + 1])
      }
    }
    var result: [Entry] = []
    var i = 0
    var j = 0
    while i < a.count || j < b.count {
      if i < a.count, j < b.count, a[i].key == b[j].key {
        result.append(.both(a[i]))
        i += 1
        j += 1
      } else if j == b.count
        || (i < a.count
          && (lengths[(i + 1) * width + j] > lengths[i * width + j + 1]
            || (lengths[(i + 1) * width + j] == lengths[i * width + j + 1]
              && a[i].time <= b[j].time)))
      {
        result.append(.only(0, a[i]))
        i += 1
      } else {
        result.append(.only(1, b[j]))
        j += 1
      }
    }
    return result
  }
}
