import CGSL
import Experiments
import Foundation
import Testing

/// Kim and Nelson's procedure (``IndifferenceZoneSelection``) against its own guarantee, on
/// normal systems with a known best, drawn with GSL.
@Suite("Indifference-zone selection")
struct IndifferenceZoneSelectionTests {
  /// Normal observations with common random numbers: system i's observation in a replication
  /// is μᵢ + σ(√ρ·Z₀ + √(1 − ρ)·Zᵢ), Z₀ shared by every system of that replication.
  final class NormalSystems {
    let means: [Double]
    let sigma: Double
    let correlation: Double
    let generator: OpaquePointer
    var calls = 0

    init(means: [Double], sigma: Double, correlation: Double, seed: UInt) {
      self.means = means
      self.sigma = sigma
      self.correlation = correlation
      generator = OpaquePointer(gsl_rng_alloc(cgsl_rng_type_taus2()))
      gsl_rng_set(UnsafeMutablePointer(generator), seed)
    }

    deinit { gsl_rng_free(UnsafeMutablePointer(generator)) }

    func observe(_ survivors: [Int]) -> [Double] {
      calls += 1
      let rng = UnsafeMutablePointer<gsl_rng>(generator)
      let common = gsl_ran_gaussian(rng, 1)
      // Every system draws its own noise, survivor or not, so a replication's numbers do not
      // depend on who is left (as in the simulator, where users are the same for all).
      let own = means.indices.map { _ in gsl_ran_gaussian(rng, 1) }
      return survivors.map { system in
        means[system] + sigma
          * (correlation.squareRoot() * common + (1 - correlation).squareRoot() * own[system])
      }
    }
  }

  /// η for two systems, n₀ = 10, α = 0.05: ½(0.1^(−2/9) − 1) = ½(1.668100 − 1), by hand 0.334050.
  @Test func etaIsTheClosedForm() {
    let selection = IndifferenceZoneSelection(alpha: 0.05, delta: 1, initialReplications: 10)
    #expect(abs(selection.eta(systems: 2) - 0.5 * (pow(10, 2.0 / 9) - 1)) < 1e-12)
    #expect(abs(selection.eta(systems: 2) - 0.334050) < 1e-6)
    // Ten systems: (2 · 0.05 / 9)^(−2/9).
    #expect(abs(selection.eta(systems: 10) - 0.5 * (pow(0.1 / 9, -2.0 / 9) - 1)) < 1e-12)
  }

  /// The least favourable configuration (the best exactly δ above nine equal others), 200
  /// macro-replications: the procedure must select the best in at least 1 − α of them. KN is
  /// conservative (its P(correct selection) here is above 0.95); the count is checked against
  /// 1 − α itself, so a procedure that only reaches the guarantee on average would fail with
  /// fair probability, and one below it almost surely.
  @Test(arguments: [0.0, 0.5])
  func correctSelectionAtLeastOneMinusAlpha(correlation: Double) {
    let alpha = 0.05
    let delta = 0.5
    let selection = IndifferenceZoneSelection(alpha: alpha, delta: delta, initialReplications: 10)
    var correct = 0
    var observations = 0
    let macroReplications = 200
    for macro in 0..<macroReplications {
      let systems = NormalSystems(
        means: [delta] + Array(repeating: 0, count: 9), sigma: 1, correlation: correlation,
        seed: UInt(1 + macro))
      let outcome = selection.select(systems: 10) { _, survivors in systems.observe(survivors) }
      #expect(outcome.guaranteed)
      if outcome.selected == 0 { correct += 1 }
      observations += outcome.observations
    }
    #expect(
      Double(correct) >= (1 - alpha) * Double(macroReplications),
      "correct selections: \(correct) of \(macroReplications)")
    print("KN correct selections (correlation \(correlation)): \(correct) of \(macroReplications)")
    // Elimination saves replications: far fewer than every system run to the largest count.
    #expect(observations < macroReplications * 10 * 200)
  }

  /// A clear best (10 δ ahead) is found in the first stage, with no more replications, and
  /// the clearly worse systems are eliminated right after it.
  @Test func aClearBestEndsAfterTheFirstStage() {
    let selection = IndifferenceZoneSelection(alpha: 0.05, delta: 0.1, initialReplications: 5)
    let systems = NormalSystems(means: [0, 0, 1], sigma: 0.01, correlation: 0, seed: 7)
    let outcome = selection.select(systems: 3) { _, survivors in systems.observe(survivors) }
    #expect(outcome.selected == 2)
    #expect(outcome.replications == [5, 5, 5])
    #expect(outcome.eliminatedAfter == [5, 5, nil])
    #expect(outcome.guaranteed)
  }

  /// Two identical systems cannot be told apart: the budget runs out, the one with the larger
  /// mean is returned, and the outcome says the guarantee does not hold.
  @Test func identicalSystemsExhaustTheBudget() {
    let selection = IndifferenceZoneSelection(
      alpha: 0.05, delta: 0.01, initialReplications: 5, maximumReplications: 40)
    let systems = NormalSystems(means: [1, 1], sigma: 1, correlation: 0, seed: 3)
    let outcome = selection.select(systems: 2) { _, survivors in systems.observe(survivors) }
    #expect(!outcome.guaranteed)
    #expect(outcome.replications == [40, 40])
    #expect(outcome.means[outcome.selected] == outcome.means.max())
  }

  /// Two settings that act alike give the same observation in every replication (S² = 0, equal
  /// means): no width ever separates them, so KN's last stage (r past N = max ⌊h²S²/δ²⌋) ends
  /// the race with the first of them, guarantee intact, long before the budget. The old loop,
  /// without that stage, ran both to `maximumReplications`.
  @Test func systemsThatActAlikeEndAtTheLastStage() {
    let selection = IndifferenceZoneSelection(
      alpha: 0.05, delta: 0.5, initialReplications: 10, maximumReplications: 500)
    let systems = NormalSystems(means: [0, 1, 1], sigma: 1, correlation: 0.5, seed: 5)
    let outcome = selection.select(systems: 3) { _, survivors in
      // Systems 1 and 2 are one system under two names.
      let all = systems.observe([0, 1])
      return survivors.map { $0 == 0 ? all[0] : all[1] }
    }
    #expect(outcome.guaranteed)
    #expect(outcome.selected == 1)
    #expect(outcome.eliminatedAfter[2] != nil)
    #expect(outcome.replications.max()! < 500)
    #expect(outcome.replications[1] == outcome.replications[2])
  }

  /// One system needs one observation and is selected.
  @Test func oneSystemIsSelected() {
    let selection = IndifferenceZoneSelection(alpha: 0.05, delta: 1)
    let outcome = selection.select(systems: 1) { _, survivors in survivors.map { _ in 4.0 } }
    #expect(outcome.selected == 0 && outcome.replications == [1] && outcome.means == [4])
  }
}
