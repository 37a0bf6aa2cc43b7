import Foundation

/// What to measure and how long to spend: `--quick` (under a minute on 2 cores) or the full run.
struct BenchOptions {
  var quick = false
  var out = "results/bench"
  var sections: Set<String> = BenchOptions.allSections
  var scenarioPath: String?
  /// The tune section's problem size: `small` (``TuneBench/sized(_:)``) or `file` (the bundled
  /// tune's own sizes, as a user runs it).
  var tuneSize = "small"
  /// The tuner's first round (`search.first_round`): `latin_hypercube` (the file's default) or
  /// `every_setting`.
  var tuneFirstRound = "latin_hypercube"
  /// The tune file of the tune section's one problem; `nil`: the two bundled problems
  /// (``tuneProblems``).
  var tuneFile: String?

  static let allSections: Set<String> = [
    "queue", "engine", "memory", "merge", "peer", "scale", "tune",
  ]

  static let usage = """
    usage: deferral-bench [--quick] [--out DIR] [--only queue,engine,memory,merge,peer,scale,tune] [--scenario FILE] [--tune-size small|file] [--tune-first-round latin_hypercube|every_setting] [--tune-file FILE]

    Measures, side by side in one run: PendingQueue against the article's Array queue; engine
    throughput with --jobs 1 and 2; cost per user and peak memory from 1k to 1M users; engine
    time against the GSL floor; the merge's peak memory for 16 and 256 partials; the engine
    against the SimPy peer (Benchmarks/peers/). Writes
    DIR/{queue,engine,scaling,memory,floor,merge-memory,peer,tune}.csv (default results/bench)
    and prints a table and the headline figures as `name: value`. Run from the package root.

    engine_over_rng_floor is the shared run's time (--jobs 1) ÷ the time GSL takes to draw, in
    tight loops, exactly the variates that run drew, counted by kind: each user's trunk once,
    then once per branch simulation actually run from the fork (one per group of policies
    that answered alike, so never more than one per policy).
    engine_over_rng_floor_branch_per_policy divides the same time by the floor of a branch
    per policy from the fork (the variates of the same run without groups).

    scale_minutes_1m_users_10_reps_8_policies: a run of 100,000 users (--quick: 20,000) x 10
    replications x 8 policies with --jobs 2, extrapolated linearly in user lives to a million
    users (the cost per user is flat from 1k to 1M users: the memory section's
    ns_per_user lines show it), against the target of 5 minutes.

    tune_vs_random_search_wins_of_20: for 20 seeds (--quick --only tune: 5), the bundled tune
    (scenarios/tunes/indie-subscription.json) at a small size, and random search spending
    the same user lives (deferral-sim tune --method random: candidates on the first
    round's 500 users x 4); the picks are then run on 40,000 x 5 users none saw (paired),
    and a seed is the tuner's when its mean value there is at least random search's. Target:
    at least 18 of 20. tune_vs_random_search_selection_size_*: the same against random
    search whose candidates get the selection's 1,000 users x 5. Writes DIR/tune.csv.
    tune_deadline_aware_vs_random_search_*: the same on the default scenario's deadline-aware
    tune (scenarios/tunes/indie-subscription-deadline-aware.json: two continuous knobs of
    four) at its own sizes, with its local steps. Writes DIR/tune-deadline-aware.csv.

      --quick      a reduced run, under a minute on 2 cores (memory sweep up to 100k users,
                   merges of 16 and 64 partials; no tune section unless --only names it)
      --out DIR    where the CSV files go
      --only LIST  run only these sections (headlines of skipped sections are not printed)
      --scenario   the scenario file (default scenarios/indie-subscription.json if present)
      --tune-size  small (default: 16 candidates of 500 users x 4, selection on 1,000 users,
                   5 to 20 replications, three presets) or file (the bundled tune's own
                   sizes and presets, as a user runs it; several times longer)
      --tune-first-round  the tuner's first round: latin_hypercube (default, the bundled
                   file's) or every_setting (all 243 settings, halved on the first round's
                   users until the candidates are left; about 5 times the user lives; a
                   problem with a continuous knob keeps its own)
      --tune-file  one tune file as the section's only problem (at --tune-size), instead of
                   the two bundled ones; its figures are named tune_vs_random_search_*
    """

  struct UsageError: Error { var message: String }

  /// Parses the arguments; `nil` for `--help`.
  init?(arguments: [String]) throws {
    var index = 0
    var only = false
    func value(_ flag: String) throws -> String {
      index += 1
      guard index < arguments.count else { throw UsageError(message: "\(flag) needs a value") }
      return arguments[index]
    }
    while index < arguments.count {
      switch arguments[index] {
      case "--help", "-h": return nil
      case "--quick": quick = true
      case "--out": out = try value("--out")
      case "--scenario": scenarioPath = try value("--scenario")
      case "--tune-size":
        tuneSize = try value("--tune-size")
        guard ["small", "file"].contains(tuneSize) else {
          throw UsageError(message: "--tune-size takes small or file, not '\(tuneSize)'")
        }
      case "--tune-file": tuneFile = try value("--tune-file")
      case "--tune-first-round":
        tuneFirstRound = try value("--tune-first-round")
        guard ["latin_hypercube", "every_setting"].contains(tuneFirstRound) else {
          throw UsageError(
            message: "--tune-first-round takes latin_hypercube or every_setting, not "
              + "'\(tuneFirstRound)'")
        }
      case "--only":
        let list = Set(try value("--only").split(separator: ",").map(String.init))
        guard !list.isEmpty, list.isSubset(of: Self.allSections) else {
          throw UsageError(
            message: "--only takes a list of: queue, engine, memory, merge, peer, scale, tune")
        }
        sections = list
        only = true
      default: throw UsageError(message: "unknown argument '\(arguments[index])'")
      }
      index += 1
    }
    if let tuneFile, !FileManager.default.fileExists(atPath: tuneFile) {
      throw UsageError(message: "--tune-file: no file at '\(tuneFile)'")
    }
    // The tune section takes minutes even at its --quick size: --quick leaves it out unless
    // --only asks for it.
    if quick, !only { sections.remove("tune") }
  }
}
