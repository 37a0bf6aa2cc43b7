import MessageDeferral
import Reports
import Simulation

/// Random search over a tune's knobs with a budget in user lives: the baseline the tuner is
/// measured against (`deferral-sim tune --method random --budget LIVES`, and
/// `deferral-bench --only tune`).
///
/// Candidates are drawn independently and uniformly over the knobs (each coordinate uniform in
/// [0, 1), through the knob's quantile, as the tuner's Latin hypercube maps its points), then
/// every candidate and every compared preset is evaluated once, on the same users (common
/// random numbers, one run: they share the trunk as the tuner's rounds do), with the same
/// number of users and replications each; the pick is the best mean, constraint-keeping
/// candidates first, ties to the lower number (as the tuner's halving orders a round). The
/// candidates' count is what the budget buys: every policy's life is counted, as the tuner
/// counts them (``Outcome/lives``).
///
/// What does not hold: no statement of correct selection (the largest of many noisy means is
/// biased upward: its own mean overstates it; ``verify(_:)`` does not).
extension TuneSearch {
  /// What a random search found.
  public struct RandomOutcome: Sendable {
    /// One evaluation per policy (`round` 0): the random candidates (`random-1`...), then
    /// ``TuneSearch/compare``.
    public var evaluations: [Evaluation]
    public var policies: [NamedPolicy]
    /// The knob values as text (empty for compared presets).
    public var policyKnobs: [[String]]
    /// The candidates' policy objects as a scenario file would define them (`nil` for
    /// compared presets).
    public var policyDefinitions: [ConfigValue?]
    /// The index of the pick in ``policies``.
    public var selected: Int
    /// User lives simulated in all (every policy's life counted, every world).
    public var lives: Int
    /// The random candidates' count (the compared presets follow them in ``policies``).
    public var candidates: Int
    public var best: NamedPolicy { policies[selected] }
  }

  /// The random candidates a budget of `budget` user lives buys when each policy is
  /// evaluated on `users` users × `replications` replications beside the compared presets (in
  /// every world): the most whose lives, with the presets', stay within the budget; 0 when the
  /// budget does not cover one candidate and the presets.
  public func randomCandidates(budget: Int, users: Int, replications: Int) -> Int {
    let perPolicy = users * replications * max(1, worlds.count)
    guard perPolicy > 0 else { return 0 }
    return max(0, budget / perPolicy - compare.count)
  }

  /// The most random candidates one search evaluates (they run as the policies of one run;
  /// the tuner's first round takes at most 512).
  public static let maximumRandomCandidates = 4096

  /// A tag mixed into the seed so the random design's stream is no other stream ("TUNERAND").
  static let randomDesignTag: UInt64 = 0x5455_4E45_5241_4E44

  /// `count` points uniform and independent in [0, 1)^knobs, from the tune's seed.
  func randomPoints(count: Int) -> [[Double]] {
    guard !knobs.isEmpty else { return Array(repeating: [], count: count) }
    var stream = RandomStream(
      gslSeed: RandomStream.splitMix64Finalizer(seed ^ Self.randomDesignTag))
    var points: [[Double]] = []
    points.reserveCapacity(count)
    for _ in 0..<count {
      points.append(knobs.map { _ in Swift.min(stream.uniform(), 1.0.nextDown) })
    }
    return points
  }

  /// Random search spending at most `budget` user lives: ``randomCandidates(budget:users:replications:)``
  /// candidates and the compared presets, each on `users` users × `replications`
  /// replications (default: the first round's, ``users`` × ``replications``), on the users of
  /// the tuner's first round (``seed``).
  ///
  /// - Precondition: the budget buys at least one candidate and at most
  ///   ``maximumRandomCandidates``.
  /// - Complexity: one run of that many policies.
  public func randomSearch(
    budget: Int, users: Int? = nil, replications: Int? = nil,
    progress: ((String) -> Void)? = nil
  ) throws -> RandomOutcome {
    let users = users ?? self.users
    let replications = replications ?? self.replications
    let count = randomCandidates(budget: budget, users: users, replications: replications)
    precondition(count >= 1, "the budget buys no random candidate")
    precondition(
      count <= Self.maximumRandomCandidates, "the budget buys more candidates than one run takes")
    let drawn = try policies(at: randomPoints(count: count), namedBy: "random")
    let policies = drawn.map(\.policy) + compare
    let knobTexts = drawn.map(\.knobs) + compare.map { _ in [] }
    progress?(
      "random search: \(count) candidates and \(compare.count) compared presets, "
        + "\(users) users × \(replications)")
    let (values, bounds) = try evaluate(
      policies, users: users, replications: replications, seed: seed)
    var evaluations: [Evaluation] = []
    var selected = 0
    var selectedKey: (Int, Double)?
    for (index, policy) in policies.enumerated() {
      let (mean, halfWidth) = Self.estimate(values.map { $0[index] })
      let feasible = zip(constraints, bounds[index]).allSatisfy { $0.holds($1) }
      evaluations.append(
        Evaluation(
          round: 0, policy: policy.name, knobValues: knobTexts[index], users: users,
          replications: replications, mean: mean, halfWidth: halfWidth, feasible: feasible))
      // Feasible first, then the larger score; the first on a tie.
      let key = (feasible ? 1 : 0, direction * mean)
      if let best = selectedKey, !(key > best) { continue }
      selected = index
      selectedKey = key
    }
    return RandomOutcome(
      evaluations: evaluations, policies: policies, policyKnobs: knobTexts,
      policyDefinitions: drawn.map { Optional($0.definition) } + compare.map { _ in nil },
      selected: selected, lives: livesOf(policies, users: users, replications: replications),
      candidates: count)
  }
}
