import Simulation
import Testing

@Suite("AliasTable")
struct AliasTableTests {
  /// Each index's frequency within five binomial standard errors, sqrt(p(1 − p)/n), of its
  /// weight's share; an index of weight zero is never drawn.
  @Test func frequenciesMatchWeights() {
    let weights: [Double] = [1, 2, 3, 4, 0, 10]
    let table = AliasTable(weights: weights)
    #expect(table.count == weights.count)
    let total = weights.reduce(0, +)
    for (probability, weight) in zip(table.probabilities, weights) {
      #expect(probability == weight / total)
    }
    let n = 200_000
    var stream = RandomStream(seed: 11, replication: 0, user: 0, purpose: .journey)
    var hits = [Int](repeating: 0, count: weights.count)
    for _ in 0..<n { hits[table.draw(&stream)] += 1 }
    for (index, weight) in weights.enumerated() {
      let share = weight / total
      let tolerance = 5 * (share * (1 - share) / Double(n)).squareRoot()
      let frequency = Double(hits[index]) / Double(n)
      #expect(abs(frequency - share) <= tolerance, "index \(index): \(frequency) vs \(share)")
    }
    #expect(hits[4] == 0)
  }

  @Test func singleWeightAlwaysDrawsIndexZero() {
    let table = AliasTable(weights: [0.25])
    var stream = RandomStream(seed: 1, replication: 0, user: 0, purpose: .journey)
    for _ in 0..<1000 { #expect(table.draw(&stream) == 0) }
  }

  /// A table is a shared immutable value: copies draw the same from the same stream state.
  @Test func copiesDrawAlike() {
    let table = AliasTable(weights: [5, 1, 1, 3])
    let copy = table
    var first = RandomStream(seed: 8, replication: 1, user: 2, purpose: .journey)
    var second = RandomStream(seed: 8, replication: 1, user: 2, purpose: .journey)
    for _ in 0..<1000 { #expect(table.draw(&first) == copy.draw(&second)) }
  }
}
