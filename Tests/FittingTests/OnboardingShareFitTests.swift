import Foundation
import MessageDeferral
import TestSupport
import Testing

@testable import Fitting
@testable import Simulation

/// `fit` of `population.onboarding_share` (#32 item 7: new users without onboarding). Under
/// the map's `first_open` rule a new user is one with a `first_open` event, whether or not an
/// onboarding screen follows: the share that onboards is counted, and a log with no
/// onboarding screen at all gets share 0 and no invented onboarding screen.
@Suite("fit: new users who do not onboard")
struct OnboardingShareFitTests {
  static let origin = 1_714_557_600

  /// `new` users with a first_open event, of whom every `every`-th sees Welcome (onboarding)
  /// first (none when `every` is 0), and 20 existing users; each has two sessions.
  static func fit(new: Int, every: Int) throws -> FitResult {
    var rows = ["user_id,timestamp,screen,event"]
    for user in 0..<(new + 20) {
      let isNew = user < new
      var at = origin + user * 3600
      for session in 0..<2 {
        if isNew, session == 0 { rows.append("u\(user),\(at),,first_open") }
        if isNew, session == 0, every > 0, user % every == 0 {
          rows.append("u\(user),\(at),Welcome,screen_view")
          at += 8 + user % 5
        }
        rows.append("u\(user),\(at),Home,screen_view")
        rows.append("u\(user),\(at + 20 + user % 9),Feed,screen_view")
        rows.append("u\(user),\(at + 60 + user % 17),Feed,ping")
        at += 86_400 + user * 60
      }
    }
    let folder = try TemporaryFolder("fit-onboarding-\(new)-\(every)")
    defer { folder.remove() }
    let path = try folder.write(lines: rows, to: "log.csv")
    var map = FitMap()
    map.screens = [("Welcome", .onboarding), ("Home", .home), ("Feed", .content)]
    map.newUsers = .firstOpen
    return try ScenarioFit.fit(files: [path], map: map)
  }

  /// A quarter of 80 new users onboard (every 4th): the share is 20 of 80.
  @Test func theShareThatOnboardsIsCounted() throws {
    let result = try Self.fit(new: 80, every: 4)
    #expect(result.observations.newUsers == 80)
    #expect(result.observations.newUsersOnboarding == 20)
    #expect(result.scenario.population.onboardingShare == 0.25)
    #expect(result.scenario.screens.contains { $0.kind == .onboarding })
  }

  /// No onboarding screen in the log: share 0, no onboarding screen written, and the new
  /// users' entry is the returning one (the scenario loads without `entries.new_user`'s screen).
  @Test func aLogWithoutOnboardingInventsNone() throws {
    let result = try Self.fit(new: 60, every: 0)
    #expect(result.scenario.population.newUserShare == 60.0 / 80)
    #expect(result.scenario.population.onboardingShare == 0)
    #expect(!result.scenario.screens.contains { $0.kind == .onboarding }, "\(result.scenarioJSON)")
    #expect(result.scenario.entries.newUser == result.scenario.entries.returning)
    #expect(!result.defaults.contains { $0.contains("an onboarding screen") })
  }

  /// Every new user onboards: no key is written (the default 1), as before.
  @Test func everyoneOnboardingWritesNoKey() throws {
    let result = try Self.fit(new: 40, every: 1)
    #expect(result.scenario.population.onboardingShare == 1)
    #expect(!result.scenarioJSON.contains("onboarding_share"))
  }
}
