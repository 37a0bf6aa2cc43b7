import MessageDeferral
import Reports
import Simulation

/// Local steps after the halving (`search.local_steps` in a tune file).
///
/// Why: the halving ranks the first round's settings, and with knobs whose values act alike
/// in classes the best of them is often one knob away from a better setting no candidate
/// drew. From the best finalist (the incumbent), each step evaluates the incumbent and every
/// neighbour not evaluated by an earlier step (one knob changed: another choice, the next
/// integer up or down, a continuous knob a tenth of its range up or down) together, as the
/// policies of one run on new users of the last round's size (common random numbers: the
/// comparison is paired). The best of them, constraint-keeping first, becomes the incumbent.
/// When the incumbent stays and a knob is continuous, the continuous step is halved and the
/// steps go on from the same incumbent (a compass search: T. G. Kolda, R. M. Lewis and
/// V. Torczon, "Optimization by direct search", SIAM Review 45(3), 2003), down to
/// ``smallestStepShare``; a knob's best value at the end of its range, or between two
/// first-round points, is reached this way rather than missed by a tenth. The steps end when
/// the incumbent stays with no finer step to try, no neighbour is left, or after
/// ``TuneSearch/localSteps`` steps. The last incumbent joins the finalists first (the worst
/// finalist leaves when the finalists were full), so the selection stage, which states the
/// guarantee, decides between it and the halving's picks on its own users.
extension TuneSearch {
  /// A setting the search evaluates: its policy, knob values as text, policy object and point
  /// of the unit cube.
  struct Candidate {
    var policy: NamedPolicy
    var knobs: [String]
    var definition: ConfigValue
    var point: [Double]
  }

  /// A tag mixed into the seed so the local steps' users are no other stage's ("TUNELOCA").
  static let localTag: UInt64 = 0x5455_4E45_4C4F_4341

  /// A continuous knob's first step, as a share of its range.
  static let localStepShare = 0.1

  /// The finest continuous step the search halves down to: three halvings of the first.
  static let smallestStepShare = localStepShare / 8

  /// `local_steps` when a tune file does not say: 8 when a knob is continuous (`number`,
  /// `duration`), 0 otherwise. Measured on the deadline-aware tune (two continuous knobs of
  /// four; docs/benchmarks.md, "Tune against random search"): 8 steps took the tuner from 9 to
  /// 20 seeds of 20 at least as good as random search with the same budget on fresh users. On
  /// the all-discrete screen-gate tune three steps changed no seed's outcome, so discrete knobs
  /// keep none.
  public static func defaultLocalSteps(for knobs: [TuneKnob]) -> Int {
    knobs.contains { $0.levels == nil } ? 8 : 0
  }

  /// The points one knob away from `point`, knob by knob, each knob's values in increasing
  /// order: every other choice (at the middle of its share of [0, 1)), the integer below and
  /// above, a continuous value `share` of the range below and above (kept in [0, 1)).
  func neighbours(of point: [Double], share: Double = localStepShare) -> [[Double]] {
    var result: [[Double]] = []
    for (position, knob) in knobs.enumerated() {
      let u = point[position]
      var moves: [Double] = []
      switch knob.domain {
      case .choices(let values):
        let count = values.count
        let own = min(count - 1, Int(u * Double(count)))
        moves = (0..<count).filter { $0 != own }.map { (Double($0) + 0.5) / Double(count) }
      case .integer(let low, let high):
        let count = high - low + 1
        let own = min(count - 1, Int(u * Double(count)))
        moves = [own - 1, own + 1].filter { (0..<count).contains($0) }.map {
          (Double($0) + 0.5) / Double(count)
        }
      case .number, .duration:
        moves = [u - share, u + share].map {
          min(max($0, 0), 1.0.nextDown)
        }.filter { $0 != u }
      }
      for move in moves {
        var next = point
        next[position] = move
        result.append(next)
      }
    }
    return result
  }

  /// The local steps from `pool[incumbent]` (see the extension's comment), on `users` users ×
  /// ``replications``; new settings are appended to `pool` (named on from its count:
  /// `tune-25`...), their evaluations to `evaluations` as rounds `firstRound`, `firstRound + 1`...
  /// with ``Evaluation/localStep`` set. Returns the last incumbent's index in `pool`.
  func localSearch(
    from incumbent: Int, in pool: inout [Candidate], users: Int, firstRound: Int,
    lives: inout Int, evaluations: inout [Evaluation], progress: ((String) -> Void)?
  ) throws -> Int {
    var current = incumbent
    var seen = Set([pool[incumbent].knobs])
    let seed = RandomStream.splitMix64Finalizer(seed ^ Self.localTag)
    let continuous = knobs.contains { $0.levels == nil }
    var share = Self.localStepShare
    // A finer continuous step, when there is one to try.
    func refine() -> Bool {
      guard continuous, share / 2 >= Self.smallestStepShare else { return false }
      share /= 2
      return true
    }
    var step = 0
    while step < localSteps {
      var fresh: [[Double]] = []
      var freshKnobs: Set<[String]> = []
      for point in neighbours(of: pool[current].point, share: share) {
        let texts = zip(knobs, point).map { SweepPlan.text($0.value(at: $1)) }
        guard !seen.contains(texts), freshKnobs.insert(texts).inserted else { continue }
        fresh.append(point)
      }
      guard !fresh.isEmpty else {
        if refine() { continue }
        break
      }
      let made = try policies(at: fresh, namedBy: "tune", first: pool.count + 1)
      let start = pool.count
      for (policy, point) in zip(made, fresh) {
        pool.append(
          Candidate(
            policy: policy.policy, knobs: policy.knobs, definition: policy.definition,
            point: point))
        seen.insert(policy.knobs)
      }
      let members = [current] + Array(start..<pool.count)
      progress?(
        "local \(step + 1): \(pool[current].policy.name) and \(fresh.count) neighbours, "
          + "\(users) users × \(replications)")
      let policies = members.map { pool[$0].policy }
      let (values, bounds) = try evaluate(
        policies, users: users, replications: replications, seed: seed &+ UInt64(step),
        phase: .local(step))
      lives += livesOf(policies, users: users, replications: replications)
      var best = (candidate: current, key: (0, -Double.infinity, 0))
      for (position, candidate) in members.enumerated() {
        let (mean, halfWidth) = Self.estimate(values.map { $0[position] })
        let feasible = zip(constraints, bounds[position]).allSatisfy { $0.holds($1) }
        evaluations.append(
          Evaluation(
            round: firstRound + step, policy: pool[candidate].policy.name,
            knobValues: pool[candidate].knobs, users: users, replications: replications,
            mean: mean, halfWidth: halfWidth, feasible: feasible, localStep: step))
        // Feasible first, then by score; ties to the incumbent, then the lower number.
        let key = (feasible ? 1 : 0, direction * mean, -position)
        if position == 0 || key > best.key { best = (candidate, key) }
      }
      step += 1
      guard best.candidate != current else {
        if refine() { continue }
        break
      }
      current = best.candidate
    }
    return current
  }
}
