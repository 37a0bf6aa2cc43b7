import CGSL
import Simulation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// One fitted `transitions_after` table: a screen's exits when `previous` came just before it.
struct _MemoryTable {
  var previous: Int
  /// Exits by next screen (`screens.count`: the background), as ``FitObservations`` counts.
  var counts: [Int]
  /// Exits and leaves by place (1 ... ``FitObservations/positionCap``), index place − 1.
  var exits: [Int]
  var leaves: [Int]
  /// The likelihood-ratio statistic that kept it, and its degrees of freedom.
  var deviance: Double
  var degrees: Int
}

extension _ScenarioDraft {
  /// A (previous, screen) pair needs this many exits to other screens to be tested for a
  /// table of its own.
  static let minimumMemoryExits = 30
  /// The family-wise level of the memory tests (Bonferroni over the pairs tested).
  static let memoryLevel = 0.01
  /// At most this many tables, the strongest first: a scenario stays readable.
  static let maximumMemoryTables = 40

  /// The kept targets of `screen`'s row, which every table of the screen writes
  /// (``transitionText(from:row:label:firstPlace:_:_:)``): the background when seen and the
  /// included screens not pooled away, in index order; the background alone when none.
  func keptTargets(_ screen: Int, _ included: Set<Int>, _ pooled: Set<[Int]>) -> [Int] {
    let background = map.screens.count
    let row = observations.transitions[screen]
    let kept = (0...background).filter {
      row[$0] > 0
        && ($0 == background || (included.contains($0) && !pooled.contains([screen, $0])))
    }
    return kept.isEmpty ? [background] : kept
  }

  /// Chooses `transitions_after` tables (session memory, ``FitObservations/secondOrder``) by
  /// forward selection. The candidates are the pairs of included screens (previous, screen)
  /// with at least ``minimumMemoryExits`` exits where `previous` keeps a transition to
  /// `screen`. For each screen, each candidate's exits to other screens are set against the
  /// exits no kept table takes yet (the screen's row minus its kept tables and the candidate)
  /// in a 2 × K table over the screen's K kept targets other than the background: the
  /// likelihood-ratio statistic G² on K − 1 degrees of freedom. The strongest is kept when G²
  /// exceeds the chi-square quantile at ``memoryLevel`` divided by the number of candidates
  /// (Bonferroni), and the rest are tested again; a screen stops at its first candidate below.
  /// Testing against all other exits would make every other predecessor look different once
  /// one strong table exists. A small log keeps none; a large one only what it shows clearly.
  ///
  /// Only where users go when they stay is tested: under `leave_odds_by_position` the chance
  /// of leaving moves with the place in the session, and a session's first screen never has a
  /// predecessor, so a test on leaving would read a position effect as memory. A kept table
  /// still gets its own chance of leaving (its own intercept in ``_PositionOdds``, or its own
  /// count without).
  mutating func selectMemory(included: Set<Int>, pooled: Set<[Int]>) {
    let screens = map.screens
    let background = screens.count
    var pairs: [ScreenTriple: [Int]] = [:]
    for (triple, count) in observations.secondOrder {
      let key = ScreenTriple(previous: Int(triple.previous), screen: Int(triple.screen), next: 0)
      pairs[key, default: [Int](repeating: 0, count: background + 1)][Int(triple.next)] += count
    }
    var candidates: [Int: [_MemoryTable]] = [:]
    for (key, counts) in pairs {
      let previous = Int(key.previous)
      let screen = Int(key.screen)
      guard included.contains(screen), included.contains(previous), phaseTables[screen] == nil,
        counts.reduce(0, +) - counts[background] >= Self.minimumMemoryExits,
        keptTargets(previous, included, pooled).contains(screen),
        keptTargets(screen, included, pooled).filter({ $0 != background }).count >= 2
      else { continue }
      var exits = [Int](repeating: 0, count: FitObservations.positionCap)
      var leaves = exits
      for place in 1...FitObservations.positionCap {
        let placeKey = ScreenTriple(previous: previous, screen: screen, next: place)
        if let counted = observations.secondOrderPlaces[placeKey] {
          exits[place - 1] = counted.exits
          leaves[place - 1] = counted.leaves
        }
      }
      candidates[screen, default: []].append(
        _MemoryTable(
          previous: previous, counts: counts, exits: exits, leaves: leaves, deviance: 0,
          degrees: 0))
    }
    let tested = candidates.values.reduce(0) { $0 + $1.count }
    let name = "session memory (second-order transitions)"
    guard tested > 0 else {
      estimates.append(
        (
          name, "none",
          "no pair of a screen and the one before it has \(Self.minimumMemoryExits) exits to "
            + "other screens to test"
        ))
      return
    }
    let level = Self.memoryLevel / Double(tested)
    var chosen: [(table: _MemoryTable, screen: Int)] = []
    for screen in candidates.keys.sorted() {
      let kept = keptTargets(screen, included, pooled).filter { $0 != background }
      let tables = candidates[screen]!.sorted { $0.previous < $1.previous }
      let selected = Self.forwardSelection(
        tables.map { ($0.previous, $0.counts) }, all: observations.transitions[screen],
        over: kept, level: level)
      for pick in selected {
        var table = tables.first { $0.previous == pick.key }!
        table.deviance = pick.deviance
        table.degrees = pick.degrees
        chosen.append((table, screen))
      }
    }
    chosen.sort {
      $0.table.deviance != $1.table.deviance
        ? $0.table.deviance > $1.table.deviance
        : ($0.screen, $0.table.previous) < ($1.screen, $1.table.previous)
    }
    let kept = chosen.prefix(Self.maximumMemoryTables)
    for (table, screen) in kept { memory[screen, default: []].append(table) }
    for screen in memory.keys { memory[screen]!.sort { $0.previous < $1.previous } }
    let test =
      "forward selection on the likelihood-ratio G² of each (previous, screen) pair with ≥ "
      + "\(Self.minimumMemoryExits) exits to other screens against the screen's exits no table "
      + "takes (where users go when they stay), at level \(Self.number(Self.memoryLevel)) over "
      + "the \(tested) pair\(tested == 1 ? "" : "s") tested (Bonferroni)"
    guard let strongest = kept.first else {
      estimates.append((name, "none", "no table kept: " + test))
      return
    }
    let strongestText =
      "'\(screens[strongest.table.previous].name) → \(screens[strongest.screen].name)' "
      + "G² \(Self.number(strongest.table.deviance)) on \(strongest.table.degrees) degrees "
      + "of freedom"
    estimates.append(
      (
        name,
        "\(kept.count) table\(kept.count == 1 ? "" : "s") in transitions_after",
        test + "; strongest " + strongestText
          + (chosen.count > kept.count
            ? "; the \(Self.maximumMemoryTables) strongest of \(chosen.count) kept" : "")
      ))
  }

  /// Forward selection of count tables against the counts no kept table takes yet: each
  /// candidate's counts (keyed) against `all` less the kept ones and itself, G² over `kept`
  /// targets on K − 1 degrees of freedom (``deviance(_:_:over:)``); the strongest (ties: the
  /// smaller key) is kept while its G² exceeds the chi-square quantile at `level`, and the rest
  /// are tested again. Session memory and lifecycle phases select with it.
  static func forwardSelection(
    _ candidates: [(key: Int, counts: [Int])], all: [Int], over kept: [Int], level: Double
  ) -> [(key: Int, deviance: Double, degrees: Int)] {
    var remaining = candidates
    var rest = all
    var selected: [(key: Int, deviance: Double, degrees: Int)] = []
    let degrees = kept.count - 1
    let critical = gsl_cdf_chisq_Qinv(level, Double(degrees))
    while !remaining.isEmpty {
      let deviances = remaining.map { deviance($0.counts, rest, over: kept) }
      let best = remaining.indices.max {
        deviances[$0] != deviances[$1]
          ? deviances[$0] < deviances[$1] : remaining[$0].key > remaining[$1].key
      }!
      guard deviances[best] > critical else { break }
      selected.append((remaining[best].key, deviances[best], degrees))
      for index in rest.indices { rest[index] -= remaining[best].counts[index] }
      remaining.remove(at: best)
    }
    return selected
  }

  /// G² of the 2 × K table: `pair`'s exits against `rest` minus `pair`'s, over targets `kept`
  /// (0 when either side has no exits there).
  static func deviance(_ pair: [Int], _ rest: [Int], over kept: [Int]) -> Double {
    let inPair = kept.map { Double(pair[$0]) }
    let others = kept.map { Double(max(0, rest[$0] - pair[$0])) }
    let pairTotal = inPair.reduce(0, +)
    let otherTotal = others.reduce(0, +)
    guard pairTotal > 0, otherTotal > 0 else { return 0 }
    let total = pairTotal + otherTotal
    var deviance = 0.0
    for k in kept.indices {
      let column = inPair[k] + others[k]
      for (observed, margin) in [(inPair[k], pairTotal), (others[k], otherTotal)]
      where observed > 0 {
        deviance += 2 * observed * log(observed * total / (column * margin))
      }
    }
    return deviance
  }

  /// `, "transitions_after": {...}` for `screen`, or "" without tables.
  mutating func memoryText(_ screen: Int, _ included: Set<Int>, _ pooled: Set<[Int]>) -> String {
    guard let tables = memory[screen], !tables.isEmpty else { return "" }
    let screens = map.screens
    let parts = tables.map { table in
      let firstPlace = positionOdds?.background[
        ScreenTriple(previous: table.previous, screen: screen, next: 0)]
      let rowText = transitionText(
        from: screen, row: table.counts,
        label: "\(screens[screen].name) after \(screens[table.previous].name)",
        firstPlace: firstPlace, included, pooled)
      return "\(Self.quoted(screens[table.previous].name)): {\(rowText)}"
    }
    return ", \"transitions_after\": {" + parts.joined(separator: ", ") + "}"
  }

  /// The exits of `screen` that no table takes: its row's counts, its exits and leaves by
  /// place, minus its tables'.
  func defaultRow(_ screen: Int) -> (counts: [Int], exits: [Int], leaves: [Int]) {
    var counts = observations.transitions[screen]
    var exits = observations.positionExits[screen]
    var leaves = observations.positionLeaves[screen]
    for table in memory[screen] ?? [] {
      for index in counts.indices { counts[index] -= table.counts[index] }
      for index in exits.indices {
        exits[index] -= table.exits[index]
        leaves[index] -= table.leaves[index]
      }
    }
    return (counts, exits, leaves)
  }
}
