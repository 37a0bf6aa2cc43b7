import Foundation
import MessageDeferral
import Reports
import Simulation

#if canImport(Glibc)
  import Glibc
#endif

/// Runs the sections, writes the CSV files and prints the table and the headline figures.
struct BenchRun {
  /// Every file a run may write into its `--out` folder: a later run replaces them (the folder's
  /// marker lists those written), so the default `results/bench` can be run into again.
  static let fileNames: Set<String> = [
    "queue.csv", "engine.csv", "scaling.csv", "memory.csv", "floor.csv", "merge-memory.csv",
    "peer.csv", "scale.csv", "tune.csv", "tune-deadline-aware.csv",
  ]

  var options: BenchOptions
  var headlines: [(String, String)] = []
  var table = TextTable(["figure", "value", "target", "status"])

  init(options: BenchOptions) { self.options = options }

  func log(_ line: String) {
    printError(line)
  }

  mutating func headline(_ name: String, _ value: String) { headlines.append((name, value)) }

  mutating func run() throws {
    let quick = options.quick
    let started = Measure.nanoseconds()
    let scenarioPath =
      options.scenarioPath
      ?? (FileManager.default.fileExists(atPath: BenchScenario.defaultPath)
        ? BenchScenario.defaultPath : nil)
    let scenario = try BenchScenario.load(path: scenarioPath)
    let world = CompiledScenario(scenario)
    let folder = try OutputFolder(path: options.out, alsoOwns: Self.fileNames)
    let loadBefore = Measure.loadAverage()
    log(
      "deferral-bench\(quick ? " --quick" : ""): scenario \(scenario.name) "
        + "(\(scenarioPath ?? "embedded")), \(ProcessInfo.processInfo.activeProcessorCount) cores, "
        + "load average \(loadBefore.map { Format.significant($0) } ?? "?")")

    if options.sections.contains("queue") {
      try queueSection(world: world, folder: folder)
    }
    if options.sections.contains("engine") {
      try engineSection(world: world, folder: folder)
    }
    if options.sections.contains("memory") {
      try memorySection(scenarioPath: scenarioPath, folder: folder)
    }
    if options.sections.contains("merge") {
      try mergeMemorySection(folder: folder)
    }
    if options.sections.contains("peer") {
      guard let scenarioPath else {
        throw BenchError("the peer needs the scenario file; run from the package root")
      }
      let peerCopy = try PeerScenario(path: scenarioPath)
      defer { peerCopy.remove() }
      try peerSection(
        world: CompiledScenario(try BenchScenario.load(path: peerCopy.path)),
        scenarioPath: peerCopy.path, folder: folder)
    }
    if options.sections.contains("scale") {
      try scaleSection(world: world, folder: folder)
    }
    if options.sections.contains("tune") {
      try tuneSection(folder: folder)
    }
    try folder.commit()
    let loadAfter = Measure.loadAverage()
    let elapsed = Double(Measure.nanoseconds() - started) / 1e9
    headline("load_average_1m", Format.significant(max(loadBefore ?? 0, loadAfter ?? 0)))
    headline("bench_seconds", Format.fixed(elapsed, 1))
    print(table.text)
    print("")
    for (name, value) in headlines { print("\(name): \(value)") }
    log("wrote \(options.out)/*.csv in \(Format.fixed(elapsed, 1)) s")
  }

  // MARK: Queue

  /// Share of each reason lane among the messages the default scenario issues.
  func reasonMix(world: CompiledScenario) throws -> [Double] {
    let policy = BenchScenario.policies(world.scenario, ["storekit-auto"])
    let result = try Engine.run(
      world, policies: policy,
      options: RunOptions(users: 5000, replications: 1, seed: world.scenario.seed, jobs: 2))
    let issued = result.tallies[0][0].issued
    let total = Double(issued.reduce(0, +))
    return issued.map { Double($0) / total }
  }

  mutating func queueSection(world: CompiledScenario, folder: OutputFolder) throws {
    let mix = try reasonMix(world: world)
    log(
      "queue mix (issued in the default scenario): "
        + zip(["consent", "billing", "win-back", "generic", "unknown"], mix).map {
          "\($0) \(Format.fixed($1 * 100, 1))%"
        }.joined(separator: ", "))
    let depths = options.quick ? [1, 10, 100, 1000, 10_000] : [1, 10, 100, 1000, 10_000, 100_000]
    let bench = QueueBench(
      mix: mix, depths: depths, repetitions: options.quick ? 5 : 7,
      minimumSampleSeconds: options.quick ? 0.004 : 0.02)
    let rows = bench.run(log: log)
    var csv = CSVTable(header: [
      "depth", "queue", "ns_per_op_median", "ns_per_op_min", "ns_per_op_max", "ops_per_second",
      "cost_relative_to_depth_10", "speedup_vs_article", "cycles_per_sample", "repetitions",
      "consent_share", "billing_share",
    ])
    func cost(_ side: String, _ depth: Int) -> Double? {
      rows.first { $0.side == side && $0.depth == depth }?.nanosecondsPerOperation
    }
    for row in rows {
      csv.append([
        .integer(row.depth), .text(row.side), .number(row.nanosecondsPerOperation),
        .number(row.minimum), .number(row.maximum), .number(1e9 / row.nanosecondsPerOperation),
        .number(cost(row.side, 10).map { row.nanosecondsPerOperation / $0 }),
        .number(row.speedup), .integer(row.cyclesPerSample), .integer(row.repetitions),
        .number(mix[0]), .number(mix[1]),
      ])
    }
    try folder.write(csv.text, to: "queue.csv")
    let deepest = depths.max()!
    if let speedup = rows.first(where: { $0.depth == 10_000 && $0.side == "pending_queue" })?
      .speedup
    {
      headline("queue_speedup_vs_article_10k", Format.significant(speedup))
      table.add([
        "queue: PendingQueue vs article Array, depth 10k", Format.ratio(speedup), "≥ 20×",
        speedup >= 20 ? "met" : "missed",
      ])
    }
    for side in ["pending_queue", "article_array"] {
      if let shallow = cost(side, 10), let deep = cost(side, deepest) {
        let name = "queue_cost_growth_\(side)_10_to_\(Self.short(deepest))"
        headline(name, Format.significant(deep / shallow))
        table.add([
          "queue: \(side) ns/op at \(Self.short(deepest)) ÷ at 10",
          Format.ratio(deep / shallow), side == "pending_queue" ? "flat (≈ 1×)" : "(linear)",
          side == "pending_queue" ? (deep / shallow < 2 ? "met" : "missed") : "",
        ])
      }
    }
    if let ours = cost("pending_queue", 10_000) {
      headline("queue_pending_ops_per_second_10k", Format.count(1e9 / ours))
    }
  }

  static func short(_ count: Int) -> String {
    count >= 1_000_000 && count % 1_000_000 == 0
      ? "\(count / 1_000_000)m"
      : count >= 1000 && count % 1000 == 0 ? "\(count / 1000)k" : "\(count)"
  }

  // MARK: Engine, scaling, floor

  mutating func engineSection(world: CompiledScenario, folder: OutputFolder) throws {
    let scenario = world.scenario
    let bench = EngineBench(
      world: world, policies: scenario.policies, users: options.quick ? 1500 : 10_000,
      replications: 2, seed: scenario.seed, repetitions: options.quick ? 3 : 5)
    log(
      "engine: \(bench.users) users × \(bench.replications) replications × "
        + "\(bench.policies.count) policies, jobs 1 vs jobs 2 vs RNG floor, "
        + "\(bench.repetitions) repetitions")
    let result = try bench.run(log: log)
    let days = scenario.horizon / 86_400
    let userDays = Double(bench.users * bench.replications) * days
    var engineCSV = CSVTable(header: [
      "jobs", "shared_trunk", "users", "replications", "policies", "events", "seconds_median",
      "seconds_min",
      "seconds_max", "cpu_seconds_median", "events_per_second", "user_days_per_second",
      "policy_user_days_per_second", "ns_per_event", "repetitions",
    ])
    var perSecond: [Int: Double] = [:]
    for (jobs, shared, runs) in [
      (1, true, result.jobs1), (2, true, result.jobs2), (1, false, result.unshared),
    ] {
      let seconds = Measure.median(runs.map(\.seconds))
      if shared { perSecond[jobs] = Double(result.events) / seconds }
      engineCSV.append([
        .integer(jobs), .text(shared ? "yes" : "no"), .integer(bench.users),
        .integer(bench.replications),
        .integer(bench.policies.count), .integer(result.events), .number(seconds),
        .number(runs.map(\.seconds).min()), .number(runs.map(\.seconds).max()),
        .number(Measure.median(runs.map(\.cpuSeconds))), .number(Double(result.events) / seconds),
        .number(userDays / seconds), .number(userDays * Double(bench.policies.count) / seconds),
        .number(seconds * 1e9 / Double(result.events)), .integer(runs.count),
      ])
    }
    try folder.write(engineCSV.text, to: "engine.csv")

    var scalingCSV = CSVTable(header: [
      "repetition", "jobs1_seconds", "jobs2_seconds", "jobs2_speedup", "jobs1_cpu_seconds",
      "jobs2_cpu_seconds", "floor_seconds", "engine_over_floor",
    ])
    for index in result.jobs1.indices {
      let one = result.jobs1[index]
      let two = result.jobs2[index]
      scalingCSV.append([
        .integer(index + 1), .number(one.seconds), .number(two.seconds),
        .number(one.seconds / two.seconds), .number(one.cpuSeconds), .number(two.cpuSeconds),
        .number(result.floorSeconds[index]), .number(one.seconds / result.floorSeconds[index]),
      ])
    }
    try folder.write(scalingCSV.text, to: "scaling.csv")

    let floorTotal = Measure.median(result.floorSeconds)
    let engineOne = Measure.median(result.jobs1.map(\.seconds))
    var floorCSV = CSVTable(header: [
      "kind", "count", "seconds", "ns_each", "per_event", "in_floor", "note",
    ])
    for entry in result.floorByKind {
      floorCSV.append([
        .text(entry.kind.name), .integer(entry.count), .number(entry.seconds),
        .number(entry.seconds * 1e9 / Double(entry.count)),
        .number(Double(entry.count) / Double(result.events)), "yes",
        .text("fastest repetition's split"),
      ])
    }
    if result.variates[.fixed] > 0 {
      floorCSV.append([
        "fixed", .integer(result.variates[.fixed]), .number(0), .number(0),
        .number(Double(result.variates[.fixed]) / Double(result.events)), "no",
        "no GSL call",
      ])
    }
    floorCSV.append([
      "reseed", .integer(result.reseeds), .number(result.reseedSeconds),
      .number(result.reseedSeconds * 1e9 / Double(result.reseeds)),
      .number(Double(result.reseeds) / Double(result.events)), "no",
      "gsl_rng_set, 6 per user on the shared trunk: not a variate",
    ])
    floorCSV.append([
      "floor_total", .integer(result.variates.gslTotal), .number(floorTotal),
      .number(floorTotal * 1e9 / Double(result.variates.gslTotal)),
      .number(Double(result.variates.gslTotal) / Double(result.events)), "yes",
      "median over repetitions",
    ])
    let floorPerPolicy = Measure.median(result.floorPerPolicySeconds)
    floorCSV.append([
      "floor_total_branch_per_policy", .integer(result.variatesPerPolicy.gslTotal),
      .number(floorPerPolicy),
      .number(floorPerPolicy * 1e9 / Double(result.variatesPerPolicy.gslTotal)),
      .number(Double(result.variatesPerPolicy.gslTotal) / Double(result.events)), "no",
      .text(
        "the variates of the same run with a branch per policy (no groups), median; "
          + "engine ÷ it = \(result.overFloorPerPolicy)"),
    ])
    floorCSV.append([
      "engine_jobs1", .integer(result.events), .number(engineOne),
      .number(engineOne * 1e9 / Double(result.events)), .number(1), "",
      .text("same run, median; engine ÷ floor = \(result.overFloor) (median of paired ratios)"),
    ])
    try folder.write(floorCSV.text, to: "floor.csv")

    headline("events_per_second", Format.count(perSecond[2]!))
    headline("events_per_second_jobs1", Format.count(perSecond[1]!))
    headline(
      "user_days_per_second", Format.count(userDays / Measure.median(result.jobs2.map(\.seconds))))
    headline("jobs2_speedup", Format.significant(result.scaling))
    trunkHeadlines(result, bench: bench, days: days)
    headline("engine_over_rng_floor", Format.significant(result.overFloor))
    headline(
      "engine_over_rng_floor_branch_per_policy", Format.significant(result.overFloorPerPolicy))
    headline(
      "engine_over_rng_floor_with_reseeds",
      Format.significant(engineOne / (floorTotal + result.reseedSeconds)))
    let cpuRatio =
      Measure.median(result.jobs2.map(\.cpuSeconds)) / Measure.median(result.jobs2.map(\.seconds))
    headline("jobs2_cpu_utilisation", Format.significant(cpuRatio))
    // Events per CPU-second, jobs 2 against jobs 1: how well the work splits, whatever share
    // of the cores other processes leave us (wall-clock scaling needs both cores free).
    let perCPU1 = Double(result.events) / Measure.median(result.jobs1.map(\.cpuSeconds))
    let perCPU2 = Double(result.events) / Measure.median(result.jobs2.map(\.cpuSeconds))
    headline("jobs2_parallel_efficiency", Format.significant(perCPU2 / perCPU1))
    table.add([
      "engine: events/s, jobs 2 (jobs 1)",
      "\(Format.count(perSecond[2]!)) (\(Format.count(perSecond[1]!)))", "", "",
    ])
    table.add([
      "engine: --jobs 2 ÷ --jobs 1 speed", Format.ratio(result.scaling), "≥ 1.9×",
      result.scaling >= 1.9 ? "met" : "missed",
    ])
    table.add([
      "engine time ÷ GSL floor (jobs 1)", Format.ratio(result.overFloor), "≤ 2×",
      result.overFloor <= 2 ? "met" : "missed",
    ])
    table.add([
      "engine time ÷ GSL floor, a branch per policy (jobs 1)",
      Format.ratio(result.overFloorPerPolicy), "≤ 2×",
      result.overFloorPerPolicy <= 2 ? "met" : "missed",
    ])
    table.add([
      "shared trunk: --no-shared-trunk time ÷ shared (jobs 1)",
      Format.ratio(result.sharedTrunkSpeedup), "≥ 3×",
      result.sharedTrunkSpeedup >= 3 ? "met" : "missed",
    ])
  }

  // MARK: Memory

  mutating func memorySection(scenarioPath: String?, folder: OutputFolder) throws {
    let counts =
      options.quick ? [0, 1000, 10_000, 100_000] : [0, 1000, 10_000, 100_000, 1_000_000]
    let bench = MemoryBench(
      userCounts: counts, repetitions: options.quick ? 1 : 3, jobs: 2, policy: "storekit-auto",
      scenarioPath: scenarioPath)
    log("memory: users \(counts.map(Self.short).joined(separator: ", ")), one child process each")
    let rows = try bench.run(log: log)
    var csv = CSVTable(header: [
      "users", "policy", "jobs", "replications", "seconds", "ns_per_user", "events",
      "peak_rss_kib", "peak_rss_mb", "runs",
    ])
    for row in rows {
      csv.append([
        .integer(row.users), .text(bench.policy), .integer(bench.jobs), .integer(1),
        .number(row.seconds), .number(row.users > 0 ? row.seconds * 1e9 / Double(row.users) : nil),
        .integer(row.events), .integer(row.peakResidentKiB),
        .number(Double(row.peakResidentKiB) / 1024), .integer(row.runs),
      ])
    }
    try folder.write(csv.text, to: "memory.csv")
    guard let largest = rows.last, let smallest = rows.first(where: { $0.users == 1000 }) else {
      return
    }
    let growth = Double(largest.peakResidentKiB - smallest.peakResidentKiB) / 1024
    headline(
      "peak_rss_mb_\(Self.short(largest.users))_users",
      Format.significant(Double(largest.peakResidentKiB) / 1024))
    headline("peak_rss_mb_1k_users", Format.significant(Double(smallest.peakResidentKiB) / 1024))
    headline("peak_rss_growth_mb_1k_to_\(Self.short(largest.users))", Format.significant(growth))
    let costSmall = smallest.seconds / Double(smallest.users)
    let costLarge = largest.seconds / Double(largest.users)
    headline(
      "ns_per_user_\(Self.short(largest.users))", Format.significant(costLarge * 1e9))
    table.add([
      "memory: peak RSS 1k → \(Self.short(largest.users)) users",
      "\(Format.significant(Double(smallest.peakResidentKiB) / 1024)) → "
        + "\(Format.significant(Double(largest.peakResidentKiB) / 1024)) MiB",
      "flat", abs(growth) < 8 ? "met" : "missed",
    ])
    table.add([
      "cost per user 1k → \(Self.short(largest.users)) (1 policy)",
      "\(Format.nanoseconds(costSmall * 1e9)) → \(Format.nanoseconds(costLarge * 1e9))", "", "",
    ])
  }

  // MARK: Scale

  /// The eight policies of the scale line: StoreKit's default, the SDKs' manual modes, the
  /// article's gate, and ours.
  static let scalePolicies = [
    "storekit-auto", "screen-gate", "adapty-manual", "revenuecat-manual", "openiap",
    "deadline-aware", "deadline-aware-value", "deadline-blind",
  ]

  /// A million users × 10 replications × 8 policies on 2 cores, extrapolated from a run of
  /// 100,000 users (`--quick` 20,000): linear in user lives, since the cost per user is flat.
  mutating func scaleSection(world: CompiledScenario, folder: OutputFolder) throws {
    let users = options.quick ? 20_000 : 100_000
    let replications = 10
    let policies = Self.scalePolicies.compactMap { name in
      world.scenario.policies.first { $0.name == name }
        ?? PolicyCatalog.preset(named: name).map {
          NamedPolicy(name: name, configuration: $0.configuration)
        }
    }
    log("scale: \(Self.short(users)) users × \(replications) replications × 8 policies, --jobs 2")
    var result: RunResult?
    let seconds = try Measure.seconds {
      result = try Engine.run(
        world, policies: policies,
        options: RunOptions(users: users, replications: replications, seed: 42, jobs: 2))
    }
    let factor = 1_000_000.0 / Double(users)
    let minutes = seconds * factor / 60
    var csv = CSVTable(header: [
      "users", "replications", "policies", "jobs", "seconds", "events",
      "extrapolated_users", "extrapolated_minutes",
    ])
    csv.append([
      .integer(users), .integer(replications), .integer(policies.count), .integer(2),
      .number(seconds), .integer(result?.events ?? 0), .integer(1_000_000), .number(minutes),
    ])
    try folder.write(csv.text, to: "scale.csv")
    headline("scale_minutes_1m_users_10_reps_8_policies", Format.fixed(minutes, 2))
    table.add([
      "1M users × 10 reps × 8 policies, jobs 2 (from \(Self.short(users)))",
      "\(Format.fixed(minutes, 2)) min", "≤ 5 min", minutes <= 5 ? "met" : "missed",
    ])
  }

  // MARK: Peer

  mutating func peerSection(
    world: CompiledScenario, scenarioPath: String, folder: OutputFolder
  ) throws {
    let bench = PeerBench(
      world: world, scenarioPath: scenarioPath, users: options.quick ? 150 : 500,
      replications: 4, repetitions: options.quick ? 3 : 5)
    log(
      "peer: SimPy vs ours, \(bench.users) users × \(bench.replications) replications × "
        + "\(bench.policies.joined(separator: ", ")), \(bench.repetitions) repetitions")
    let result = try bench.run(log: log)
    var csv = CSVTable(header: [
      "policy", "metric", "ours_mean", "ours_low", "ours_high", "ours_n", "simpy_mean",
      "simpy_low", "simpy_high", "simpy_n", "difference", "welch_half_width_familywise_95", "agree",
    ])
    for c in result.comparisons {
      csv.append([
        .text(c.policy), .text(c.metric), .number(c.oursInterval?.mean),
        .number(c.oursInterval?.low), .number(c.oursInterval?.high), .integer(c.ours.count),
        .number(c.simpyInterval?.mean), .number(c.simpyInterval?.low),
        .number(c.simpyInterval?.high), .integer(c.simpy.count), .number(c.difference),
        .number(c.halfWidth), .text(c.agrees ? "yes" : "no"),
      ])
    }
    let oursSeconds = result.oursSeconds.reduce(0, +)
    let simpySeconds = result.simpySeconds.reduce(0, +)
    let oursRate = Double(result.oursEvents) / oursSeconds
    let simpyRate = Double(result.simpyEvents) / simpySeconds
    csv.append([
      "speed", "events_per_second", .number(oursRate), "", "", .integer(result.oursSeconds.count),
      .number(simpyRate), "", "", .integer(result.simpySeconds.count),
      .number(oursRate / simpyRate), "", "",
    ])
    csv.append([
      "speed", "seconds_per_user_run_median",
      .number(Measure.median(result.oursSeconds) * 4 / Double(result.userRuns)), "", "",
      .integer(result.oursSeconds.count),
      .number(Measure.median(result.simpySeconds) * 4 / Double(result.userRuns)), "", "",
      .integer(result.simpySeconds.count), .number(result.speedup), "",
      .text("simpy \(result.simpyVersion); difference column: SimPy time ÷ ours (median ratio)"),
    ])
    try folder.write(csv.text, to: "peer.csv")
    let agreeing = result.comparisons.filter(\.agrees).count
    for c in result.comparisons where !c.agrees {
      log(
        "peer DISAGREES: \(c.policy) \(c.metric): ours \(c.oursInterval?.mean ?? .nan), "
          + "SimPy \(c.simpyInterval?.mean ?? .nan), difference \(c.difference) beyond "
          + "±\(c.halfWidth)")
    }
    headline("engine_speedup_vs_simpy", Format.significant(result.speedup))
    headline("simpy_events_per_second", Format.count(simpyRate))
    headline("engine_events_per_second_vs_simpy_jobs1", Format.count(oursRate))
    headline("peer_metrics_agreeing", "\(agreeing)/\(result.comparisons.count)")
    table.add([
      "engine vs SimPy \(result.simpyVersion) (same model, 1 thread)",
      Format.ratio(result.speedup), "≥ 30×", result.speedup >= 30 ? "met" : "missed",
    ])
    table.add([
      "SimPy metrics within family-wise 95% Welch", "\(agreeing)/\(result.comparisons.count)",
      "all", agreeing == result.comparisons.count ? "met" : "see peer.csv",
    ])
  }
}
