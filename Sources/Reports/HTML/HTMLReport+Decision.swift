extension HTMLReport {
  /// The recommendation (``Decision``) that opens the page: its sentences, then one row per
  /// policy in rank order with its verdict, value (or onboarding interruption rate without a
  /// `value` section), paired difference to the recommended policy and probability of being
  /// best. The same rows are in `decision.csv`.
  static func decisionSection(_ data: _ReportData) -> String {
    let decision = Decision(data.report)
    let valued = decision.basis == .value
    let unit = data.report.scenario.value.map { "\($0.unit) per 1,000 users" } ?? ""
    var html = "<section class=\"panel summary\" id=\"recommendation\">\n<h2>Recommendation</h2>\n"
    let offFront =
      valued ? Decision.offFrontSentence(data.report, decision: decision).map { [$0] } ?? [] : []
    html +=
      "<p>" + (decision.sentences + offFront).map(Chart.escape).joined(separator: " ") + "</p>\n"
    html += "<div class=\"table-wrap\"><table class=\"headline\">\n<thead><tr>"
    html += "<th scope=\"col\">Rank</th><th scope=\"col\">Policy</th><th scope=\"col\">Verdict</th>"
    html +=
      valued
      ? "<th scope=\"col\">Value (\(Chart.escape(unit)))</th><th scope=\"col\">Difference to "
        + "the recommended</th><th scope=\"col\">Probability best</th>"
      : "<th scope=\"col\">Onboarding runs interrupted</th>"
    html += "</tr></thead>\n<tbody>\n"
    for row in decision.rows {
      html += "<tr><td>\(row.rank)</td><th scope=\"row\">\(Chart.escape(row.policy))</th>"
      html += "<td>\(Chart.escape(row.verdict.rawValue.replacing("_", with: " ")))</td>"
      let meanText =
        row.mean.map { inlineValue($0, unit: valued ? .valuePer1kUsers : .ratio) } ?? "—"
      html += "<td>\(meanText)</td>"
      if valued {
        html +=
          "<td>\(row.differenceToBest.map { inlineValue($0, unit: .valuePer1kUsers) } ?? "—")</td>"
        html +=
          "<td>\(row.probabilityBest.map { Chart.fixed($0 * 100, 0) + "%" } ?? "—")</td>"
      }
      html += "</tr>\n"
    }
    html += "</tbody>\n</table></div>\n<p class=\"note\">"
    html +=
      valued
      ? "Value per 1,000 users from the scenario's <code>value</code> section; differences are "
        + "paired over the \(data.replications) replications (same users); probability best: "
        + "share of \(Decision.resamples) paired bootstrap resamples of the replications. "
        + "\"Indistinguishable\": the paired 95% interval of the difference contains 0."
      : "No <code>value</code> section: the front on onboarding interruptions and consent "
        + "deadlines missed; \"dominated\" only where paired 95% intervals show another policy "
        + "better on both, \"not separated\" otherwise."
    html += "</p>\n</section>"
    return html
  }
}
