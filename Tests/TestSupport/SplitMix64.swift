/// SplitMix64 (Steele, Lea and Flood 2014): a tiny, fast generator whose whole stream is fixed
/// by one 64-bit seed, so a failing random test is replayed from the seed it prints. The one
/// seeded generator of the test targets (independent of the engine's GSL streams, so a test
/// input never shares a stream with the code under test).
public struct SplitMix64: RandomNumberGenerator {
  private var state: UInt64

  public init(seed: UInt64) { state = seed }

  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  // The helpers below avoid the generic `random(in:using:)`, slow in debug builds.

  /// A uniform integer in `0..<bound` (Lemire's multiply-shift; the bias, below 2⁻³², does
  /// not matter here).
  public mutating func below(_ bound: Int) -> Int {
    precondition(bound > 0 && bound <= Int(UInt32.max), "bound out of range")
    return Int(((next() >> 32) &* UInt64(bound)) >> 32)
  }

  /// A uniform double in `0..<1`, from the top 53 bits.
  public mutating func unit() -> Double { Double(next() >> 11) * 0x1p-53 }

  /// `true` with probability `p`.
  public mutating func chance(_ p: Double) -> Bool { unit() < p }

  /// A uniform value in `range`.
  public mutating func uniform(_ range: Range<Double>) -> Double {
    range.lowerBound + unit() * (range.upperBound - range.lowerBound)
  }

  /// An index chosen with probability proportional to `weights`.
  public mutating func pick(weights: [Double]) -> Int {
    var total = 0.0
    for weight in weights { total += weight }
    var target = unit() * total
    for index in weights.indices {
      if target < weights[index] { return index }
      target -= weights[index]
    }
    return weights.count - 1
  }
}
