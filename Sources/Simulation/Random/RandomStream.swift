import CGSL

/// What a ``RandomStream`` is used for. The raw value enters
/// ``RandomStream/mixedSeed(seed:replication:user:purpose:)``, so the raw values are part of
/// the reproducibility contract: never renumber a case, only append new ones.
///
/// Giving each purpose its own stream keeps common random numbers intact when a model changes:
/// a policy that shows one more sheet draws one more sheet dwell from `sheet`, and the user's
/// journey (`journey`) and App Store issuances (`appStore`) stay exactly as they were.
public enum StreamPurpose: UInt64, Sendable, CaseIterable {
  /// Screen dwell times, transitions, background gaps, process termination, quitting.
  case journey = 0
  /// Message issuance, deadlines, expiry, fetch delays.
  case appStore = 1
  /// Scene activation delays and display failures.
  case scene = 2
  /// Time spent on message sheets.
  case sheet = 3
  /// Randomness a policy itself uses (none of the built-ins does yet).
  case policy = 4
  /// Who the user is: new or existing, subscriber or not, install time.
  case population = 5
  /// One uniform per message, drawn at issuance, from which its sheet's response is read
  /// (``ResponseModel``); drawn only when the scenario has a `responses` section.
  case response = 6
}

/// A GSL random number generator owned by one (replication, user, purpose), seeded
/// reproducibly from the run seed.
///
/// **Seeding.** The GSL seed is ``mixedSeed(seed:replication:user:purpose:)``, built from the
/// SplitMix64 finaliser (Stafford's "Mix13", as in `java.util.SplittableRandom`):
///
///     mix(z) = z ^= z >> 30; z *= 0xBF58476D1CE4E5B9
///              z ^= z >> 27; z *= 0x94D049BB133111EB
///              z ^= z >> 31                              (all arithmetic mod 2^64)
///     γ = 0x9E3779B97F4A7C15
///     h = mix(seed + γ)            (the first output of SplitMix64 seeded with `seed`)
///     h = mix((h ^ replication) + γ)
///     h = mix((h ^ user) + γ)
///     h = mix((h ^ purpose.rawValue) + γ)
///     mixedSeed = h
///
/// and the generator is `gsl_rng_taus2` whose three 32-bit state words are filled from
/// `mixedSeed` (see ``seed(_:with:)``: the next three SplitMix64 outputs' high halves, then
/// six discarded draws). Each step is a bijection of its input, so two tuples that differ only
/// in their last component never share a mixed seed, and any other pair shares one with
/// probability 2⁻⁶⁴.
///
/// **Generator: `taus2`.** L'Ecuyer's maximally equidistributed combined Tausworthe generator
/// (period about 2⁸⁸, 24 bytes of state), chosen because a run creates or re-seeds one stream
/// per (replication, user, purpose). Measured with a throwaway C program (GSL 2.7.1, `gcc -O2`,
/// 200 000 iterations, two runs on the 2-core development machine while other jobs ran; the
/// spread is the two runs):
///
/// | generator | alloc + set + free | `gsl_rng_set` only | `gsl_rng_uniform` |
/// | --------- | ------------------ | ------------------ | ----------------- |
/// | taus2     | 79–144 ns          | 20–34 ns           | 4.6–7.5 ns        |
/// | taus113   | 107–119 ns         | 34 ns              | 5.0–5.7 ns        |
/// | mrg       | 125 ns             | 46–48 ns           | 7.6 ns            |
/// | ranlux    | 330 ns             | 141 ns             | 55–70 ns          |
/// | mt19937   | 6.1–6.8 µs         | 4.6–5.4 µs         | 11–17 ns          |
/// | ranlxs0   | 7.2–8.7 µs         | 4.7 µs             | 37–39 ns          |
/// | ranlxd1   | 9.6–10.3 µs        | 4.4–4.8 µs         | 83 ns             |
/// | gfsr4     | 1.76 ms            | 0.91 ms            | 4 ns              |
///
/// `mt19937` would cost about 5 µs per stream just to initialise its 624-word state, more than
/// simulating a short user; `taus2` seeds in tens of nanoseconds and draws as fast as any.
/// Through this type (a throwaway Swift 6.3.1 release build, 10⁶ users, three runs):
/// `RandomStream(seed:replication:user:purpose:)` + one `uniform()` + `deinit` 95–98 ns;
/// ``reseed(seed:replication:user:purpose:)`` + one `uniform()` 38–42 ns; `uniform()` alone
/// 6 ns. Prefer keeping one stream per purpose per worker and re-seeding it per user.
///
/// **Why the state is written directly.** `gsl_rng_set` on `taus2` reads only the low 32 bits
/// of its seed, which would leave 2³² distinct streams: among the 4·10⁷ streams of a
/// million-user, ten-replication run, about 186 000 pairs would be identical. Filling the
/// 96-bit state from the 64-bit mixed seed makes distinct seeds give distinct streams. Draws
/// are not cryptographically secure. A stream is not thread-safe, which the type enforces: it is
/// non-copyable and every draw is `mutating`, so two threads can never draw from one stream.
///
/// - Complexity: creation allocates twice (GSL's `gsl_rng` and its state) and frees on
///   `deinit`; ``reseed(seed:replication:user:purpose:)`` allocates nothing. Every draw is O(1).
public struct RandomStream: ~Copyable, @unchecked Sendable {
  // @unchecked Sendable: the generator is owned by exactly one stream (non-copyable) and is
  // only touched by `mutating` methods or while `inout`, so no two threads can reach it.
  @usableFromInline
  internal let generator: UnsafeMutablePointer<gsl_rng>

  /// Draws so far by kind, while counting (for `deferral-bench`'s RNG floor); `nil`, the
  /// default, counts nothing.
  public var variateCounts: VariateCounts?

  /// Lognormal draws kept and replayed between simulations of one user (``_DrawTape``),
  /// owned by this stream (made by ``startTape()``, freed with it); `nil`, the default, or
  /// off: every draw is drawn.
  @usableFromInline
  internal var tape: UnsafeMutablePointer<_DrawTape>?

  /// A stream for `purpose` of `user` in `replication` of a run with seed `seed`.
  ///
  /// - Precondition: `replication >= 0`, `user >= 0`.
  public init(seed: UInt64, replication: Int, user: Int, purpose: StreamPurpose) {
    self.init(
      gslSeed: Self.mixedSeed(seed: seed, replication: replication, user: user, purpose: purpose))
  }

  /// A `taus2` stream whose state is filled from `gslSeed` directly (no mixing of replication,
  /// user and purpose); see ``seed(_:with:)``.
  public init(gslSeed: UInt64) {
    guard let generator = gsl_rng_alloc(cgsl_rng_type_taus2()) else {
      fatalError("GSL could not allocate a random number generator (out of memory)")
    }
    self.generator = generator
    Self.seed(generator, with: gslSeed)
  }

  deinit {
    gsl_rng_free(generator)
    if let tape {
      tape.deinitialize(count: 1)
      tape.deallocate()
    }
  }

  /// Gives this stream its tape (``_DrawTape``) if it has none, and starts it recording.
  internal mutating func recordTape() {
    if tape == nil {
      let made = UnsafeMutablePointer<_DrawTape>.allocate(capacity: 1)
      made.initialize(to: _DrawTape(generator: generator))
      tape = made
    }
    tape!.pointee.record()
  }

  /// Makes this stream draw exactly what a fresh
  /// `RandomStream(seed:replication:user:purpose:)` with the same arguments would.
  ///
  /// An engine keeps one stream per purpose per worker and re-seeds it for each user: no
  /// allocation per user.
  ///
  /// - Complexity: O(1), no allocation.
  public mutating func reseed(seed: UInt64, replication: Int, user: Int, purpose: StreamPurpose) {
    reseed(
      gslSeed: Self.mixedSeed(seed: seed, replication: replication, user: user, purpose: purpose))
  }

  /// Makes this stream draw exactly what a fresh `RandomStream(gslSeed:)` would.
  public mutating func reseed(gslSeed: UInt64) {
    Self.seed(generator, with: gslSeed)
  }

  /// Seeds all 96 bits of `taus2`'s state from a 64-bit seed, so distinct seeds give distinct
  /// streams (`gsl_rng_set` alone reads only the seed's low 32 bits).
  ///
  /// The three 32-bit state words are the high halves of the next three SplitMix64 outputs
  /// after `seed`: wₖ = mix(seed + (k + 1)·γ) >> 32, k = 0, 1, 2. Each is raised by its
  /// component's minimum (2, 8, 16) when below it, as GSL's `taus2_set` does, and six draws are
  /// discarded, as `taus2_set` does. This writes GSL's state record (three `unsigned long`s);
  /// the layout is checked at run time (`gsl_rng_size`), and if it ever differs the stream
  /// falls back to `gsl_rng_set`, which is correct but has only 2³² streams.
  @inline(__always)
  static func seed(_ generator: UnsafeMutablePointer<gsl_rng>, with seed: UInt64) {
    gsl_rng_set(generator, UInt(truncatingIfNeeded: seed))
    guard gsl_rng_size(generator) == 3 * MemoryLayout<UInt>.size,
      let raw = gsl_rng_state(generator)
    else { return }
    let words = raw.assumingMemoryBound(to: UInt.self)
    let gamma: UInt64 = 0x9E37_79B9_7F4A_7C15
    let minimums: (UInt, UInt, UInt) = (2, 8, 16)
    for k in 0..<3 {
      let word = UInt(splitMix64Finalizer(seed &+ UInt64(k + 1) &* gamma) >> 32)
      let minimum = k == 0 ? minimums.0 : k == 1 ? minimums.1 : minimums.2
      words[k] = word < minimum ? word + minimum : word
    }
    for _ in 0..<6 { _ = gsl_rng_get(generator) }
  }

  /// The GSL seed of a (run seed, replication, user, purpose); the formula is in the type's
  /// documentation. A pure function: the same on every platform and in every peer.
  ///
  /// - Precondition: `replication >= 0`, `user >= 0`.
  @inlinable
  public static func mixedSeed(
    seed: UInt64, replication: Int, user: Int, purpose: StreamPurpose
  ) -> UInt64 {
    precondition(replication >= 0, "A replication index is never negative")
    precondition(user >= 0, "A user index is never negative")
    let gamma: UInt64 = 0x9E37_79B9_7F4A_7C15
    var hash = splitMix64Finalizer(seed &+ gamma)
    hash = splitMix64Finalizer((hash ^ UInt64(replication)) &+ gamma)
    hash = splitMix64Finalizer((hash ^ UInt64(user)) &+ gamma)
    hash = splitMix64Finalizer((hash ^ purpose.rawValue) &+ gamma)
    return hash
  }

  /// The SplitMix64 output function (a bijection of UInt64). `&*` and `&+` are the intended
  /// arithmetic modulo 2⁶⁴.
  @inlinable
  public static func splitMix64Finalizer(_ value: UInt64) -> UInt64 {
    var z = value
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// A uniform draw in [0, 1): `gsl_rng_uniform`, a multiple of 2⁻³² for `taus2`.
  @inlinable
  public mutating func uniform() -> Double {
    countVariate(.uniform)
    return gsl_rng_uniform(generator)
  }

  /// A uniform draw in (0, 1), never 0 (`gsl_rng_uniform_pos`): safe to take the logarithm of.
  @inlinable
  public mutating func uniformPositive() -> Double {
    countVariate(.uniformPositive)
    return gsl_rng_uniform_pos(generator)
  }

  /// `true` with probability `p`: `uniform() < p`, which is what `gsl_ran_bernoulli` does, so it
  /// consumes exactly one draw. `p <= 0` is never true, `p >= 1` always.
  @inlinable
  public mutating func bernoulli(_ p: Double) -> Bool {
    countVariate(.uniform)
    return gsl_rng_uniform(generator) < p
  }

  /// A uniform integer in 0..<n (`gsl_rng_uniform_int`, unbiased by rejection).
  ///
  /// - Precondition: `1 <= n <= 2³² − 1` (the range of `taus2`).
  @inlinable
  public mutating func uniformInt(_ n: Int) -> Int {
    precondition(n >= 1 && n <= 0xFFFF_FFFF, "uniformInt needs 1 <= n <= 2^32 - 1")
    countVariate(.uniformInt)
    return Int(gsl_rng_uniform_int(generator, UInt(n)))
  }

  /// Calls `body` with the underlying GSL generator, for GSL functions this type does not wrap.
  /// The pointer must not escape `body`.
  @inlinable
  public mutating func withUnsafeGenerator<Result>(
    _ body: (UnsafeMutablePointer<gsl_rng>) throws -> Result
  ) rethrows -> Result {
    try body(generator)
  }
}
