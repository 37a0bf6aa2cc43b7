import Fitting
import Foundation
import Simulation

/// `fit-report.html`: the evidence behind a fitted scenario, in the style of `report.html`
/// (one self-contained page, no script, light and dark, printable).
///
/// It shows what was read, the warnings (thin screens, pooled transitions) and the stated
/// defaults, per screen the observed dwell CDF (Kaplan–Meier, so censored dwells count) against
/// the fitted one with the KS distance and the sample size, the gap between sessions, the
/// transitions as counts and probabilities, and a posterior predictive check: sessions per
/// user, screens per session and the ten most frequent paths, observed against simulated from
/// the fitted scenario. What it does not show: a goodness-of-fit p-value (the KS distance of a
/// fitted distribution has no simple null distribution, and with thousands of dwells every
/// small misfit would be "significant").
public enum FitReport {
  /// The page for `result`, with `simulated` the predictive check's statistics and `check`
  /// its rows (``PredictiveCheck/compare(observed:simulated:checkout:)``): a row beyond its
  /// tolerance is also a warning.
  public static func render(
    _ result: FitResult, simulated: JourneyStats, check: [CheckRow], toolVersion: String,
    commandLine: [String]
  ) -> String {
    var sections = [
      header(result, toolVersion: toolVersion),
      notesSection(result, checkWarnings: PredictiveCheck.warnings(check)),
    ]
    sections.append(dwellSection(result))
    sections.append(transitionsSection(result))
    sections.append(checkSection(result, simulated: simulated, check: check))
    sections.append(
      "<footer><p>Command: <code>\(commandLine.map(Chart.escape).joined(separator: " "))</code>"
        + "</p></footer>")
    return HTMLReport.page(
      title: "deferral-sim fit: \(result.scenario.name)", generator: toolVersion,
      sections: sections)
  }

  static func header(_ result: FitResult, toolVersion: String) -> String {
    let observations = result.observations
    let facts: [(String, String)] = [
      ("Scenario", "<code>\(Chart.escape(result.scenario.name))</code>"),
      ("Events", HTMLReport.grouped(observations.rows)),
      ("Screen views", HTMLReport.grouped(observations.screenViews)),
      ("Users", HTMLReport.grouped(observations.users)),
      ("Sessions", HTMLReport.grouped(observations.journeys.sessions)),
      ("Window", Chart.duration(result.windowEnd - result.windowStart)),
      ("Files", "\(result.files.count)"),
      ("Version", Chart.escape(toolVersion)),
    ]
    var html = "<header>\n<p class=\"kicker\">deferral-sim · fit from analytics</p>\n"
    html += "<h1>\(Chart.escape(result.scenario.name))</h1>\n"
    html += "<p class=\"lede\">\(Chart.escape(result.scenario.description))</p>\n"
    html += "<dl class=\"facts\">\n"
    for (term, value) in facts { html += "<div><dt>\(term)</dt><dd>\(value)</dd></div>\n" }
    return html + "</dl>\n</header>"
  }

  static func list(_ items: [String]) -> String {
    "<ul>" + items.map { "<li>\(Chart.escape($0))</li>" }.joined() + "</ul>"
  }

  static func notesSection(_ result: FitResult, checkWarnings: [String]) -> String {
    var html = "<section class=\"panel summary\" id=\"notes\">\n<h2>What was fitted</h2>\n"
    html += "<div class=\"table-wrap\"><table class=\"numbers\"><thead><tr><th scope=\"col\">"
    html += "Estimate</th><th scope=\"col\">Value</th><th scope=\"col\">From</th></tr></thead>"
    html += "<tbody>\n"
    for estimate in result.estimates {
      html += "<tr><th scope=\"row\">\(Chart.escape(estimate.name))</th>"
      html +=
        "<td>\(Chart.escape(estimate.value))</td><td style=\"white-space:normal;text-align:left\">\(Chart.escape(estimate.basis))</td></tr>\n"
    }
    html += "</tbody></table></div>\n"
    html += "<h2>Warnings</h2>\n"
    let warnings = result.warnings + checkWarnings
    html += warnings.isEmpty ? "<p>None.</p>" : list(warnings)
    html +=
      "\n<h2>Left at stated defaults (the log cannot show them)</h2>\n" + list(result.defaults)
    return html + "\n</section>"
  }

  /// `name value ± error` for each parameter; an error the information matrix could not give
  /// (a flat likelihood) is shown as "—".
  static func parameters(_ fitted: FittedDuration) -> String {
    fitted.parameters.map { parameter in
      let seconds = ["median", "mean", "scale"].contains(parameter.name)
      func text(_ value: Double) -> String {
        guard value.isFinite else { return "—" }
        return seconds ? Chart.duration(value) : Chart.number(value)
      }
      return "\(parameter.name) \(text(parameter.value)) ± \(text(parameter.standardError))"
    }.joined(separator: ", ")
  }

  static func durationPanel(_ summary: DurationFitSummary, id: String) -> String {
    var caption = "n = \(summary.complete + summary.censored) (\(summary.complete) complete, "
    caption += "\(summary.censored) right-censored)"
    if let chosen = summary.chosen {
      caption += "; \(chosen.family.rawValue): \(parameters(chosen)) (± one standard error)"
      caption += "; KS \(Chart.fixed(summary.ks ?? .nan, 3))"
    } else {
      caption += "; no complete duration: a stated default is used"
    }
    var rows = ""
    for fitted in summary.fits {
      let chosen = fitted.family == summary.chosen?.family
      rows += "<tr><th scope=\"row\">\(fitted.family.rawValue)\(chosen ? " (chosen)" : "")</th>"
      rows +=
        "<td>\(Chart.escape(parameters(fitted)))</td><td>\(Chart.fixed(fitted.aic, 1))</td></tr>"
    }
    return "<figure>\(cdfChart(summary, id: id))<figcaption>\(Chart.escape(caption))</figcaption>"
      + "<details><summary>Every family</summary><table><thead><tr><th scope=\"col\">Family</th>"
      + "<th scope=\"col\">Parameters</th><th scope=\"col\">AIC</th></tr></thead><tbody>\(rows)"
      + "</tbody></table></details></figure>"
  }

  static func dwellSection(_ result: FitResult) -> String {
    var html = "<section class=\"panel\" id=\"dwell\">\n<h2>Dwell per screen, and the gap "
    html += "between sessions</h2>\n<p class=\"note\">Observed CDF (Kaplan–Meier: a dwell cut "
    html += "by the end of a session counts as at least as long as seen) against the fitted "
    html += "family of least AIC. The KS statistic is the largest vertical gap between the two."
    html += "</p>\n<div class=\"pair\">\n"
    for (index, entry) in result.screens.enumerated() {
      html += durationPanel(entry.screen, id: "dwell-\(index)") + "\n"
    }
    html += durationPanel(result.gap, id: "gap-chart") + "\n"
    return html + "</div>\n</section>"
  }
}
