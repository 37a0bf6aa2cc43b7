import Foundation
import MessageDeferral
import TestSupport
import Testing

@testable import Fitting
@testable import Simulation

/// `fit` of `population.install_window.weights` (#32 item 7, arrivals that grow): new users'
/// first events per 30 days of the window, written only when a chi-square test rejects flat
/// arrivals; and the fitted scenario reproduces the arrivals it was fitted on.
@Suite("fit: arrivals over the install window")
struct InstallWeightsFitTests {
  static let day = 86_400.0
  static let origin = 1_714_557_600.0

  /// A generic CSV: `new` users whose first session (welcome, onboarding → home) starts at a
  /// time drawn from a 120-day density with relative rates `rates` per 30 days, and two
  /// existing users at the log's first and last day (so the window spans 120 days).
  static func log(rates: [Double], new: Int, seed: UInt64) throws -> String {
    var stream = RandomStream(seed: seed, replication: 0, user: 0, purpose: .journey)
    let total = rates.reduce(0, +)
    var rows = ["user_id,timestamp,screen,event"]
    for (user, time) in [(-1, 0.0), (-2, 119.9 * day)] {
      let at = Int(origin + time)
      rows.append("e\(-user),\(at),Home,screen_view")
      rows.append("e\(-user),\(at + 40),Feed,screen_view")
      rows.append("e\(-user),\(at + 90),Feed,ping")
    }
    for user in 0..<new {
      // The part by its share, then uniform within it (the model `install_window.weights` draws).
      var u = stream.uniform() * total
      var part = 0
      while part < rates.count - 1, u >= rates[part] {
        u -= rates[part]
        part += 1
      }
      let time = (Double(part) + stream.uniform()) * 30 * day
      let at = Int(origin + min(time, 119.8 * day))
      rows.append("u\(user),\(at),Welcome,screen_view")
      rows.append("u\(user),\(at + 5 + user % 7),Home,screen_view")
      rows.append("u\(user),\(at + 30 + user % 11),Feed,screen_view")
      rows.append("u\(user),\(at + 70 + user % 13),Feed,ping")
    }
    let folder = try TemporaryFolder("fit-arrivals-\(seed)")
    let path = try folder.write(lines: rows, to: "log.csv")
    return path
  }

  static var map: FitMap {
    var map = FitMap()
    map.screens = [("Welcome", .onboarding), ("Home", .home), ("Feed", .content)]
    return map
  }

  /// Rates 1 : 1 : 2 : 4 over four 30-day parts, 1,600 new users: each fitted share within 4.5
  /// binomial standard deviations of its truth (1/8, 1/8, 1/4, 1/2).
  @Test func growingArrivalsAreFitted() throws {
    let path = try Self.log(rates: [1, 1, 2, 4], new: 1600, seed: 3)
    defer {
      try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent)
    }
    let result = try ScenarioFit.fit(files: [path], map: Self.map)
    let weights = result.scenario.population.installWeights
    #expect(weights.count == 4, "\(result.estimates)")
    let truth = [1.0, 1, 2, 4].map { $0 / 8 }
    let total = weights.reduce(0, +)
    for (fitted, share) in zip(weights, truth) {
      let sd = (share * (1 - share) / 1600).squareRoot()
      #expect(abs(fitted / total - share) <= 4.5 * sd, "\(weights)")
    }
    #expect(result.estimates.contains { $0.name == "install window weights" })
  }

  /// Flat arrivals: the chi-square test does not reject them (with fair probability; seed
  /// fixed), so the fitted window stays plain and the estimate says why.
  @Test func flatArrivalsKeepThePlainWindow() throws {
    let path = try Self.log(rates: [1, 1, 1, 1], new: 1600, seed: 5)
    defer {
      try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent)
    }
    let result = try ScenarioFit.fit(files: [path], map: Self.map)
    #expect(result.scenario.population.installWeights.isEmpty)
    #expect(
      result.estimates.contains { $0.name == "install window weights" && $0.value == "none (flat)" }
    )
  }
}
