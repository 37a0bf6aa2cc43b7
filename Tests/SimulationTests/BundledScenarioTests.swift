import Foundation
import MessageDeferral
import Simulation
import Testing

@Suite("Bundled scenarios")
struct BundledScenarioTests {
  @Test(arguments: ScenarioFixtures.bundled)
  func loads(file: String) throws {
    let scenario: Scenario
    do {
      scenario = try ScenarioLoader.load(contentsOf: ScenarioFixtures.path(of: file))
    } catch {
      Issue.record("\(error)")
      return
    }
    #expect(scenario.name + ".json" == file)
    #expect(!scenario.description.isEmpty)
    #expect(scenario.description.contains("scenarios/README.md"))
    #expect(scenario.policies.map(\.name) == PolicyCatalog.presetNames)
    #expect(scenario.baseline == "storekit-auto")
    // Modest by default: a run of every policy must take seconds, not minutes.
    #expect(scenario.users * scenario.replications <= 200_000)
    #expect(scenario.horizon == 30 * 86_400)
    #expect(scenario.messages.consent != nil)
    let kinds = Set(scenario.screens.map(\.kind))
    #expect(kinds.isSuperset(of: [.launch, .onboarding, .paywall, .checkout, .home, .settings]))
  }

  @Test(arguments: ScenarioFixtures.bundled)
  func readmeDescribesEachBundledScenario(file: String) throws {
    let readme = String(decoding: try ScenarioFixtures.bytes(of: "README.md"), as: UTF8.self)
    #expect(readme.contains("[`\(file)`](\(file))"))
    #expect(readme.contains("`\(file.dropLast(5))`: "))
  }

  /// The copy compiled into the binary cannot drift from the file: run
  /// `bash scripts/embed-default-scenario.sh` after editing the file.
  @Test func embeddedDefaultIsByteIdenticalToTheFile() throws {
    let file = try ScenarioFixtures.bytes(of: "indie-subscription.json")
    #expect(
      Array(ScenarioLoader.embeddedDefaultJSON.utf8) == file,
      "run: bash scripts/embed-default-scenario.sh")
  }

  @Test func embeddedDefaultLoads() throws {
    let embedded = ScenarioLoader.embeddedDefault()
    let file = try ScenarioLoader.load(
      contentsOf: ScenarioFixtures.path(of: "indie-subscription.json"))
    #expect(embedded.name == "indie-subscription")
    #expect(embedded.screens == file.screens)
    #expect(embedded.messages == file.messages)
    #expect(embedded.policies == file.policies)
    #expect(embedded.seed == file.seed)
  }

  /// The default has what the issue asks for: several onboarding screens, then a paywall
  /// and checkout, home, settings, content and an immersive screen.
  @Test func defaultScenarioHasTheAppShapeTheIssueDescribes() {
    let scenario = ScenarioLoader.embeddedDefault()
    let kinds = scenario.screens.map(\.kind)
    #expect(kinds.filter { $0 == .onboarding }.count >= 3)
    #expect(Set(kinds) == Set(ScreenKind.allCases))
    // Onboarding ends on the paywall, which leads to checkout.
    let lastOnboarding = scenario.screens.last { $0.kind == .onboarding }!
    let afterOnboarding = lastOnboarding.transitions.compactMap { transition -> ScreenKind? in
      if case .screen(let index) = transition.target { scenario.screens[index].kind } else { nil }
    }
    #expect(afterOnboarding == [.paywall])
    let paywall = scenario.screens.first { $0.kind == .paywall }!
    #expect(
      paywall.transitions.contains {
        if case .screen(let index) = $0.target {
          scenario.screens[index].kind == .checkout
        } else {
          false
        }
      })
    let consent = scenario.messages.consent!
    #expect(consent.start == 3 * 86_400)
    #expect(consent.deadline == .uniform(low: 7 * 86_400, high: 30 * 86_400))
    #expect(scenario.population.returningSubscriberShare > 0)
    #expect(scenario.users == 20_000 && scenario.replications == 10)
  }
}
