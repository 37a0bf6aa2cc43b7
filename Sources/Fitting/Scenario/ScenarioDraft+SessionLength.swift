import Simulation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A chance of leaving that depends on the place in the session: logit P(leave | row *s*,
/// place *k*) = *a*ₛ + *b*ₖ with *b*₁ = 0, fitted by maximum likelihood on every view's exit
/// (to the background or not), places from ``lastPlace`` on sharing one *b*. A row is a
/// screen's own transitions or one of its `transitions_after` tables (each with its own
/// *a*: a memory would otherwise pass for a position effect). The scenario's background
/// probability of row *s* is σ(*a*ₛ) (the first place's) and `leave_odds_by_position` is
/// exp(*b*ₖ): the engine multiplies the odds by it.
struct _PositionOdds {
  /// exp(*b*ₖ), *k* = 1 ... ``lastPlace`` (the first is 1).
  var factors: [Double]
  /// σ(*a*ₛ) per fitted row, keyed (previous screen or ``noScreen`` for the screen's own
  /// row, screen, 0).
  var background: [ScreenTriple: Double]
  var logLikelihood: Double
  /// The log-likelihood with one chance per screen (no position effect).
  var constantLogLikelihood: Double
  var lastPlace: Int { factors.count }
  /// G² = 2 (log L − log L₀), on ``lastPlace`` − 1 degrees of freedom.
  var deviance: Double { 2 * (logLikelihood - constantLogLikelihood) }
  /// Akaike's criterion's gain over the constant chance (positive: the positions are kept).
  var aicGain: Double { deviance - 2 * Double(lastPlace - 1) }

  /// Views at places from the last pooled place on must number at least this many.
  static let minimumTail = 100

  static func sigmoid(_ x: Double) -> Double { 1 / (1 + exp(-x)) }

  /// The root of Σ nᵢ σ(θ + cᵢ) = y in θ (bisection on [−15, 15]; the sum rises with θ).
  static func solve(_ terms: [(n: Double, c: Double)], total y: Double) -> Double {
    var low = -15.0
    var high = 15.0
    for _ in 0..<60 {
      let middle = (low + high) / 2
      let value = terms.reduce(0) { $0 + $1.n * sigmoid(middle + $1.c) }
      if value < y { low = middle } else { high = middle }
    }
    return (low + high) / 2
  }

  /// Fits rows `rows` on their exits and leaves by place (index place − 1, as
  /// ``FitObservations/positionExits``); `nil` when fewer than two places have enough views.
  init?(rows: [(key: ScreenTriple, exits: [Int], leaves: [Int])]) {
    let cap = FitObservations.positionCap
    var tail = 0
    var last = 1
    for place in stride(from: cap, through: 1, by: -1) {
      tail += rows.reduce(0) { $0 + $1.exits[place - 1] }
      if tail >= Self.minimumTail {
        last = place
        break
      }
    }
    guard last >= 2 else { return nil }
    // Pooled tables: n[s][k], y[s][k], k = 0 ..< last.
    var n = [[Double]](repeating: [Double](repeating: 0, count: last), count: rows.count)
    var y = n
    for (index, row) in rows.enumerated() {
      for place in 0..<cap {
        n[index][min(place, last - 1)] += Double(row.exits[place])
        y[index][min(place, last - 1)] += Double(row.leaves[place])
      }
    }
    let screenN = n.map { $0.reduce(0, +) }
    let screenY = y.map { $0.reduce(0, +) }
    // A row that always or never leaves starts (and ends) at the search's bound.
    var a = zip(screenY, screenN).map { min(15, max(-15, log($0 / ($1 - $0)))) }
    var b = [Double](repeating: 0, count: last)
    func likelihood(_ a: [Double], _ b: [Double]) -> Double {
      var total = 0.0
      for row in n.indices {
        for place in 0..<last where n[row][place] > 0 {
          let p = min(max(Self.sigmoid(a[row] + b[place]), 1e-300), 1 - 1e-16)
          total += y[row][place] * log(p) + (n[row][place] - y[row][place]) * log(1 - p)
        }
      }
      return total
    }
    constantLogLikelihood = likelihood(a, b)
    for _ in 0..<200 {
      let before = b
      for place in 1..<last {
        let terms = n.indices.map { (n: n[$0][place], c: a[$0]) }
        b[place] = Self.solve(terms, total: y.indices.reduce(0) { $0 + y[$1][place] })
      }
      for row in n.indices {
        a[row] = Self.solve(
          (0..<last).map { (n: n[row][$0], c: b[$0]) }, total: screenY[row])
      }
      if zip(before, b).allSatisfy({ abs($0 - $1) < 1e-7 }) { break }
    }
    logLikelihood = likelihood(a, b)
    factors = b.map { exp($0) }
    background = Dictionary(uniqueKeysWithValues: zip(rows.map(\.key), a.map(Self.sigmoid)))
  }
}

extension _ScenarioDraft {
  /// Fits ``_PositionOdds`` on the included screens that sometimes, not always, lead to the
  /// background and have another kept transition, with their `transitions_after` tables
  /// (``selectMemory(included:pooled:)`` runs first); keeps it when AIC prefers it.
  mutating func fitPositionOdds(included: Set<Int>, pooled: Set<[Int]>) {
    let background = map.screens.count
    let screens = included.sorted().filter { screen in
      let row = observations.transitions[screen]
      let exits = row.reduce(0, +)
      let stays = (0..<background).contains {
        row[$0] > 0 && included.contains($0) && !pooled.contains([screen, $0])
      }
      return row[background] > 0 && row[background] < exits && stays
    }
    // Each screen's own row (what its `transitions_after` tables leave) and its tables.
    var rows: [(key: ScreenTriple, exits: [Int], leaves: [Int])] = []
    for screen in screens {
      let own = defaultRow(screen)
      rows.append(
        (ScreenTriple(previous: noScreen, screen: screen, next: 0), own.exits, own.leaves))
      for table in memory[screen] ?? [] {
        rows.append(
          (
            ScreenTriple(previous: table.previous, screen: screen, next: 0), table.exits,
            table.leaves
          ))
      }
    }
    guard let fitted = _PositionOdds(rows: rows) else {
      estimates.append(
        (
          "chance of leaving by screen position", "constant",
          "too few views at a second place in a session to fit a position effect"
        ))
      return
    }
    let test =
      "G² \(Self.number(fitted.deviance)) on \(fitted.lastPlace - 1) degrees of freedom "
      + "(positions from \(fitted.lastPlace) on pooled)"
    guard fitted.aicGain > 0 else {
      estimates.append(
        (
          "chance of leaving by screen position", "constant",
          "a position effect does not lower AIC: \(test)"
        ))
      return
    }
    positionOdds = fitted
    let shown = fitted.factors.prefix(6).map { Self.number($0) }.joined(separator: ", ")
    estimates.append(
      (
        "chance of leaving by screen position",
        "odds × \(shown)\(fitted.lastPlace > 6 ? ", ..." : "")",
        "logit P(leave) = screen + place, by maximum likelihood over every view's exit; "
          + "kept by AIC: \(test)"
      ))
  }
}
