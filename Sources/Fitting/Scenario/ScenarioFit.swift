import MessageDeferral
import Simulation

/// One fitted duration distribution (a screen's dwell, or the gap between sessions) and what
/// it was fitted on.
public struct DurationFitSummary: Sendable {
  public var name: String
  /// Durations seen: complete, and right-censored (with a known lower bound or none).
  public var complete: Int
  public var censored: Int
  /// Every family fitted, and the one chosen (least AIC); `nil` without a complete duration.
  public var fits: [FittedDuration]
  public var chosen: FittedDuration?
  /// The Kaplan–Meier estimate from the sample the fit used, and its KS distance to the
  /// chosen fit.
  public var empirical: KaplanMeier
  public var ks: Double?
  /// Whether the scenario got a stated default instead of a fit (too little data).
  public var usedDefault: Bool
}

/// One row of the transitions table.
public struct FittedTransition: Sendable {
  public var from: String
  /// A screen name or `background`.
  public var to: String
  public var count: Int
  /// In the scenario (0 when pooled).
  public var probability: Double
  public var pooled: Bool
}

/// Everything `fit` produced: the scenario (as JSON and loaded) and the evidence behind it.
public struct FitResult: Sendable {
  public var scenarioJSON: String
  public var scenario: Scenario
  public var observations: FitObservations
  /// Per map screen that the log shows, in map order.
  public var screens: [(screen: DurationFitSummary, kind: ScreenKind)]
  public var gap: DurationFitSummary
  public var transitions: [FittedTransition]
  /// Facts read off the log, as (what, value, how).
  public var estimates: [(name: String, value: String, basis: String)]
  /// What the log cannot show, left at stated defaults.
  public var defaults: [String]
  public var warnings: [String]
  public var files: [String]
  /// The map's screen names, in map order (the indices of ``observations``).
  public var mapScreenNames: [String]
  public var windowStart: Double
  public var windowEnd: Double
}

/// `deferral-sim fit`: from screen-view logs and a map to a scenario.
public enum ScenarioFit {
  /// A screen with fewer complete dwells than this gets a warning.
  public static let thinScreen = 30
  /// Fewer complete durations than this: only the exponential is fitted.
  public static let twoParameterMinimum = 10
  /// Pooling rule: a transition seen fewer than `pooledCount` times and making up less than
  /// `pooledShare` of its screen's exits is dropped, its probability shared out to the
  /// screen's other transitions in proportion (unless that would leave a screen unreachable).
  public static let pooledCount = 5
  public static let pooledShare = 0.02
  /// A screen with a smaller share of cold-launch entries is left out of the entry mix.
  public static let entryMinimumShare = 0.01
  /// An event other than a screen view that ends at least this share of the sessions gets a
  /// warning (it is probably logged at backgrounding: a session-end event).
  public static let endingEventShare = 0.8

  /// Reads every log (in order, streaming) and fits the scenario. `mapFile` names the map in
  /// messages about its keys (`$.window`, `$.policy`).
  public static func fit(
    files: [String], map: FitMap, mapFile: String = "the map"
  ) throws(FitInputError) -> FitResult {
    let observations = try read(files: files, map: map, mapFile: mapFile)
    guard observations.screenViews > 0 else {
      throw FitInputError(
        file: files.joined(separator: ", "),
        message: "no screen views found; check the map's format and screen_view_event")
    }
    try refuseDegenerate(observations, files: files)
    return try build(observations, map: map, files: files)
  }

  /// Refuses a log from which no dwell can be estimated, saying why: every screen's complete
  /// dwells take one value (all rows of a user at one timestamp make every dwell 0, read as
  /// half the timestamp resolution), so every fit would be a point mass and every KS 1.
  static func refuseDegenerate(
    _ observations: FitObservations, files: [String]
  ) throws(FitInputError) {
    let estimable = observations.dwell.contains { reservoir in
      Set(reservoir.items.lazy.filter { !$0.censored }.map(\.seconds)).count >= 2
    }
    guard !estimable else { return }
    let complete = observations.completeDwells.reduce(0, +)
    throw FitInputError(
      file: files.joined(separator: ", "),
      message: "nothing can be estimated from this log: "
        + (complete == 0
          ? "no screen view has a complete dwell (each is a session's last)"
          : "every screen's \(complete) complete dwells take a single value (rows with one "
            + "timestamp per user, or per session?)")
        + "; a dwell is the time from a screen view to the user's next event, so the log needs "
        + "real timestamps, several screen views per session")
  }

  /// One pass over the logs: memory bounded by the number of users, not of rows. A log that
  /// gives no screen view is refused with its own reason (``noScreenViews``).
  public static func read(
    files: [String], map: FitMap, mapFile: String = "the map"
  ) throws(FitInputError) -> FitObservations {
    var builder = _SessionBuilder(map: map)
    var outside = 0
    var seen: ClosedRange<Double>?
    var reading = _Reading()
    for file in files {
      var parser = _LogParser(map: map, file: file)
      var events = 0
      try _LogLines.forEach(in: file) { (line, bytes) throws(FitInputError) in
        guard let event = try parser.parse(line, bytes) else { return }
        events += 1
        seen =
          seen.map { min($0.lowerBound, event.time)...max($0.upperBound, event.time) }
          ?? event.time...event.time
        // Events outside the map's window are not part of the observation.
        if let start = map.windowStart, event.time < start {
          outside += 1
          return
        }
        if let end = map.windowEnd, event.time > end {
          outside += 1
          return
        }
        try builder.add(event, file: file, line: line)
      }
      reading.count(parser, events: events)
    }
    if builder.observations.screenViews == 0 {
      throw noScreenViews(
        files: files, map: map, mapFile: mapFile, reading: reading, outside: outside,
        inside: builder.observations.rows, seen: seen)
    }
    let end = map.windowEnd ?? builder.observations.lastTime
    var observations = builder.finish(
      windowStart: map.windowStart ?? builder.observations.firstTime, windowEnd: end)
    observations.unreadColumns = reading.unreadColumns
    return observations
  }

  /// What the parsers of every log saw: lines, events, and rows the map's `policy` left out.
  struct _Reading {
    var lines = 0
    var events = 0
    var skippedByPolicy = 0
    var otherPolicies: [String] = []
    /// Files of CSV whose only line is the header.
    var headerOnly: [String] = []
    var unreadColumns: [String] = []

    mutating func count(_ parser: _LogParser, events: Int) {
      lines += parser.lines
      self.events += events
      skippedByPolicy += parser.skippedByPolicy
      for policy in parser.otherPolicies where otherPolicies.count < 6 {
        if !otherPolicies.contains(policy) { otherPolicies.append(policy) }
      }
      if parser.isJSONLines == false, parser.lines == 1 { headerOnly.append(parser.file) }
      for column in parser.unreadColumns where !unreadColumns.contains(column) {
        unreadColumns.append(column)
      }
    }
  }

  /// Why the logs gave no screen view, most specific first: no line at all, a header without
  /// rows, every row of another policy than the map's, every event outside the map's window,
  /// or events but none a screen view.
  static func noScreenViews(
    files: [String], map: FitMap, mapFile: String, reading: _Reading, outside: Int, inside: Int,
    seen: ClosedRange<Double>?
  ) -> FitInputError {
    let logs = files.joined(separator: ", ")
    if reading.lines == 0 {
      return FitInputError(
        file: logs,
        message: files.count == 1
          ? "the log is empty (no line); export it again, or name the file that holds the events"
          : "every log is empty (no line); export them again, or name the files that hold the "
            + "events")
    }
    if reading.events == 0, reading.skippedByPolicy == 0, reading.headerOnly.count == files.count {
      return FitInputError(
        file: logs,
        message: "the log holds only its header row, no event; export the rows too (a filter "
          + "that matched nothing?)")
    }
    if reading.events == 0, reading.skippedByPolicy > 0, let wanted = map.policy {
      return FitInputError(
        file: mapFile, path: "$.policy",
        message: "no row of \(logs) has the policy '\(wanted)' (its \(reading.skippedByPolicy) "
          + "rows are of " + reading.otherPolicies.map { "'\($0)'" }.joined(separator: ", ")
          + (reading.otherPolicies.count >= 6 ? ", ..." : "")
          + "); set \"policy\" to one of them, or drop it to read every row")
    }
    if outside > 0, let seen {
      // Not a format problem: the window and the log do not meet (or only where the log has
      // no screen view).
      let window =
        switch (map.windowStart.map { FitMap.number($0) }, map.windowEnd.map { FitMap.number($0) })
        {
        case (let start?, let end?): "\(start) to \(end)"
        case (let start?, nil): "from \(start) on"
        case (nil, let end?): "up to \(end)"
        case (nil, nil): "none"
        }
      let what =
        inside == 0
        ? "none of the \(outside) events of \(logs) falls inside the window (\(window))"
        : "no screen view of \(logs) falls inside the window (\(window)): \(outside) events are "
          + "outside it, and the \(inside) inside are not screen views"
      return FitInputError(
        file: mapFile, path: "$.window",
        message: what + "; the log runs from \(FitMap.number(seen.lowerBound)) to "
          + "\(FitMap.number(seen.upperBound)) (epoch seconds): move the window over the log or "
          + "drop it")
    }
    return FitInputError(
      file: logs,
      message: "no screen views found among its \(reading.events) events (a screen view is an "
        + "event named '\(map.screenViewEvent)'); check the map's format and screen_view_event")
  }

  /// Fits one duration sample (the chosen family by AIC) with its KS distance.
  static func summarize(
    _ name: String, _ reservoir: Reservoir<DurationSample>, complete: Int, censored: Int
  )
    -> DurationFitSummary
  {
    // A two-parameter family on a handful of durations degenerates (a point mass).
    let complete = reservoir.items.filter { !$0.censored }.count
    let fitted = DurationFit.best(
      reservoir.items,
      families: complete < twoParameterMinimum ? [.exponential] : DurationFamily.allCases)
    let empirical = KaplanMeier(reservoir.items)
    return DurationFitSummary(
      name: name, complete: complete, censored: censored, fits: fitted?.all ?? [],
      chosen: fitted?.best, empirical: empirical,
      ks: fitted.map { best in empirical.distance(to: best.best.cdf) }, usedDefault: fitted == nil)
  }

  /// The share `part / whole` as text with its count.
  static func share(_ part: Int, _ whole: Int) -> String {
    whole > 0 ? "\(part) of \(whole)" : "none"
  }
}
