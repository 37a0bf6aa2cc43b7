import Fitting
import Foundation
import Simulation

extension FitReport {
  static func transitionsSection(_ result: FitResult) -> String {
    var html = "<section class=\"panel\" id=\"transitions\">\n<h2>Transitions</h2>\n"
    html += "<p class=\"note\">Maximum likelihood: each transition's count over its screen's "
    html += "exits. Pooled: seen fewer than \(ScenarioFit.pooledCount) times and under "
    html += "\(Chart.fixed(ScenarioFit.pooledShare * 100, 0))% of the screen's exits; its "
    html += "probability is shared out to the screen's other transitions.</p>\n"
    html += "<div class=\"table-wrap\"><table class=\"numbers\"><thead><tr><th scope=\"col\">"
    html += "From</th><th scope=\"col\">To</th><th scope=\"col\">Count</th><th scope=\"col\">"
    html += "Probability</th></tr></thead><tbody>\n"
    for row in result.transitions {
      html += "<tr><th scope=\"row\">\(Chart.escape(row.from))</th><td>\(Chart.escape(row.to))</td>"
      html += "<td>\(HTMLReport.grouped(row.count))</td>"
      html += "<td>\(row.pooled ? "pooled" : Chart.fixed(row.probability, 4))</td></tr>\n"
    }
    return html + "</tbody></table></div>\n</section>"
  }

  /// A path as screen names.
  static func pathText(_ path: [Int], names: [String]) -> String {
    path.map { $0 < 0 ? "…" : ($0 < names.count ? names[$0] : "?") }.joined(separator: " → ")
  }

  /// The check's rows: each statistic of the log against the simulation, with a pass or warn.
  static func checkTable(_ check: [CheckRow]) -> String {
    var html = "<div class=\"table-wrap\"><table class=\"numbers\"><thead><tr>"
    for title in ["Statistic", "Log", "Simulated", "Measure", "Value", "Tolerance", "Result"] {
      html += "<th scope=\"col\">\(title)</th>"
    }
    html += "</tr></thead><tbody>\n"
    for row in check {
      let percent = row.measure == .points || row.measure == .relative
      func shown(_ value: Double) -> String {
        percent ? Chart.fixed(value * 100, 1) + "%" : Chart.fixed(value, 3)
      }
      let verdict = row.passes ? "pass" : row.withinNoise ? "warn (within noise)" : "warn"
      html += "<tr><th scope=\"row\">\(Chart.escape(row.name))</th>"
      html += "<td>\(Chart.escape(row.observed))</td><td>\(Chart.escape(row.simulated))</td>"
      html += "<td>\(row.measure.rawValue)</td><td>\(shown(row.value))</td>"
      html += "<td>\(shown(row.tolerance))</td><td>\(verdict)</td></tr>\n"
    }
    return html + "</tbody></table></div>\n"
  }

  static func checkSection(
    _ result: FitResult, simulated: JourneyStats, check: [CheckRow]
  ) -> String {
    let observed = result.observations.journeys
    var html = "<section class=\"panel\" id=\"check\">\n<h2>Posterior predictive check</h2>\n"
    html += "<p class=\"note\">The fitted scenario simulated for "
    html += "\(HTMLReport.grouped(simulated.users)) users who opened the app (policy "
    html += "<code>never</code>, so no sheet changes a journey), its screen views cut into "
    html += "sessions as the log was. Close bars and shares mean the fit reproduces how people "
    html += "use the app, not only each screen's dwell. A row beyond its tolerance is a warning; "
    html += "\"within noise\" means sampling alone gives a distance that large once in a hundred "
    html += "for a log this size.</p>\n"
    html += checkTable(check)
    html += "<div class=\"pair\">\n"
    html += comparisonBars(
      title: "Sessions per user", axisTitle: "Sessions in the window",
      observed: observed.sessionsPerUser, simulated: simulated.sessionsPerUser, buckets: 12,
      id: "sessions-chart")
    html += comparisonBars(
      title: "Screens per session", axisTitle: "Screen views in a session",
      observed: observed.screensPerSession, simulated: simulated.screensPerSession, buckets: 12,
      id: "screens-chart")
    html += "</div>\n<h2>The ten most frequent paths</h2>\n"
    html += "<p class=\"note\">A path is a session's first \(JourneyStats.pathLength) screens "
    html += "(… when it goes on). The simulated scenario may add a splash or onboarding screen "
    html += "the log lacks; its paths are named by the fitted scenario's screens.</p>\n"
    html += "<div class=\"table-wrap\"><table class=\"numbers\"><thead><tr><th scope=\"col\">"
    html += "Path</th><th scope=\"col\">Observed</th><th scope=\"col\">Simulated</th></tr>"
    html += "</thead><tbody>\n"
    let scenarioNames = result.scenario.screens.map(\.name)
    let simulatedTotal = Double(max(1, simulated.sessions))
    var simulatedByText: [String: Double] = [:]
    for (path, count) in simulated.paths {
      simulatedByText[pathText(path, names: scenarioNames), default: 0] +=
        Double(count) / simulatedTotal
    }
    for entry in observed.topPaths(10) {
      let text = pathText(entry.path, names: result.mapScreenNames)
      html += "<tr><th scope=\"row\">\(Chart.escape(text))</th>"
      html += "<td>\(Chart.fixed(entry.share * 100, 1))%</td>"
      html += "<td>\(Chart.fixed((simulatedByText[text] ?? 0) * 100, 1))%</td></tr>\n"
    }
    return html + "</tbody></table></div>\n</section>"
  }
}
