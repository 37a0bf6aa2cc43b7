import Foundation
import MessageDeferral
import Reports
import Simulation

/// The steps of a tune over shards, for the command line: which stage a state names, one
/// shard of it, and the merge of a stage's parts into the next state or the tune's outcome.
/// Every file handed in is checked before use (``TuneState/check(path:)``,
/// ``TunePart/check(path:)``, and here: the tune file against the state, the parts against
/// the state and against the runs the state names), and refused with a ``PartialError`` that
/// names the file and what to do.
public enum TuneStages {
  /// Selection replications a stage runs ahead when `merge` is not told (`--ahead`).
  public static let defaultAhead = 10

  /// The runs of the stage after `records`, and the outcome once every search evaluation is
  /// recorded (the stage is then the verification).
  static func upcoming(
    _ search: TuneSearch, records: [TuneRecord], ahead: Int
  ) throws -> (runs: [TuneRun], outcome: TuneSearch.Outcome?) {
    switch try search.next(after: records, ahead: ahead) {
    case .stage(let runs): return (runs, nil)
    case .done(let outcome): return ([search.verificationRun(outcome.best)], outcome)
    }
  }

  /// Refuses a state written by another version of the tool: a replay must run the code that
  /// recorded it.
  static func checkVersion(
    _ state: TuneState, path: String, toolVersion: String
  ) throws(PartialError) {
    guard state.toolVersion == toolVersion else {
      throw PartialError(
        message: "\(path): written by deferral-sim \(state.toolVersion), this is "
          + "\(toolVersion); run every stage of a tune with one version")
    }
  }

  /// Refuses records that do not fit `search`: one pooled value per constraint of the tune, so
  /// that a state whose digest was recomputed after an edit cannot make the replay trap.
  static func checkRecords(
    _ state: TuneState, fit search: TuneSearch, path: String
  ) throws(PartialError) {
    for (index, record) in state.records.enumerated()
    where !record.constraints.allSatisfy({ $0.count == search.constraints.count })
      || (record.run.world ?? 0) >= max(1, search.worlds.count) || (record.run.world ?? 0) < 0
    {
      throw PartialError(
        message: "\(path): $.records[\(index)]: does not fit the tune (\(search.constraints.count) "
          + "constraints, \(search.worlds.count) worlds); \(TuneState.rewrite)")
    }
  }

  /// The stage `state` names for the tune `plan` read from `file` (stage 0 without a state):
  /// its number and runs. Refuses a state of another tune file, scenario or study, of another
  /// version, or whose runs are not the ones the tune asks for next.
  public static func stage(
    of plan: TunePlan, file: String, state: TuneState?, statePath: String, toolVersion: String
  ) throws -> (number: Int, runs: [TuneRun]) {
    guard let state else {
      return (0, try upcoming(plan.search, records: [], ahead: defaultAhead).runs)
    }
    try checkVersion(state, path: statePath, toolVersion: toolVersion)
    if let what = state.tune.mismatch(with: plan, file: file) {
      throw PartialError(
        message: "\(statePath): \(what); give the tune file (and scenario) the stages started "
          + "from, or start again from stage 0 (tune \(file) --shard K/N without --state)")
    }
    try checkRecords(state, fit: plan.search, path: statePath)
    let runs = try upcoming(plan.search, records: state.records, ahead: state.ahead).runs
    guard runs.map(\.key) == state.next else {
      throw PartialError(
        message: "\(statePath): $.next: the runs it names are not the ones its records lead to "
          + "(an edited file?); \(TuneState.rewrite)")
    }
    return (state.stage, runs)
  }

  /// Simulates shard `shard` of the stage `runs` (work items of `blockSize` users) and returns
  /// its part.
  public static func part(
    of plan: TunePlan, name: String, stage: Int, runs: [TuneRun], state: TuneState?,
    shard: (index: Int, count: Int), toolVersion: String,
    blockSize: Int = RunOptions.defaultBlockSize, progress: ((Int) -> Void)? = nil
  ) throws -> TunePart {
    let tallies = try plan.search.simulate(
      runs, shard: shard, blockSize: blockSize, progress: progress)
    return TunePart(
      toolVersion: toolVersion, tune: state?.tune ?? TuneSources(name: name, plan: plan),
      stage: stage, stateSHA256: state?.contentSHA256 ?? "", runs: runs,
      blockSize: blockSize, shard: shard.index, shards: shard.count, tallies: tallies)
  }

  /// What a merge of one stage's parts gives.
  public enum Merged: Sendable {
    /// The state for the next stage (its runs in `runs`).
    case next(TuneState, runs: [TuneRun])
    /// The verification stage was merged: the tune's outcome and the verification run, as
    /// ``TuneSearch/run(progress:)`` and ``TuneSearch/verify(_:)`` give them.
    case finished(
      plan: TunePlan, name: String, outcome: TuneSearch.Outcome,
      verified: (scenario: Scenario, result: RunResult),
      livesSimulated: Int, stages: Int)
  }

  /// Merges the parts at `paths` (every shard of one stage, each once) with the state they
  /// ran from (`nil` for stage 0), into the next state (with `ahead` selection replications
  /// a stage) or, after the verification stage, the tune's outcome.
  public static func merge(
    parts paths: [String], state: TuneState?, statePath: String, ahead: Int, jobs: Int,
    toolVersion: String
  ) throws -> Merged {
    var merger = PartialMerger<TunePart>()
    for path in paths { try merger.add(try TunePart.read(contentsOf: path), path: path) }
    let merged = try merger.result(complete: true)
    let first = paths[0]
    guard merged.toolVersion == toolVersion else {
      throw PartialError(
        message: "\(first): written by deferral-sim \(merged.toolVersion), this is "
          + "\(toolVersion); run every stage of a tune with one version")
    }
    if let state {
      try checkVersion(state, path: statePath, toolVersion: toolVersion)
      guard merged.stage == state.stage else {
        throw PartialError(
          message: "\(first) is a part of stage \(merged.stage), \(statePath) the state for "
            + "stage \(state.stage); give the parts of stage \(state.stage) "
            + "(tune-stage-\(state.stage)-part-K-of-N.json), or the state they ran from "
            + (merged.stage == 0
              ? "(none: merge stage 0 without --state)" : "(tune-state-\(merged.stage).json)"))
      }
      guard merged.stateSHA256 == state.contentSHA256 else {
        throw PartialError(
          message: "\(first) ran from another state than \(statePath) (its state_sha256 is not "
            + "the state's content_sha256: a state written again since?); run the stage's "
            + "shards again from \(statePath)")
      }
      guard merged.tune == state.tune else {
        throw PartialError(
          message: "\(first) belongs to another tune file, scenario or study than \(statePath); "
            + "merge only the parts of one tune")
      }
    } else if merged.stage != 0 {
      throw PartialError(
        message: "\(first) is a part of stage \(merged.stage), which runs from "
          + "tune-state-\(merged.stage).json; give it with --state")
    }
    var plan = try merged.tune.plan(file: first)
    plan.search.jobs = jobs
    if let state { try checkRecords(state, fit: plan.search, path: statePath) }
    let records = state?.records ?? []
    let (expected, outcome) = try upcoming(
      plan.search, records: records, ahead: state?.ahead ?? defaultAhead)
    guard expected.map(\.key) == merged.runs else {
      throw PartialError(
        message: "\(first): $.runs: not the runs stage \(merged.stage) of this tune asks for "
          + "(an edited file?); run the stage's shards again")
    }
    let lives = expected.reduce(state?.livesSimulated ?? 0) { $0 + $1.lives }
    if let outcome {
      let world = plan.search.scenario(of: expected[0])
      let result = RunResult(policies: world.policies, tallies: merged.tallies[0])
      return .finished(
        plan: plan, name: merged.tune.name, outcome: outcome, verified: (world, result),
        livesSimulated: lives,
        stages: merged.stage + 1)
    }
    let all = records + plan.search.records(of: expected, tallies: merged.tallies)
    let next = try upcoming(plan.search, records: all, ahead: ahead).runs
    let nextState = TuneState(
      toolVersion: toolVersion, tune: merged.tune, stage: merged.stage + 1, ahead: ahead,
      records: all, next: next.map(\.key), livesSimulated: lives)
    return .next(nextState, runs: next)
  }

  /// Whether `arguments` are a tune's parts: a file whose format is a tune part, or a folder
  /// holding `tune-stage-S-part-K-of-N.json` or `tune-state-S.json` files and no run or sweep
  /// partial.
  public static func areTuneParts(_ arguments: [String]) -> Bool {
    arguments.contains { argument in
      var isFolder: ObjCBool = false
      guard FileManager.default.fileExists(atPath: argument, isDirectory: &isFolder) else {
        return false
      }
      guard isFolder.boolValue else { return TunePart.isPart(contentsOf: argument) }
      let names = (try? FileManager.default.contentsOfDirectory(atPath: argument)) ?? []
      return
        names.contains {
          TunePart.stage(ofFileName: $0) != nil
            || ($0.hasPrefix("tune-state-") && $0.hasSuffix(".json"))
        }
        && !names.contains { $0.hasPrefix("partial-") && $0.hasSuffix(".json") }
    }
  }

  /// The part files `arguments` name: a file as given; a folder, its parts of `stage`.
  public static func partPaths(_ arguments: [String], stage: Int) throws(PartialError) -> [String] {
    try PartialFile.files(arguments, matching: { TunePart.stage(ofFileName: $0) == stage }) {
      folder in
      "\(folder): no tune-stage-\(stage)-part-K-of-N.json in this folder; run the stage's shards "
        + "first (tune TUNE --shard K/N" + (stage == 0 ? ")" : " --state tune-state-\(stage).json)")
        + ", or give the state the parts here ran from with --state"
    }
  }

  /// A stage in words: `round 2: 12 policies, 2000 users × 4`, `selection 11-20: 5 policies,
  /// 2000 users × 1 each`, `verification: 3 policies, 2000 users × 10`; with worlds, how many.
  public static func describe(_ runs: [TuneRun]) -> String {
    let first = runs[0]
    let worlds = Set(runs.map(\.world)).count
    let inWorlds = first.world == nil ? "" : " in each of \(worlds) worlds"
    switch first.phase {
    case .selection(let replication, _):
      let last = runs.compactMap { run -> Int? in
        if case .selection(let each, _) = run.phase { return each }
        return nil
      }.max()!
      let span = last > replication ? "\(replication + 1)-\(last + 1)" : "\(replication + 1)"
      return "selection \(span): \(first.policies.count) policies, \(first.users) users × 1 each"
        + inWorlds
    case .round, .local, .verification:
      return "\(first.phase.text): \(first.policies.count) policies, \(first.users) users × "
        + "\(first.replications)" + inWorlds
    }
  }
}
