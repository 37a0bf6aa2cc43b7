import Foundation

/// Selects the system with the largest mean among `k` simulated systems with a stated
/// guarantee: Kim and Nelson's fully sequential indifference-zone procedure (KN; S.-H. Kim
/// and B. L. Nelson, "A fully sequential procedure for indifference-zone selection in
/// simulation", ACM TOMACS 11(3), 2001).
///
/// **Guarantee.** When the observations of each system are normal and independent across
/// replications (systems may share random numbers within a replication: the procedure works
/// on the variances of paired differences, so common random numbers only help), and the best
/// mean exceeds every other by at least ``delta``, the selected system is the best with
/// probability at least 1 − ``alpha``. Inside the indifference zone (a mean within `delta` of
/// the best) any choice is acceptable, and the selected one is within `delta` of the best with
/// that probability. Replication means of many users are close to normal; the procedure is
/// known to be robust to moderate departures.
///
/// **How.** Every system gets ``initialReplications`` (n₀ ≥ 2) observations; for each pair the
/// sample variance S²ᵢₗ of their differences is computed once. With
/// η = ½[(2α/(k − 1))^(−2/(n₀ − 1)) − 1] and h² = 2η(n₀ − 1), after r replications system i is
/// eliminated when X̄ᵢ(r) < X̄ₗ(r) − max(0, (δ/2r)(h²S²ᵢₗ/δ² − r)) for some surviving l; the
/// survivors get one more replication each, until one is left or r exceeds
/// N = maxᵢₗ ⌊h²S²ᵢₗ/δ²⌋, when the largest mean is selected (KN's last stage; the first on a
/// tie). Replications are spent where systems are close: a clearly worse system leaves after
/// few.
public struct IndifferenceZoneSelection: Sendable, Equatable {
  /// The probability of a wrong selection allowed, in (0, 1).
  public var alpha: Double
  /// The indifference zone: the smallest difference in means worth telling apart, > 0.
  public var delta: Double
  /// n₀, the first-stage replications of every system (at least 2).
  public var initialReplications: Int
  /// A budget: replications per system at most; reached with several survivors, the one
  /// with the largest mean is returned and the guarantee does not hold (``Outcome/guaranteed``).
  public var maximumReplications: Int

  public init(
    alpha: Double, delta: Double, initialReplications: Int = 10, maximumReplications: Int = 1000
  ) {
    precondition(alpha > 0 && alpha < 1, "alpha must be in (0, 1)")
    precondition(delta > 0 && delta.isFinite, "delta must be positive")
    precondition(initialReplications >= 2, "at least 2 first-stage replications")
    precondition(maximumReplications >= initialReplications)
    self.alpha = alpha
    self.delta = delta
    self.initialReplications = initialReplications
    self.maximumReplications = maximumReplications
  }

  /// What a selection found.
  public struct Outcome: Sendable, Equatable {
    /// The selected system's index.
    public var selected: Int
    /// Per system, the replications it received (its observations).
    public var replications: [Int]
    /// Per system, the mean of its observations.
    public var means: [Double]
    /// Per system, the replication count after which it was eliminated (`nil`: it survived).
    public var eliminatedAfter: [Int?]
    /// Whether the procedure ended with one survivor, so the guarantee holds; `false` when the
    /// budget ran out first.
    public var guaranteed: Bool
    /// The total observations taken, over every system.
    public var observations: Int { replications.reduce(0, +) }
  }

  /// Whether `r` replications exceed N = max ⌊h²S²ᵢₗ/δ²⌋ over every pair of `survivors`
  /// (KN's bound on the replications any pair can need).
  func isPastLastStage(
    _ survivors: [Int], r: Int, _ variance: [[Double]], _ hSquared: Double
  ) -> Bool {
    for (a, i) in survivors.enumerated() {
      for l in survivors[(a + 1)...] {
        let n = (hSquared * variance[i][l] / (delta * delta)).rounded(.down)
        if !(Double(r) > n) { return false }
      }
    }
    return true
  }

  /// η of the procedure for `k` systems.
  public func eta(systems k: Int) -> Double {
    precondition(k >= 2)
    let n0 = Double(initialReplications)
    return 0.5 * (pow(2 * alpha / Double(k - 1), -2 / (n0 - 1)) - 1)
  }

  /// Runs the procedure over `k` systems. `observe(replication, survivors)` returns one
  /// observation of each system in `survivors` (in that order) for replication number
  /// `replication` (0, 1, ...): the caller simulates them together, on the same users.
  public func select<Failure: Error>(
    systems k: Int, observe: (_ replication: Int, _ survivors: [Int]) throws(Failure) -> [Double]
  ) throws(Failure) -> Outcome {
    precondition(k >= 1, "at least one system")
    var sums = [Double](repeating: 0, count: k)
    var counts = [Int](repeating: 0, count: k)
    var eliminated = [Int?](repeating: nil, count: k)
    var first: [[Double]] = Array(repeating: [], count: k)
    let everyone = Array(0..<k)
    func record(_ values: [Double], _ systems: [Int], keep: Bool) {
      precondition(values.count == systems.count, "one observation per survivor")
      for (value, system) in zip(values, systems) {
        sums[system] += value
        counts[system] += 1
        if keep { first[system].append(value) }
      }
    }
    if k == 1 {
      record(try observe(0, everyone), everyone, keep: false)
      return Outcome(
        selected: 0, replications: counts, means: [sums[0] / Double(counts[0])],
        eliminatedAfter: eliminated, guaranteed: true)
    }
    for replication in 0..<initialReplications {
      record(try observe(replication, everyone), everyone, keep: true)
    }
    // S²ᵢₗ of the first stage, once.
    var variance = [[Double]](repeating: [Double](repeating: 0, count: k), count: k)
    let n0 = Double(initialReplications)
    for i in 0..<k {
      for l in (i + 1)..<k {
        let differences = zip(first[i], first[l]).map { $0 - $1 }
        let mean = differences.reduce(0, +) / n0
        let squares = differences.reduce(0) { $0 + ($1 - mean) * ($1 - mean) }
        variance[i][l] = squares / (n0 - 1)
        variance[l][i] = variance[i][l]
      }
    }
    let hSquared = 2 * eta(systems: k) * (n0 - 1)
    var survivors = everyone
    var r = initialReplications
    while true {
      let means = survivors.map { sums[$0] / Double(r) }
      var kept: [Int] = []
      for (a, i) in survivors.enumerated() {
        var out = false
        for (b, l) in survivors.enumerated() where l != i {
          let width = max(
            0, delta / (2 * Double(r)) * (hSquared * variance[i][l] / (delta * delta) - Double(r)))
          if means[a] < means[b] - width {
            out = true
            break
          }
        }
        if out { eliminated[i] = r } else { kept.append(i) }
      }
      survivors = kept
      // KN's last step: once r exceeds N = max over surviving pairs of ⌊h²S²ᵢₗ/δ²⌋ every width
      // is 0 and the procedure ends with the largest mean, guarantee intact. Without it, systems
      // whose differences never vary (two settings that act alike, S² = 0, equal means) would
      // never eliminate each other and use up the budget.
      if survivors.count > 1, isPastLastStage(survivors, r: r, variance, hSquared) {
        let best = survivors.dropFirst().reduce(survivors[0]) {
          sums[$1] > sums[$0] ? $1 : $0
        }
        for system in survivors where system != best { eliminated[system] = r }
        survivors = [best]
      }
      if survivors.count == 1 || r >= maximumReplications { break }
      record(try observe(r, survivors), survivors, keep: false)
      r += 1
    }
    let means = (0..<k).map { sums[$0] / Double(counts[$0]) }
    // The largest mean among the survivors (the first on a tie); never empty, since the system
    // with the largest mean cannot be eliminated (every width is at least 0).
    var selected = survivors[0]
    for system in survivors.dropFirst() where means[system] > means[selected] { selected = system }
    return Outcome(
      selected: selected, replications: counts, means: means, eliminatedAfter: eliminated,
      guaranteed: survivors.count == 1)
  }
}
