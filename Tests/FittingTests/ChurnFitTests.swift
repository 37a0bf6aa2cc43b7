import Foundation
import TestSupport
import Testing

@testable import Fitting
@testable import Simulation

/// `sessions.churn_probability` fitted with the gap from a log whose users leave for good
/// (the engine's side: SimulationTests' `ChurnTests`).
@Suite("Churn: fitted with the gap")
struct ChurnFitTests {
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
    let folder = try TemporaryFolder("fit-churn")
    defer { folder.remove() }
    let path = try folder.write(lines: rows, to: "log.csv")
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
