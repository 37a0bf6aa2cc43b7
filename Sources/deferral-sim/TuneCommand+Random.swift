import Experiments
import Foundation
import MessageDeferral
import Reports
import Simulation

/// `deferral-sim tune --method random --budget LIVES`: the tuner's baseline, random search
/// over the same knobs with a budget in user lives (``TuneSearch/randomSearch(budget:users:replications:progress:)``).
extension TuneCommand {
  /// A budget that buys no candidate, or more than one run takes, is a usage error, with
  /// the least that buys one or the most that fits.
  static func checkBudget(_ budget: Int, search: TuneSearch) throws(UsageError) {
    let count = search.randomCandidates(
      budget: budget, users: search.users, replications: search.replications)
    let worlds = search.worlds.isEmpty ? "" : " × \(search.worlds.count) worlds"
    let each = search.users * search.replications * max(1, search.worlds.count)
    let most = TuneSearch.maximumRandomCandidates
    if count > most {
      throw UsageError(
        message: "'--budget' \(budget) buys \(count) random candidates, more than the \(most) "
          + "one search takes; give at most \(each * (most + search.compare.count)), or raise "
          + "the file's search.users or search.replications (each candidate's \(each) user lives)",
        command: "tune")
    }
    guard count < 1 else { return }
    throw UsageError(
      message: "'--budget' \(budget) buys no random candidate: each policy costs "
        + "\(search.users) users × \(search.replications) replications\(worlds) = \(each) user "
        + "lives, and the compared presets (\(search.compare.count)) run beside the candidates; "
        + "give at least \(each * (search.compare.count + 1))",
      command: "tune")
  }

  static func executeRandom(
    _ plan: TunePlan, name: String, budget: Int, folder: OutputFolder,
    written: OutputOptions, output: any OutputStreams, showProgress: Bool, started: Date
  ) throws -> Int32 {
    let search = plan.search
    let outcome = try search.randomSearch(budget: budget) { line in
      if showProgress { output.err("tune: " + line) }
    }
    try folder.write(
      Self.evaluationTable(outcome.evaluations, search: search, stage: "random").text,
      to: "tune.csv")
    try Self.writeWinner(
      outcome.best, definition: outcome.policyDefinitions[outcome.selected], plan: plan,
      folder: folder)
    if showProgress { output.err("tune: verification on new users") }
    let verification = try Self.writeVerification(
      try search.verify(outcome.best), search: search, folder: folder)
    try folder.commit()
    let (metricUnit, unit) = Self.units(search)
    output.out(
      "\(name): random search, \(outcome.candidates) candidates over \(search.knobs.count) knob\(search.knobs.count == 1 ? "" : "s") "
        + "and \(search.compare.count) compared preset\(search.compare.count == 1 ? "" : "s"), "
        + (search.worlds.isEmpty
          ? ""
          : "in \(search.worlds.count) worlds (\(search.acrossWorlds.rawValue)), ")
        + "\(outcome.lives) user lives of a budget of \(budget), "
        + "\(TerminalTable.fixed(Date().timeIntervalSince(started), 1)) s")
    let evaluation = outcome.evaluations[outcome.selected]
    let knobs = outcome.policyKnobs[outcome.selected]
    let setting =
      knobs.isEmpty
      ? ""
      : "  " + zip(search.knobs, knobs).map { "\($0.name)=\(short($1))" }.joined(separator: " ")
    output.out(
      "Best mean: \(outcome.best.name)  \(TerminalTable.fixed(evaluation.mean + 0, 2)) \(unit) "
        + "over \(evaluation.replications) replications of \(evaluation.users) users"
        + (evaluation.feasible ? "" : " (no candidate kept every constraint)") + setting)
    output.out(
      "No guarantee: random search picks the largest of \(outcome.policies.count) means, which "
        + "overstates the pick's own; the verification on new users does not.")
    for line in verification.lines(unit: metricUnit) { output.out(line) }
    if !search.worlds.isEmpty {
      output.out("  (the verification runs in the study's scenario itself, not in its worlds)")
    }
    output.out(
      "Wrote tune.csv, tuned-policy.json, tuned-scenario-policy.json, verification.csv to "
        + "\(written.folder)/")
    return ExitStatus.success
  }
}
