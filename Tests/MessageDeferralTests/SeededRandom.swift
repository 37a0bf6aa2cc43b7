/// SplitMix64 (Steele, Lea and Flood 2014): a tiny, fast generator whose whole stream is fixed
/// by one 64-bit seed, so a failing random test is replayed from the seed it prints.
struct SplitMix64: RandomNumberGenerator {
  private var state: UInt64

  init(seed: UInt64) { state = seed }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// A uniform integer in `0..<bound`.
  mutating func below(_ bound: Int) -> Int { Int.random(in: 0..<bound, using: &self) }

  /// `true` with probability `p`.
  mutating func chance(_ p: Double) -> Bool { Double.random(in: 0..<1, using: &self) < p }

  /// A uniform value in `range`.
  mutating func uniform(_ range: Range<Double>) -> Double { Double.random(in: range, using: &self) }

  /// An index chosen with probability proportional to `weights`.
  mutating func pick(weights: [Double]) -> Int {
    var target = uniform(0..<weights.reduce(0, +))
    for (index, weight) in weights.enumerated() {
      if target < weight { return index }
      target -= weight
    }
    return weights.count - 1
  }
}
