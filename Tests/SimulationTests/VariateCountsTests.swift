import MessageDeferral
import Testing

@testable import Simulation

/// The variate-counting hook (for deferral-bench's RNG floor) observes without changing a run.
@Suite("Variate counts")
struct VariateCountsTests {
  @Test func countingChangesNothingAndCountsEveryDraw() throws {
    let scenario = ScenarioLoader.embeddedDefault()
    let world = CompiledScenario(scenario)
    let policies = Array(scenario.policies.prefix(2))
    func run(counting: Bool) throws -> RunResult {
      try Engine.run(
        world, policies: policies,
        options: RunOptions(
          users: 300, replications: 2, seed: 7, jobs: 2, countsVariates: counting))
    }
    let plain = try run(counting: false)
    let counted = try run(counting: true)
    #expect(plain.events == counted.events)
    var total = VariateCounts()
    for (plainRow, countedRow) in zip(plain.tallies, counted.tallies) {
      for (a, b) in zip(plainRow, countedRow) {
        #expect(a.displayed == b.displayed && a.issued == b.issued && a.sheets == b.sheets)
        #expect(a.variates == VariateCounts())
        total.merge(b.variates)
      }
    }
    // Every screen visit draws a dwell (lognormal or, for the splash, flat) and the scenario
    // has no gamma, Weibull or fixed distribution.
    #expect(total[.lognormal] > 0 && total[.flat] > 0 && total[.discrete] > 0)
    #expect(total[.uniform] > 0 && total[.exponential] > 0)
    #expect(total[.gamma] == 0 && total[.weibull] == 0 && total[.fixed] == 0)
    #expect(total.gslTotal == total.counts.reduce(0, +))
  }

  @Test func aStreamCountsOnlyWhenAsked() {
    var stream = RandomStream(gslSeed: 1)
    _ = stream.uniform()
    #expect(stream.variateCounts == nil)
    stream.variateCounts = VariateCounts()
    _ = stream.uniform()
    _ = stream.bernoulli(0.5)
    _ = Sampler(.lognormal(median: 1, sigma: 0.5)).draw(&stream)
    _ = Sampler(.fixed(2)).draw(&stream)
    var drained = VariateCounts()
    stream.drainVariateCounts(into: &drained)
    #expect(drained[.uniform] == 2 && drained[.lognormal] == 1 && drained[.fixed] == 1)
    #expect(stream.variateCounts == VariateCounts())
  }
}
