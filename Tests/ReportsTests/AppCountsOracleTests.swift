import MessageDeferral
import Simulation
import Testing

@testable import Reports

/// Answers in the app's own units (the scenario's `app` section): paired differences as counts
/// for the app, computed by hand in the comments from hand-written tallies.
@Suite("App counts against hand-computed worlds")
struct AppCountsOracleTests {
  typealias World = ValueVerdictWorld

  /// Two policies over three replications of 500 users. `eager` − `gentle` per replication:
  /// completed onboardings 40−38, 43−40, 41−39 = 2, 3, 2; sheets over the player 10, 11, 11;
  /// consent deadlines missed 1−4, 0−3, 2−5 = −3, −3, −3.
  static func report(app: AppSize?) -> RunReport {
    func tally(_ completed: Int, _ player: Int, missed: Int) -> Tally {
      var tally = World.tally(completed: completed, player: player)
      tally.consentDeadlineMisses = missed
      return tally
    }
    var report = World.report(
      ["eager", "gentle"],
      [
        [tally(40, 10, missed: 1), tally(43, 12, missed: 0), tally(41, 11, missed: 2)],
        [tally(38, 0, missed: 4), tally(40, 1, missed: 3), tally(39, 0, missed: 5)],
      ],
      value: ValueModel(unit: "USD", onboardingCompleted: 6, consentDeadlineMissed: 25))
    var scenario = report.scenario
    scenario.app = app
    // Subscribers among simulated users: (1 − 0.25) × 0.4 + 0.25 × 0.2 = 0.35.
    scenario.population.newUserShare = 0.25
    scenario.population.subscriberShare = 0.4
    scenario.population.returningSubscriberShare = 0.2
    report = RunReport(scenario: scenario, result: report.result, baseline: "eager")
    return report
  }

  static func outcome(_ name: String) -> AppCounts.Outcome {
    AppCounts.outcomes.first { $0.name == name }!
  }

  @Test func usersScaleUserCountsAndSubscribersScaleSubscriberCounts() throws {
    // 40,000 app users: one simulated user of 500 stands for 40,000 users; 2/500 × 40,000 =
    // 160 completed onboardings, 3/500 × 40,000 = 240. Subscribers 7,000 ÷ 0.35 = 20,000 app
    // users: −3/500 × 20,000 = −120 lapsed renewals in every replication.
    let report = Self.report(app: AppSize(users: 40_000, subscribers: 7_000))
    let completed = try #require(
      AppCounts.difference(report, 0, 1, Self.outcome("completed_onboardings")))
    let (mean, half) = World.interval([160, 240, 160])
    #expect(abs(completed.mean - mean) < 1e-9, "\(completed)")
    #expect(abs(completed.high - (mean + half)) < 1e-9, "\(completed)")
    let lapsed = try #require(AppCounts.difference(report, 0, 1, Self.outcome("lapsed_renewals")))
    #expect(abs(lapsed.mean + 120) < 1e-9 && abs(lapsed.low + 120) < 1e-9, "\(lapsed)")
    let sentence = try #require(AppCounts.sentence(report, 0, against: 1))
    #expect(sentence.contains("120 [120, 120] fewer lapsed renewals"), "\(sentence)")
    #expect(sentence.contains("more completed onboardings"), "\(sentence)")
  }

  @Test func onlySubscribersGivenImpliesTheUsersAndThePeriodScalesLinearly() throws {
    // 3,500 subscribers ÷ 0.35 = 10,000 app users, over 60 days of a 30-day horizon: ×2.
    // Sheets over the player: 10, 11, 11 per 500 → 200, 220, 220 per 10,000 → ×2.
    let report = Self.report(app: AppSize(subscribers: 3_500, period: 60 * 86400))
    let player = try #require(
      AppCounts.difference(report, 0, 1, Self.outcome("interrupted_immersive_screens")))
    #expect(abs(player.mean - (400 + 440 + 440) / 3.0) < 1e-9, "\(player)")
    #expect(AppCounts.audience(report.scenario) == "over 60 days, for your 3,500 subscribers")
  }

  @Test func anOutcomeThatReadsZeroForTheAppIsLeftOut() throws {
    // 1 user of the app: 3/500 lapsed renewals a replication read "0 [0, 0]"; left out.
    let report = Self.report(app: AppSize(users: 1, subscribers: 0.35))
    let sentence = try #require(AppCounts.sentence(report, 0, against: 1))
    #expect(!sentence.contains("lapsed renewals"), "\(sentence)")
  }

  @Test func withoutAnAppSectionThereAreNoCounts() {
    let report = Self.report(app: nil)
    #expect(AppCounts.difference(report, 0, 1, Self.outcome("lapsed_renewals")) == nil)
    #expect(AppCounts.sentence(report, 0, against: 1) == nil)
    let header = Decision(report).table.text.split(separator: "\n")[0]
    #expect(header.contains("lapsed_renewals_vs_baseline_app_ci95_high"))
  }

  @Test func decisionCSVCarriesTheCountsAgainstTheBaselineAndHowToShip() throws {
    let report = Self.report(app: AppSize(users: 40_000, subscribers: 7_000))
    let lines = Decision(report).table.text.split(separator: "\n").map(String.init)
    let header = lines[0].split(separator: ",").map(String.init)
    let column = try #require(header.firstIndex(of: "lapsed_renewals_vs_baseline_app"))
    let ships = try #require(header.firstIndex(of: "ships_as"))
    for line in lines.dropFirst() {
      let cells = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
      // Custom policies ship with the library; the baseline's own row differs by 0.
      #expect(cells[ships] == "library")
      let expected = cells[2] == "eager" ? 0.0 : 120
      #expect(Double(cells[column]).map { abs($0 - expected) < 1e-9 } == true, "\(line)")
    }
  }

  @Test func wholeNumbersAreGroupedByThousands() {
    #expect(AppCounts.whole(40_000) == "40,000")
    #expect(AppCounts.whole(-1_234_567.4) == "-1,234,567")
    #expect(AppCounts.whole(999.5) == "1,000")
    #expect(AppCounts.whole(-0.2) == "0")
  }
}
