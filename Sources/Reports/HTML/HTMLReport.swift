import Foundation

/// `report.html`: a run's results as one self-contained page for people who would rather look
/// than read CSVs.
///
/// The page holds a header (scenario, users, replications, seed, version, date, wall time), the
/// recommendation (``Decision``), a plain-language summary generated from the numbers, the headline table with intervals and
/// the best value per column marked, the empirical CDF of consent latency per policy, grouped
/// interruption bars per screen kind with 95% whiskers, the trade-off between onboarding
/// interruptions and consent deadlines missed with its Pareto front, and fallback-fired and
/// display-failure counts.
///
/// **Self-contained.** Inline CSS and SVG only: no JavaScript, no fonts, images or styles from
/// anywhere, and a Content-Security-Policy that forbids loading any (so a browser refuses even
/// by accident); it reads offline, prints (print styles), and follows the reader's light or dark
/// preference (`prefers-color-scheme`; charts take their colours from CSS variables and
/// `currentColor`).
///
/// **Safe.** Every user-provided text (scenario, policy and screen names, the description, the
/// command line) is escaped with ``Chart/escape(_:)``.
///
/// **Deterministic.** The same report and manifest give the same bytes.
///
/// What it does not show: per-replication values (they are in `replications.csv`), metrics
/// outside the headline set except where a chart uses them, and messages other than consent in
/// the latency chart (`by-reason.csv` has their quantiles).
public enum HTMLReport {
  /// The page for `report`, with the header facts from `manifest`.
  ///
  /// - Complexity: O(policies × (histogram bins + replications × metrics)).
  public static func render(_ report: RunReport, manifest: Manifest) -> String {
    let data = _ReportData(report)
    var sections: [String] = []
    sections.append(header(data, manifest: manifest))
    sections.append(decisionSection(data))
    sections.append(summarySection(data))
    sections.append(headlineSection(data))
    sections.append(consentSection(data))
    sections.append(interruptionSection(data))
    sections.append(tradeOffSection(data))
    sections.append(countsSection(data))
    sections.append(footer(data, manifest: manifest))
    return page(
      title: "deferral-sim report: \(report.scenario.name)", generator: manifest.toolVersion,
      sections: sections)
  }

  /// The self-contained page around `sections`: the content-security policy that forbids any
  /// load, light and dark colour schemes, the inline stylesheet.
  static func page(title: String, generator: String?, sections: [String]) -> String {
    let generatorTag =
      generator.map {
        "<meta name=\"generator\" content=\"deferral-sim \(Chart.escape($0))\">\n"
      } ?? ""
    return """
      <!DOCTYPE html>
      <html lang="en">
      <head>
      <meta charset="utf-8">
      <meta http-equiv="Content-Security-Policy" content="\(contentSecurityPolicy)">
      <meta name="viewport" content="width=device-width, initial-scale=1">
      <meta name="color-scheme" content="light dark">
      \(generatorTag)<title>\(Chart.escape(title))</title>
      <style>
      \(stylesheet)
      </style>
      </head>
      <body>
      <main data-report="deferral-sim">
      \(sections.joined(separator: "\n"))
      </main>
      </body>
      </html>

      """
  }

  /// Nothing may be loaded or run: only the page's own inline styles.
  static let contentSecurityPolicy =
    "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; "
    + "form-action 'none'"

  /// A `<figure>` around `svg` with a caption (already HTML) and an optional numbers table.
  static func figure(
    id: String, heading: String, svg: String, caption: String, details: String? = nil,
    key: String = ""
  ) -> String {
    var html = "<section class=\"panel\" id=\"\(id)\">\n<h2>\(Chart.escape(heading))</h2>\n"
    html += "<figure>\n\(svg)\n<figcaption>\(caption)</figcaption>\n</figure>\n\(key)"
    if let details {
      html += "<details><summary>The numbers</summary>\n\(details)\n</details>\n"
    }
    html += "</section>"
    return html
  }

  /// The date in UTC as `2025-01-31 14:05 UTC`, without a locale.
  static func utcText(_ date: Date) -> String {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC")!
    let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: date)
    func two(_ value: Int?) -> String {
      let value = value ?? 0
      return value < 10 ? "0\(value)" : "\(value)"
    }
    return "\(parts.year ?? 0)-\(two(parts.month))-\(two(parts.day)) "
      + "\(two(parts.hour)):\(two(parts.minute)) UTC"
  }

  /// An integer with thin-space-free comma grouping: `12,345`.
  static func grouped(_ value: Int) -> String {
    let digits = String(value.magnitude)
    var result = ""
    for (index, character) in digits.enumerated() {
      if index > 0, (digits.count - index) % 3 == 0 { result += "," }
      result.append(character)
    }
    return value < 0 ? "-" + result : result
  }

  static func header(_ data: _ReportData, manifest: Manifest) -> String {
    let scenario = data.report.scenario
    let facts: [(String, String)] = [
      ("Scenario", "<code>\(Chart.escape(scenario.name))</code>"),
      ("Users", "\(grouped(scenario.users)) per replication"),
      ("Replications", grouped(data.replications)),
      ("Seed", "<code>\(manifest.seed)</code>"),
      ("Policies", "\(data.names.count)"),
      ("Baseline", "<code>\(Chart.escape(data.report.baseline))</code>"),
      ("Horizon", Chart.duration(scenario.horizon)),
      ("Version", Chart.escape(manifest.toolVersion)),
      ("Date", utcText(manifest.finished)),
      ("Wall time", Chart.duration(Swift.max(0, manifest.wallSeconds))),
      ("Events", grouped(manifest.events)),
    ]
    var html = "<header>\n<p class=\"kicker\">deferral-sim · policy comparison</p>\n"
    html += "<h1>\(Chart.escape(scenario.name))</h1>\n"
    if !scenario.description.isEmpty {
      html += "<p class=\"lede\">\(Chart.escape(scenario.description))</p>\n"
    }
    html += "<dl class=\"facts\">\n"
    for (term, value) in facts {
      html += "<div><dt>\(term)</dt><dd>\(value)</dd></div>\n"
    }
    html += "</dl>\n</header>"
    return html
  }

  static func footer(_ data: _ReportData, manifest: Manifest) -> String {
    let command = manifest.commandLine.map(Chart.escape).joined(separator: " ")
    return """
      <footer>
      <p>Every metric is the mean over \(data.replications) replication\(data.replications == 1 ? "" : "s") \
      of \(grouped(data.report.scenario.users)) users, with a 95% Student-t interval in brackets; \
      all policies saw the same users and the same App Store messages, so differences between \
      them are paired. Definitions: the README's Metrics table. The full numbers are in this \
      folder: <code>summary.csv</code>, <code>paired.csv</code>, <code>by-screen.csv</code>, \
      <code>by-reason.csv</code>, <code>by-segment.csv</code>, <code>replications.csv</code>, <code>manifest.json</code>.</p>
      <p>Command: <code>\(command)</code><br>Scenario SHA-256: \
      <code>\(Chart.escape(manifest.scenarioSHA256))</code></p>
      </footer>
      """
  }
}
