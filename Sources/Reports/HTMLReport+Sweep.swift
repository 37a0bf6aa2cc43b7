extension HTMLReport {
  /// The page a sweep writes: every grid point and compared preset on the trade-off plot
  /// (onboarding interruptions against ``SweepOutcome/tradeOffMetric``, 95% intervals, the Pareto front
  /// highlighted), and the front on the sweep's own two metrics as a list. Self-contained like
  /// ``render(_:manifest:)``.
  public static func renderSweep(
    name: String, outcome: SweepOutcome, pareto: (x: String, y: String)
  )
    -> String
  {
    var sections: [String] = []
    sections.append(
      "<header class=\"panel\" id=\"header\">\n<p class=\"eyebrow\">deferral-sim · parameter sweep"
        + "</p>\n<h1>\(Chart.escape(name))</h1>\n<p>\(outcome.points) points, "
        + "\(outcome.events) events. Every point ran on the same users (one seed); "
        + "<code>sweep.csv</code> has every metric of every point with its 95% interval.</p>\n"
        + "</header>")
    if !outcome.tradeOff.isEmpty {
      let yLabel =
        [
          "consent_latency_p99_s": "Consent latency p99", "consent_hold_p99_s": "Consent hold p99",
          "consent_deadline_miss_rate": "Consent deadlines missed",
        ][outcome.tradeOffMetric] ?? outcome.tradeOffMetric
      let yUnit = Metric.named(outcome.tradeOffMetric)?.unit ?? "seconds"
      sections.append(
        figure(
          id: "tradeoff", heading: "The trade-off over the grid",
          svg: tradeOffChart(
            outcome.tradeOff, id: "sweep-tradeoff", labelLimit: 12, yLabel: yLabel,
            yUnit: yUnit),
          caption:
            "Onboarding runs interrupted against \(Chart.escape(yLabel.lowercased())), one point "
            + "per grid point "
            + "(all in the first colour) and per compared preset (one colour each), with 95% "
            + "intervals. Filled points are on the Pareto front (lower is better on both); "
            + "coinciding points share a label."))
    }
    var list = "<section class=\"panel\" id=\"front\">\n<h2>Pareto front on "
    list += "\(Chart.escape(pareto.x)) and \(Chart.escape(pareto.y))</h2>\n<ul>\n"
    for line in outcome.frontLines { list += "<li>\(Chart.escape(line))</li>\n" }
    list += "</ul>\n</section>"
    sections.append(list)
    return page(title: "deferral-sim sweep: \(name)", generator: nil, sections: sections)
  }
}
