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
      let world = outcome.variesWorld
      var legend = [
        LegendEntry(
          label: outcome.rows.contains { !$0.isPreset }
            ? "tuned policy at a grid point (see the key below)"
            : "a compared preset at a grid point (see the key below)",
          style: .ink(), symbol: .point)
      ]
      var seen = Set<String>()
      let styles = outcome.presetStyles
      for row in outcome.rows where row.isPreset && seen.insert(row.policy).inserted {
        legend.append(LegendEntry(label: row.policy, style: styles[row.policy]!, symbol: .point))
      }
      sections.append(
        figure(
          id: "tradeoff", heading: "The trade-off over the grid",
          svg: tradeOffChart(
            outcome.tradeOff, id: "sweep-tradeoff", labelLimit: .max, yLabel: yLabel,
            yUnit: yUnit, legend: legend, drawsFront: !world),
          caption:
            "Onboarding runs interrupted against \(Chart.escape(yLabel.lowercased())), one point "
            + "per grid point (the tuned policy, in the ink colour) and per compared preset (its "
            + "own colour and marker), with 95% intervals; each point is labelled by its grid "
            + "point, whose parameter values the key below gives. "
            + (world
              ? "No Pareto front is drawn: the grid varies the world ("
                + outcome.parameterNames.filter { $0.hasPrefix("scenario.") }.map {
                  "<code>\(Chart.escape($0))</code>"
                }.joined(separator: ", ")
                + "), and a world is not a choice; the front of each world's policy choices is "
                + "listed below. "
              : "Filled points are on the Pareto front (lower is better on both), hollow ones "
                + "beaten. ")
            + "Points at the same spot share a label, and labels moved away from a crowded point "
            + "have a leader line.",
          key: pointKey(outcome)))
    }
    sections.append(sweepAxesSection(outcome, pareto: pareto))
    sections.append(frontSection(outcome, pareto: pareto))
    sections.append(sweepFooter(manifest))
    return page(
      title: "deferral-sim sweep: \(name)", generator: manifest?.toolVersion, sections: sections)
  }

  /// The key to the trade-off plot's point labels: each grid point with its parameter values.
  static func pointKey(_ outcome: SweepOutcome) -> String {
    var seen = Set<String>()
    var rows = ""
    for row in outcome.rows where seen.insert(row.point).inserted {
      let values = zip(outcome.parameterNames, row.labels).filter { !$0.1.isEmpty }.map {
        "<code>\(Chart.escape($0.0))</code> = \(Chart.escape($0.1))"
      }
      rows +=
        "<tr><th scope=\"row\">\(Chart.escape(row.point))</th><td>"
        + values.joined(separator: ", ") + "</td></tr>\n"
    }
    guard !rows.isEmpty else { return "" }
    return
      "<div class=\"table-wrap\" id=\"point-key\"><table><caption>Key: the grid points"
      + "</caption><thead><tr><th scope=\"col\">Point</th><th scope=\"col\">Parameter values"
      + "</th></tr></thead><tbody>\n\(rows)</tbody></table></div>\n"
  }

  /// The Pareto front on the sweep's two metrics, over policy choices only: the whole grid's
  /// when it varies only the policy (`pareto.csv`'s), else one front per world (each setting of
  /// the `scenario.` parameters), over the policies that world compares.
  static func frontSection(_ outcome: SweepOutcome, pareto: (x: MetricID, y: MetricID)) -> String {
    var html = "<section class=\"panel\" id=\"front\">\n<h2>Pareto front on "
    html += "\(Chart.escape(pareto.x.name)) and \(Chart.escape(pareto.y.name))</h2>\n"
    guard outcome.variesWorld else {
      html += "<ul>\n"
      for line in outcome.frontLines { html += "<li>\(Chart.escape(line))</li>\n" }
      return html + "</ul>\n</section>"
    }
    let world = outcome.parameterNames.indices.filter {
      outcome.parameterNames[$0].hasPrefix("scenario.")
    }
    html +=
      "<p>The grid varies the world, and a world is not a choice: each world's front is over "
      + "the policies it compares (<code>pareto.csv</code> ranks every point together).</p>\n"
    var order: [String] = []
    var groups: [String: [SweepRow]] = [:]
    for row in outcome.rows where row.x != nil && row.y != nil {
      let key = world.map { "\(outcome.parameterNames[$0])=\(row.labels[$0])" }
        .joined(separator: ", ")
      if groups[key] == nil { order.append(key) }
      groups[key, default: []].append(row)
    }
    let (xUnit, yUnit) = (pareto.x.metric.unit, pareto.y.metric.unit)
    for key in order {
      let rows = groups[key]!
      let front = Pareto.front(rows.map { ($0.x!.mean, $0.y!.mean) }).map { rows[$0] }.sorted {
        ($0.x!.mean, $0.y!.mean) < ($1.x!.mean, $1.y!.mean)
      }
      html += "<h3>\(Chart.escape(key))</h3>\n<ul>\n"
      for row in front {
        let settings = zip(outcome.parameterNames, row.labels).enumerated().filter {
          !world.contains($0.offset) && !$0.element.1.isEmpty
        }.map { "\($0.element.0)=\($0.element.1)" }
        let name = row.point == row.policy ? row.policy : "\(row.point) \(row.policy)"
        html +=
          "<li>\(Chart.escape(name))"
          + (settings.isEmpty ? "" : " (\(Chart.escape(settings.joined(separator: ", "))))")
          + ": \(pareto.x) \(TerminalTable.format(row.x!.mean, xUnit)), \(pareto.y) "
          + "\(TerminalTable.format(row.y!.mean, yUnit))</li>\n"
      }
      html += "</ul>\n"
    }
    return html + "</section>"
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
      + "values (evenly spaced along the axis): means with 95% whiskers. Each line is numbered at "
      + "its right end and named in full in the key below its chart. Each line is the tuned policy with the other "
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
