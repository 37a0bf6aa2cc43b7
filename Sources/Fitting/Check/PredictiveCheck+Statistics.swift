import MessageDeferral
import Simulation

/// One row of the predictive check: a statistic of the log against the same statistic of a
/// simulation of the fitted scenario, with its tolerance.
public struct CheckRow: Sendable, Equatable {
  /// How the two are compared.
  public enum Measure: String, Sendable {
    /// The two-sample Kolmogorov–Smirnov distance: the largest gap between the two CDFs.
    case ks = "KS D"
    /// Total variation distance: half the sum of the absolute differences of the shares.
    case totalVariation = "TV distance"
    /// A share's difference, in percentage points.
    case points = "difference (points)"
    /// A share's difference relative to the log's share.
    case relative = "relative difference"
  }

  public var name: String
  /// What the log and the simulation show (a mean, a median or a share), as text.
  public var observed: String
  public var simulated: String
  public var measure: Measure
  /// The statistic (points as a fraction: 0.03 is 3 points).
  public var value: Double
  public var tolerance: Double
  /// What sampling alone would exceed once in a hundred: the two-sample KS critical value at
  /// 1% (1.628 √((n + m)/(n m))), or 2.576 standard errors of a share's difference; `nil` when
  /// either side has no data.
  public var noise: Double?

  /// Within the tolerance.
  public var passes: Bool { value <= tolerance }
  /// Beyond the tolerance, but within what sampling alone gives (the log is too small to tell).
  public var withinNoise: Bool { !passes && noise.map { value <= $0 } == true }
}

extension PredictiveCheck {
  /// Tolerances of the check (the targets of issue #32): sessions per user KS D 0.1, screens per
  /// session 0.05, session length and gap 0.1, first screen TV 0.1, sessions opening on the
  /// previous session's last screen 3 points, sessions reaching checkout 10% relative, session
  /// starts between 08:00 and 22:00 3 points, new users' arrivals 3 points in every month;
  /// and, as the first screen's, TV 0.1 for the profile of session starts over the 24 hours
  /// and for the 3-screen paths (the log's ``topPaths`` most common and the rest).
  public static let tolerances = (
    sessionsPerUser: 0.1, screensPerSession: 0.05, sessionLength: 0.1, gap: 0.1,
    firstScreen: 0.1, openedOnLast: 0.03, checkout: 0.1, daytime: 0.03, hourProfile: 0.1,
    paths: 0.1, arrivals: 0.03
  )

  /// How many of the log's most common 3-screen paths the paths row compares one by one.
  public static let topPaths = 5

  /// Session starts by hour as a table keyed `"08:00"`.
  static func hourTable(_ hours: [Int]) -> [String: Int] {
    var table: [String: Int] = [:]
    for (hour, count) in hours.enumerated() where count > 0 {
      table[(hour < 10 ? "0" : "") + "\(hour):00"] = count
    }
    return table
  }

  /// `counts` folded onto `keep` and one `"other"` category.
  static func folded(_ counts: [String: Int], keeping keep: [String]) -> [String: Int] {
    var table: [String: Int] = [:]
    for (key, count) in counts {
      table[keep.contains(key) ? key : "other", default: 0] += count
    }
    return table
  }

  /// The rows of the check, in report order. `checkout`: whether the map has a screen of kind
  /// checkout (without one the checkout row is left out).
  public static func compare(
    observed: JourneyStats, simulated: JourneyStats, checkout: Bool
  ) -> [CheckRow] {
    let t = tolerances
    var rows: [CheckRow] = []
    func ks(_ name: String, _ a: [Int: Int], _ b: [Int: Int], _ tolerance: Double, unit: Double) {
      let (d, noise) = ksDistance(a, b)
      rows.append(
        CheckRow(
          name: name, observed: median(a, unit: unit), simulated: median(b, unit: unit),
          measure: .ks, value: d, tolerance: tolerance, noise: noise))
    }
    ks(
      "sessions per user", observed.sessionsPerUser, simulated.sessionsPerUser,
      t.sessionsPerUser, unit: 0)
    ks(
      "screens per session", observed.screensPerSession, simulated.screensPerSession,
      t.screensPerSession, unit: 0)
    ks(
      "session length", observed.sessionSeconds, simulated.sessionSeconds, t.sessionLength,
      unit: 1)
    ks("gap between sessions", observed.gapMinutes, simulated.gapMinutes, t.gap, unit: 60)
    let (tv, tvNoise) = totalVariation(observed.firstScreens, simulated.firstScreens)
    rows.append(
      CheckRow(
        name: "first screen of a session", observed: mode(observed.firstScreens),
        simulated: mode(simulated.firstScreens), measure: .totalVariation, value: tv,
        tolerance: t.firstScreen, noise: tvNoise))
    rows.append(
      shareRow(
        "sessions opening on the previous session's last screen",
        (observed.openedOnLastScreen, observed.laterSessions),
        (simulated.openedOnLastScreen, simulated.laterSessions), tolerance: t.openedOnLast))
    if checkout {
      rows.append(
        shareRow(
          "sessions reaching checkout", (observed.checkoutSessions, observed.sessions),
          (simulated.checkoutSessions, simulated.sessions), tolerance: t.checkout,
          relative: true))
    }
    if let arrivals = arrivalRow(observed.arrivalMonths, simulated.arrivalMonths) {
      rows.append(arrivals)
    }
    func daytime(_ stats: JourneyStats) -> (Int, Int) {
      (stats.startHours[8..<22].reduce(0, +), stats.startHours.reduce(0, +))
    }
    rows.append(
      shareRow(
        "session starts 08:00–22:00", daytime(observed), daytime(simulated),
        tolerance: t.daytime))
    let observedHours = hourTable(observed.startHours)
    let simulatedHours = hourTable(simulated.startHours)
    let (hourTV, hourNoise) = totalVariation(observedHours, simulatedHours)
    rows.append(
      CheckRow(
        name: "hour-of-day profile of session starts (24 hours)",
        observed: "peak " + mode(observedHours), simulated: "peak " + mode(simulatedHours),
        measure: .totalVariation, value: hourTV, tolerance: t.hourProfile, noise: hourNoise))
    // The log's most common paths, ties by name.
    let top = observed.threeScreenPaths.sorted {
      $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key
    }.prefix(topPaths).map(\.key)
    let (pathTV, pathNoise) = totalVariation(
      folded(observed.threeScreenPaths, keeping: top),
      folded(simulated.threeScreenPaths, keeping: top))
    rows.append(
      CheckRow(
        name: "3-screen paths (the log's top \(topPaths), the rest as one)",
        observed: mode(observed.threeScreenPaths),
        simulated: top.first.map { path in
          "\(path) \(percent(Double(simulated.threeScreenPaths[path] ?? 0) / Double(max(1, simulated.threeScreenPaths.values.reduce(0, +)))))"
        } ?? "none", measure: .totalVariation, value: pathTV, tolerance: t.paths, noise: pathNoise))
    if let phases = phasePathRow(observed.phasePaths, simulated.phasePaths) { rows.append(phases) }
    return rows
  }

  /// The 3-screen paths row within each class of sessions by index (a new user's 1st, 2nd,
  /// 3rd, 4th and later; ``FitObservations/phaseClasses``): the class whose TV distance (the
  /// log's ``topPaths`` most common paths of that class and the rest) is largest among the
  /// classes the log can tell at the tolerance (their 1% noise level within it: a class of a
  /// few sessions says nothing); `nil` when fewer than two classes can (one behaviour for all
  /// is all the log shows).
  static func phasePathRow(
    _ observed: [Int: [String: Int]], _ simulated: [Int: [String: Int]]
  ) -> CheckRow? {
    var rows: [CheckRow] = []
    for phase in observed.keys.sorted() {
      let paths = observed[phase]!
      let other = simulated[phase] ?? [:]
      let top = paths.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
        .prefix(topPaths).map(\.key)
      let (distance, noise) = totalVariation(
        folded(paths, keeping: top), folded(other, keeping: top))
      guard let noise, noise <= tolerances.paths else { continue }
      let label =
        phase == FitObservations.phaseClasses - 1 ? "sessions 4 on" : "session \(phase + 1)"
      let otherTotal = Double(max(1, other.values.reduce(0, +)))
      rows.append(
        CheckRow(
          name: "3-screen paths by session index (1, 2, 3, 4 on; the largest distance)",
          observed: "\(label): " + mode(paths),
          simulated: "\(label): "
            + (top.first.map { "\($0) \(percent(Double(other[$0] ?? 0) / otherTotal))" }
              ?? "none"),
          measure: .totalVariation, value: distance, tolerance: tolerances.paths, noise: noise))
    }
    // The first class of the largest distance.
    return rows.count >= 2 ? rows.max { $0.value < $1.value } : nil
  }

  /// The warnings of rows beyond their tolerance.
  public static func warnings(_ rows: [CheckRow]) -> [String] {
    rows.filter { !$0.passes }.map { row in
      let shown = row.measure == .points || row.measure == .relative
      let value = shown ? percent(row.value) : fixed(row.value)
      let tolerance = shown ? percent(row.tolerance) : fixed(row.tolerance)
      return
        "predictive check: \(row.name) diverges (\(row.measure.rawValue) \(value), tolerance "
        + "\(tolerance); log \(row.observed), simulated \(row.simulated))"
        + (row.withinNoise
          ? "; within sampling noise for a log this size" : "; the fitted scenario misses it")
    }
  }

  /// Two-sample KS distance of two count tables, and its 1% critical value.
  static func ksDistance(_ a: [Int: Int], _ b: [Int: Int]) -> (Double, Double?) {
    let n = Double(a.values.reduce(0, +))
    let m = Double(b.values.reduce(0, +))
    guard n > 0, m > 0 else { return (n == m ? 0 : 1, nil) }
    var fa = 0.0
    var fb = 0.0
    var d = 0.0
    for key in Set(a.keys).union(b.keys).sorted() {
      fa += Double(a[key] ?? 0) / n
      fb += Double(b[key] ?? 0) / m
      d = max(d, abs(fa - fb))
    }
    return (d, 1.628 * ((n + m) / (n * m)).squareRoot())
  }

  /// Total variation distance of two count tables, and a 1% noise level for it (the expected
  /// distance of two samples of these sizes from one law, about √(k / (2π)) · √(1/n + 1/m)
  /// for k categories, times 2.576 / 0.8).
  static func totalVariation(_ a: [String: Int], _ b: [String: Int]) -> (Double, Double?) {
    let n = Double(a.values.reduce(0, +))
    let m = Double(b.values.reduce(0, +))
    guard n > 0, m > 0 else { return (n == m ? 0 : 1, nil) }
    var sum = 0.0
    var noise = 0.0
    for key in Set(a.keys).union(b.keys) {
      let p = Double(a[key] ?? 0) / n
      let q = Double(b[key] ?? 0) / m
      sum += abs(p - q)
      let pooled = (Double(a[key] ?? 0) + Double(b[key] ?? 0)) / (n + m)
      noise += (pooled * (1 - pooled) * (1 / n + 1 / m)).squareRoot()
    }
    // E|X| = σ √(2/π) per category; halved for TV; 2.576/0.8 as a 1% margin.
    return (sum / 2, noise / 2 * (2 / Double.pi).squareRoot() * 2.576 / 0.8)
  }

  /// New users' arrivals by 30-day month: the largest difference of a month's share, in
  /// points, with the noise of that month's share; `nil` when the log's new users fall in
  /// fewer than two months (nothing to compare over time).
  static func arrivalRow(_ observed: [Int: Int], _ simulated: [Int: Int]) -> CheckRow? {
    guard observed.count >= 2 else { return nil }
    let n = observed.values.reduce(0, +)
    let m = simulated.values.reduce(0, +)
    var worst = (month: 0, a: 0, b: 0, difference: -1.0)
    for month in Set(observed.keys).union(simulated.keys).sorted() {
      let a = observed[month] ?? 0
      let b = simulated[month] ?? 0
      let difference = abs(Double(a) / Double(n) - (m > 0 ? Double(b) / Double(m) : 0))
      if difference > worst.difference { worst = (month, a, b, difference) }
    }
    var row = shareRow(
      "new users' arrivals by 30-day month (the largest difference)", (worst.a, n), (worst.b, m),
      tolerance: tolerances.arrivals)
    row.observed = "month \(worst.month + 1): " + row.observed
    row.simulated = "month \(worst.month + 1): " + row.simulated
    return row
  }

  static func shareRow(
    _ name: String, _ a: (Int, Int), _ b: (Int, Int), tolerance: Double, relative: Bool = false
  ) -> CheckRow {
    let p = a.1 > 0 ? Double(a.0) / Double(a.1) : 0
    let q = b.1 > 0 ? Double(b.0) / Double(b.1) : 0
    let se =
      a.1 > 0 && b.1 > 0
      ? (p * (1 - p) / Double(a.1) + q * (1 - q) / Double(b.1)).squareRoot() : Double.nan
    let difference = abs(p - q)
    let value = relative ? (p > 0 ? difference / p : (q > 0 ? 1 : 0)) : difference
    let noise = se.isNaN ? nil : 2.576 * se / (relative ? max(p, 1e-12) : 1)
    return CheckRow(
      name: name, observed: "\(percent(p)) of \(a.1)", simulated: "\(percent(q)) of \(b.1)",
      measure: relative ? .relative : .points, value: value, tolerance: tolerance, noise: noise)
  }

  /// The median of a count table (times `unit` seconds when `unit` > 0, as a duration).
  static func median(_ counts: [Int: Int], unit: Double) -> String {
    let total = counts.values.reduce(0, +)
    guard total > 0 else { return "none" }
    var seen = 0
    for key in counts.keys.sorted() {
      seen += counts[key]!
      if 2 * seen >= total {
        return unit > 0 ? "median " + DurationText.format(Double(key) * unit) : "median \(key)"
      }
    }
    return "none"
  }

  /// The most frequent entry of a table, with its share.
  static func mode(_ counts: [String: Int]) -> String {
    let total = counts.values.reduce(0, +)
    guard
      let best = counts.max(by: { $0.value != $1.value ? $0.value < $1.value : $0.key > $1.key })
    else { return "none" }
    return "\(best.key) \(percent(Double(best.value) / Double(total)))"
  }

  static func percent(_ share: Double) -> String {
    let tenths = (share * 1000).rounded()
    return "\(Int(tenths) / 10).\(abs(Int(tenths)) % 10)%"
  }

  static func fixed(_ value: Double) -> String {
    let thousandths = Int((value * 1000).rounded())
    let rest = thousandths % 1000
    return "\(thousandths / 1000)." + (rest < 10 ? "00" : rest < 100 ? "0" : "") + "\(rest)"
  }
}
