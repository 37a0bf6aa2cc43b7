import Simulation
import Testing

/// The optional `app` section (scenarios/README.md, "`app`"): the decoder and
/// `scenarios/schema.json` accept and reject the same documents.
@Suite("App size section")
struct AppSizeTests {
  static func document(_ app: String) -> String {
    ScenarioTemplates.minimal(replacing: [("\"schema\": 1,", "\"schema\": 1, \"app\": \(app),")])
  }

  @Test func aFullSectionLoadsAndScales() throws {
    let text = Self.document(#"{"users": 40000, "subscribers": 6000, "period": "60d"}"#)
    let scenario = try ScenarioLoader.load(json: text, file: "app.json")
    #expect(scenario.app == AppSize(users: 40_000, subscribers: 6_000, period: 60 * 86400))
    #expect(try ValueSectionTests.schemaViolations(text) == [])
    // The template: new users 0.3, subscribers 0.4 of existing users, 0.1 of new installs:
    // 0.7 × 0.4 + 0.3 × 0.1 = 0.31 of simulated users are subscribers. Horizon 30 days.
    #expect(abs(scenario.population.simulatedSubscriberShare - 0.31) < 1e-12)
    #expect(scenario.appUsersPerSimulatedUser(forSubscribers: false) == 80_000)
    let subscribers = try #require(scenario.appUsersPerSimulatedUser(forSubscribers: true))
    #expect(abs(subscribers - 6_000 / 0.31 * 2) < 1e-6)
    let plain = try ScenarioLoader.load(json: ScenarioTemplates.minimal, file: "plain.json")
    #expect(plain.app == nil && plain.appUsersPerSimulatedUser(forSubscribers: false) == nil)
  }

  @Test(arguments: [
    (#"{"users": 0}"#, "$.app.users", "above 0"),
    (#"{"subscribers": "6k"}"#, "$.app.subscribers", "above 0"),
    (#"{"period": "-3d"}"#, "$.app.period", "negative"),
    (#"{}"#, "$.app", "neither 'users' nor 'subscribers'"),
    (#"{"user": 5}"#, "$.app.user", "users"),
  ])
  func badSectionsAreRejectedByBoth(app: String, path: String, fragment: String) throws {
    let text = Self.document(app)
    let errors = try #require(ScenarioTemplates.errors(of: text))
    #expect(
      errors.problems.contains { $0.path == path && $0.message.contains(fragment) },
      "\(errors.problems)")
    #expect(try !ValueSectionTests.schemaViolations(text).isEmpty)
  }
}
