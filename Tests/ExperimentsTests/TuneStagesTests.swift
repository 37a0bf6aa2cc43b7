import Foundation
import MessageDeferral
import Reports
import Simulation
import TestSupport
import Testing

@testable import Experiments

/// A tune over shards (``TuneStages``): chains of stages, each split into N shards written to
/// files and merged, give the outcome and the verification of the tune run whole, whatever N
/// and however far the selection runs ahead; files that do not belong together are refused.
@Suite("Tune over shards")
struct TuneStagesTests {
  /// A selection that spans several stages at `ahead` below 12 and eliminates contenders as it
  /// goes (at seed 3 today: `never` after 6 replications, `storekit-auto` after 11, two left at
  /// the budget of 12).
  static let source = #"""
    {"base": {"preset": "deadline-aware"},
     "knobs": {"sheets_per_break": {"integer": [1, 3]}, "gate.home": {"choices": ["open", "closed"]}},
     "compare": ["storekit-auto", "never"],
     "search": {"candidates": 5, "users": 70, "replications": 2, "finalists": 2,
                "local_steps": 2},
     "selection": {"alpha": 0.05, "delta": 200, "users": 60, "initial_replications": 5,
                   "max_replications": 12},
     "seed": 3}
    """#

  static func folder() -> String {
    let path = TestScratch.directory.appendingPathComponent(
      "deferral-sim-tune-stages-\(UUID().uuidString)"
    ).path
    try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
  }

  static func plan(_ source: String = source, seed: Int? = nil) throws -> TunePlan {
    let text = seed.map { source.replacingOccurrences(of: #""seed": 3"#, with: "\"seed\": \($0)") }
    return try TunePlan.load(source: text ?? source, file: "stages.json")
  }

  /// The verification's CSV, the tune's own reading of its tallies.
  static func text(
    _ verified: (scenario: Scenario, result: RunResult), _ search: TuneSearch
  )
    -> String
  {
    TuneVerification(
      RunReport(scenario: verified.scenario, result: verified.result, baseline: "tuned"),
      objective: search.objective
    ).table.text
  }

  struct Chain {
    var outcome: TuneSearch.Outcome
    var verified: (scenario: Scenario, result: RunResult)
    var stages: Int
    var states: [String]
    var parts: [[String]]
  }

  /// Runs the tune as stages: stage s in `shards[s % count]` shards, written in reverse order,
  /// each merge's state written and read back.
  static func chain(
    _ plan: TunePlan, shards: [Int], ahead: Int, folder: String, blockSize: Int = 16
  ) throws -> Chain {
    var state: TuneState?
    var statePath = ""
    var states: [String] = []
    var parts: [[String]] = []
    while true {
      let (stage, runs) = try TuneStages.stage(
        of: plan, file: "stages.json", state: state, statePath: statePath, toolVersion: "test")
      #expect(stage == parts.count)
      let count = shards[stage % shards.count]
      var paths: [String] = []
      for shard in (0..<count).reversed() {
        let part = try TuneStages.part(
          of: plan, name: "stages", stage: stage, runs: runs, state: state,
          shard: (shard, count), toolVersion: "test", blockSize: blockSize)
        let path =
          "\(folder)/\(TunePart.fileName(stage: stage, shard: shard, shards: count))"
        try part.encoded().write(toFile: path, atomically: true, encoding: .utf8)
        paths.append(path)
      }
      parts.append(paths)
      switch try TuneStages.merge(
        parts: paths, state: state, statePath: statePath, ahead: ahead, jobs: 1,
        toolVersion: "test")
      {
      case .next(let next, _):
        statePath = "\(folder)/\(TuneState.fileName(stage: next.stage))"
        try next.encoded().write(toFile: statePath, atomically: true, encoding: .utf8)
        state = try TuneState.read(contentsOf: statePath)
        states.append(statePath)
      case .finished(_, let name, let outcome, let verified, _, let stages):
        #expect(name == "stages")
        return Chain(
          outcome: outcome, verified: verified, stages: stages, states: states, parts: parts)
      }
    }
  }

  static func expectSame(
    _ chain: Chain, as whole: TuneSearch.Outcome, verification: String,
    search: TuneSearch
  ) {
    #expect(chain.outcome.evaluations == whole.evaluations)
    #expect(chain.outcome.selection == whole.selection)
    #expect(chain.outcome.contenders.map(\.name) == whole.contenders.map(\.name))
    #expect(chain.outcome.lives == whole.lives)
    #expect(text(chain.verified, search) == verification)
  }

  /// Whether a selection eliminates contenders as it goes: some before the budget, and not
  /// all at once (else batches of stages would test nothing).
  static func isSequential(_ outcome: TuneSearch.Outcome) -> Bool {
    let out = outcome.selection.eliminatedAfter.compactMap { $0 }
    return !out.isEmpty && Set(out).count > 1
  }

  /// The tune run whole, once for every test: its outcome and verification CSV. The seed is
  /// the first from 3 whose selection is sequential (``isSequential(_:)``), so a change that
  /// moves the draws (a new random stream) moves the fixture with it instead of failing here.
  static let whole:
    Result<(plan: TunePlan, outcome: TuneSearch.Outcome, verification: String), any Error> =
      Result {
        var plan = try Self.plan()
        var outcome = try plan.search.run()
        for seed in 4..<12 where !isSequential(outcome) {
          plan = try Self.plan(seed: seed)
          outcome = try plan.search.run()
        }
        return (plan, outcome, Self.text(try plan.search.verify(outcome.best), plan.search))
      }

  @Test(arguments: [([1], 1), ([2], 3), ([3], 12), ([3, 1, 2], 2)])
  func aChainOfStagesIsTheTuneRunWhole(shards: [Int], ahead: Int) throws {
    let (plan, whole, verification) = try Self.whole.get()
    // The selection must be sequential here, or the batches would test nothing.
    #expect(Self.isSequential(whole), "no seed of 3 to 11 gives a sequential selection")
    let chain = try Self.chain(plan, shards: shards, ahead: ahead, folder: Self.folder())
    Self.expectSame(chain, as: whole, verification: verification, search: plan.search)
    // Rounds, then the selection's stages (the first covering the first-stage replications),
    // then the verification.
    let rounds = Set(whole.evaluations.compactMap(\.round)).count
    let selectionReplications = whole.selection.replications.max()!
    let selectionStages =
      1 + max(0, selectionReplications - max(ahead, 5) + ahead - 1) / ahead
    #expect(chain.stages == rounds + selectionStages + 1, "\(chain.stages) stages")
  }

  /// A first round of every setting (the fixture's 6, halved on the first round's users to
  /// its 5 candidates, then as before, with its local steps): its rounds are the stages, and
  /// the chain gives the tune run whole.
  @Test func aChainOfEverySettingIsTheTuneRunWhole() throws {
    let source = Self.source.replacingOccurrences(
      of: #""finalists": 2,"#, with: #""finalists": 2, "first_round": "every_setting","#)
    let plan = try Self.plan(source)
    #expect(plan.search.screensEverySetting && plan.search.firstRoundSize == 6)
    let whole = try plan.search.run()
    #expect(whole.evaluations.filter { $0.round == 0 }.count == 6)
    #expect(
      whole.evaluations.filter { $0.round == 1 && $0.localStep == nil }.map(\.users) == [
        70, 70, 70, 70, 70,
      ])
    let verification = Self.text(try plan.search.verify(whole.best), plan.search)
    let chain = try Self.chain(plan, shards: [2, 3], ahead: 3, folder: Self.folder())
    Self.expectSame(chain, as: whole, verification: verification, search: plan.search)
  }

  /// Across the worlds of a study, with a regret: each stage's run in every world.
  @Test func aChainAcrossWorldsIsTheTuneRunWhole() throws {
    let folder = Self.folder()
    try #"""
    {"users": 50, "replications": 2, "worlds": 4,
     "parameters": {"value.consent_deadline_missed": {"uniform": {"min": 5, "max": 90},
                                                      "source": "assumption"}}}
    """#.write(toFile: "\(folder)/study.json", atomically: true, encoding: .utf8)
    let source = Self.source.replacingOccurrences(
      of: #"{"base""#, with: #"{"study": "study.json", "across_worlds": "expected_regret", "base""#
    ).replacingOccurrences(of: #""max_replications": 12"#, with: #""max_replications": 7"#)
      .replacingOccurrences(of: #""candidates": 5"#, with: #""candidates": 3"#)
    try source.write(toFile: "\(folder)/tune.json", atomically: true, encoding: .utf8)
    let plan = try TunePlan.load(contentsOf: "\(folder)/tune.json")
    #expect(plan.search.worlds.count == 4 && plan.studySource != nil)
    let whole = try plan.search.run()
    let verification = Self.text(try plan.search.verify(whole.best), plan.search)
    let chain = try Self.chain(plan, shards: [2], ahead: 4, folder: folder)
    Self.expectSame(chain, as: whole, verification: verification, search: plan.search)
    // The study read back from the stored texts, not from disk.
    try FileManager.default.removeItem(atPath: "\(folder)/study.json")
    let state = try TuneState.read(contentsOf: chain.states[0])
    #expect(try state.tune.plan(file: "state").search.worlds.count == 4)
  }

  /// Every file handed back is checked: the stage, the state it ran from, the tune, the shards,
  /// and the digests.
  @Test func refusesFilesThatDoNotBelongTogether() throws {
    let folder = Self.folder()
    let plan = try Self.plan()
    let chain = try Self.chain(plan, shards: [2], ahead: 12, folder: folder)
    let state1 = try TuneState.read(contentsOf: chain.states[0])
    let state2 = try TuneState.read(contentsOf: chain.states[1])
    func refusal(_ body: () throws -> Void) -> String {
      do {
        try body()
        return "accepted"
      } catch let error as PartialError {
        return error.message
      } catch {
        return "\(error)"
      }
    }
    func merge(_ paths: [String], _ state: TuneState?, _ path: String = "s.json") -> String {
      refusal {
        _ = try TuneStages.merge(
          parts: paths, state: state, statePath: path, ahead: 12, jobs: 1, toolVersion: "test")
      }
    }
    let stage1 = chain.parts[1]
    // Another stage's state, no state, a state for stage 0's parts.
    #expect(merge(stage1, state2).contains("is a part of stage 1, s.json the state for stage 2"))
    #expect(merge(stage1, nil).contains("which runs from tune-state-1.json; give it with --state"))
    #expect(merge(chain.parts[0], state1).contains("merge stage 0 without --state"))
    // A missing shard, a shard twice.
    #expect(merge([stage1[0]], state1).contains("missing shard(s) 0 of 2"))
    #expect(merge([stage1[0], stage1[0]], state1).contains("shard 1 given twice"))
    // Parts run from another state of the same stage (written again with another --ahead).
    var other = state1
    other.ahead = 5
    let otherPath = "\(folder)/other-state.json"
    try other.encoded().write(toFile: otherPath, atomically: true, encoding: .utf8)
    let reread = try TuneState.read(contentsOf: otherPath)
    #expect(merge(stage1, reread, otherPath).contains("ran from another state than"))
    // Edited files: the content digest.
    let edited = "\(folder)/edited.json"
    let partText = try String(contentsOfFile: stage1[0], encoding: .utf8)
    try partText.replacingOccurrences(of: #""block_size":16"#, with: #""block_size":17"#)
      .write(toFile: edited, atomically: true, encoding: .utf8)
    #expect(merge([edited, stage1[1]], state1).contains("edited.json: $.content_sha256"))
    let stateText = try String(contentsOfFile: chain.states[0], encoding: .utf8)
    try stateText.replacingOccurrences(of: #""ahead":12"#, with: #""ahead":4"#)
      .write(toFile: edited, atomically: true, encoding: .utf8)
    #expect(
      refusal { _ = try TuneState.read(contentsOf: edited) }.contains(
        "edited.json: $.content_sha256"))
    // A record's number edited: still 16 hex digits is caught by the digest, a bad one by name.
    try stateText.replacingOccurrences(of: #""values":[[""#, with: #""values":[["x"#)
      .write(toFile: edited, atomically: true, encoding: .utf8)
    #expect(refusal { _ = try TuneState.read(contentsOf: edited) }.contains("is not 16 hex digits"))
    // Another format, another version.
    #expect(
      refusal { _ = try TuneState.read(contentsOf: stage1[0]) }.contains(
        "format 'deferral-sim-tune-part' is not 'deferral-sim-tune-state'"))
    try stateText.replacingOccurrences(of: #""format_version":1"#, with: #""format_version":9"#)
      .write(toFile: edited, atomically: true, encoding: .utf8)
    #expect(refusal { _ = try TuneState.read(contentsOf: edited) }.contains("format version 9"))
    // The tune file changed between stages (another seed), and another tool version.
    let changed = try Self.plan(seed: 4)
    #expect(
      refusal {
        _ = try TuneStages.stage(
          of: changed, file: "stages.json", state: state1, statePath: "s.json",
          toolVersion: "test")
      }.contains("stages.json is not the tune file the stages started from"))
    #expect(
      refusal {
        _ = try TuneStages.stage(
          of: plan, file: "stages.json", state: state1, statePath: "s.json", toolVersion: "0.0")
      }.contains("written by deferral-sim test, this is 0.0"))
    // An edit whose digest was recomputed on purpose passes the file's own checks; a record
    // that does not fit the tune is still refused, never a trap.
    var forged = state1
    forged.records[0].constraints[0] = [1.0]
    let forgedPath = "\(folder)/forged-state.json"
    try forged.encoded().write(toFile: forgedPath, atomically: true, encoding: .utf8)
    let reforged = try TuneState.read(contentsOf: forgedPath)
    #expect(
      refusal {
        _ = try TuneStages.stage(
          of: plan, file: "stages.json", state: reforged, statePath: forgedPath,
          toolVersion: "test")
      }.contains("forged-state.json: $.records[0]: does not fit the tune (0 constraints"))
    // Each check above refused a file the chain accepts as written.
    #expect(merge(stage1, state1).hasPrefix("accepted"))
  }

  /// A record answers a run of some of its policies on the same users (the selection's
  /// replications run ahead for contenders later eliminated), in the run's order.
  @Test func aRecordAnswersARunOfSomeOfItsPolicies() throws {
    let search = try Self.plan().search
    let policies = search.compare
    let key = TuneRunKey(
      phase: "selection 1", world: nil, policies: policies.map(\.name), users: 60,
      replications: 1, seed: "9")
    let replay = TuneReplay(records: [
      TuneRecord(run: key, values: [[1.5, -2.25]], constraints: [[nil], [0.5]])
    ])
    let run = TuneRun(
      phase: .selection(replication: 0, survivors: 1), world: nil, policies: [policies[1]],
      users: 60, replications: 1, seed: 9)
    let answer = try replay.evaluation(of: run)
    #expect(answer.values == [[-2.25]] && answer.constraints == [[0.5]])
    var elsewhere = run
    elsewhere.seed = 10
    #expect(throws: TuneStageNeeded.self) { try replay.evaluation(of: elsewhere) }
    // Bits survive the file: a value with no short decimal form and a negative zero.
    let record = TuneRecord(
      run: key, values: [[0.1 + 0.2, -0.0]], constraints: [[Double.pi], [nil]])
    let decoded = try JSONDecoder().decode(
      TuneRecord.self, from: JSONEncoder().encode(record))
    #expect(decoded.values[0].map(\.bitPattern) == record.values[0].map(\.bitPattern))
    #expect(decoded.constraints[0][0] == Double.pi && decoded.constraints[1][0] == nil)
  }
}
