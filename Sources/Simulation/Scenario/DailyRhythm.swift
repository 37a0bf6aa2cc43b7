/// When in the day and the week users open the app (`sessions.daily_rhythm`): relative weights
/// of the 24 local hours and the 7 local weekdays, in the users' local time.
///
/// **Clock.** Simulated time 0 is ``timeZero``: a weekday and a time of day in UTC (by
/// default Monday 00:00 UTC). Every user lives in one time zone, ``utcOffset`` seconds east
/// of UTC: the local time at simulated time *t* is time zero + *t* + the offset.
///
/// **What the weights do.** The rate of the session-start process at local hour *h* of
/// weekday *d* is proportional to `hours[h] × weekdays[d]`, scaled so that its mean over a
/// week is 1: the gap distribution (`sessions.gap`) is drawn on an "active" clock that runs at
/// that rate, and the real gap is the time the active clock takes to cover it (inverted
/// exactly, hour by hour: ``RhythmClock``). A Poisson return process becomes a periodic
/// non-homogeneous Poisson process; a gap of weeks keeps its length on average; nobody
/// opens the app in an hour of weight 0. An existing user's first open is the gap's
/// stationary forward-recurrence time on the active clock (steady state under the rhythm), and
/// a new user's install (first open) is spread over the install window in proportion to the
/// rate.
///
/// What does not hold: time spent in the app is real time, not active time (as for the
/// steady state without a rhythm, sessions of minutes against gaps of hours); every user has
/// the same time zone.
public struct DailyRhythm: Sendable, Equatable {
  /// Relative weights of local hours 0 to 23 (00:00–01:00 first): 24 non-negative finite
  /// numbers, not all 0.
  public var hours: [Double]
  /// Relative weights of local weekdays, Monday first: 7 non-negative finite numbers, not all
  /// 0. Flat (all 1) by default.
  public var weekdays: [Double]
  /// The users' local time offset from UTC, in seconds east (from −12 h to +14 h).
  public var utcOffset: Double
  /// Simulated time 0 in UTC, in seconds from a Monday 00:00 UTC (below one week).
  public var timeZero: Double

  public init(
    hours: [Double], weekdays: [Double] = Self.flatWeekdays, utcOffset: Double = 0,
    timeZero: Double = 0
  ) {
    self.hours = hours
    self.weekdays = weekdays
    self.utcOffset = utcOffset
    self.timeZero = timeZero
  }

  public static let flatHours = [Double](repeating: 1, count: 24)
  public static let flatWeekdays = [Double](repeating: 1, count: 7)
  /// Weekday names as scenario files write them, Monday first.
  public static let weekdayNames = [
    "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday",
  ]
  public static let week = 604_800.0
}
