import CGSL
import Simulation

/// `sessions.daily_rhythm` from the log's session starts in local time (the map's
/// `utc_offset`).
///
/// Model: session starts form a Poisson process of rate c · h(hour) · d(weekday) in local
/// time. Each of the week's 168 local hours has an exposure, the person-time in it (the
/// window's time in that hour for each existing user, from their first event on for a new
/// user, so a growing population is not read as a rhythm); the maximum-likelihood factors solve Σ starts = Σ rate × exposure
/// over each hour and each weekday, found by iterative proportional fitting. Each profile is
/// kept flat unless a Pearson chi-square test of flatness (23 or 6 degrees of freedom) rejects
/// it at 1%; the weekdays also stay flat when the window is shorter than ``minimumWeekdaySpan``
/// (every weekday seen at least twice). Both flat: no key.
///
/// What does not hold: one user's starts are not independent (they follow the gap), so the
/// test's 1% is nominal; an hour with no start in the log gets weight 0 (no simulated start).
struct _RhythmEstimate {
  var hours = DailyRhythm.flatHours
  var weekdays = DailyRhythm.flatWeekdays
  var hoursFitted = false
  var weekdaysFitted = false
  /// The chi-square statistics of flatness and their p-values (`nil`: not tested).
  var hourTest: (statistic: Double, p: Double)?
  var weekdayTest: (statistic: Double, p: Double)?
  var starts = 0

  static let minimumWeekdaySpan = 14 * 86_400.0
  static let level = 0.01

  /// Local seconds from Monday 00:00 of epoch time `time`, `offset` seconds east of UTC.
  static func weekSeconds(_ time: Double, offset: Double) -> Double {
    let week = (time + offset + 3 * 86_400).truncatingRemainder(dividingBy: DailyRhythm.week)
    return week < 0 ? week + DailyRhythm.week : week
  }

  /// Seconds the window [`start`, `end`) spends in each local hour of the week.
  static func exposure(from start: Double, to end: Double, offset: Double) -> [Double] {
    var exposure = [Double](repeating: 0, count: 168)
    addExposure(&exposure, from: start, to: end, offset: offset)
    return exposure
  }

  /// Adds to `exposure` the seconds [`start`, `end`) spends in each local hour of the week.
  ///
  /// - Complexity: O(168) whatever the length.
  static func addExposure(
    _ exposure: inout [Double], from start: Double, to end: Double, offset: Double
  ) {
    guard end > start else { return }
    let weeks = ((end - start) / DailyRhythm.week).rounded(.down)
    if weeks > 0 { for index in 0..<168 { exposure[index] += weeks * 3600 } }
    var left = end - start - weeks * DailyRhythm.week
    var phase = weekSeconds(start, offset: offset)
    while left > 0 {
      let hour = min(167, Int(phase / 3600))
      let piece = min(left, Double(hour + 1) * 3600 - phase)
      guard piece > 0 else {
        phase = Double(hour + 1) * 3600  // rounding left it on the boundary
        if phase >= DailyRhythm.week { phase = 0 }
        continue
      }
      exposure[hour] += piece
      left -= piece
      phase += piece
      if phase >= DailyRhythm.week - 1e-9 { phase = 0 }
    }
  }

  init(starts counts: [Int], exposure: [Double], span: Double) {
    starts = counts.reduce(0, +)
    guard starts > 0 else { return }
    let fitWeekdays = span >= Self.minimumWeekdaySpan
    var h = [Double](repeating: 1, count: 24)
    var d = [Double](repeating: 1, count: 7)
    func hourFactors() {
      for hour in 0..<24 {
        var n = 0.0
        var e = 0.0
        for day in 0..<7 {
          n += Double(counts[day * 24 + hour])
          e += d[day] * exposure[day * 24 + hour]
        }
        h[hour] = e > 0 ? n / e : 0
      }
    }
    func dayFactors() {
      for day in 0..<7 {
        var n = 0.0
        var e = 0.0
        for hour in 0..<24 {
          n += Double(counts[day * 24 + hour])
          e += h[hour] * exposure[day * 24 + hour]
        }
        d[day] = e > 0 ? n / e : 0
      }
    }
    hourFactors()
    if fitWeekdays {
      for _ in 0..<200 {
        let before = h
        dayFactors()
        hourFactors()
        if zip(before, h).allSatisfy({ abs($0 - $1) <= 1e-12 * max(1, abs($0)) }) { break }
      }
    }
    // Flatness of the hours, given the weekday factors (1 when not fitted).
    let dayWeights = fitWeekdays ? d : DailyRhythm.flatWeekdays
    hourTest = Self.chiSquare(
      observed: (0..<24).map { hour in (0..<7).reduce(0) { $0 + counts[$1 * 24 + hour] } },
      weights: (0..<24).map { hour in
        (0..<7).reduce(0.0) { $0 + dayWeights[$1] * exposure[$1 * 24 + hour] }
      })
    if let test = hourTest, test.p < Self.level {
      hours = Self.normalised(h)
      hoursFitted = true
    }
    if fitWeekdays {
      let hourWeights = hoursFitted ? h : DailyRhythm.flatHours
      weekdayTest = Self.chiSquare(
        observed: (0..<7).map { day in (0..<24).reduce(0) { $0 + counts[day * 24 + $1] } },
        weights: (0..<7).map { day in
          (0..<24).reduce(0.0) { $0 + hourWeights[$1] * exposure[day * 24 + $1] }
        })
      if let test = weekdayTest, test.p < Self.level {
        weekdays = Self.normalised(d)
        weekdaysFitted = true
      }
    }
  }

  /// Pearson's X² of `observed` against expectations proportional to `weights` (cells of
  /// weight 0 left out), and its upper-tail p-value.
  static func chiSquare(observed: [Int], weights: [Double]) -> (statistic: Double, p: Double)? {
    let total = Double(observed.reduce(0, +))
    let weightSum = weights.reduce(0, +)
    let cells = weights.filter { $0 > 0 }.count
    guard total > 0, weightSum > 0, cells > 1 else { return nil }
    var statistic = 0.0
    for (count, weight) in zip(observed, weights) where weight > 0 {
      let expected = total * weight / weightSum
      statistic += (Double(count) - expected) * (Double(count) - expected) / expected
    }
    return (statistic, gsl_cdf_chisq_Q(statistic, Double(cells - 1)))
  }

  /// Factors scaled to mean 1.
  static func normalised(_ factors: [Double]) -> [Double] {
    let mean = factors.reduce(0, +) / Double(factors.count)
    return mean > 0 ? factors.map { $0 / mean } : factors
  }
}

extension _ScenarioDraft {
  /// Fits `daily_rhythm` from the log's starts, and with a rhythm refits the gap on the
  /// rhythm's active clock (each gap's length in active time from where it began), so the
  /// simulated real gaps come back.
  mutating func fitRhythm() {
    // Person-time: the whole window for each existing user, from the first event for a new one.
    let window = _RhythmEstimate.exposure(
      from: windowStart, to: windowEnd, offset: map.utcOffset)
    let existing = Double(max(0, observations.users - observations.newUsers))
    let exposure = (0..<168).map { existing * window[$0] + observations.newUserExposure[$0] }
    let estimate = _RhythmEstimate(
      starts: observations.startsByWeekHour, exposure: exposure, span: windowEnd - windowStart)
    func tested(_ test: (statistic: Double, p: Double)?, _ df: Int) -> String {
      test.map { "chi-square \(Self.number($0.statistic)) on \(df) df, p \(Self.number($0.p))" }
        ?? "no session start"
    }
    if estimate.hoursFitted {
      estimates.append(
        (
          "hour-of-day weights", estimate.hours.map { Self.number($0) }.joined(separator: " "),
          "\(estimate.starts) session starts by local hour against the window's hours "
            + "(flatness rejected: \(tested(estimate.hourTest, 23)))"
        ))
    } else {
      defaults.append(
        "session starts flat over the hours of the day: flatness not rejected at 1% "
          + "(\(tested(estimate.hourTest, 23)), \(estimate.starts) starts)")
    }
    if estimate.weekdaysFitted {
      estimates.append(
        (
          "weekday weights", estimate.weekdays.map { Self.number($0) }.joined(separator: " "),
          "session starts by local weekday, Monday first (flatness rejected: "
            + "\(tested(estimate.weekdayTest, 6)))"
        ))
    } else if windowEnd - windowStart < _RhythmEstimate.minimumWeekdaySpan {
      defaults.append(
        "session starts flat over the weekdays: the window is shorter than two weeks")
    } else {
      defaults.append(
        "session starts flat over the weekdays: flatness not rejected at 1% "
          + "(\(tested(estimate.weekdayTest, 6)))")
    }
    guard estimate.hoursFitted || estimate.weekdaysFitted else { return }
    let days = (windowStart / 86_400).rounded(.down)
    let weekday = Int((days + 3).truncatingRemainder(dividingBy: 7) + 7) % 7
    let second = Int((windowStart - days * 86_400).rounded(.down))
    func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
    let timeZero =
      "\(DailyRhythm.weekdayNames[weekday]) \(two(second / 3600)):\(two(second / 60 % 60)):"
      + two(second % 60)
    let minutes = Int((abs(map.utcOffset) / 60).rounded())
    let offset = (map.utcOffset < 0 ? "-" : "+") + "\(two(minutes / 60)):\(two(minutes % 60))"
    var members = [
      "\"hours\": [" + estimate.hours.map { Self.number($0) }.joined(separator: ", ") + "]"
    ]
    if estimate.weekdaysFitted {
      members.append(
        "\"weekdays\": [" + estimate.weekdays.map { Self.number($0) }.joined(separator: ", ") + "]")
    }
    members.append("\"utc_offset\": \"\(offset)\"")
    members.append("\"time_zero\": \"\(timeZero)\"")
    rhythmLine = "\"daily_rhythm\": {" + members.joined(separator: ", ") + "}"
    // The gap on the active clock: simulated time 0 is the window's start.
    let clock = RhythmClock(
      DailyRhythm(
        hours: estimate.hours, weekdays: estimate.weekdays, utcOffset: map.utcOffset,
        timeZero: Double(weekday * 86_400 + second)))
    rhythmClock = clock
    var active = Reservoir<DurationSample>(capacity: FitObservations.gapCapacity, seed: 7)
    for (sample, start) in zip(observations.gaps.items, observations.gapStarts.items) {
      active.add(activeGap(sample, from: start, on: clock))
    }
    gapSamples = active.items
    gap = ScenarioFit.summarize(
      "gap between sessions (active time)", active,
      complete: active.items.filter { !$0.censored }.count,
      censored: active.items.filter(\.censored).count)
  }

  /// A gap that began at `start` (log time) as a length of active time on `clock`: its
  /// bounds (± the resolution) mapped to the clock.
  func activeGap(
    _ sample: DurationSample, from start: Double, on clock: RhythmClock
  )
    -> DurationSample
  {
    let from = start - windowStart
    let low = clock.activeTime(from: from, to: from + max(0, sample.seconds - sample.resolution))
    let middle = clock.activeTime(from: from, to: from + sample.seconds)
    let high = clock.activeTime(from: from, to: from + sample.seconds + sample.resolution)
    return DurationSample(
      seconds: middle, censored: sample.censored, resolution: max(0, (high - low) / 2))
  }
}
