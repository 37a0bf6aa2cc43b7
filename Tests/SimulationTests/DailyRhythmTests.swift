import MessageDeferral
import Testing

@testable import Simulation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Records every session start (cold launch or warm resume) and every issuance.
struct StartRecorder: SimulationSink {
  var starts: [Double] = []
  var issued: [Double] = []
  static var recordsSteps: Bool { true }
  static var recordsOutcomes: Bool { false }
  mutating func step(_ step: TraceStep) {
    switch step.what {
    case .coldLaunch, .warmResume: starts.append(step.time)
    case .issued: issued.append(step.time)
    default: return
    }
  }
  mutating func outcome(_ outcome: MessageOutcome, policy: Int, replication: Int, user: Int) {}
}

/// `sessions.daily_rhythm`: the active clock, session starts against closed forms, existing
/// users in steady state under the rhythm, campaigns in local time, and the decoder's checks.
@Suite("sessions.daily_rhythm")
struct DailyRhythmTests {
  static let z = 4.5
  /// Three times as many starts in the day (08:00–22:00) as at night, per hour.
  static let twoLevelHours = (0..<24).map { (8..<22).contains($0) ? 3.0 : 1.0 }
  /// Weekends twice as busy as weekdays.
  static let weekendHeavy = [1.0, 1, 1, 1, 1, 2, 2]

  /// Existing users with near-zero sessions (2 ms) and the given gap and rhythm.
  static func scenario(gap: DistributionSpec, rhythm: DailyRhythm?, horizon: Double) -> Scenario {
    var scenario = Fixtures.latencyToNextOpen(nu: 1.0 / 3600, window: 3600)
    scenario.messages.consent = nil
    scenario.sessions.gap = gap
    scenario.sessions.dailyRhythm = rhythm
    scenario.horizon = horizon
    return scenario
  }

  static func record(_ scenario: Scenario, users: Int, seed: UInt64 = 11) -> [StartRecorder] {
    let world = CompiledScenario(scenario)
    var simulator = UserSimulator(scenario: world, sink: StartRecorder())
    var tally = Tally(screenCount: scenario.screens.count)
    var result: [StartRecorder] = []
    for user in 0..<users {
      simulator.sink = StartRecorder()
      simulator.run(
        seed: seed, replication: 0, user: user, policyIndex: 0,
        policy: scenario.policies[0].configuration, tally: &tally)
      result.append(simulator.sink)
    }
    return result
  }

  /// Seconds since local Monday 00:00 at simulated time `t` (computed here, not by the clock).
  static func localWeekSeconds(_ t: Double, _ rhythm: DailyRhythm) -> Double {
    var local = (t + rhythm.timeZero + rhythm.utcOffset).truncatingRemainder(dividingBy: 604_800)
    if local < 0 { local += 604_800 }
    return local
  }

  // MARK: The clock

  /// Λ over a week is a week; `time(after:from:)` inverts `activeTime(from:to:)`; an hour of
  /// weight 0 is never landed in; the rate at an instant is its hour's weight over the mean.
  @Test func theActiveClockInvertsExactly() {
    var hours = Self.twoLevelHours
    hours[3] = 0
    let rhythm = DailyRhythm(
      hours: hours, weekdays: Self.weekendHeavy, utcOffset: -5 * 3600, timeZero: 3 * 86_400 + 600)
    let clock = RhythmClock(rhythm)
    #expect(abs(clock.activeTime(from: 1234, to: 1234 + 604_800) - 604_800) < 1e-6)
    // Mean of hours × weekdays over the week's 168 hours, by hand.
    let mean = (hours.reduce(0, +) / 24) * (Self.weekendHeavy.reduce(0, +) / 7)
    var state: UInt64 = 99
    for _ in 0..<2000 {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      let start = Double(state >> 11) / Double(1 << 53) * 30 * 86_400
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      let active = Double(state >> 11) / Double(1 << 53) * 3 * 86_400
      let end = clock.time(after: active, from: start)
      #expect(end >= start)
      #expect(abs(clock.activeTime(from: start, to: end) - active) < 1e-6 * max(1, active))
      let local = Self.localWeekSeconds(end, rhythm)
      let hour = Int(local / 3600) % 24
      if active > 0 { #expect(hour != 3 || local.truncatingRemainder(dividingBy: 3600) == 0) }
      let probe = Self.localWeekSeconds(start, rhythm)
      let probeRate =
        hours[Int(probe / 3600) % 24] * Self.weekendHeavy[Int(probe / 86_400)] / mean
      #expect(abs(clock.rate(at: start) - probeRate) < 1e-12)
    }
    // Three hours of weight 3 (rate 3 / mean) from local 09:00 Monday: 3 × 3600 × 3 / mean.
    let monday9 = 9 * 3600 - rhythm.timeZero - rhythm.utcOffset + 604_800
    #expect(
      abs(clock.activeTime(from: monday9, to: monday9 + 3 * 3600) - 3 * 3600 * 3 / mean) < 1e-6)
  }

  /// Tiny weights do not underflow: weights of 1e-300 in one hour and one weekday make that
  /// hour the only one with a rate (168 over a week, so its week's active time is a week).
  @Test func tinyWeightsStillMakeAClock() {
    var hours = [Double](repeating: 0, count: 24)
    hours[5] = 1e-300
    var days = [Double](repeating: 0, count: 7)
    days[2] = 1e-300
    let clock = RhythmClock(DailyRhythm(hours: hours, weekdays: days))
    #expect(abs(clock.activeTime(from: 0, to: 604_800) - 604_800) < 1e-6)
    // From Monday 00:00 the first active instant is Wednesday 05:00.
    #expect(clock.time(after: 0, from: 0) == 2 * 86_400 + 5 * 3600)
    #expect(clock.rate(at: 2 * 86_400 + 5 * 3600 + 1) == 168)
  }

  /// A campaign's local time is the next such time of day on the rhythm's clock.
  @Test func nextLocalTimeOfDay() {
    #expect(RhythmClock.next(36_000, atOrAfter: 0, shift: 0) == 36_000)
    #expect(RhythmClock.next(36_000, atOrAfter: 36_000, shift: 0) == 36_000)
    #expect(RhythmClock.next(36_000, atOrAfter: 36_001, shift: 0) == 36_000 + 86_400)
    // Local clock 2 h ahead: local 10:00 is simulated 08:00.
    #expect(RhythmClock.next(36_000, atOrAfter: 0, shift: 7200) == 28_800)
  }

  // MARK: Closed forms

  /// Poisson returns (exponential gaps, 2 ms sessions) under a 2-level hour profile and a
  /// 2-level weekday profile, over whole weeks: a periodic non-homogeneous Poisson process, so
  /// given the number of starts each falls in the day hours with probability 14·3 / (14·3 +
  /// 10·1) = 42/52 and on a weekend with probability 2·2 / (5 + 2·2) = 4/9, independently.
  /// Binomial tolerances at z = 4.5; the local clock (offset, time zero) is the test's own.
  @Test func poissonStartsFollowTheProfileInLocalTime() {
    let rhythm = DailyRhythm(
      hours: Self.twoLevelHours, weekdays: Self.weekendHeavy, utcOffset: 2 * 3600,
      timeZero: 2 * 86_400 + 13 * 3600)
    let scenario = Self.scenario(
      gap: .exponential(mean: 6 * 3600), rhythm: rhythm, horizon: 4 * 604_800)
    let starts = Self.record(scenario, users: 1500).flatMap(\.starts)
    let n = Double(starts.count)
    #expect(n > 100_000)
    var day = 0
    var weekend = 0
    for t in starts {
      let local = Self.localWeekSeconds(t, rhythm)
      if (8..<22).contains(Int(local / 3600) % 24) { day += 1 }
      if Int(local / 86_400) >= 5 { weekend += 1 }
    }
    for (count, p, what) in [(day, 42.0 / 52, "08:00–22:00"), (weekend, 4.0 / 9, "weekend")] {
      let share = Double(count) / n
      let tolerance = Self.z * (p * (1 - p) / n).squareRoot()
      #expect(abs(share - p) < tolerance, "\(what) share \(share), closed form \(p) ± \(tolerance)")
    }
    // Without the rhythm the same world starts 14/24 of its sessions in the day hours.
    let flat = Self.record(
      Self.scenario(gap: .exponential(mean: 6 * 3600), rhythm: nil, horizon: 4 * 604_800),
      users: 300
    ).flatMap(\.starts)
    let flatDay = flat.filter {
      (8..<22).contains(Int(Self.localWeekSeconds($0, rhythm) / 3600) % 24)
    }
    let q = 14.0 / 24
    #expect(
      abs(Double(flatDay.count) / Double(flat.count) - q)
        < Self.z * (q * (1 - q) / Double(flat.count)).squareRoot())
  }

  /// Existing users in steady state under the rhythm, with lognormal gaps (not memoryless):
  /// their opens form a stationary renewal process on the active clock, so the expected number
  /// of opens in the first day's day hours is Λ(those hours) / E[gap] per user, exactly as in
  /// any later day. Tolerance: z = 4.5 standard errors of the mean count over users (their
  /// sample standard deviation). A first open drawn from the gap itself (not the
  /// forward-recurrence time) was tried: 0.240 more opens per user, against a tolerance of
  /// 0.042.
  @Test func existingUsersFirstOpensAreInSteadyStateUnderTheRhythm() {
    let rhythm = DailyRhythm(hours: Self.twoLevelHours, utcOffset: -7 * 3600)
    let gap = DistributionSpec.lognormal(median: 7 * 3600, sigma: 1.1)
    let scenario = Self.scenario(gap: gap, rhythm: rhythm, horizon: 86_400)
    let recorders = Self.record(scenario, users: 20_000)
    let counts = recorders.map { recorder in
      Double(
        recorder.starts.filter {
          (8..<22).contains(Int(Self.localWeekSeconds($0, rhythm) / 3600) % 24)
        }.count)
    }
    let n = Double(counts.count)
    let mean = counts.reduce(0, +) / n
    let variance = counts.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / (n - 1)
    let gapMean = 7 * 3600 * exp(1.1 * 1.1 / 2)
    // Rate of a day hour: 3 / (52 / 24); 14 of them in the first day, whatever its phase.
    let expected = 14 * 3600 * (3 / (52.0 / 24)) / gapMean
    let tolerance = Self.z * (variance / n).squareRoot()
    #expect(
      abs(mean - expected) < tolerance, "mean \(mean), closed form \(expected) ± \(tolerance)")
  }

  /// New users install in proportion to the rhythm: with installs over whole days, the share
  /// of first opens in the day hours is 42/52 (binomial, z = 4.5).
  @Test func installsFollowTheRhythm() {
    let rhythm = DailyRhythm(hours: Self.twoLevelHours)
    var scenario = Self.scenario(gap: .fixed(1e9), rhythm: rhythm, horizon: 10 * 86_400)
    scenario.population.newUserShare = 1
    scenario.population.installWindow = 86_400...(8 * 86_400)
    let firsts = Self.record(scenario, users: 4000).compactMap(\.starts.first)
    #expect(firsts.count == 4000)
    #expect(firsts.allSatisfy { (86_400...(8 * 86_400)).contains($0) })
    let day = firsts.filter {
      (8..<22).contains(Int(Self.localWeekSeconds($0, rhythm) / 3600) % 24)
    }
    let p = 42.0 / 52
    let n = Double(firsts.count)
    #expect(abs(Double(day.count) / n - p) < Self.z * (p * (1 - p) / n).squareRoot())
  }

  /// A campaign with `local_time` is issued at that local time of day, on the first day from
  /// its drawn time: every issue at local 10:00, each within a day after start + offset, and
  /// spread over the rollout's days.
  @Test func campaignsAreTimedInLocalTime() throws {
    let rhythm = DailyRhythm(hours: DailyRhythm.flatHours, utcOffset: -5 * 3600, timeZero: 3600)
    var scenario = Self.scenario(gap: .fixed(1e9), rhythm: rhythm, horizon: 10 * 86_400)
    var campaign = MessageCampaign(
      reason: .generic, audience: .all, start: 2 * 86_400, rolloutWindow: 3 * 86_400,
      audienceShare: 1, expiry: nil)
    campaign.localTime = 10 * 3600
    scenario.messages.campaigns = [campaign]
    let issued = Self.record(scenario, users: 500).flatMap(\.issued)
    #expect(issued.count == 500)
    var days: Set<Int> = []
    for t in issued {
      let local = Self.localWeekSeconds(t, rhythm).truncatingRemainder(dividingBy: 86_400)
      #expect(abs(local - 36_000) < 1e-6, "issued at local \(local) s")
      #expect(t >= 2 * 86_400 && t < 5 * 86_400 + 86_400)
      days.insert(Int(t / 86_400))
    }
    #expect(days.count >= 3)
  }

  /// The consent campaign's `local_time` likewise (an odd offset, +05:30), its deadline
  /// counted from the shifted issue.
  @Test func theConsentCampaignIsTimedInLocalTime() throws {
    let rhythm = DailyRhythm(hours: DailyRhythm.flatHours, utcOffset: 5 * 3600 + 1800)
    var scenario = Fixtures.latencyToNextOpen(nu: 1.0 / 3600, window: 2 * 86_400)
    scenario.sessions.dailyRhythm = rhythm
    scenario.horizon = 5 * 86_400
    var consent = try #require(scenario.messages.consent)
    consent.localTime = 21 * 3600 + 1800
    scenario.messages.consent = consent
    let issued = Self.record(scenario, users: 300).flatMap(\.issued)
    #expect(issued.count == 300)
    for t in issued {
      let local = Self.localWeekSeconds(t, rhythm).truncatingRemainder(dividingBy: 86_400)
      #expect(abs(local - 77_400) < 1e-6, "issued at local \(local) s")
      #expect(t < 3 * 86_400)
    }
  }

  // MARK: Decoding

  static func document(_ rhythm: String) -> String {
    ScenarioTemplates.minimal(replacing: [
      (
        #""fetch_delay": {"fixed": "1s"}"#,
        #""fetch_delay": {"fixed": "1s"}, "daily_rhythm": "# + rhythm
      )
    ])
  }

  static let flat24 = "[" + [String](repeating: "1", count: 24).joined(separator: ", ") + "]"

  @Test func aRhythmIsReadAndAbsentWithoutTheKey() throws {
    let hours = "[" + Self.twoLevelHours.map { "\(Int($0))" }.joined(separator: ", ") + "]"
    let scenario = try ScenarioLoader.load(
      json: Self.document(
        #"{"hours": "# + hours
          + #", "weekdays": [1, 1, 1, 1, 1, 2, 2], "utc_offset": "-03:30", "time_zero": "thursday 14:30:05"}"#
      ), file: "r.json")
    let rhythm = try #require(scenario.sessions.dailyRhythm)
    #expect(rhythm.hours == Self.twoLevelHours)
    #expect(rhythm.weekdays == Self.weekendHeavy)
    let offset: Double = -12_600  // -03:30
    let zero: Double = 311_405  // Thursday (3 days) 14:30:05
    #expect(rhythm.utcOffset == offset)
    #expect(rhythm.timeZero == zero)
    let defaults = try ScenarioLoader.load(
      json: Self.document(#"{"hours": "# + Self.flat24 + "}"), file: "d.json")
    #expect(
      defaults.sessions.dailyRhythm
        == DailyRhythm(hours: DailyRhythm.flatHours, weekdays: DailyRhythm.flatWeekdays))
    let plain = try ScenarioLoader.load(json: ScenarioTemplates.minimal, file: "plain.json")
    #expect(plain.sessions.dailyRhythm == nil)
  }

  static let ones23 = [String](repeating: "1", count: 23).joined(separator: ", ")
  static let zeros24 = "[" + [String](repeating: "0", count: 24).joined(separator: ", ") + "]"
  static let path = "$.sessions.daily_rhythm"
  static let badRhythms: [(String, String, String)] = [
    (#"{"hours": [1, 2, 3]}"#, path + ".hours", "array of 24 relative weights"),
    ("{\"hours\": [" + ones23 + ", 1, 1]}", path + ".hours", "array of 24"),
    ("{\"hours\": [-1, " + ones23 + "]}", path + ".hours[0]", "non-negative number"),
    ("{\"hours\": [\"1\", " + ones23 + "]}", path + ".hours[0]", "non-negative number"),
    ("{\"hours\": " + zeros24 + "}", path + ".hours", "must not be all 0"),
    (
      "{\"hours\": " + flat24 + ", \"weekdays\": [0, 0, 0, 0, 0, 0, 0]}", path + ".weekdays",
      "must not be all 0"
    ),
    ("{\"hours\": " + flat24 + ", \"weekdays\": [1, 1]}", path + ".weekdays", "array of 7"),
    (
      "{\"hours\": " + flat24 + ", \"utc_offset\": \"+15:00\"}", path + ".utc_offset",
      "offset from UTC"
    ),
    (
      "{\"hours\": " + flat24 + ", \"time_zero\": \"mon 00:00\"}", path + ".time_zero",
      "weekday and UTC time of day"
    ),
    (
      "{\"hours\": " + flat24 + ", \"time_zero\": \"monday 24:00\"}", path + ".time_zero",
      "weekday and UTC time of day"
    ),
    ("{\"hour\": " + flat24 + "}", path + ".hour", "did you mean 'hours'?"),
    ("[1]", path, "must be an object"),
  ]

  @Test(arguments: badRhythms)
  func badRhythmsNameThePathAndTheFix(rhythm: String, path: String, fragment: String) throws {
    let errors = try #require(ScenarioTemplates.errors(of: Self.document(rhythm)))
    let problem = try #require(errors.problems.first)
    #expect(problem.path == path)
    #expect(problem.message.contains(fragment), "\(problem.message)")
  }

  @Test(
    arguments: [
      (#""10:00""#, nil),
      (#""23:59:59""#, nil),
      (#""24:00""#, "$.messages.campaigns[0].local_time"),
      (#""10h""#, "$.messages.campaigns[0].local_time"),
      (#""7:00""#, "$.messages.campaigns[0].local_time"),
      ("600", "$.messages.campaigns[0].local_time"),
    ] as [(String, String?)])
  func campaignLocalTimesAreChecked(value: String, path: String?) throws {
    let text = ScenarioTemplates.minimal.replacingAll(
      "\"messages\": {",
      with: "\"messages\": {\"campaigns\": [{\"reason\": \"generic\", \"start\": \"1d\", "
        + "\"local_time\": \(value)}], ")
    #expect(text != ScenarioTemplates.minimal)
    if let path {
      let errors = try #require(ScenarioTemplates.errors(of: text))
      let problem = try #require(errors.problems.first)
      #expect(problem.path == path)
      #expect(problem.message.contains("local time of day"), "\(problem.message)")
    } else {
      let scenario = try ScenarioLoader.load(json: text, file: "c.json")
      #expect(scenario.messages.campaigns.first?.localTime != nil)
    }
  }
}
