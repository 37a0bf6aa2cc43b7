import Fitting
import Simulation
import Testing

/// The predictive check's rows against values worked out by hand from small count tables.
@Suite("fit: predictive check rows (two-sample statistics, tolerances)")
struct PredictiveCheckRowTests {
  static func stats(
    sessionsPerUser: [Int: Int], screens: [Int: Int], first: [String: Int], later: (Int, Int),
    checkout: Int, hours: [Int: Int]
  ) -> JourneyStats {
    var stats = JourneyStats()
    stats.sessionsPerUser = sessionsPerUser
    stats.screensPerSession = screens
    stats.sessionSeconds = [10: 1, 20: 1, 30: 1, 40: 1]
    stats.gapMinutes = [60: 2]
    stats.firstScreens = first
    stats.openedOnLastScreen = later.0
    stats.laterSessions = later.1
    stats.checkoutSessions = checkout
    for (hour, count) in hours { stats.startHours[hour] = count }
    return stats
  }

  @Test("KS, TV and share rows equal their hand-computed values; beyond a tolerance is a warning")
  func rows() throws {
    // Observed: 4 sessions; simulated: 4 sessions.
    let observed = Self.stats(
      sessionsPerUser: [1: 2, 2: 2], screens: [1: 1, 2: 1, 3: 2], first: ["home": 3, "feed": 1],
      later: (1, 4), checkout: 2, hours: [9: 3, 23: 1])
    var simulated = Self.stats(
      sessionsPerUser: [1: 1, 2: 3], screens: [1: 1, 2: 1, 3: 2], first: ["home": 1, "feed": 1],
      later: (2, 4), checkout: 1, hours: [9: 4])
    simulated.sessionSeconds = [10: 2, 20: 2]
    let rows = PredictiveCheck.compare(observed: observed, simulated: simulated, checkout: true)
    func row(_ name: String) throws -> CheckRow { try #require(rows.first { $0.name == name }) }
    // F_obs(1) = 1/2, F_sim(1) = 1/4.
    #expect(try row("sessions per user").value == 0.25)
    #expect(try row("sessions per user").noise! == 1.628 * (8.0 / 16).squareRoot())
    #expect(try row("screens per session").value == 0)
    // Session length: F_obs(20) = 1/2, F_sim(20) = 1.
    #expect(try row("session length").value == 0.5)
    // First screen: home 3/4 against 1/2, feed 1/4 against 1/2: TV = (1/4 + 1/4) / 2.
    #expect(try row("first screen of a session").value == 0.25)
    #expect(try row("sessions opening on the previous session's last screen").value == 0.25)
    // Checkout: 1/2 against 1/4, relative to 1/2.
    #expect(try row("sessions reaching checkout").value == 0.5)
    #expect(try row("session starts 08:00–22:00").value == 0.25)
    // Hour profile: 09:00 3/4 against 1, 23:00 1/4 against 0: TV = (1/4 + 1/4) / 2.
    #expect(try row("hour-of-day profile of session starts (24 hours)").value == 0.25)
    #expect(
      try row("hour-of-day profile of session starts (24 hours)").observed == "peak 09:00 75.0%")
    #expect(try row("screens per session").passes)
    #expect(try !row("sessions per user").passes)
    let warnings = PredictiveCheck.warnings(rows)
    #expect(warnings.count == rows.filter { !$0.passes }.count)
    #expect(warnings.contains { $0.hasPrefix("predictive check: sessions per user diverges") })
    // No checkout screen in the map: no checkout row.
    let without = PredictiveCheck.compare(observed: observed, simulated: simulated, checkout: false)
    #expect(!without.contains { $0.name == "sessions reaching checkout" })
    // A log against itself passes every row.
    let same = PredictiveCheck.compare(observed: observed, simulated: observed, checkout: true)
    #expect(same.allSatisfy { $0.passes && $0.value == 0 })
  }

  @Test("3-screen paths: the log's top 5 (ties by name) and the rest as one, TV by hand")
  func paths() throws {
    var observed = JourneyStats()
    observed.threeScreenPaths = ["A": 5, "B": 3, "C": 1, "D": 1, "E": 1, "F": 1, "G": 1]
    var simulated = JourneyStats()
    simulated.threeScreenPaths = ["A": 2, "B": 2, "F": 4]
    let rows = PredictiveCheck.compare(observed: observed, simulated: simulated, checkout: false)
    let row = try #require(
      rows.first { $0.name == "3-screen paths (the log's top 5, the rest as one)" })
    // Kept: A, B, C, D, E (F and G, tied with C–E, come later by name). In 52nds, observed
    // A 20, B 12, C+D+E 12, other 8; simulated A 13, B 13, other 26: TV = (7 + 1 + 12 + 18) / 104.
    #expect(abs(row.value - 19.0 / 52) < 1e-12, "\(row.value)")
    #expect(row.observed == "A 38.5%")
    #expect(row.simulated == "A 25.0%")
    #expect(!row.passes)
    // A log against itself gives 0.
    let same = PredictiveCheck.compare(observed: observed, simulated: observed, checkout: false)
    #expect(same.first { $0.name == row.name }?.value == 0)
  }
}
