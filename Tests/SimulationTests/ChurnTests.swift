import Foundation
import MessageDeferral
import Testing

@testable import Simulation

/// `sessions.churn_probability` (#32 item 7: user lifetimes): in the engine against the
/// geometric law of sessions it implies, as a scenario key with its errors, and fitted with
/// the gap from a log whose users leave for good.
@Suite("Churn: a session that is the user's last")
struct ChurnTests {
  static let users = 4000

  /// Splash → home (10 s, then background), a 60 s gap, a horizon long enough that no user
  /// reaches it: each user's sessions are geometric, P(N = k) = (1 − q)^(k−1) q, so the home
  /// visits sum to n/q with variance n(1 − q)/q². z = 4.5.
  @Test func sessionsAreGeometric() throws {
    let q = 0.2
    var scenario = Fixtures.base(
      screens: [
        Screen(name: "splash", kind: .launch, dwell: .fixed(0.5), transitions: []),
        Screen(
          name: "home", kind: .home, dwell: .fixed(10),
          transitions: [Fixtures.transition(.background, 1)]),
      ],
      entries: Entries(coldLaunch: 0, newUser: 1, returning: 1), horizon: 30 * 86_400,
      gap: .fixed(60))
    scenario.sessions.churnProbability = q
    // Every return a cold launch, so each session shows the splash: its visits count sessions.
    scenario.sessions.backgroundTerminationProbability = 1
    let tally = try Engine.run(
      CompiledScenario(scenario), policies: scenario.policies,
      options: RunOptions(users: Self.users, replications: 1, seed: 5, jobs: 1)
    ).tallies[0][0]
    let n = Double(Self.users)
    let mean = n / q
    let sd = (n * (1 - q) / (q * q)).squareRoot()
    #expect(abs(Double(tally.screenVisits[0]) - mean) <= 4.5 * sd, "\(tally.screenVisits)")
    // Without the key every user returns until the horizon: far more sessions.
    scenario.sessions.churnProbability = 0
    let kept = try Engine.run(
      CompiledScenario(scenario), policies: scenario.policies,
      options: RunOptions(users: 200, replications: 1, seed: 5, jobs: 1)
    ).tallies[0][0]
    #expect(kept.screenVisits[0] > 200 * 1000)
  }

  @Test func theKeyIsChecked() throws {
    let base = ScenarioTemplates.minimal(replacing: [])
    let marker = "\"fetch_delay\""
    #expect(base.contains(marker))
    for (value, fragment) in [("1", "must be below 1, got 1"), ("1.5", "must be between 0 and 1")] {
      let text = base.replacingAll(marker, with: "\"churn_probability\": \(value), \(marker)")
      let errors = try #require(ScenarioTemplates.errors(of: text))
      #expect(
        errors.problems.contains {
          $0.path == "$.sessions.churn_probability" && $0.message.contains(fragment)
        }, "\(errors.problems)")
    }
    let fine = base.replacingAll(marker, with: "\"churn_probability\": 0.05, \(marker)")
    let scenario = try ScenarioLoader.load(json: fine, file: "churn.json")
    #expect(scenario.sessions.churnProbability == 0.05)
  }

  /// A censored duration of weight 0 counts for nothing: the fit equals the one without it.
  @Test func aWeightlessCensoredGapIsIgnored() throws {
    let complete = (1...40).map { DurationSample(seconds: Double($0) * 37, censored: false) }
    var censored = DurationSample(seconds: 5000, censored: true)
    censored.weight = 0
    for family in DurationFamily.allCases {
      let with = try #require(DurationFit.fit(complete + [censored], family: family))
      let without = try #require(DurationFit.fit(complete, family: family))
      #expect(with.logLikelihood == without.logLikelihood, "\(family)")
    }
  }

  /// A log of 1,500 users over 60 days: exponential gaps (mean 2 days), each session the
  /// user's last with q = 0.15. The fit finds churn (the likelihood ratio is far above 3.84)
  /// and recovers q within 4.5 standard errors of a binomial share over the sessions' ends,
  /// doubled for what the censored last gaps hide; and the gap's mean within 10%, where the
  /// plain fit, reading every departure as a long return, overstates it.
  @Test func churnIsFittedWithTheGap() throws {
    let q = 0.15
    var stream = RandomStream(seed: 9, replication: 0, user: 0, purpose: .journey)
    let day = 86_400.0
    let window = 60 * day
    var rows = ["user_id,timestamp,screen,event"]
    var ends = 0
    for user in 0..<1500 {
      var t = stream.uniform() * 5 * day
      while t < window {
        let at = Int(1_714_557_600 + t)
        rows.append("u\(user),\(at),Home,screen_view")
        rows.append("u\(user),\(at + 30 + user % 7),Feed,screen_view")
        rows.append("u\(user),\(at + 90 + user % 11),Feed,ping")
        ends += 1
        if stream.uniform() < q { break }
        t += 120 - 2 * day * log(1 - stream.uniform())
      }
    }
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "fit-churn-\(getpid())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("log.csv").path
    try Data((rows.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: path))
    var map = FitMap()
    map.screens = [("Home", .home), ("Feed", .content)]
    map.windowEnd = 1_714_557_600 + window
    let result = try ScenarioFit.fit(files: [path], map: map)
    let fitted = result.scenario.sessions.churnProbability
    let se = (q * (1 - q) / Double(ends)).squareRoot()
    #expect(abs(fitted - q) <= 2 * 4.5 * se, "fitted \(fitted), \(result.estimates)")
    let mean = try #require(result.gap.chosen).spec.mean
    #expect(
      abs(mean - 2 * day) <= 0.1 * 2 * day,
      "gap mean \(mean / day) days: \(result.gap.fits.map { ($0.family, $0.spec.mean / day, $0.aic) })"
    )
  }
}
