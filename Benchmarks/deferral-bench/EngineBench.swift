import CGSL
import Foundation
import MessageDeferral
import Simulation

/// Engine throughput on the default scenario (every policy it lists), `--jobs 1` against
/// `--jobs 2`, the shared trunk against `--no-shared-trunk` (both `--jobs 1`), and the RNG
/// floor: GSL drawing, with no simulation around it, the very variates the run consumed (the
/// trunk's once, then once per branch simulation run: one per group of policies that answered
/// alike, see `UserSimulator.runGroups`). Each repetition runs the four sides one after
/// another, in an order that rotates, so every ratio compares measurements taken moments apart.
struct EngineBench {
  var world: CompiledScenario
  var policies: [NamedPolicy]
  var users: Int
  var replications: Int
  var seed: UInt64
  var repetitions: Int

  struct Run {
    var seconds: Double
    var cpuSeconds: Double
    var events: Int
  }

  struct Result {
    var jobs1: [Run]
    var jobs2: [Run]
    /// `--jobs 1 --no-shared-trunk`: the same work, every user simulated once per policy.
    var unshared: [Run]
    /// Median over repetitions of unshared time ÷ shared time (both `--jobs 1`).
    var sharedTrunkSpeedup: Double
    var trunk: TrunkStatistics
    var floorSeconds: [Double]
    /// The floor as if every forked user's branch ran once per policy (no groups): the
    /// variates a shared run without groups draws (``RunOptions/branchGroups`` off).
    var floorPerPolicySeconds: [Double]
    var variatesPerPolicy: VariateCounts
    var floorByKind: [(kind: VariateKind, count: Int, seconds: Double)]
    var reseeds: Int
    var reseedSeconds: Double
    var variates: VariateCounts
    /// Median over repetitions of jobs-1 time ÷ jobs-2 time.
    var scaling: Double
    /// Median over repetitions of jobs-1 time ÷ floor time.
    var overFloor: Double
    /// The same against the floor with a branch per policy.
    var overFloorPerPolicy: Double
    var events: Int
  }

  func options(
    jobs: Int, countsVariates: Bool = false, shared: Bool = true, groups: Bool = true
  ) -> RunOptions {
    var options = RunOptions(
      users: users, replications: replications, seed: seed, jobs: jobs,
      countsVariates: countsVariates)
    options.sharedTrunk = shared
    options.branchGroups = groups
    return options
  }

  func runEngine(jobs: Int, shared: Bool = true) throws -> Run {
    var result: RunResult?
    let cpuBefore = Measure.cpuSeconds()
    let seconds = try Measure.seconds {
      result = try Engine.run(
        world, policies: policies, options: options(jobs: jobs, shared: shared))
    }
    return Run(
      seconds: seconds, cpuSeconds: Measure.cpuSeconds() - cpuBefore, events: result!.events)
  }

  /// Variates the run consumes, by kind: a counting run (deterministic, so identical to every
  /// timed run, which the event count double-checks).
  func countVariates(
    groups: Bool = true
  ) throws -> (
    VariateCounts, events: Int, trunk: TrunkStatistics
  ) {
    let result = try Engine.run(
      world, policies: policies, options: options(jobs: 2, countsVariates: true, groups: groups))
    var counts = VariateCounts()
    for row in result.tallies { for tally in row { counts.merge(tally.variates) } }
    return (counts, result.events, result.trunk)
  }

  func run(log: (String) -> Void) throws -> Result {
    let (variates, countedEvents, trunk) = try countVariates()
    let floor = RNGFloor(scenario: world.scenario, counts: variates)
    let (variatesPerPolicy, eventsPerPolicy, _) = try countVariates(groups: false)
    precondition(eventsPerPolicy == countedEvents, "Branch groups changed the run")
    let floorPerPolicy = RNGFloor(scenario: world.scenario, counts: variatesPerPolicy)
    // Warm-up: threads started, pages touched, caches and branch predictors trained.
    _ = try runEngine(jobs: 2)
    _ = floor.time()
    var jobs1: [Run] = []
    var jobs2: [Run] = []
    var unshared: [Run] = []
    var trunkRatios: [Double] = []
    var floorSeconds: [Double] = []
    var floorPerPolicySeconds: [Double] = []
    var floorPerPolicyRatios: [Double] = []
    var scalingRatios: [Double] = []
    var floorRatios: [Double] = []
    var floorByKind: [(kind: VariateKind, count: Int, seconds: Double)] = []
    let orders = [[0, 1, 2, 3], [1, 3, 2, 0], [3, 2, 0, 1], [2, 0, 3, 1], [0, 3, 1, 2]]
    for repetition in 0..<repetitions {
      var one: Run?
      var two: Run?
      var alone: Run?
      var floorTime = 0.0
      var floorPerPolicyTime = 0.0
      for side in orders[repetition % orders.count] {
        switch side {
        case 0: one = try runEngine(jobs: 1)
        case 1: two = try runEngine(jobs: 2)
        case 3: alone = try runEngine(jobs: 1, shared: false)
        default:
          let timed = floor.time()
          floorTime = timed.total
          if floorByKind.isEmpty || timed.total < floorSeconds.min()! { floorByKind = timed.byKind }
          floorPerPolicyTime = floorPerPolicy.time().total
        }
      }
      guard let one, let two, let alone else { preconditionFailure("Every engine side ran") }
      precondition(
        one.events == countedEvents && two.events == countedEvents
          && alone.events == countedEvents,
        "Counting variates or the trunk changed the run: \(one.events), \(two.events), "
          + "\(alone.events), \(countedEvents)")
      jobs1.append(one)
      jobs2.append(two)
      unshared.append(alone)
      trunkRatios.append(alone.seconds / one.seconds)
      floorSeconds.append(floorTime)
      floorPerPolicySeconds.append(floorPerPolicyTime)
      floorPerPolicyRatios.append(one.seconds / floorPerPolicyTime)
      scalingRatios.append(one.seconds / two.seconds)
      floorRatios.append(one.seconds / floorTime)
      log(
        "engine repetition \(repetition + 1)/\(repetitions): jobs 1 "
          + "\(Format.significant(one.seconds)) s, jobs 2 \(Format.significant(two.seconds)) s, "
          + "jobs 1 --no-shared-trunk \(Format.significant(alone.seconds)) s, "
          + "RNG floor \(Format.significant(floorTime)) s "
          + "(\(Format.significant(floorPerPolicyTime)) s with a branch per policy)")
    }
    // One stream per purpose (6), re-seeded once per user on the shared trunk.
    let reseeds = users * replications * StreamPurpose.allCases.count
    let reseedSeconds = Measure.median((0..<3).map { _ in floor.timeReseeds(reseeds) })
    return Result(
      jobs1: jobs1, jobs2: jobs2, unshared: unshared,
      sharedTrunkSpeedup: Measure.median(trunkRatios), trunk: trunk, floorSeconds: floorSeconds,
      floorPerPolicySeconds: floorPerPolicySeconds, variatesPerPolicy: variatesPerPolicy,
      floorByKind: floorByKind,
      reseeds: reseeds, reseedSeconds: reseedSeconds, variates: variates,
      scaling: Measure.median(scalingRatios), overFloor: Measure.median(floorRatios),
      overFloorPerPolicy: Measure.median(floorPerPolicyRatios),
      events: countedEvents)
  }
}

/// The physical floor of a run's randomness: the same number of variates of each kind, drawn
/// by GSL from one `taus2` generator in tight loops, with the parameters of the scenario's
/// first distribution of that kind (the cost of these GSL samplers does not depend on their
/// parameters, except gamma's shape, which the default scenario does not use).
struct RNGFloor {
  var counts: VariateCounts
  var parameters: [VariateKind: DistributionSpec] = [:]
  var transitionWeights: [Double] = [0.5, 0.5]

  init(scenario: Scenario, counts: VariateCounts) {
    self.counts = counts
    var specs: [DistributionSpec] = scenario.screens.map(\.dwell)
    specs += [
      scenario.sessions.gap, scenario.sessions.fetchDelay, scenario.scene.activationDelay,
      scenario.sheetDwell,
    ]
    if let consent = scenario.messages.consent {
      specs.append(consent.deadline)
      if let expiry = consent.expiry { specs.append(expiry) }
    }
    for process in scenario.messages.recurring {
      specs.append(.exponential(mean: process.meanInterval))
      if let expiry = process.expiry { specs.append(expiry) }
    }
    for spec in specs {
      let kind: VariateKind
      switch spec {
      case .fixed: kind = .fixed
      case .exponential: kind = .exponential
      case .lognormal: kind = .lognormal
      case .gamma: kind = .gamma
      case .weibull: kind = .weibull
      case .uniform: kind = .flat
      case .empirical: kind = .discrete
      }
      if parameters[kind] == nil { parameters[kind] = spec }
    }
    if let screen = scenario.screens.first(where: { !$0.transitions.isEmpty }) {
      transitionWeights = screen.transitions.map(\.probability)
    }
  }

  /// Draws every counted variate; returns the total and the time of each kind.
  func time() -> (total: Double, byKind: [(kind: VariateKind, count: Int, seconds: Double)]) {
    var stream = RandomStream(gslSeed: 12345)
    let table = AliasTable(weights: transitionWeights)
    var byKind: [(kind: VariateKind, count: Int, seconds: Double)] = []
    var total = 0.0
    for kind in VariateKind.allCases where kind != .fixed && counts[kind] > 0 {
      let count = counts[kind]
      let seconds = stream.withUnsafeGenerator { rng in
        draw(kind, count: count, rng: rng, table: table)
      }
      byKind.append((kind, count, seconds))
      total += seconds
    }
    return (total, byKind)
  }

  private func draw(
    _ kind: VariateKind, count: Int, rng: UnsafeMutablePointer<gsl_rng>, table: AliasTable
  ) -> Double {
    var sum = 0.0
    let seconds: Double
    switch (kind, parameters[kind]) {
    case (.exponential, .exponential(let mean)?):
      seconds = Measure.seconds { for _ in 0..<count { sum += gsl_ran_exponential(rng, mean) } }
    case (.lognormal, .lognormal(let median, let sigma)?):
      let zeta = log(median)
      seconds = Measure.seconds {
        for _ in 0..<count { sum += gsl_ran_lognormal(rng, zeta, sigma) }
      }
    case (.gamma, .gamma(let shape, let scale)?):
      seconds = Measure.seconds { for _ in 0..<count { sum += gsl_ran_gamma(rng, shape, scale) } }
    case (.weibull, .weibull(let shape, let scale)?):
      seconds = Measure.seconds {
        for _ in 0..<count { sum += gsl_ran_weibull(rng, scale, shape) }
      }
    case (.flat, .uniform(let low, let high)?):
      seconds = Measure.seconds { for _ in 0..<count { sum += gsl_ran_flat(rng, low, high) } }
    case (.discrete, _):
      var stream = RandomStream(gslSeed: 777)
      seconds = Measure.seconds { for _ in 0..<count { sum += Double(table.draw(&stream)) } }
    case (.uniformPositive, _):
      seconds = Measure.seconds { for _ in 0..<count { sum += gsl_rng_uniform_pos(rng) } }
    case (.uniformInt, _):
      seconds = Measure.seconds {
        for _ in 0..<count { sum += Double(gsl_rng_uniform_int(rng, 1000)) }
      }
    default:
      // `uniform` (uniform() and bernoulli()), or a kind whose parameters the scenario lacks.
      seconds = Measure.seconds { for _ in 0..<count { sum += gsl_rng_uniform(rng) } }
    }
    checksumSink &+= Int(sum.truncatingRemainder(dividingBy: 1e9))
    return seconds
  }

  /// Time for `count` re-seedings (`gsl_rng_set`), which the engine does once per stream and
  /// user; reported beside the floor, not in it (they are not variates).
  func timeReseeds(_ count: Int) -> Double {
    var stream = RandomStream(gslSeed: 1)
    let seconds = Measure.seconds {
      for index in 0..<count { stream.reseed(gslSeed: UInt64(index)) }
    }
    checksumSink &+= Int(stream.uniform() * 1000)
    return seconds
  }
}
