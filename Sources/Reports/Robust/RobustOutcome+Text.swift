extension RobustOutcome {
  /// `robust-tornado.csv`: one row per parameter, largest |rho| first.
  public var tornadoTable: CSVTable {
    var table = CSVTable(header: [
      "rank", "parameter", "spearman_rho", "abs_rho", "leader", "runner_up", "worlds",
      "noise_level", "source",
    ])
    let noise = RobustStatistics.noiseLevel(worlds: worlds)
    for (rank, row) in tornado.enumerated() {
      table.append([
        .integer(rank + 1), .text(row.parameter), .number(row.rho), .number(row.rho.map(abs)),
        .text(leader), .text(runnerUp ?? ""), .integer(worlds), .number(noise),
        .text(row.source),
      ])
    }
    return table
  }

  /// What the terminal shows: the share of worlds each policy wins as bars, with its expected
  /// and worst regret, then the parameters that decide between the top two.
  public var terminalLines: [String] {
    var lines = [
      "Share of worlds where each policy is best (highest \(Self.decidingMetric.name), \(unit)):"
    ]
    let width = policies.map(\.policy.count).max() ?? 0
    for row in policies {
      let filled = Int((row.shareBest * 20).rounded())
      let share = TerminalTable.fixed(row.shareBest * 100, 1) + "%"
      lines.append(
        "  " + row.policy.padding(toLength: width, withPad: " ", startingAt: 0) + "  "
          + String(repeating: "█", count: filled)
          + String(repeating: "·", count: 20 - filled) + " "
          + String(repeating: " ", count: Swift.max(0, 6 - share.count)) + share
          + " [\(TerminalTable.fixed(row.shareLow * 100, 0))–"
          + "\(TerminalTable.fixed(row.shareHigh * 100, 0))%]  expected regret "
          + "\(Decision.amount(row.expectedRegret, unit)), worst "
          + Decision.amount(row.worstRegret, unit)
          + (row.worstWorld.map { " (world \($0))" } ?? ""))
    }
    guard let runnerUp else {
      lines.append("Every policy has the same value in every world: nothing to decide.")
      return lines
    }
    let noise = RobustStatistics.noiseLevel(worlds: worlds)
    lines.append(
      "What decides between \(leader) and \(runnerUp) (Spearman ρ of each parameter with "
        + "their value gap; |ρ| below \(TerminalTable.fixed(noise, 2)) is noise at \(worlds) "
        + "worlds):")
    let shown = tornado.prefix(10)
    let nameWidth = shown.map(\.parameter.count).max() ?? 0
    for row in shown {
      let name = row.parameter.padding(toLength: nameWidth, withPad: " ", startingAt: 0)
      if let levels = row.levels {
        // A categorical parameter has no "larger": each level with who wins it.
        let rho = row.rho.map { (($0 >= 0 ? "+" : "") + TerminalTable.fixed($0, 2)) } ?? "—"
        lines.append("  \(name)  \(rho)  by level (no order):")
        for level in levels { lines.append("    " + Self.sentence(level, of: row)) }
        continue
      }
      guard let rho = row.rho else {
        lines.append("  \(name)     —  (does not vary)")
        continue
      }
      let text = (rho >= 0 ? "+" : "") + TerminalTable.fixed(rho, 2)
      let bar = String(repeating: "█", count: Int((abs(rho) * 20).rounded()))
      let direction =
        abs(rho) < noise
        ? "noise" : rho > 0 ? "larger favours \(leader)" : "larger favours \(runnerUp)"
      lines.append("  \(name)  \(text)  \(bar) \(direction)")
    }
    if tornado.count > shown.count {
      lines.append("  … \(tornado.count - shown.count) more in robust-tornado.csv")
    }
    return lines
  }

  /// A level of a categorical parameter in words: "with `launch` delivery, storekit-auto wins
  /// 70% of worlds (7 of 10)"; on a tie, "storekit-auto and never each win 50%".
  public static func sentence(_ level: Level, of parameter: Influence) -> String {
    let share = TerminalTable.fixed(level.share * 100, 0) + "%"
    let best = TerminalTable.fixed(
      level.worldsBest, level.worldsBest.rounded() == level.worldsBest ? 0 : 1)
    let who =
      level.winners.count == 1
      ? "\(level.winners[0]) wins \(share) of worlds"
      : level.winners.dropLast().joined(separator: ", ") + " and \(level.winners.last!) each win "
        + "\(share) of worlds"
    return "with `\(level.value)` \(parameter.shortName), \(who) (\(best) of \(level.worlds))"
  }
}
