import Fitting
import Foundation
import Reports
import Simulation
import Testing

/// The round trip: simulate `scenarios/fit-samples/round-trip.json` into an `events.csv` (as
/// `run --events-log` does), fit it back, and recover every parameter within its sampling
/// error: dwells of each family and the gap (4 standard errors from the fit's observed
/// information), transitions and shares (4 binomial standard errors from their counts).
@Suite("fit: round trip through events.csv")
struct FitRoundTripTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  /// The scenario, its events log and the fit (computed once for the suite's tests).
  static let fitted: (scenario: Scenario, result: FitResult)? = {
    guard
      let scenario = try? ScenarioLoader.load(
        contentsOf: root.appendingPathComponent("scenarios/fit-samples/round-trip.json").path)
    else { return nil }
    guard
      let result = EventsLogRoundTrip.fit(
        scenario, users: scenario.users, seed: scenario.seed, name: "fit-round-trip")
    else { return nil }
    return (scenario, result)
  }()

  /// The generating family of a spec, with its parameters in the fit's order.
  static func truth(_ spec: DistributionSpec) -> (DurationFamily, [Double])? {
    switch spec {
    case .exponential(let mean): (.exponential, [mean])
    case .lognormal(let median, let sigma): (.lognormal, [median, sigma])
    case .gamma(let shape, let scale): (.gamma, [shape, scale])
    case .weibull(let shape, let scale): (.weibull, [shape, scale])
    default: nil
    }
  }

  static func check(_ summary: DurationFitSummary, against spec: DistributionSpec) throws {
    guard let (family, values) = truth(spec) else { return }
    let fit = try #require(summary.fits.first { $0.family == family }, "\(summary.name)")
    for (parameter, value) in zip(fit.parameters, values) {
      #expect(
        abs(parameter.value - value) <= 4 * parameter.standardError,
        "\(summary.name) \(family) \(parameter.name): fitted \(parameter.value) ± \(parameter.standardError), true \(value)"
      )
    }
    // Exponential is nested in gamma and Weibull, so AIC may prefer them by chance.
    if family != .exponential {
      #expect(
        summary.chosen?.family == family,
        "\(summary.name): AIC chose \(String(describing: summary.chosen?.family))")
    }
  }

  @Test("every dwell family and the gap are recovered, and AIC picks the generating family")
  func durations() throws {
    let (scenario, result) = try #require(Self.fitted, "the round trip could not run")
    for (summary, _) in result.screens {
      let screen = try #require(scenario.screens.first { $0.name == summary.name })
      try Self.check(summary, against: screen.dwell)
    }
    try Self.check(result.gap, against: scenario.sessions.gap)
  }

  @Test("transitions, the new-user share, background termination and the entries are recovered")
  func probabilities() throws {
    let (scenario, result) = try #require(Self.fitted, "the round trip could not run")
    let fitted = result.scenario
    for screen in scenario.screens where screen.kind != .launch {
      let exits = result.transitions.filter { $0.from == screen.name }.reduce(0) { $0 + $1.count }
      #expect(exits > 100, "\(screen.name): \(exits) exits")
      let other = try #require(fitted.screens.first { $0.name == screen.name })
      for transition in screen.transitions {
        let p = transition.probability
        let name: String
        switch transition.target {
        case .background: name = "background"
        case .screen(let index): name = scenario.screens[index].name
        }
        let estimate =
          other.transitions.first { target in
            switch target.target {
            case .background: name == "background"
            case .screen(let index): fitted.screens[index].name == name
            }
          }?.probability ?? 0
        let error = (p * (1 - p) / Double(exits)).squareRoot()
        #expect(abs(estimate - p) <= 4 * error, "\(screen.name) → \(name): \(estimate), true \(p)")
      }
    }
    let users = Double(result.observations.users)
    let share = scenario.population.newUserShare
    #expect(
      abs(fitted.population.newUserShare - share) <= 4 * (share * (1 - share) / users).squareRoot())
    let resumed = Double(result.observations.coldLaunches + result.observations.warmResumes)
    let kill = scenario.sessions.backgroundTerminationProbability
    #expect(
      abs(fitted.sessions.backgroundTerminationProbability - kill)
        <= 4 * (kill * (1 - kill) / resumed).squareRoot())
    #expect(fitted.entries.returning == fitted.screens.firstIndex { $0.name == "home" })
    #expect(fitted.screens[fitted.entries.newUser].name == "intro")
    // The world is first order: the memory test (level 0.01 over the pairs) keeps no table.
    #expect(fitted.screens.allSatisfy { $0.transitionsAfter.isEmpty })
  }
}
