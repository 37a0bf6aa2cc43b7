/// A ``DailyRhythm`` compiled for drawing: the rate of each of the week's 168 local hours and
/// its running integral, the "active time" Λ. Active time runs at the rate (mean 1 over a
/// week), so Λ over a whole week is one week.
///
/// ``time(after:from:)`` inverts Λ exactly (piecewise linear: one division), so a gap drawn in
/// active time becomes the real time at which Λ has grown by it.
///
/// - Complexity: O(log 168) per inversion (a binary search over the hours), O(1) for Λ.
public struct RhythmClock: Sendable {
  /// The rate of each local hour of the week, Monday 00:00–01:00 first (mean 1).
  @usableFromInline
  internal let rates: ContiguousArray<Double>
  /// Active time from the start of the local week to the start of each hour (169 values: the
  /// last is Λ over the whole week).
  @usableFromInline
  internal let cumulative: ContiguousArray<Double>
  /// Added to a simulated time to get seconds since a local Monday 00:00.
  public let shift: Double

  /// - Precondition: `rhythm` valid (24 and 7 non-negative finite weights, neither all 0).
  public init(_ rhythm: DailyRhythm) {
    precondition(
      rhythm.hours.count == 24 && rhythm.weekdays.count == 7,
      "A daily rhythm has 24 hour weights and 7 weekday weights")
    // Each profile over its largest weight first, so the busiest hour's product is 1 and the
    // mean cannot underflow to 0 (weights of 1e-300 times 1e-300).
    let hourMax = rhythm.hours.max() ?? 0
    let dayMax = rhythm.weekdays.max() ?? 0
    precondition(hourMax > 0 && dayMax > 0, "A daily rhythm needs a positive weight")
    var raw = ContiguousArray<Double>()
    for day in 0..<7 {
      for hour in 0..<24 {
        raw.append((rhythm.weekdays[day] / dayMax) * (rhythm.hours[hour] / hourMax))
      }
    }
    let mean = raw.reduce(0, +) / 168
    precondition(mean > 0 && mean.isFinite, "A daily rhythm needs a positive weight")
    rates = ContiguousArray(raw.map { $0 / mean })
    var running = ContiguousArray<Double>([0])
    for rate in rates { running.append(running.last! + rate * 3600) }
    cumulative = running
    var shift = (rhythm.timeZero + rhythm.utcOffset).truncatingRemainder(
      dividingBy: DailyRhythm.week)
    if shift < 0 { shift += DailyRhythm.week }
    self.shift = shift
  }

  /// Seconds since the local week's start at simulated time `time`, and the week's number.
  @inlinable
  internal func phase(_ time: Double) -> (weeks: Double, phase: Double) {
    let local = time + shift
    let weeks = (local / DailyRhythm.week).rounded(.down)
    var phase = local - weeks * DailyRhythm.week
    if phase >= DailyRhythm.week { phase -= DailyRhythm.week }
    if phase < 0 { phase = 0 }
    return (weeks, phase)
  }

  /// Λ from the local week's start to `phase` seconds into it.
  @inlinable
  internal func active(atPhase phase: Double) -> Double {
    let hour = min(167, Int(phase / 3600))
    return cumulative[hour] + rates[hour] * (phase - Double(hour) * 3600)
  }

  /// The first simulated time at or after `time` whose local time of day is `timeOfDay`
  /// seconds after midnight, for a local clock `shift` seconds ahead of simulated time
  /// (``RhythmClock`` of the scenario's rhythm, or 0: simulated time 0 is local midnight).
  public static func next(_ timeOfDay: Double, atOrAfter time: Double, shift: Double) -> Double {
    var day = (time + shift).truncatingRemainder(dividingBy: 86_400)
    if day < 0 { day += 86_400 }
    var wait = timeOfDay - day
    if wait < 0 { wait += 86_400 }
    return time + wait
  }

  /// The rate at simulated time `time` (1 on average over a week).
  public func rate(at time: Double) -> Double {
    rates[min(167, Int(phase(time).phase / 3600))]
  }

  /// Active time between simulated times `start` and `end` (`end` ≥ `start`).
  public func activeTime(from start: Double, to end: Double) -> Double {
    let (startWeeks, startPhase) = phase(start)
    let (endWeeks, endPhase) = phase(end)
    return (endWeeks - startWeeks) * cumulative[168] + active(atPhase: endPhase)
      - active(atPhase: startPhase)
  }

  /// The simulated time at which active time has grown by `active` (≥ 0) since `start`:
  /// the first such time, so it never falls in an hour of rate 0.
  @inlinable
  public func time(after active: Double, from start: Double) -> Double {
    let (_, startPhase) = phase(start)
    let week = cumulative[168]
    let target = self.active(atPhase: startPhase) + active
    var weeks = (target / week).rounded(.down)
    var rest = target - weeks * week
    if rest >= week {
      weeks += 1
      rest -= week
    }
    if rest < 0 { rest = 0 }
    // The first hour whose end lies beyond `rest` (an hour of rate 0 has none).
    var low = 0
    var high = 167
    while low < high {
      let middle = (low + high) / 2
      if cumulative[middle + 1] > rest { high = middle } else { low = middle + 1 }
    }
    let rate = rates[low]
    let within = rate > 0 ? min(3600, (rest - cumulative[low]) / rate) : 0
    let position = Double(low) * 3600 + within
    return max(start, start + (weeks * DailyRhythm.week + position - startPhase))
  }
}
