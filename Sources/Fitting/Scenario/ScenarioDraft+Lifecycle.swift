import CGSL
import Simulation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// One fitted table of a lifecycle phase: a screen's exits, or the entries after the splash,
/// in the sessions of one class (``FitObservations/phaseClasses``).
struct _PhaseTable {
  var phase: Int
  /// Counts by target (exits: `screens.count` is the background; entries: by screen).
  var counts: [Int]
  /// The likelihood-ratio statistic that kept it, and its degrees of freedom.
  var deviance: Double
  var degrees: Int
}

extension _ScenarioDraft {
  /// A class needs this many exits to other screens (or cold entries) at a screen to be tested
  /// for a table of its own.
  static let minimumPhaseCounts = 30
  /// The family-wise level of the phase tests (Bonferroni over the candidates tested).
  static let phaseLevel = 0.01
  /// The phases `fit` writes, one per class, with their `from_session`.
  static let phaseNames = ["session-1", "session-2", "session-3", "session-4-on"]

  /// Chooses lifecycle phase tables by forward selection, as ``selectMemory(included:pooled:)``
  /// does for session memory (and before it: a screen with phase tables gets no memory): for
  /// each screen with at least two kept targets other than the background, each class with at least
  /// ``minimumPhaseCounts`` exits to other screens is set against the exits no kept table
  /// takes yet, a 2 × K table over the screen's kept targets other than the background, G² on
  /// K − 1 degrees of freedom against the chi-square quantile at ``phaseLevel`` over the
  /// candidates tested (Bonferroni). The same for the cold-launch entry of onboarded users
  /// when the log shows the splash and the entry is a mix. Only where users go is tested: a
  /// phase's table keeps its screen's chance of leaving (a position effect, or a session that
  /// ends early, would otherwise read as a phase).
  mutating func selectPhases(included: Set<Int>, pooled: Set<[Int]>) {
    let screens = map.screens
    let background = screens.count
    let classes = FitObservations.phaseClasses
    var rows = [Int: [[Int]]]()
    for (key, count) in observations.phaseTransitions {
      let screen = Int(key.screen)
      rows[
        screen,
        default: Array(repeating: Array(repeating: 0, count: background + 1), count: classes)][
          Int(key.previous)][Int(key.next)] += count
    }
    var candidates: [(screen: Int, tables: [_PhaseTable], kept: [Int], all: [Int])] = []
    for screen in rows.keys.sorted() where included.contains(screen) {
      let kept = keptTargets(screen, included, pooled).filter { $0 != background }
      guard kept.count >= 2 else { continue }
      let tables = Self.phaseCandidates(over: kept) { rows[screen]![$0] }
      if !tables.isEmpty {
        candidates.append((screen, tables, kept, observations.transitions[screen]))
      }
    }
    // The entries: screen `background` stands for them (no screen has that index).
    let mixScreens = returningMix.map(\.screen)
    if launchLogged, mixScreens.count >= 2 {
      let tables = Self.phaseCandidates(over: mixScreens) { observations.phaseEntries[$0] }
      if !tables.isEmpty {
        candidates.append((background, tables, mixScreens, observations.afterLaunchReturning))
      }
    }
    let tested = candidates.reduce(0) { $0 + $1.tables.count }
    let name = "lifecycle phases (by session index)"
    guard tested > 0 else {
      estimates.append(
        (
          name, "none",
          "no screen has a class of sessions (new users' 1st, 2nd, 3rd, 4th on) with "
            + "\(Self.minimumPhaseCounts) exits to other screens to test"
        ))
      return
    }
    let level = Self.phaseLevel / Double(tested)
    var chosen: [(table: _PhaseTable, screen: Int)] = []
    for candidate in candidates {
      let selected = Self.forwardSelection(
        candidate.tables.map { ($0.phase, $0.counts) }, all: candidate.all, over: candidate.kept,
        level: level)
      for pick in selected {
        var table = candidate.tables.first { $0.phase == pick.key }!
        table.deviance = pick.deviance
        table.degrees = pick.degrees
        chosen.append((table, candidate.screen))
      }
    }
    for (table, screen) in chosen {
      if screen == background {
        phaseEntryTables.append(table)
      } else {
        phaseTables[screen, default: []].append(table)
      }
    }
    for screen in phaseTables.keys { phaseTables[screen]!.sort { $0.phase < $1.phase } }
    phaseEntryTables.sort { $0.phase < $1.phase }
    let test =
      "forward selection on the likelihood-ratio G² of each class of sessions (new users' 1st, "
      + "2nd, 3rd, 4th on; other users' in the last) with ≥ \(Self.minimumPhaseCounts) exits to "
      + "other screens against the exits no table takes (where users go when they stay; the "
      + "entry after the splash), at level \(Self.number(Self.phaseLevel)) over the \(tested) "
      + "candidate\(tested == 1 ? "" : "s") tested (Bonferroni)"
    guard
      let strongest = chosen.max(by: {
        $0.table.deviance != $1.table.deviance
          ? $0.table.deviance < $1.table.deviance : $0.screen > $1.screen
      })
    else {
      estimates.append((name, "none", "no table kept: " + test))
      return
    }
    let place = strongest.screen == background ? "the entry" : "'\(screens[strongest.screen].name)'"
    estimates.append(
      (
        name,
        "\(chosen.count) table\(chosen.count == 1 ? "" : "s") in lifecycle",
        test + "; strongest \(place) in \(Self.phaseNames[strongest.table.phase]) G² "
          + "\(Self.number(strongest.table.deviance)) on \(strongest.table.degrees) degrees of "
          + "freedom"
      ))
  }

  /// The classes whose counts (`counts(class)`) reach ``minimumPhaseCounts`` over `targets`:
  /// the candidates of one screen's (or the entry's) selection.
  static func phaseCandidates(over targets: [Int], counts: (Int) -> [Int]) -> [_PhaseTable] {
    (0..<FitObservations.phaseClasses).compactMap { phase in
      let row = counts(phase)
      guard targets.reduce(0, { $0 + row[$1] }) >= minimumPhaseCounts else { return nil }
      return _PhaseTable(phase: phase, counts: row, deviance: 0, degrees: 0)
    }
  }

  /// A class needs this many complete gaps to be tested for a gap of its own.
  static let minimumPhaseGaps = 100

  /// Gaps by lifecycle phase: each class's gaps (those after its sessions, the last ones
  /// censored at the log's end; on the active clock with a daily rhythm) fitted in the family
  /// of `sessions.gap`, and kept when the likelihood ratio of one fit per class against one
  /// fit for them all (on the same samples) exceeds the chi-square quantile at
  /// ``phaseLevel`` on (parameters × (classes − 1)) degrees of freedom. Only classes with
  /// ``minimumPhaseGaps`` complete gaps are tested; the others keep `sessions.gap`. Not fitted
  /// with churn (a user's last gap is then weighed by the chance they come back, and that
  /// chance is one for all classes).
  mutating func selectPhaseGaps(churn: Double?) {
    let name = "gaps by lifecycle phase"
    guard let family = gap.chosen?.family else { return }
    guard churn == nil else {
      estimates.append((name, "none", "not fitted together with churn: one gap for every session"))
      return
    }
    var groups: [(phase: Int, samples: [DurationSample])] = []
    for phase in 0..<FitObservations.phaseClasses {
      let samples = observations.phaseGaps[phase].items.map { gap in
        rhythmClock.map { activeGap(gap.sample, from: gap.start, on: $0) } ?? gap.sample
      }
      if samples.filter({ !$0.censored }).count >= Self.minimumPhaseGaps {
        groups.append((phase, samples))
      }
    }
    guard groups.count >= 2,
      let pooled = DurationFit.fit(groups.flatMap(\.samples), family: family)
    else {
      estimates.append(
        (
          name, "none",
          "fewer than two classes of sessions have \(Self.minimumPhaseGaps) complete gaps after "
            + "them to test"
        ))
      return
    }
    let fits = groups.compactMap { group in
      DurationFit.fit(group.samples, family: family).map { (group.phase, $0) }
    }
    guard fits.count == groups.count else { return }
    let deviance = 2 * (fits.reduce(0) { $0 + $1.1.logLikelihood } - pooled.logLikelihood)
    let degrees = family.parameterCount * (groups.count - 1)
    let critical = gsl_cdf_chisq_Qinv(Self.phaseLevel, Double(degrees))
    let test =
      "likelihood ratio of one \(family.rawValue) per class of sessions (new users' 1st, 2nd, "
      + "3rd, 4th on; other users' in the last; \(groups.count) with ≥ "
      + "\(Self.minimumPhaseGaps) complete gaps) against one for all: G² "
      + "\(Self.number(deviance)) on \(degrees) degrees of freedom, critical "
      + "\(Self.number(critical)) at level \(Self.number(Self.phaseLevel))"
    guard deviance > critical else {
      estimates.append((name, "none", test))
      return
    }
    for (phase, fitted) in fits { phaseGaps[phase] = fitted }
    let medians = fits.map {
      "\(Self.phaseNames[$0.0]) median \(Self.durationText($0.1.spec.median))"
    }
    estimates.append(
      (name, "\(fits.count) gaps in lifecycle", test + "; " + medians.joined(separator: ", ")))
  }

  /// The background probability every row of `screen` writes when it has phase tables (the
  /// first place's under position odds, else its share of all the screen's exits); `nil`
  /// without (the row is written as it always was).
  func phaseFirstPlace(_ screen: Int, _ included: Set<Int>, _ pooled: Set<[Int]>) -> Double? {
    guard phaseTables[screen] != nil else { return nil }
    if let odds = positionOdds?.background[
      ScreenTriple(previous: noScreen, screen: screen, next: 0)]
    {
      return odds
    }
    let row = observations.transitions[screen]
    let kept = keptTargets(screen, included, pooled)
    let total = Double(kept.reduce(0) { $0 + max(1, row[$1]) })
    return Double(max(1, row[map.screens.count])) / total
  }

  /// `counts` over `targets` as shares to 6 decimals summing to 1 (each count at least 1, the
  /// largest share absorbing the rounding).
  static func shares(_ counts: [Int], over targets: [Int]) -> [Double] {
    let total = Double(targets.reduce(0) { $0 + max(1, counts[$1]) })
    var shares = targets.map { (Double(max(1, counts[$0])) / total * 1e6).rounded() / 1e6 }
    let largest = shares.indices.max { shares[$0] < shares[$1] }!
    let others = shares.indices.filter { $0 != largest }.reduce(0) { $0 + shares[$1] }
    shares[largest] = ((1 - others) * 1e6).rounded() / 1e6
    return shares
  }

  /// The exits of `screen` its phase tables leave (its row minus theirs, the background kept).
  func phaseRest(_ row: [Int], _ screen: Int) -> [Int] {
    var rest = row
    for table in phaseTables[screen] ?? [] {
      for index in rest.indices where index != map.screens.count {
        rest[index] -= table.counts[index]
      }
    }
    return rest
  }

  /// The `"lifecycle": [...]` line, or `nil` when no table was kept: the four phases of
  /// ``phaseNames`` (existing users in the last), each with its tables.
  mutating func lifecycleLine(_ included: Set<Int>, _ pooled: Set<[Int]>) -> String? {
    guard !phaseTables.isEmpty || !phaseEntryTables.isEmpty || !phaseGaps.isEmpty else {
      return nil
    }
    let screens = map.screens
    var phases: [String] = []
    for phase in 0..<FitObservations.phaseClasses {
      var parts = [
        "\"name\": \(Self.quoted(Self.phaseNames[phase]))", "\"from_session\": \(phase + 1)",
      ]
      var tables: [String] = []
      for screen in phaseTables.keys.sorted() {
        guard let table = phaseTables[screen]!.first(where: { $0.phase == phase }) else {
          continue
        }
        let text = transitionText(
          from: screen, row: table.counts,
          label: "\(screens[screen].name) in \(Self.phaseNames[phase])",
          firstPlace: phaseFirstPlace(screen, included, pooled), included, pooled)
        tables.append("\(Self.quoted(screens[screen].name)): {\(text)}")
      }
      if !tables.isEmpty {
        parts.append("\"transitions\": {" + tables.joined(separator: ", ") + "}")
      }
      if let entry = phaseEntryTables.first(where: { $0.phase == phase }) {
        let mix = returningMix.map(\.screen)
        let shares = Self.shares(entry.counts, over: mix)
        parts.append(
          "\"returning_mix\": {"
            + zip(mix, shares).map { "\(Self.quoted(screens[$0].name)): \($1)" }
            .joined(separator: ", ") + "}")
      }
      if let fitted = phaseGaps[phase] { parts.append("\"gap\": " + Self.json(fitted.spec)) }
      phases.append("{" + parts.joined(separator: ", ") + "}")
    }
    // The scenario's own mix is what the phases' entry tables leave (the phases without one
    // use it).
    if !phaseEntryTables.isEmpty {
      var rest = observations.afterLaunchReturning
      for table in phaseEntryTables {
        for index in rest.indices { rest[index] -= table.counts[index] }
      }
      let mix = returningMix.map(\.screen)
      let shares = Self.shares(rest, over: mix)
      returningMix = zip(mix, shares).map { (screen: $0, probability: $1) }
    }
    return "  \"lifecycle\": [\n    " + phases.joined(separator: ",\n    ") + "\n  ]"
  }
}
