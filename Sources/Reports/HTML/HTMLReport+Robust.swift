import Foundation
import Simulation

extension HTMLReport {
  /// The page a robustness study writes: the share of worlds where each policy is best (bars
  /// with Wilson 95% whiskers, expected and worst regret written beside), and the tornado of
  /// which parameters decide between the top two. Self-contained like ``render(_:manifest:)``.
  /// `scenarioFile` is the file the worlds vary, `parameterCount` how many parameters they
  /// draw, and `scenario` the first world's (for its users, replications and policies).
  public static func renderRobust(
    name: String, scenarioFile: String, parameterCount: Int, scenario: Scenario,
    outcome: RobustOutcome
  ) -> String {
    var sections: [String] = []
    sections.append(
      "<header class=\"panel\" id=\"header\">\n<p class=\"eyebrow\">deferral-sim · robustness"
        + "</p>\n<h1>\(Chart.escape(name))</h1>\n<p>\(outcome.worlds) plausible worlds of "
        + "<code>\(Chart.escape((scenarioFile as NSString).standardizingPath))</code> drawn by "
        + (outcome.design == .lhs ? "a Latin hypercube" : "the Sobol sequence")
        + " over \(parameterCount) uncertain parameters; in each, "
        + "\(scenario.policies.count) policies ran on the same \(grouped(scenario.users)) users "
        + "× \(scenario.replications) replications (\(grouped(outcome.events)) events). The best "
        + "policy of a world is the one with the highest value per 1000 users "
        + "(\(Chart.escape(outcome.unit))). <code>robust.csv</code> has every metric of every "
        + "policy in every world.</p>\n</header>")
    sections.append(
      figure(
        id: "share-best", heading: "Share of worlds where each policy is best",
        svg: shareBestChart(outcome),
        caption:
          "Bars: the share of worlds where the policy has the highest value per 1000 users (a "
          + "tie shares the world); whiskers: Wilson 95% intervals treating the worlds as "
          + "independent draws. Beside each bar: its expected regret (mean over worlds of the "
          + "best value minus its value) and worst regret, in \(Chart.escape(outcome.unit)) per "
          + "1000 users.",
        details: summaryTable(outcome)))
    if let runnerUp = outcome.runnerUp {
      let noise = RobustStatistics.noiseLevel(worlds: outcome.worlds)
      sections.append(
        figure(
          id: "tornado",
          heading: "What decides between \(outcome.leader) and \(runnerUp)",
          svg: tornadoChart(outcome, noise: noise),
          caption:
            "Spearman rank correlation, over the worlds, of each parameter with the value gap "
            + "\(Chart.escape(outcome.leader)) − \(Chart.escape(runnerUp)) per 1000 users, "
            + "largest |ρ| first. A positive ρ: the larger the parameter, the more "
            + "\(Chart.escape(outcome.leader)) gains. Dashed lines: ±"
            + "\(Chart.fixed(noise, 2)), about the largest |ρ| chance gives with "
            + "\(outcome.worlds) worlds (95%)." + levelsCaption(outcome),
          details: sourcesTable(outcome)))
    }
    return page(title: "deferral-sim robustness: \(name)", generator: nil, sections: sections)
  }

  static func shareBestChart(_ outcome: RobustOutcome) -> String {
    let rows = outcome.policies
    let rowHeight = 26.0
    let nameWidth = rows.map { ChartCanvas.textWidth(shortName($0.policy, limit: 24)) }.max() ?? 0
    let frame = ChartFrame(
      width: 720, height: 12 + rowHeight * Double(rows.count) + 50, top: 12, right: 250,
      bottom: 50, left: Swift.min(190, nameWidth + 16))
    var canvas = ChartCanvas(width: frame.width, height: frame.height)
    let x = LinearScale(domain: (0, 1), range: (frame.plotLeft, frame.plotRight))
    canvas.bottomAxis(
      frame: frame,
      ticks: stride(from: 0.0, through: 1.0, by: 0.25).map {
        AxisTick(position: x($0), label: "\(Int(($0 * 100).rounded()))%")
      }, title: "Share of worlds where it is best")
    let styles = ChartPalette.styles(for: rows.map(\.policy))
    // One precision per column of the labels.
    let expected = Chart.panelNumbers(rows.map(\.expectedRegret))
    let worst = Chart.panelNumbers(rows.map(\.worstRegret))
    for (index, row) in rows.enumerated() {
      let top = frame.plotTop + rowHeight * Double(index)
      let middle = top + rowHeight / 2
      canvas.text(
        shortName(row.policy, limit: 24), x: frame.plotLeft - 8, y: middle + 4, anchor: "end",
        classes: "tick-label")
      let share = "\(Chart.fixed(row.shareBest * 100, 1))% (\(Chart.number(row.worldsBest)) of "
      let tooltip =
        "\(row.policy): best in \(share)\(outcome.worlds) worlds), 95% interval "
        + "\(Chart.fixed(row.shareLow * 100, 1))–\(Chart.fixed(row.shareHigh * 100, 1))%"
      canvas.rect(
        x: frame.plotLeft, y: top + 4, width: x(row.shareBest) - frame.plotLeft,
        height: rowHeight - 8, classes: "bar \(styles[row.policy]!.classes)", title: tooltip)
      canvas.beginGroup(classes: "whisker", title: tooltip)
      canvas.line(x1: x(row.shareLow), y1: middle, x2: x(row.shareHigh), y2: middle, classes: "")
      canvas.line(
        x1: x(row.shareLow), y1: middle - 5, x2: x(row.shareLow), y2: middle + 5, classes: "")
      canvas.line(
        x1: x(row.shareHigh), y1: middle - 5, x2: x(row.shareHigh), y2: middle + 5, classes: "")
      canvas.endGroup()
      canvas.text(
        "\(Chart.fixed(row.shareBest * 100, 0))% · regret \(expected[index]), "
          + "worst \(worst[index])",
        x: frame.plotRight + 8, y: middle + 4, classes: "value-label")
    }
    let title = "Share of worlds where each policy is best"
    return canvas.svg(
      title: title,
      description: "\(title), with 95% intervals, expected and worst regret per policy.",
      id: "robust-share-best")
  }

  static func tornadoChart(_ outcome: RobustOutcome, noise: Double) -> String {
    let rows = outcome.tornado
    let rowHeight = 24.0
    let nameWidth = rows.map { ChartCanvas.textWidth(shortName($0.parameter, limit: 60)) }.max()
    let frame = ChartFrame(
      width: 820, height: 12 + rowHeight * Double(rows.count) + 50, top: 12, right: 60,
      bottom: 50, left: Swift.min(390, (nameWidth ?? 0) + 16))
    var canvas = ChartCanvas(width: frame.width, height: frame.height)
    let x = LinearScale(domain: (-1, 1), range: (frame.plotLeft, frame.plotRight))
    canvas.bottomAxis(
      frame: frame,
      ticks: stride(from: -1.0, through: 1.0, by: 0.5).map {
        AxisTick(position: x($0), label: Chart.fixed($0, 1))
      }, title: "Spearman ρ with the value gap \(outcome.leader) − \(outcome.runnerUp ?? "")")
    for side in [-noise, 0, noise] where abs(side) < 1 {
      canvas.line(
        x1: x(side), y1: frame.plotTop, x2: x(side), y2: frame.plotBottom,
        classes: side == 0 ? "domain" : "reference")
    }
    // Each side in the colour of the policy it favours, as in the share-best chart.
    let sides = ChartPalette.styles(for: outcome.policies.map(\.policy))
    let favoured = (
      sides[outcome.leader]?.classes ?? "series-ink",
      outcome.runnerUp.flatMap { sides[$0]?.classes } ?? "series-ink"
    )
    for (index, row) in rows.enumerated() {
      let top = frame.plotTop + rowHeight * Double(index)
      let middle = top + rowHeight / 2
      canvas.text(
        shortName(row.parameter, limit: 60), x: frame.plotLeft - 8, y: middle + 4,
        anchor: "end", classes: "tick-label")
      guard let rho = row.rho else {
        canvas.text("no variation", x: x(0) + 6, y: middle + 4, classes: "value-label")
        continue
      }
      let left = Swift.min(x(0), x(rho))
      // A categorical parameter has no "larger" to favour a side: its bar is neutral, its
      // levels are said in words (the caption).
      let side = row.levels != nil ? "series-ink" : rho >= 0 ? favoured.0 : favoured.1
      let levels = row.levels.map {
        "; by level: " + $0.map { RobustOutcome.sentence($0, of: row) }.joined(separator: "; ")
      }
      canvas.rect(
        x: left, y: top + 4, width: abs(x(rho) - x(0)), height: rowHeight - 8,
        classes: "bar \(side)",
        title: "\(row.parameter): ρ = \(Chart.fixed(rho, 2))\(levels ?? ""); source: \(row.source)")
      // Past the bar's end; a bar reaching the names' column (ρ near −1) has its value on the
      // other side of zero instead, so the two never overlap.
      let label = Chart.fixed(rho, 2)
      let fitsLeft = x(rho) - 4 - ChartCanvas.textWidth(label) >= frame.plotLeft
      canvas.text(
        label, x: rho >= 0 ? x(rho) + 4 : fitsLeft ? x(rho) - 4 : x(0) + 4, y: middle + 4,
        anchor: rho >= 0 || !fitsLeft ? "start" : "end", classes: "value-label")
    }
    let title = "Which parameters flip the decision"
    return canvas.svg(
      title: title,
      description: "Rank correlation of each uncertain parameter with the value gap between "
        + "the top two policies, largest first.", id: "robust-tornado")
  }

  /// The tornado caption's words for its categorical parameters: each level with the policy
  /// that wins most of its worlds ("with `launch` delivery, storekit-auto wins 70% of worlds").
  static func levelsCaption(_ outcome: RobustOutcome) -> String {
    let categorical = outcome.tornado.filter { $0.levels != nil }
    guard !categorical.isEmpty else { return "" }
    return categorical.map { row in
      " <code>\(Chart.escape(row.parameter))</code> has no order (its bar ranks the list as "
        + "written): "
        + (row.levels ?? []).map { codeSpans(RobustOutcome.sentence($0, of: row)) }
        .joined(separator: "; ") + "."
    }.joined()
  }

  /// `text` escaped, its `backquoted` parts as `<code>`.
  static func codeSpans(_ text: String) -> String {
    Chart.escape(text).split(separator: "`", omittingEmptySubsequences: false).enumerated()
      .map { $0.offset % 2 == 1 ? "<code>\($0.element)</code>" : String($0.element) }.joined()
  }

  static func summaryTable(_ outcome: RobustOutcome) -> String {
    var rows = ""
    for row in outcome.policies {
      rows +=
        "<tr><th scope=\"row\">\(Chart.escape(row.policy))</th>"
        + "<td>\(Chart.fixed(row.shareBest * 100, 1))% [\(Chart.fixed(row.shareLow * 100, 1)), "
        + "\(Chart.fixed(row.shareHigh * 100, 1))]</td><td>\(Chart.number(row.meanValue))</td>"
        + "<td>\(Chart.number(row.expectedRegret))</td><td>\(Chart.number(row.worstRegret))"
        + (row.worstWorld.map { " (world \($0))" } ?? "") + "</td></tr>\n"
    }
    return
      "<div class=\"table-wrap\"><table class=\"numbers\"><thead><tr><th scope=\"col\">Policy"
      + "</th><th scope=\"col\">Share best [95%]</th><th scope=\"col\">Mean value</th>"
      + "<th scope=\"col\">Expected regret</th><th scope=\"col\">Worst regret</th></tr></thead>"
      + "<tbody>\n\(rows)</tbody></table></div>"
  }

  static func sourcesTable(_ outcome: RobustOutcome) -> String {
    var rows = ""
    for row in outcome.tornado {
      rows +=
        "<tr><th scope=\"row\"><code>\(Chart.escape(row.parameter))</code></th><td>"
        + (row.rho.map { Chart.fixed($0, 3) } ?? "—") + "</td><td>\(Chart.escape(row.source))"
        + "</td></tr>\n"
    }
    return
      "<div class=\"table-wrap\"><table><thead><tr><th scope=\"col\">Parameter</th>"
      + "<th scope=\"col\">ρ</th><th scope=\"col\">Source of its range</th></tr></thead>"
      + "<tbody>\n\(rows)</tbody></table></div>"
  }
}
