import Experiments
import Foundation
import MessageDeferral
import Reports
import Simulation

/// `deferral-bench --only tune`: the tuner against random search with the same budget (#33's
/// target: the tuner's final value at least random search's in at least 18 of 20 seeds).
///
/// The problems (``BenchOptions/tuneProblems``): the bundled screen-gate tune
/// (`scenarios/tunes/indie-subscription.json`: the default scenario, five discrete knobs of the
/// article's `screen-gate`) at a smaller size (``sized(_:)``), and the default scenario's
/// deadline-aware tune (two continuous knobs of four) at its own size. For each
/// seed: the tune (Latin hypercube, or every setting with `--tune-first-round every_setting`;
/// successive halving, Kim and Nelson) counts its user lives
/// T; random search (``TuneSearch/randomSearch(budget:users:replications:progress:)``) spends
/// at most T on uniform candidates over the same knobs beside the same compared presets, each
/// on the first round's users (and, apart, each on the selection's first-stage users:
/// ``variants``); then the picks run together on ``scoreUsers`` × ``scoreReplications`` users
/// none saw, and the tuner wins the seed when its mean objective there is at least random
/// search's.
struct TuneBench {
  var base: TuneSearch
  var seeds: [UInt64]
  var scoreUsers: Int
  var scoreReplications: Int

  /// The bundled tune file the problem comes from (run from the package root).
  static let tunePath = "scenarios/tunes/indie-subscription.json"

  /// The second problem: the default scenario's deadline-aware tune, two of whose four knobs
  /// are continuous (run at its own size).
  static let deadlineAwarePath = "scenarios/tunes/indie-subscription-deadline-aware.json"

  /// The bundled tune at its own sizes (`--tune-size file`): only `jobs` set.
  static func asFile(_ search: TuneSearch) -> TuneSearch {
    var search = search
    search.jobs = ProcessInfo.processInfo.activeProcessorCount
    return search
  }

  /// The bundled tune at the section's size: 16 candidates of 500 users × 4 replications,
  /// 4 finalists, three presets to beat (the base preset, `revenuecat-manual`: the default
  /// scenario's best preset, `storekit-auto`), selection on 1,000 users a replication, 5 to 20
  /// replications, δ as the file's (10 USD per 1,000 users).
  static func sized(_ search: TuneSearch) -> TuneSearch {
    var search = search
    search.candidates = 16
    search.users = 500
    search.replications = 4
    search.finalists = 4
    search.compare = ["screen-gate", "revenuecat-manual", "storekit-auto"].compactMap {
      name in
      PolicyCatalog.preset(named: name).map {
        search.scenario.priced(
          NamedPolicy(name: name, configuration: $0.configuration), definition: nil)
      }
    }
    search.selectionUsers = 1000
    search.selection = IndifferenceZoneSelection(
      alpha: search.selection.alpha, delta: search.selection.delta, initialReplications: 5,
      maximumReplications: 20)
    search.jobs = ProcessInfo.processInfo.activeProcessorCount
    return search
  }

  /// How a random search spends its budget: each candidate's users and replications.
  struct RandomVariant {
    /// `first_round` (the library's default) or `selection_size`.
    var name: String
    var users: Int
    var replications: Int
  }

  /// The random searches each seed runs: candidates on the tuner's first-round size (500 ×
  /// 4: many candidates, each seen as the tuner first sees its own), and on the selection's
  /// first-stage size (1,000 × 5: fewer candidates, each measured as well as a contender's
  /// first stage), so the figure does not hang on one way of spending the budget.
  var variants: [RandomVariant] {
    [
      RandomVariant(name: "first_round", users: base.users, replications: base.replications),
      RandomVariant(
        name: "selection_size", users: base.selectionUsers,
        replications: base.selection.initialReplications),
    ]
  }

  /// One random search against the tuner, on one seed.
  struct Versus {
    var variant: RandomVariant
    var pick: String
    var knobs: [String]
    var candidates: Int
    var lives: Int
    /// Mean objective on the fresh users (larger is better after `direction`), and the paired
    /// difference tuner − random with its 95% half-width over the replications.
    var score: Double
    var difference: Double
    var halfWidth: Double
  }

  /// One seed's comparisons.
  struct Row {
    var seed: UInt64
    var tunerPick: String
    var tunerKnobs: [String]
    var tunerLives: Int
    /// Whether the tuner's selection ended with one contender (its guarantee holds), and
    /// the replications it took in all.
    var tunerGuaranteed: Bool
    var tunerSelectionObservations: Int
    var tunerScore: Double
    var versus: [Versus]
    var seconds: Double
    func tunerWins(_ index: Int) -> Bool { tunerScore >= versus[index].score }
    /// Whether the tuner is not significantly below random search: at least its score, or the
    /// paired difference's 95% interval reaches 0 (the reading of #33's first target).
    func tunerNotBelow(_ index: Int) -> Bool {
      tunerWins(index) || versus[index].difference + versus[index].halfWidth >= 0
    }
  }

  /// A tag mixed into each seed for the scoring users ("TUNEBNCH"), so they are none of the
  /// tune's (rounds: seed + round; selection "TUNESELE"; verification "TUNEVERI").
  static let scoringTag: UInt64 = 0x5455_4E45_424E_4348

  func run(log: (String) -> Void) throws -> [Row] {
    var rows: [Row] = []
    for seed in seeds {
      let started = Measure.nanoseconds()
      var search = base
      search.seed = seed
      let tuned = try search.run()
      let randoms = try variants.map {
        try search.randomSearch(
          budget: tuned.lives, users: $0.users, replications: $0.replications)
      }
      let scores = try score(
        [tuned.best] + randoms.map(\.best), search: search,
        seed: RandomStream.splitMix64Finalizer(seed ^ Self.scoringTag))
      func mean(_ index: Int) -> Double {
        scores.map { $0[index] }.reduce(0, +) / Double(scores.count)
      }
      var versus: [Versus] = []
      for (index, random) in randoms.enumerated() {
        let interval = MeanInterval(values: scores.map { $0[0] - $0[index + 1] })
        versus.append(
          Versus(
            variant: variants[index], pick: random.best.name,
            knobs: random.policyKnobs[random.selected], candidates: random.candidates,
            lives: random.lives, score: mean(index + 1), difference: interval?.mean ?? 0,
            halfWidth: interval.map { ($0.high - $0.low) / 2 } ?? .nan))
      }
      let row = Row(
        seed: seed, tunerPick: tuned.best.name,
        tunerKnobs: tuned.contenderKnobs[tuned.selection.selected], tunerLives: tuned.lives,
        tunerGuaranteed: tuned.selection.guaranteed,
        tunerSelectionObservations: tuned.selection.observations,
        tunerScore: mean(0), versus: versus,
        seconds: Double(Measure.nanoseconds() - started) / 1e9)
      log(
        "tune seed \(seed): tuner \(row.tunerPick) (\(row.tunerLives) lives); "
          + versus.map {
            "random (\($0.variant.name)) \($0.pick) (\($0.candidates) candidates, \($0.lives) "
              + "lives): tuner − random \(Format.fixed($0.difference, 2)) ± "
              + Format.fixed($0.halfWidth, 2)
          }.joined(separator: "; ") + " on fresh users, \(Format.fixed(row.seconds, 1)) s")
      rows.append(row)
    }
    return rows
  }

  /// The objective of `policies` (larger is better: times the search's `direction`) per
  /// replication, on `scoreUsers` × `scoreReplications` users of `seed`, run together.
  func score(_ policies: [NamedPolicy], search: TuneSearch, seed: UInt64) throws -> [[Double]] {
    var world = search.scenario
    // Distinct names: several may pick the same preset.
    world.policies = policies.enumerated().map { index, policy in
      NamedPolicy(name: "pick-\(index)", configuration: policy.configuration)
    }
    world.baseline = world.policies[0].name
    world.users = scoreUsers
    world.replications = scoreReplications
    world.seed = seed
    let result = try Experiment.run(
      RunPlan(scenario: world, jobs: search.jobs), on: CompiledScenario(world))
    let metric = search.objective.metric
    return result.tallies.map { row in
      row.map { search.direction * (metric.value($0, world) ?? 0) }
    }
  }
}

extension BenchRun {
  /// The tuner against random search on the same budget, 20 seeds (`--quick`: 5), on each of
  /// ``BenchOptions/tuneProblems``; writes each problem's CSV. The scenario is each tune file's,
  /// whatever `--scenario` says.
  mutating func tuneSection(folder: OutputFolder) throws {
    for problem in options.tuneProblems {
      try tuneSection(problem, folder: folder)
    }
  }

  /// One problem of the tune section.
  mutating func tuneSection(_ problem: TuneProblem, folder: OutputFolder) throws {
    guard FileManager.default.fileExists(atPath: problem.file) else {
      throw BenchError("the tune section needs \(problem.file); run from the package root")
    }
    let plan = try TunePlan.load(contentsOf: problem.file)
    let count = options.quick ? 5 : 20
    var base =
      problem.size == "file" ? TuneBench.asFile(plan.search) : TuneBench.sized(plan.search)
    if let firstRound = TuneSearch.FirstRound(rawValue: options.tuneFirstRound),
      firstRound != base.firstRound
    {
      // Every setting needs discrete knobs: a problem with a continuous one keeps its own.
      if firstRound == .everySetting, TuneSearch.settingsCount(of: base.knobs) == nil {
        log(
          "tune: \(problem.file) has a continuous knob; its first round stays \(base.firstRound.rawValue)"
        )
      } else {
        base.firstRound = firstRound
      }
    }
    let bench = TuneBench(
      base: base,
      seeds: (1...UInt64(count)).map { $0 },
      scoreUsers: 40_000, scoreReplications: 5)
    log(
      "tune: \(problem.file) (\(problem.size) size) at \(bench.base.candidates) candidates × "
        + "\(bench.base.users) users × \(bench.base.replications), first round "
        + "\(bench.base.firstRound.rawValue) (\(bench.base.firstRoundSize)), \(count) seeds, against "
        + "random search with the same user lives; scored on \(Self.short(bench.scoreUsers)) × "
        + "\(bench.scoreReplications) fresh users")
    let rows = try bench.run(log: log)
    let knobs = bench.base.knobs.map(\.name)
    let objective = bench.base.objective.name
    var csv = CSVTable(
      header: ["seed", "random_variant", "random_users", "random_replications", "tuner_pick"]
        + knobs.map { "tuner_\($0)" } + [
          "tuner_lives", "tuner_selection_guaranteed", "tuner_selection_replications",
          "random_pick",
        ]
        + knobs.map { "random_\($0)" } + [
          "random_candidates", "random_lives", "tuner_fresh_\(objective)",
          "random_fresh_\(objective)", "difference", "half_width_95", "tuner_at_least_random",
          "tuner_not_below_random_95", "seed_seconds",
        ])
    func padded(_ values: [String]) -> [CSVField] {
      values.isEmpty ? knobs.map { _ in CSVField.text("") } : values.map(CSVField.text)
    }
    for row in rows {
      for (index, versus) in row.versus.enumerated() {
        csv.append(
          [
            .text(String(row.seed)), .text(versus.variant.name), .integer(versus.variant.users),
            .integer(versus.variant.replications), .text(row.tunerPick),
          ] + padded(row.tunerKnobs) + [
            .integer(row.tunerLives), .text(row.tunerGuaranteed ? "yes" : "no"),
            .integer(row.tunerSelectionObservations), .text(versus.pick),
          ]
            + padded(versus.knobs) + [
              .integer(versus.candidates), .integer(versus.lives), .number(row.tunerScore),
              .number(versus.score), .number(versus.difference), .number(versus.halfWidth),
              .text(row.tunerWins(index) ? "yes" : "no"),
              .text(row.tunerNotBelow(index) ? "yes" : "no"), .number(row.seconds),
            ])
      }
    }
    try folder.write(csv.text, to: problem.csvName)
    var primaryStatus = ""
    for (index, variant) in bench.variants.enumerated() {
      let wins = rows.indices.filter { rows[$0].tunerWins(index) }.count
      let ties = rows.filter { $0.tunerScore == $0.versus[index].score }.count
      let notBelow = rows.indices.filter { rows[$0].tunerNotBelow(index) }.count
      let prefix =
        index == 0
        ? "\(problem.prefix)_vs_random_search"
        : "\(problem.prefix)_vs_random_search_\(variant.name)"
      let status = wins >= 18 ? "met" : "missed"
      if index == 0 { primaryStatus = count == 20 ? status : "" }
      headline(
        "\(prefix)_wins_of_\(count)",
        index > 0
          ? "\(wins)"
          : count == 20 ? "\(wins) (target >= 18: \(status))" : "\(wins) (--quick: no target)")
      headline("\(prefix)_ties", "\(ties)")
      headline(
        "\(prefix)_not_below_95_of_\(count)",
        index > 0 || count != 20
          ? "\(notBelow)"
          : "\(notBelow) (paired 95% interval, target >= 18: \(notBelow >= 18 ? "met" : "missed"))")
      headline(
        "\(prefix)_mean_difference",
        Format.fixed(rows.map { $0.versus[index].difference }.reduce(0, +) / Double(rows.count), 2))
      headline(
        "\(prefix)_candidates_median",
        Format.significant(Measure.median(rows.map { Double($0.versus[index].candidates) })))
      table.add([
        "\(problem.label): tune vs random search (\(variant.users) users × "
          + "\(variant.replications) a candidate), "
          + "same user lives: seeds tuned ≥ random on fresh users",
        "\(wins) of \(count)", index == 0 ? "≥ 18 of 20" : "", index == 0 ? primaryStatus : "",
      ])
      table.add([
        "  … not below random search (paired 95% interval on fresh users)",
        "\(notBelow) of \(count)", index == 0 ? "≥ 18 of 20" : "",
        index == 0 && count == 20 ? (notBelow >= 18 ? "met" : "missed") : "",
      ])
    }
    headline(
      "\(problem.prefix)_selection_guaranteed_seeds", "\(rows.filter(\.tunerGuaranteed).count)")
    headline(
      "\(problem.prefix)_lives_per_seed_median",
      Format.count(Measure.median(rows.map { Double($0.tunerLives) })))
  }
}

/// One problem of the tune section: a tune file, the size it runs at, and the names of its
/// figures and CSV.
struct TuneProblem {
  var file: String
  /// `small` (``TuneBench/sized(_:)``) or `file` (``TuneBench/asFile(_:)``).
  var size: String
  /// The headline figures' prefix (`tune`: `tune_vs_random_search_wins_of_20`...).
  var prefix: String
  var csvName: String
  /// How the table's rows name the problem.
  var label: String
}

extension BenchOptions {
  /// The tune section's problems: `--tune-file`'s alone, else the bundled screen-gate tune of
  /// the default scenario (at `--tune-size`) and its deadline-aware tune (two continuous
  /// knobs, at its own size).
  var tuneProblems: [TuneProblem] {
    if let tuneFile {
      return [
        TuneProblem(
          file: tuneFile, size: tuneSize, prefix: "tune", csvName: "tune.csv", label: tuneFile)
      ]
    }
    return [
      TuneProblem(
        file: TuneBench.tunePath, size: tuneSize, prefix: "tune", csvName: "tune.csv",
        label: "screen gate"),
      TuneProblem(
        file: TuneBench.deadlineAwarePath, size: "file", prefix: "tune_deadline_aware",
        csvName: "tune-deadline-aware.csv", label: "deadline-aware"),
    ]
  }
}
