import Foundation
import Reports
import TestSupport
import Testing

/// Renders a run's report.html and a sweep's and opens each in a real headless browser through
/// `scripts/browser-check.sh`: the page must load without a console message, hold its charts
/// (the key ones by id), and draw a screenshot of the expected size that is not blank.
///
/// Skipped, with the reason shown by the test runner, only where no Chromium is on the PATH
/// and not under CI: with `CI=true` a missing browser fails (CI installs Debian's `chromium`). Set `HTML_REPORT_KEEP` to a folder to keep the page and
/// its screenshot there.
@Suite("report.html in a headless browser")
struct HTMLReportBrowserTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  /// The browser the script would use, found the same way: `$CHROMIUM`, else the first of its
  /// names on the PATH.
  static let browser: String? = {
    let environment = ProcessInfo.processInfo.environment
    if let chosen = environment["CHROMIUM"], !chosen.isEmpty { return chosen }
    let names = [
      "chromium", "chromium-headless-shell", "headless_shell", "chromium-browser", "google-chrome",
    ]
    let folders = (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").map(String.init)
    for name in names {
      for folder in folders {
        let path = (folder as NSString).appendingPathComponent(name)
        if FileManager.default.isExecutableFile(atPath: path) { return path }
      }
    }
    return nil
  }()

  /// Under CI (`CI=true`) the check is never skipped: a missing browser is a failure.
  static var isCI: Bool { ProcessInfo.processInfo.environment["CI"] == "true" }

  static let enabled = Comment(
    rawValue: "skipped: no headless Chromium on the PATH (Debian: apt-get install -y "
      + "chromium); the pages are still checked as text by the other HTMLReport tests")

  @Test(.enabled(if: browser != nil || isCI, enabled), .timeLimit(.minutes(3)))
  func pageLoadsCleanlyAndIsNotBlank() throws {
    try Self.check(
      try HTMLReportFixture.render(), name: "report",
      ids: ["tradeoff-chart", "consent-chart", "interruptions-chart", "fallback-chart"])
  }

  /// The sweep's page: its trade-off plot, a chart per Pareto metric and grid parameter, the
  /// front.
  @Test(.enabled(if: browser != nil || isCI, enabled), .timeLimit(.minutes(3)))
  func sweepPageLoadsCleanlyAndIsNotBlank() throws {
    try Self.check(
      try HTMLSweepReportTests.render(), name: "sweep-report",
      ids: ["sweep-tradeoff", "axis-0-x", "axis-0-y", "axis-1-x", "axis-1-y", "front"])
  }

  /// Every preset and two custom policies (#34): one colour per policy, none shared; one
  /// precision per panel; no label clipped, cut or overlapping (scripts/browser-layout.js).
  @Test(.enabled(if: browser != nil || isCI, enabled), .timeLimit(.minutes(3)))
  func aReportOfEveryPolicyReadsCleanly() throws {
    try Self.check(
      ReportReadabilityTests.richPage(), name: "rich-report",
      ids: ["tradeoff-chart", "consent-chart", "interruptions-chart", "fallback-chart"])
  }

  /// Near-equal tiny interruption rates in narrow bars: their labels at one precision, and
  /// none wider than its bar's slot (they overlapped at five decimals).
  @Test(.enabled(if: browser != nil || isCI, enabled), .timeLimit(.minutes(3)))
  func nearEqualTinyRatesDoNotOverlap() throws {
    try Self.check(
      try ReportReadabilityTests.iPadPage(), name: "ipad-report", ids: ["interruptions-chart"])
  }

  /// A sweep over world parameters: its metrics panel with long names, no front.
  @Test(.enabled(if: browser != nil || isCI, enabled), .timeLimit(.minutes(3)))
  func aWorldSweepPageReadsCleanly() throws {
    try Self.check(
      ReportReadabilityTests.worldPage(), name: "world-sweep",
      ids: ["sweep-tradeoff", "axis-0-x", "axis-1-y", "front", "point-key"])
  }

  /// The layout check fails on what #34 found: two policies in one colour, value labels at two
  /// precisions in a panel, overlapping labels, a label cut or past the chart's edge.
  @Test(.enabled(if: browser != nil || isCI, enabled), .timeLimit(.minutes(3)))
  func theLayoutCheckCatchesWhatTheIssueFound() throws {
    let page = try HTMLReportFixture.render()
    let swatches = ChartPaletteTests.swatches(page)
    let first = try #require(swatches["storekit-auto"]?.split(separator: " ").first)
    let second = try #require(swatches["deadline-aware"]?.split(separator: " ").first)
    // deadline-aware drawn in storekit-auto's colour; two labels with clashing precision and
    // overlapping boxes; one cut, one past the chart's edge.
    let broken = page.replacingOccurrences(of: "\(second) ", with: "\(first) ")
      .replacingOccurrences(
        of: #"<title id="fallback-chart-title">"#,
        with: #"<text x="300" y="20" class="value-label">0.07268</text>"#
          + #"<text x="302" y="22" class="value-label">0.0008255</text>"#
          + #"<text x="465" y="60">a label running past the edge</text>"#
          + #"<text x="10" y="200">cut…</text><title id="fallback-chart-title">"#)
    let result = try Self.run(broken, name: "broken")
    #expect(result.status != 0, "\(result.text)")
    for expected in [
      "layout: colour: ", "share ", "layout: precision: #fallback-chart",
      #"layout: overlap: #fallback-chart labels "0.07268" and "0.0008255" overlap"#,
      #"layout: truncated: #fallback-chart label "a label running past the edge" runs past"#,
      #"layout: truncated: #fallback-chart label "cut…" is cut"#,
    ] {
      #expect(result.text.contains(expected), "missing \(expected): \(result.text)")
    }
  }

  /// Writes `html` to a folder (`HTML_REPORT_KEEP` or a temporary one) and runs
  /// `scripts/browser-check.sh` on it, expecting elements with `ids`.
  static func check(_ html: String, name: String, ids: [String]) throws {
    guard browser != nil else {
      Issue.record("CI=true but no headless Chromium on the PATH: .ci/run must install chromium")
      return
    }
    let result = try run(html, name: name, ids: ids)
    #expect(result.status == 0, "browser-check.sh failed:\n\(result.text)")
    #expect(result.text.contains("browser-check: ok"), "\(result.text)")
    #expect(
      result.text.contains("screenshot, "), "the screenshot's pixels were checked: \(result.text)")
    #expect(
      result.text.contains(
        "browser-check: layout ok: one colour per policy, none shared; "
          + "one precision per panel; no label clipped, cut or overlapping"), "\(result.text)")
  }

  /// Runs `scripts/browser-check.sh` on `html` (kept under `HTML_REPORT_KEEP` when set):
  /// its exit status and output.
  static func run(
    _ html: String, name: String, ids: [String] = []
  ) throws -> (status: Int32, text: String) {
    let keep = ProcessInfo.processInfo.environment["HTML_REPORT_KEEP"]
    let folder =
      keep.map { URL(fileURLWithPath: $0) }
      ?? TestScratch.directory.appendingPathComponent(
        "html-report-browser-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { if keep == nil { try? FileManager.default.removeItem(at: folder) } }
    let page = folder.appendingPathComponent("\(name).html")
    let screenshot = folder.appendingPathComponent("\(name).png")
    try Data(html.utf8).write(to: page)

    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/bash")
    process.arguments = [
      root.appendingPathComponent("scripts/browser-check.sh").path, page.path,
      screenshot.path, ids.joined(separator: ","),
    ]
    let output = Pipe()
    process.standardOutput = output
    process.standardError = output
    try process.run()
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    return (process.terminationStatus, text)
  }
}
