import MessageDeferral
import Testing

@testable import Simulation

/// A scenario without new users (`new_user_share: 0`) needs no onboarding screen and no
/// `entries.new_user`.
@Suite("Scenarios without new users")
struct NoNewUsersTests {
  static let document = ScenarioTemplates.minimal(replacing: [
    ("\"new_user_share\": 0.3", "\"new_user_share\": 0"),
    ("\"new_user\": \"intro\", ", ""),
    ("\"kind\": \"onboarding\"", "\"kind\": \"content\""),
    (
      "\"transitions\": {\"player\": 0.5, \"background\": 0.5}",
      "\"transitions\": {\"player\": 0.4, \"intro\": 0.1, \"background\": 0.5}"
    ),
  ])

  @Test func loadsAndRunsWithoutOnboarding() throws {
    let scenario = try ScenarioLoader.load(json: Self.document, file: "no-new-users.json")
    #expect(!scenario.screens.contains { $0.kind == .onboarding })
    #expect(scenario.entries.newUser == scenario.entries.returning)
    let result = try Engine.run(
      CompiledScenario(scenario), policies: scenario.policies,
      options: RunOptions(users: 200, replications: 1, seed: 1, jobs: 1))
    let tally = result.tallies[0][0]
    #expect(tally.users == 200)
    #expect(tally.onboardingRunsStarted == 0 && tally.newUsersOnboarding == 0)
    #expect(tally.screenVisits[scenario.entries.returning] > 0)
  }

  /// With new users the entry is still required, and the message says both ways out.
  @Test func newUsersStillNeedTheEntry() throws {
    let text = Self.document.replacingAll("\"new_user_share\": 0", with: "\"new_user_share\": 0.1")
    let errors = try #require(ScenarioTemplates.errors(of: text))
    #expect(errors.problems.contains { $0.message.contains("set population.new_user_share to 0") })
  }

  /// New users who never onboard (`onboarding_share: 0`, an app without onboarding): the
  /// scenario needs neither an onboarding screen nor the entry, and its new users open on the
  /// returning entry from their install.
  @Test func newUsersWithoutOnboardingNeedNoEntry() throws {
    let text = Self.document.replacingAll(
      "\"new_user_share\": 0", with: "\"new_user_share\": 0.6, \"onboarding_share\": 0")
    let scenario = try ScenarioLoader.load(json: text, file: "no-onboarding.json")
    #expect(scenario.population.newUserShare == 0.6 && scenario.population.onboardingShare == 0)
    #expect(scenario.entries.newUser == scenario.entries.returning)
    let tally = try Engine.run(
      CompiledScenario(scenario), policies: scenario.policies,
      options: RunOptions(users: 200, replications: 1, seed: 1, jobs: 1)
    ).tallies[0][0]
    #expect(tally.onboardingRunsStarted == 0 && tally.newUsersOnboarding == 0)
  }
}
