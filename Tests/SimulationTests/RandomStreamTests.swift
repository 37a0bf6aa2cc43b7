import CGSL
import Simulation
import Testing

/// Reproducibility of the random streams: the seeding formula is a contract with peers.
@Suite("RandomStream")
struct RandomStreamTests {
  /// Reference values computed independently with Python 3 from the formula in
  /// `RandomStream`'s documentation (integers masked to 64 bits):
  ///
  ///     M = 2**64 - 1; G = 0x9E3779B97F4A7C15
  ///     def mix(z):
  ///         z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M
  ///         z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M
  ///         return z ^ (z >> 31)
  ///     def mixed(seed, rep, user, purpose):
  ///         h = mix((seed + G) & M)
  ///         for v in (rep, user, purpose): h = mix(((h ^ v) + G) & M)
  ///         return h
  ///
  /// The same snippet gives mix(0 + G) = 0xE220A8397B1DCDAF, the well-known first output of
  /// SplitMix64 seeded with 0, which checks `mix` itself.
  @Test(arguments: [
    (UInt64(0), 0, 0, StreamPurpose.journey, UInt64(2_391_539_541_053_276_776)),
    (42, 0, 0, .journey, 13_934_464_819_154_148_243),
    (42, 1, 0, .journey, 4_488_420_693_440_655_736),
    (42, 0, 1, .journey, 8_767_447_543_945_868_865),
    (42, 0, 0, .appStore, 7_769_138_747_424_400_396),
    (2024, 3, 123_456, .policy, 2_534_865_323_773_786_140),
    (UInt64.max, 7, 99, .scene, 15_734_389_791_768_819_257),
  ])
  func mixedSeedMatchesPythonReference(
    seed: UInt64, replication: Int, user: Int, purpose: StreamPurpose, expected: UInt64
  ) {
    let mixed = RandomStream.mixedSeed(
      seed: seed, replication: replication, user: user, purpose: purpose)
    #expect(mixed == expected)
  }

  @Test func finalizerMatchesSplitMix64FirstOutput() {
    #expect(RandomStream.splitMix64Finalizer(0x9E37_79B9_7F4A_7C15) == 0xE220_A839_7B1D_CDAF)
  }

  /// The raw `taus2` outputs after seeding, computed with a plain Python transcription of the
  /// documented seeding (state words = high halves of SplitMix64 outputs after the mixed seed,
  /// minimum fix-ups 2/8/16, six discarded draws) and GSL's `taus_get` (the three Tausworthe
  /// steps 13/19/12, 2/25/4, 3/11/17), fed the mixed seeds of the test above. A peer that
  /// reproduces these reproduces the streams.
  @Test(arguments: [
    (UInt64(42), 0, 0, StreamPurpose.journey, [UInt(1_273_850_902), 4_250_014_646, 2_393_631_819]),
    (2024, 3, 123_456, .policy, [3_273_593_407, 2_341_392_944, 2_047_172_339]),
  ])
  func streamMatchesPythonTaus2(
    seed: UInt64, replication: Int, user: Int, purpose: StreamPurpose, expected: [UInt]
  ) {
    var stream = RandomStream(seed: seed, replication: replication, user: user, purpose: purpose)
    let drawn = stream.withUnsafeGenerator { generator in
      expected.map { _ in gsl_rng_get(generator) }
    }
    #expect(drawn == expected)
    var again = RandomStream(seed: seed, replication: replication, user: user, purpose: purpose)
    #expect(again.uniform() == Double(expected[0]) / 4_294_967_296)
  }

  @Test func sameInputsGiveTheSameSequence() {
    var first = RandomStream(seed: 7, replication: 2, user: 31, purpose: .sheet)
    var second = RandomStream(seed: 7, replication: 2, user: 31, purpose: .sheet)
    for index in 0..<1000 {
      let a = first.uniform()
      let b = second.uniform()
      #expect(a == b, "draw \(index)")
      if a != b { return }
    }
  }

  /// Every tuple of a small grid gets its own mixed seed, its own low 32 bits (what
  /// `gsl_rng_set` alone would read) and its own first draws.
  @Test func differentInputsGiveDifferentSequences() {
    var mixedSeeds = Set<UInt64>()
    var gslSeeds = Set<UInt32>()
    var openings = Set<[Double]>()
    var tuples = 0
    for seed: UInt64 in [1, 2] {
      for replication in [0, 1, 5] {
        for user in [0, 1, 2, 1000, 1_000_000] {
          for purpose in StreamPurpose.allCases {
            let mixed = RandomStream.mixedSeed(
              seed: seed, replication: replication, user: user, purpose: purpose)
            mixedSeeds.insert(mixed)
            gslSeeds.insert(UInt32(truncatingIfNeeded: mixed))
            var stream = RandomStream(
              seed: seed, replication: replication, user: user, purpose: purpose)
            openings.insert((0..<4).map { _ in stream.uniform() })
            tuples += 1
          }
        }
      }
    }
    #expect(mixedSeeds.count == tuples)
    #expect(gslSeeds.count == tuples)
    #expect(openings.count == tuples)
  }

  @Test func reseedReproducesAFreshStream() {
    var reused = RandomStream(seed: 1, replication: 0, user: 0, purpose: .journey)
    for _ in 0..<137 { _ = reused.uniform() }
    reused.reseed(seed: 99, replication: 4, user: 12_345, purpose: .appStore)
    var fresh = RandomStream(seed: 99, replication: 4, user: 12_345, purpose: .appStore)
    var mismatches = 0
    for _ in 0..<1000 where reused.uniform() != fresh.uniform() { mismatches += 1 }
    #expect(mismatches == 0)

    reused.reseed(gslSeed: 4357)
    var raw = RandomStream(gslSeed: 4357)
    for _ in 0..<100 where reused.uniform() != raw.uniform() { mismatches += 1 }
    #expect(mismatches == 0)
  }

  @Test func drawsStayInTheirRanges() {
    var stream = RandomStream(seed: 3, replication: 0, user: 0, purpose: .scene)
    for _ in 0..<10_000 {
      let u = stream.uniform()
      #expect(u >= 0 && u < 1)
      let positive = stream.uniformPositive()
      #expect(positive > 0 && positive < 1)
      let die = stream.uniformInt(6)
      #expect((0..<6).contains(die))
      let never = stream.bernoulli(0)
      let always = stream.bernoulli(1)
      #expect(!never && always)
    }
    let only = stream.uniformInt(1)
    #expect(only == 0)
  }

  /// Frequencies within 5 binomial standard errors, sqrt(p(1 − p)/n).
  @Test func bernoulliAndUniformIntFrequencies() {
    let n = 100_000
    var stream = RandomStream(seed: 5, replication: 0, user: 0, purpose: .policy)
    let p = 0.3
    var successes = 0
    for _ in 0..<n where stream.bernoulli(p) { successes += 1 }
    let tolerance = 5 * (p * (1 - p) / Double(n)).squareRoot()
    #expect(abs(Double(successes) / Double(n) - p) < tolerance)

    var faces = [Int](repeating: 0, count: 6)
    for _ in 0..<n { faces[stream.uniformInt(6)] += 1 }
    let share = 1.0 / 6
    let faceTolerance = 5 * (share * (1 - share) / Double(n)).squareRoot()
    for (face, hits) in faces.enumerated() {
      #expect(abs(Double(hits) / Double(n) - share) < faceTolerance, "face \(face)")
    }
  }
}

@Suite("RandomStream seeding beyond 32 bits")
struct RandomStreamWideSeedTests {
  /// `gsl_rng_set` alone would make these one stream: they share their low 32 bits.
  @Test func seedsSharingTheirLow32BitsGiveDifferentStreams() {
    var first = RandomStream(gslSeed: 0x0000_0001_DEAD_BEEF)
    var second = RandomStream(gslSeed: 0x0000_0002_DEAD_BEEF)
    let a = (0..<8).map { _ in first.uniform() }
    let b = (0..<8).map { _ in second.uniform() }
    #expect(a != b)
  }
}
