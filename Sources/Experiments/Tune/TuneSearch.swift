import MessageDeferral
import Reports
import Simulation

/// One knob of a tune: a policy key path (`sheets_per_break`, `urgent_consent.return_factor`,
/// `ceilings.price_increase_consent`) and the values it may take.
public struct TuneKnob: Sendable, Equatable {
  /// What values a knob takes.
  public enum Domain: Sendable, Equatable {
    /// A number in [low, high].
    case number(low: Double, high: Double)
    /// An integer in low...high.
    case integer(low: Int, high: Int)
    /// A duration in [low, high] seconds, written as duration text (`"90m"`).
    case duration(low: Double, high: Double)
    /// One of these values (any JSON the key accepts: `"open"`, `true`, `null`).
    case choices([ConfigValue])
  }

  /// The dotted path below the policy object, as the user wrote it.
  public var name: String
  public var domain: Domain

  public init(name: String, domain: Domain) {
    self.name = name
    self.domain = domain
  }

  var path: [String] { name.split(separator: ".").map(String.init) }

  /// The value at `u` in [0, 1): the domain's quantile (a uniform design stays uniform).
  public func value(at u: Double) -> ConfigValue {
    switch domain {
    case .number(let low, let high):
      return .number(low + u * (high - low))
    case .integer(let low, let high):
      return .number(Double(low + min(high - low, Int(u * Double(high - low + 1)))))
    case .duration(let low, let high):
      // Whole seconds, so the text reads back as the same duration.
      return .string(DurationText.format((low + u * (high - low)).rounded()))
    case .choices(let values):
      return values[min(values.count - 1, Int(u * Double(values.count)))]
    }
  }
}

/// A bound a tuned policy must keep: its estimated `metric` at most (or at least) `bound`.
public struct TuneConstraint: Sendable, Equatable {
  public var metric: MetricID
  public var bound: Double
  /// `true`: the metric must be at most `bound`; `false`: at least.
  public var atMost: Bool

  public init(metric: MetricID, bound: Double, atMost: Bool = true) {
    self.metric = metric
    self.bound = bound
    self.atMost = atMost
  }

  func holds(_ value: Double?) -> Bool {
    guard let value else { return true }
    return atMost ? value <= bound + 1e-12 : value >= bound - 1e-12
  }
}

/// The search of `tune`: candidate settings of the knobs (a Latin hypercube spread over their
/// space, or every distinct setting of a small discrete one: ``FirstRound``), evaluated together
/// as the policies of one run on the same users (common random numbers: they share the trunk
/// until they diverge), then successive halving (the better half kept, the users doubled,
/// each round; while more than `candidates` are left, new users of the first round's size),
/// then local steps from the best finalist
/// (its neighbours, one knob changed, on new users of the last round's size; the best setting
/// found joins the finalists first), then ``IndifferenceZoneSelection`` among the finalists
/// and the compared presets, which states its probability of correct selection.
///
/// Why successive halving: every candidate of a round costs little more than one (they share
/// the users' lives up to the first message), so a wide first round is cheap, and noise is
/// cut where it matters, among the candidates still in the race. The selection stage then
/// makes the statement a search alone cannot.
public struct TuneSearch: Sendable {
  /// The world; its `policies` are ignored.
  public var scenario: Scenario
  /// The policy the knobs change: a custom policy object without its name (`preset` and
  /// overrides), as in a scenario file.
  public var base: [ConfigValue.Member]
  public var knobs: [TuneKnob]
  /// Maximized, or minimized when the metric is lower-is-better.
  public var objective: MetricID
  public var constraints: [TuneConstraint]
  /// Candidates of the first round drawn by a Latin hypercube; after a first round of every
  /// setting (``firstRound``), the halving keeps the users of the first round until this many
  /// are left.
  public var candidates: Int
  /// How the first round picks its settings (``FirstRound``; `search.first_round`).
  public var firstRound: FirstRound = .latinHypercube
  /// Users per replication and replications of the first round; each later round doubles
  /// the users once at most ``candidates`` are left (before, it keeps them).
  public var users: Int
  public var replications: Int
  /// Candidates handed to the selection stage (at least 1).
  public var finalists: Int
  /// Local steps after the halving (``localSearch(from:in:users:firstRound:lives:evaluations:progress:)``):
  /// at most this many moves from the best finalist to a better neighbour; 0: none.
  public var localSteps: Int = 0
  /// The selection stage, and the users of each of its replications.
  public var selection: IndifferenceZoneSelection
  public var selectionUsers: Int
  /// Policies that also enter the selection stage as they are (the presets to beat).
  public var compare: [NamedPolicy]
  public var seed: UInt64
  public var jobs: Int
  /// The worlds of an uncertainty study (`study` in the file): each evaluation runs in every
  /// one; empty: the scenario alone.
  public var worlds: [Scenario] = []
  /// How a policy's objective across ``worlds`` is summed up.
  public var acrossWorlds: AcrossWorlds = .expectedValue
  /// Evaluations recorded by the stages of a tune over shards (``TuneReplay``): with it, every
  /// evaluation is read from them instead of simulated, and one not recorded throws
  /// ``TuneStageNeeded``; `nil`: simulate.
  public var replay: TuneReplay?

  /// The objective across the worlds of a study, per replication: the mean over worlds, or
  /// the regret (the best of the policies evaluated together in that world less this one)
  /// averaged over worlds or at its worst.
  public enum AcrossWorlds: String, Sendable, CaseIterable {
    case expectedValue = "expected_value"
    case expectedRegret = "expected_regret"
    case worstRegret = "worst_regret"
  }

  public init(
    scenario: Scenario, base: [ConfigValue.Member], knobs: [TuneKnob], objective: MetricID,
    constraints: [TuneConstraint] = [], candidates: Int = 24, users: Int = 1000,
    replications: Int = 4, finalists: Int = 4, selection: IndifferenceZoneSelection,
    selectionUsers: Int = 2000, compare: [NamedPolicy] = [], seed: UInt64, jobs: Int = 1
  ) {
    precondition(candidates >= 1 && users >= 1 && replications >= 1 && finalists >= 1)
    self.scenario = scenario
    self.base = base
    self.knobs = knobs
    self.objective = objective
    self.constraints = constraints
    self.candidates = candidates
    self.users = users
    self.replications = replications
    self.finalists = finalists
    self.selection = selection
    self.selectionUsers = selectionUsers
    self.compare = compare
    self.seed = seed
    self.jobs = jobs
  }

  /// One candidate evaluated in one round.
  public struct Evaluation: Sendable, Equatable {
    /// 0, 1, ... for search rounds, the local steps numbered on after the halving's rounds;
    /// `nil` for the selection stage's final estimate.
    public var round: Int?
    public var policy: String
    /// Each knob's value as text, in knob order (empty for a compared preset).
    public var knobValues: [String]
    public var users: Int
    public var replications: Int
    /// The objective's mean over the replications and its 95% half-width (Student t; `nil`
    /// in the selection stage, whose statement is the procedure's, not an interval's).
    public var mean: Double
    public var halfWidth: Double?
    /// Whether the estimates kept every constraint.
    public var feasible: Bool
    /// 0, 1, ... for the local steps (``TuneSearch/localSteps``); `nil` otherwise.
    public var localStep: Int? = nil
    /// User lives simulated for this evaluation (users × replications).
    public var lives: Int { users * replications }
    /// How files name the stage: `round 1`, `local 1`, `selection`.
    public var stage: String {
      if let localStep { return "local \(localStep + 1)" }
      return round.map { "round \($0 + 1)" } ?? "selection"
    }
  }

  /// What a tune found.
  public struct Outcome: Sendable {
    public var evaluations: [Evaluation]
    /// The policies of the selection stage: the finalists, then ``TuneSearch/compare``.
    public var contenders: [NamedPolicy]
    /// Their knob values as text (empty for compared presets).
    public var contenderKnobs: [[String]]
    /// The policy objects of the finalists as a scenario file would define them.
    public var contenderDefinitions: [ConfigValue?]
    public var selection: IndifferenceZoneSelection.Outcome
    public var best: NamedPolicy { contenders[selection.selected] }
    /// User lives simulated in all (every policy's life counted).
    public var lives: Int
  }

  /// Replications of the verification run (``verify(_:)``).
  public static let verificationReplications = 10

  /// The tuned policy against the presets to beat and StoreKit's default on users no stage
  /// of the search saw ("TUNEVERI" mixed into the seed): one run of
  /// ``verificationReplications`` replications of the selection's users, its first policy
  /// the tuned one renamed `tuned`, then each compared preset (and `storekit-auto` when the
  /// file does not compare it). Paired differences on these users are an unbiased estimate
  /// of what the tune gained: the search's own means are biased upward by the selection.
  public func verify(_ best: NamedPolicy) throws -> (scenario: Scenario, result: RunResult) {
    let world = verificationScenario(best)
    let result = try Experiment.run(
      RunPlan(scenario: world, jobs: jobs), on: CompiledScenario(world))
    return (world, result)
  }

  /// The world and plan ``verify(_:)`` runs: its policies, baseline, users, replications and
  /// seed.
  public func verificationScenario(_ best: NamedPolicy) -> Scenario {
    var policies = [NamedPolicy(name: "tuned", configuration: best.configuration)]
    policies += compare.filter { $0.name != "tuned" }
    if !policies.contains(where: { $0.name == "storekit-auto" }),
      let preset = PolicyCatalog.preset(named: "storekit-auto")
    {
      policies.append(NamedPolicy(name: "storekit-auto", configuration: preset.configuration))
    }
    var world = scenario
    world.policies = policies
    world.baseline = "tuned"
    world.users = selectionUsers
    world.replications = Self.verificationReplications
    world.seed = RandomStream.splitMix64Finalizer(seed ^ 0x5455_4E45_5645_5249)
    return world
  }

  /// The sign that makes the objective larger-is-better (a regret across worlds is lower).
  public var direction: Double {
    if !worlds.isEmpty, acrossWorlds != .expectedValue { return -1 }
    return objective.metric.lowerIsBetter ? -1 : 1
  }

  /// The candidates of the first round: knob values and their policies (`tune-1`...).
  public func candidatePolicies() throws(ConfigIssues) -> [(
    policy: NamedPolicy, knobs: [String], definition: ConfigValue
  )] {
    try policies(at: candidatePoints(), namedBy: "tune")
  }

  /// The first round's points of the unit cube: every distinct setting
  /// (``screensEverySetting``), or a Latin hypercube from the seed.
  func candidatePoints() -> [[Double]] {
    if knobs.isEmpty { return [[]] }
    if screensEverySetting { return settingPoints() }
    return RobustDesign.lhs.points(count: candidates, dimensions: knobs.count, seed: seed)
  }

  /// The policies at `points` of the unit cube (a coordinate per knob, in knob order), named
  /// `<prefix>-<first>`, `<prefix>-<first + 1>`...: their knob values as text and their policy
  /// objects.
  func policies(
    at points: [[Double]], namedBy prefix: String, first: Int = 1
  ) throws(ConfigIssues) -> [(
    policy: NamedPolicy, knobs: [String], definition: ConfigValue
  )] {
    var result: [(NamedPolicy, [String], ConfigValue)] = []
    for (index, point) in points.enumerated() {
      var object = ConfigValue.object(base)
      var texts: [String] = []
      for (knob, u) in zip(knobs, point) {
        let value = knob.value(at: u)
        guard object.replace(at: knob.path[...], with: value, creating: true) else {
          throw ConfigIssues([
            ConfigIssue(path: "$.knobs.\(knob.name)", message: "not a policy key path")
          ])
        }
        texts.append(SweepPlan.text(value))
      }
      let name = "\(prefix)-\(index + first)"
      var named = object.objectMembers
      named.insert(ConfigValue.Member(key: "name", value: .string(name)), at: 0)
      switch PolicyCatalog.definition(from: .object(named), at: "$.base") {
      case .success(let policy):
        result.append((scenario.priced(policy, definition: .object(named)), texts, .object(named)))
      case .failure(let issues): throw issues
      }
    }
    return result
  }

  /// Runs `policies` on `users` users × `replications` replications with `seed`, in the
  /// scenario or, with ``worlds``, in every world; returns the objective per replication and
  /// policy (`values[replication][policy]`, across worlds as ``acrossWorlds`` says) and the
  /// pooled value of each constraint's metric per policy (across worlds, their mean).
  func evaluate(
    _ policies: [NamedPolicy], users: Int, replications: Int, seed: UInt64,
    phase: TuneRun.Phase = .round(0)
  ) throws -> (values: [[Double]], constraints: [[Double?]]) {
    guard !worlds.isEmpty else {
      return try evaluate(
        policies, in: scenario, users: users, replications: replications, seed: seed,
        phase: phase)
    }
    // A regret's reference is the best compared preset of each world and replication, run
    // beside the policies on the same users: a fixed set, so a policy's regrets are alike
    // whichever others share its evaluation (successive halving and the selection shrink it).
    let references = regretReferences(beside: policies)
    let evaluated = policies + references
    let referenceIndices =
      references.isEmpty
      ? Array(policies.indices)
      : compare.compactMap { preset in evaluated.firstIndex { $0.name == preset.name } }
    var perWorld: [[[Double]]] = []
    var bounds = policies.map { _ in constraints.map { _ in 0.0 } }
    var known = policies.map { _ in constraints.map { _ in true } }
    for (index, world) in worlds.enumerated() {
      let (values, worldBounds) = try evaluate(
        evaluated, in: world, users: users, replications: replications, seed: seed,
        world: index, phase: phase)
      perWorld.append(values)
      for policy in policies.indices {
        for constraint in constraints.indices {
          if let bound = worldBounds[policy][constraint] {
            bounds[policy][constraint] += bound / Double(worlds.count)
          } else {
            known[policy][constraint] = false
          }
        }
      }
    }
    let sign = objective.metric.lowerIsBetter ? -1.0 : 1.0
    let values = (0..<replications).map { replication in
      policies.indices.map { policy -> Double in
        let own = perWorld.map { $0[replication][policy] }
        // Regret in a world: the best compared preset there less this policy (below 0 when
        // the policy beats every preset there).
        let regrets = perWorld.map { world in
          (referenceIndices.map { sign * world[replication][$0] }.max() ?? 0)
            - sign * world[replication][policy]
        }
        switch acrossWorlds {
        case .expectedValue: return own.reduce(0, +) / Double(own.count)
        case .expectedRegret: return regrets.reduce(0, +) / Double(regrets.count)
        case .worstRegret: return regrets.max() ?? 0
        }
      }
    }
    let pooled = zip(bounds, known).map { pair in
      zip(pair.0, pair.1).map { $1 ? Optional($0) : nil }
    }
    return (values, pooled)
  }

  /// The compared presets an evaluation of `policies` across worlds runs beside them as the
  /// regret's reference (those not among `policies`); none for the expected value.
  func regretReferences(beside policies: [NamedPolicy]) -> [NamedPolicy] {
    guard acrossWorlds != .expectedValue else { return [] }
    return compare.filter { preset in !policies.contains { $0.name == preset.name } }
  }

  /// The user lives an evaluation of `policies` simulates (every world, the references).
  func livesOf(_ policies: [NamedPolicy], users: Int, replications: Int) -> Int {
    guard !worlds.isEmpty else { return users * replications * policies.count }
    let evaluated = policies.count + regretReferences(beside: policies).count
    return users * replications * evaluated * worlds.count
  }

  /// ``evaluate(_:users:replications:seed:phase:)`` in one world (`world`: its index in
  /// ``worlds``, `nil` for the scenario): simulated, or read from ``replay``.
  func evaluate(
    _ policies: [NamedPolicy], in scenario: Scenario, users: Int, replications: Int,
    seed: UInt64, world index: Int? = nil, phase: TuneRun.Phase = .round(0)
  ) throws -> (values: [[Double]], constraints: [[Double?]]) {
    let run = TuneRun(
      phase: phase, world: index, policies: policies, users: users, replications: replications,
      seed: seed)
    if let replay { return try replay.evaluation(of: run) }
    let world = run.scenario(in: scenario)
    let result = try Experiment.run(
      RunPlan(scenario: world, jobs: jobs), on: CompiledScenario(world))
    return reduce(result.tallies, in: world)
  }

  /// The objective per replication and policy and each constraint's pooled metric per policy,
  /// from a run's tallies in `world`.
  func reduce(
    _ tallies: [[Tally]], in world: Scenario
  ) -> (values: [[Double]], constraints: [[Double?]]) {
    let metric = objective.metric
    let values = tallies.map { row in row.map { metric.value($0, world) ?? 0 } }
    var pooled: [Tally] = tallies[0]
    for row in tallies.dropFirst() {
      for index in pooled.indices { pooled[index].merge(row[index]) }
    }
    let bounds = pooled.map { tally in constraints.map { $0.metric.metric.value(tally, world) } }
    return (values, bounds)
  }

  /// Mean and 95% half-width (Student t, ``MeanInterval``) of `values`; an infinite
  /// half-width for one value.
  static func estimate(_ values: [Double]) -> (mean: Double, halfWidth: Double) {
    guard let interval = MeanInterval(values: values) else { return (.nan, .infinity) }
    guard values.count > 1 else { return (interval.mean, .infinity) }
    return (interval.mean, (interval.high - interval.low) / 2)
  }

  /// The whole tune: rounds of successive halving, then the selection stage.
  public func run(progress: ((String) -> Void)? = nil) throws -> Outcome {
    let points = candidatePoints()
    var pool = try zip(policies(at: points, namedBy: "tune"), points).map {
      Candidate(policy: $0.policy, knobs: $0.knobs, definition: $0.definition, point: $1)
    }
    var alive = Array(pool.indices)
    var evaluations: [Evaluation] = []
    var lives = 0
    var roundUsers = users
    var lastUsers = users
    var round = 0
    var doublings = 0
    while true {
      lastUsers = roundUsers
      progress?(
        "round \(round + 1): \(alive.count) candidates, \(roundUsers) users × \(replications)")
      let policies = alive.map { pool[$0].policy }
      let (values, bounds) = try evaluate(
        policies, users: roundUsers, replications: replications, seed: seed &+ UInt64(round),
        phase: .round(round))
      lives += livesOf(policies, users: roundUsers, replications: replications)
      var scored: [(candidate: Int, score: Double, feasible: Bool)] = []
      for (position, candidate) in alive.enumerated() {
        let (mean, halfWidth) = Self.estimate(values.map { $0[position] })
        let feasible = zip(constraints, bounds[position]).allSatisfy { $0.holds($1) }
        evaluations.append(
          Evaluation(
            round: round, policy: pool[candidate].policy.name, knobValues: pool[candidate].knobs,
            users: roundUsers, replications: replications, mean: mean, halfWidth: halfWidth,
            feasible: feasible))
        scored.append((candidate, direction * mean, feasible))
      }
      // Feasible first, then by score; ties by candidate number, so the order is stable.
      scored.sort {
        ($0.feasible ? 1 : 0, $0.score, -$0.candidate) > (
          $1.feasible ? 1 : 0, $1.score, -$1.candidate
        )
      }
      if alive.count <= finalists { alive = scored.map(\.candidate); break }
      // Wider than `candidates` (a first round of every setting): the better half goes on, not
      // fewer than `candidates`, on new users of the same size; from `candidates` on, the
      // better half with twice the users.
      let wide = alive.count > candidates
      let keep = max(finalists, (alive.count + 1) / 2, wide ? candidates : 0)
      alive = scored.prefix(keep).map(\.candidate)
      let feasibleLeft = scored.prefix(keep).contains { $0.feasible }
      round += 1
      if !wide {
        roundUsers *= 2
        doublings += 1
      }
      if !feasibleLeft || doublings >= 8 { break }
    }
    if localSteps > 0, let incumbent = alive.first {
      let found = try localSearch(
        from: incumbent, in: &pool, users: lastUsers,
        firstRound: (evaluations.compactMap(\.round).max() ?? -1) + 1, lives: &lives,
        evaluations: &evaluations, progress: progress)
      alive = [found] + alive.filter { $0 != found }
    }
    let finalistIndices = Array(alive.prefix(finalists))
    let contenders = finalistIndices.map { pool[$0].policy } + compare
    progress?(
      "selection: \(contenders.count) contenders, \(selectionUsers) users a replication, "
        + "α \(selection.alpha), δ \(selection.delta)")
    // The selection stage's users are new ones ("TUNESELE" mixed into the seed).
    let selectionSeed = RandomStream.splitMix64Finalizer(seed ^ 0x5455_4E45_5345_4C45)
    let chosen = try selection.select(systems: contenders.count) {
      (replication, survivors) throws(any Error) -> [Double] in
      let (values, _) = try evaluate(
        survivors.map { contenders[$0] }, users: selectionUsers, replications: 1,
        seed: selectionSeed &+ UInt64(replication),
        phase: .selection(replication: replication, survivors: survivors.count))
      lives += livesOf(survivors.map { contenders[$0] }, users: selectionUsers, replications: 1)
      return values[0].map { direction * $0 }
    }
    for (index, policy) in contenders.enumerated() {
      evaluations.append(
        Evaluation(
          round: nil, policy: policy.name,
          knobValues: index < finalistIndices.count ? pool[finalistIndices[index]].knobs : [],
          users: selectionUsers, replications: chosen.replications[index],
          mean: direction * chosen.means[index], halfWidth: nil, feasible: true))
    }
    return Outcome(
      evaluations: evaluations, contenders: contenders,
      contenderKnobs: finalistIndices.map { pool[$0].knobs } + compare.map { _ in [] },
      contenderDefinitions: finalistIndices.map { pool[$0].definition } + compare.map { _ in nil },
      selection: chosen, lives: lives)
  }
}
