extension HTMLReport {
  /// The page a sweep writes: its provenance (from `manifest`, when given), every grid point
  /// and compared preset on the trade-off plot (onboarding interruptions against
  /// ``SweepOutcome/tradeOffMetric``, 95% intervals, the Pareto front highlighted, a legend and
  /// a label for every point), a line chart of each Pareto metric against each grid parameter,
  /// and the front on the sweep's own two metrics as a list. Self-contained like
  /// ``render(_:manifest:)``.
  ///
  /// Only what the results determine goes on the page (no date, wall time, command line or
  /// worker count: those are in `manifest.json`), so a sweep merged from shards writes the same
  /// bytes as the sweep run whole.
  public static func renderSweep(
    name: String, outcome: SweepOutcome, pareto: (x: MetricID, y: MetricID),
    manifest: Manifest? = nil
  ) -> String {
    var sections: [String] = [sweepHeader(name: name, outcome: outcome, manifest: manifest)]
    if !outcome.tradeOff.isEmpty {
      let yLabel =
        [
          MetricID.consentLatencyP99: "Consent latency p99", .consentHoldP99: "Consent hold p99",
          .consentDeadlineMissRate: "Consent deadlines missed",
        ][outcome.tradeOffMetric] ?? outcome.tradeOffMetric.name
      let yUnit = outcome.tradeOffMetric.metric.unit
      var legend = [
        LegendEntry(label: "tuned policy at a grid point (p1…)", style: .ink(), symbol: .point)
      ]
      var seen = Set<String>()
      for row in outcome.rows where row.isPreset && seen.insert(row.policy).inserted {
        legend.append(
          LegendEntry(
            label: row.policy, style: ChartPalette.style(for: row.policy), symbol: .point))
      }
      sections.append(
        figure(
          id: "tradeoff", heading: "The trade-off over the grid",
          svg: tradeOffChart(
            outcome.tradeOff, id: "sweep-tradeoff", labelLimit: .max, yLabel: yLabel,
            yUnit: yUnit, legend: legend),
          caption:
            "Onboarding runs interrupted against \(Chart.escape(yLabel.lowercased())), one point "
            + "per grid point (the tuned policy, in the ink colour) and per compared preset (its "
            + "own colour and marker, as in every report), with 95% intervals. Filled points are "
            + "on the Pareto front (lower is better on both), hollow ones beaten; points at the "
            + "same spot and on the same side of the front share a label, and labels moved away "
            + "from a crowded point have a leader line."))
    }
    sections.append(sweepAxesSection(outcome, pareto: pareto))
    var list = "<section class=\"panel\" id=\"front\">\n<h2>Pareto front on "
    list += "\(Chart.escape(pareto.x.name)) and \(Chart.escape(pareto.y.name))</h2>\n<ul>\n"
    for line in outcome.frontLines { list += "<li>\(Chart.escape(line))</li>\n" }
    list += "</ul>\n</section>"
    sections.append(list)
    sections.append(sweepFooter(manifest))
    return page(
      title: "deferral-sim sweep: \(name)", generator: manifest?.toolVersion, sections: sections)
  }

  /// One chart per Pareto metric and grid parameter, a row per parameter.
  static func sweepAxesSection(
    _ outcome: SweepOutcome, pareto: (x: MetricID, y: MetricID)
  ) -> String {
    guard !outcome.parameterNames.isEmpty else { return "" }
    var html =
      "<section class=\"panel\" id=\"axes\">\n<h2>Each metric against each parameter</h2>\n"
    html += "<figure>\n"
    for axis in outcome.parameterNames.indices {
      html += "<div class=\"pair\">\n"
      for (useX, metric) in [(true, pareto.x), (false, pareto.y)] {
        html +=
          sweepAxisChart(
            outcome, axis: axis, metric: metric, useX: useX,
            id: "axis-\(axis)-\(useX ? "x" : "y")") + "\n"
      }
      html += "</div>\n"
    }
    html +=
      "<figcaption>For each grid parameter, the sweep's two Pareto metrics at each of its "
      + "values: means with 95% whiskers. Each line is the tuned policy with the other "
      + "parameters held at the values its label gives (ink, a dash per line), or a compared "
      + "preset in its own colour; a preset the parameter does not change is a flat line with "
      + "its interval as one whisker near the right edge. Lower is better on both.</figcaption>\n</figure>\n</section>"
    return html
  }

  /// The header: the sweep's name and the facts the results determine.
  static func sweepHeader(name: String, outcome: SweepOutcome, manifest: Manifest?) -> String {
    let presets = Set(outcome.rows.filter(\.isPreset).map(\.policy))
    var facts: [(String, String)] = [
      ("Scenario", "<code>\(Chart.escape(outcome.scenarioName))</code>"),
      ("Users", "\(grouped(outcome.users)) per replication"),
      ("Replications", grouped(outcome.replications)),
      ("Seed", "<code>\(outcome.seed)</code>"),
      ("Points", grouped(outcome.points)),
      ("Parameters", "\(outcome.parameterNames.count)"),
      ("Compared presets", "\(presets.count)"),
      ("Events", grouped(outcome.events)),
    ]
    if let manifest { facts.append(("Version", Chart.escape(manifest.toolVersion))) }
    var html = "<header class=\"panel\" id=\"header\">\n<p class=\"kicker\">deferral-sim · "
    html += "parameter sweep</p>\n<h1>\(Chart.escape(name))</h1>\n"
    html += "<p class=\"lede\">Every point ran on the same users (one seed); "
    html += "<code>sweep.csv</code> has every metric of every point with its 95% interval.</p>\n"
    html += "<dl class=\"facts\">\n"
    for (term, value) in facts { html += "<div><dt>\(term)</dt><dd>\(value)</dd></div>\n" }
    html += "</dl>\n</header>"
    return html
  }

  /// The footer: the files, and the hashes of the sweep and scenario texts.
  static func sweepFooter(_ manifest: Manifest?) -> String {
    var html = "<footer>\n<p>The full numbers are in this folder: <code>sweep.csv</code>, "
    html += "<code>pareto.csv</code>, <code>manifest.json</code> (also the command line, date, "
    html += "wall time and worker count, left off this page so that a sweep merged from shards "
    html += "writes the same page as the sweep run whole).</p>\n"
    if let manifest {
      html += "<p>Scenario SHA-256: <code>\(Chart.escape(manifest.scenarioSHA256))</code>"
      if let sweep = manifest.sweep {
        html += "<br>Sweep file <code>\(Chart.escape(sweep.name))</code> SHA-256: "
        html += "<code>\(Chart.escape(sweep.sha256))</code>"
      }
      html += "</p>\n"
    }
    return html + "</footer>"
  }
}
