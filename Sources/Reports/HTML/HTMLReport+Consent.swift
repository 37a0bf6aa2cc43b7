import Foundation
import MessageDeferral
import Simulation

extension HTMLReport {
  /// The points of the empirical CDF of `histogram` on [`from`, `to`]: (seconds, fraction of
  /// the histogram's values at or below). Exact at bin edges (values below 1 ms count as below
  /// every edge); points are emitted only where the CDF changes, plus both ends, so a
  /// polyline through them is the CDF interpolated within bins (a bin spans under 2%).
  /// Empty for an empty histogram.
  ///
  /// - Precondition: `0 < from < to`.
  /// - Complexity: O(``LatencyHistogram/binCount``).
  public static func cumulativeCurve(
    _ histogram: LatencyHistogram, from: Double, to: Double
  ) -> [(seconds: Double, fraction: Double)] {
    precondition(from > 0 && from < to, "A curve needs 0 < from < to")
    guard histogram.count > 0 else { return [] }
    let total = Double(histogram.count)
    let edges = LatencyHistogram.binEdges
    let counts = histogram.binCounts
    var cumulative = UInt64(histogram.belowRangeCount)
    // The CDF at the last edge at or below `from`.
    var index = 0
    while index < counts.count, edges[index + 1] <= from {
      cumulative += counts[index]
      index += 1
    }
    var points = [(seconds: from, fraction: Double(cumulative) / total)]
    while index < counts.count, edges[index] < to {
      if counts[index] > 0 {
        let start = Swift.max(from, edges[index])
        if points.last!.seconds < start {
          points.append((start, Double(cumulative) / total))
        }
        cumulative += counts[index]
        points.append((Swift.min(to, edges[index + 1]), Double(cumulative) / total))
      }
      index += 1
    }
    if points.last!.seconds < to { points.append((to, Double(cumulative) / total)) }
    return points
  }

  /// Where the consent deadline is marked on the latency axis: the earliest deadline for a
  /// bounded distribution (fixed, uniform, empirical), with the range of deadlines as a band;
  /// the median for an unbounded one.
  static func deadlineMark(
    _ spec: DistributionSpec
  ) -> (
    seconds: Double, label: String, band: (Double, Double)?
  ) {
    switch spec {
    case .fixed(let value):
      return (value, "consent deadline \(Chart.durationTickLabel(value))", nil)
    case .uniform(let low, let high):
      return (low, "earliest consent deadline \(Chart.durationTickLabel(low))", (low, high))
    case .empirical(let values, let weights):
      let possible = zip(values, weights).filter { $0.1 > 0 }.map(\.0)
      let low = possible.min() ?? 0
      let high = possible.max() ?? 0
      return (
        low, "earliest consent deadline \(Chart.durationTickLabel(low))",
        low < high ? (low, high) : nil
      )
    case .exponential, .lognormal, .gamma, .weibull:
      return (spec.median, "median consent deadline \(Chart.durationTickLabel(spec.median))", nil)
    }
  }

  /// In words, how the deadlines are spread (for the caption).
  static func deadlineWords(_ spec: DistributionSpec) -> String {
    switch spec {
    case .fixed(let value): "always \(Chart.durationTickLabel(value)) after issuance"
    case .uniform(let low, let high):
      "drawn uniformly between \(Chart.durationTickLabel(low)) and \(Chart.durationTickLabel(high)) after issuance"
    case .empirical: "drawn from the scenario's list of deadlines"
    default: "drawn from the scenario's deadline distribution (the line marks its median)"
    }
  }

  /// The curves (indices into `curves`, in order) that draw as one line: each group's
  /// curves lie within half a percentage point of its first one at every point of any of
  /// them, so a grouped curve is within a line's width of the one drawn.
  static func curveGroups(
    _ curves: [[(seconds: Double, fraction: Double)]], from: Double, to: Double
  ) -> [[Int]] {
    // The fraction of a curve at `seconds`: the polyline through its points.
    func value(_ curve: [(seconds: Double, fraction: Double)], _ seconds: Double) -> Double {
      // The first point at or after `seconds`, by bisection (points are in time order).
      var low = 0
      var high = curve.count
      while low < high {
        let middle = (low + high) / 2
        if curve[middle].seconds < seconds { low = middle + 1 } else { high = middle }
      }
      guard low < curve.count else { return curve.last?.fraction ?? 0 }
      let after = low
      guard after > 0 else { return curve[0].fraction }
      let (a, b) = (curve[after - 1], curve[after])
      guard b.seconds > a.seconds else { return b.fraction }
      return a.fraction + (b.fraction - a.fraction) * (seconds - a.seconds)
        / (b.seconds - a.seconds)
    }
    func close(_ one: Int, _ two: Int) -> Bool {
      let times = (curves[one] + curves[two]).map(\.seconds)
      return times.allSatisfy { abs(value(curves[one], $0) - value(curves[two], $0)) <= 0.005 }
    }
    var groups: [[Int]] = []
    for index in curves.indices {
      if let group = groups.firstIndex(where: { close($0[0], index) }) {
        groups[group].append(index)
      } else {
        groups.append([index])
      }
    }
    return groups
  }

  /// `text` cut at spaces into lines of at most `width` units (``ChartCanvas/textWidth(_:fontSize:)``).
  static func wrapped(_ text: String, width: Double) -> [String] {
    var lines: [String] = []
    var line = ""
    for word in text.split(separator: " ") {
      let next = line.isEmpty ? String(word) : line + " " + word
      if !line.isEmpty, ChartCanvas.textWidth(next) > width {
        lines.append(line)
        line = String(word)
      } else {
        line = next
      }
    }
    if !line.isEmpty { lines.append(line) }
    return lines
  }

  static func consentSection(_ data: _ReportData) -> String {
    let scenario = data.report.scenario
    let to = scenario.horizon
    let from = Swift.min(60, to / 100)
    let width = 960.0
    var curves: [(policy: Int, points: [(seconds: Double, fraction: Double)])] = []
    var shares: [String?] = []
    var rows = ""
    for (policy, name) in data.names.enumerated() {
      let tally = data.pooled[policy]
      let issued = tally.issued[.priceIncreaseConsent]
      let displayed = tally.displayed[.priceIncreaseConsent]
      let share =
        issued > 0 ? Chart.fixed(Double(displayed) / Double(issued) * 100, 1) + "% displayed" : ""
      shares.append(displayed == 0 ? nil : share)
      if displayed > 0 {
        curves.append(
          (policy, cumulativeCurve(tally.latency[.priceIncreaseConsent], from: from, to: to)))
      }
      // Under 1 ms a histogram knows only that, unless the value is exactly 0.
      func text(_ seconds: Double?) -> String {
        guard let seconds else { return "—" }
        if seconds == 0 { return "0" }
        return seconds < LatencyHistogram.lowerBound ? "&lt; 1 ms" : Chart.duration(seconds)
      }
      let quantiles = [0.5, 0.9, 0.99].map {
        text(tally.latency[.priceIncreaseConsent].quantile($0))
      }
      let holds = [0.5, 0.99].map { text(tally.hold[.priceIncreaseConsent].quantile($0)) }
      rows += "<tr><th scope=\"row\">\(Chart.escape(name))</th><td>\(grouped(issued))</td>"
      rows += "<td>\(grouped(displayed))</td><td>\(issued > 0 ? share : "—")</td>"
      rows += (quantiles + holds).map { "<td>\($0)</td>" }.joined() + "</tr>\n"
    }
    // Curves that would draw as one line are one line, in the ink colour with a dash of its
    // own, its legend entry naming every policy it stands for.
    let groups = curveGroups(curves.map(\.points), from: from, to: to)
    let legendWidth = width - 64 - 24
    var entries: [LegendEntry] = []
    var groupStyles: [SeriesStyle] = []
    var shared = 0
    for group in groups {
      let members = group.map { curves[$0].policy }
      guard members.count > 1 else {
        let policy = members[0]
        groupStyles.append(data.styles[policy])
        entries.append(
          LegendEntry(
            label: data.names[policy] + ", " + (shares[policy] ?? ""), style: data.styles[policy],
            symbol: .line))
        continue
      }
      let style = SeriesStyle.ink(shared % ChartPalette.variants.count)
      shared += 1
      groupStyles.append(style)
      let words =
        "one curve for \(members.count) policies: "
        + members.map { data.names[$0] + " (" + (shares[$0] ?? "") + ")" }
        .joined(separator: ", ")
      for (index, line) in wrapped(words, width: legendWidth - 42).enumerated() {
        entries.append(LegendEntry(label: line, style: style, symbol: index == 0 ? .line : .none))
      }
    }
    for (policy, name) in data.names.enumerated() where shares[policy] == nil {
      entries.append(
        LegendEntry(label: name + ": none displayed", style: data.styles[policy], symbol: .line))
    }
    var scratch = ChartCanvas(width: width, height: 100)
    let legendHeight = scratch.legend(entries, x: 0, y: 0, maxWidth: legendWidth)
    let frame = ChartFrame(
      width: width, height: 390 + legendHeight, top: legendHeight + 44, right: 24, bottom: 52,
      left: 64)
    var canvas = ChartCanvas(width: width, height: frame.height)
    canvas.legend(entries, x: frame.plotLeft, y: 8, maxWidth: legendWidth)
    let x = LogScale(domain: (from, to), range: (frame.plotLeft, frame.plotRight))
    let y = LinearScale(domain: (0, 1), range: (frame.plotBottom, frame.plotTop))
    canvas.leftAxis(
      frame: frame,
      ticks: Chart.niceTicks(min: 0, max: 100, count: 5).map {
        AxisTick(position: y($0 / 100), label: Chart.fixed($0, 0) + "%")
      }, title: "Share of displayed consent messages shown within the time")
    canvas.bottomAxis(
      frame: frame,
      ticks: Chart.durationTicks(min: from, max: to, count: 9).map {
        AxisTick(position: x($0), label: Chart.durationTickLabel($0))
      }, title: "Time from first issuance to display (log scale)")
    var deadlineNote = ""
    if let consent = scenario.messages.consent {
      let mark = deadlineMark(consent.deadline)
      if let band = mark.band, band.0 < to, band.1 > from {
        let left = x(Swift.max(from, band.0))
        let right = x(Swift.min(to, band.1))
        canvas.rect(
          x: left, y: frame.plotTop, width: right - left, height: frame.plotHeight,
          classes: "deadline-band", title: "consent deadlines fall in this range")
      }
      if mark.seconds >= from, mark.seconds <= to {
        let position = x(mark.seconds)
        canvas.line(
          x1: position, y1: frame.plotTop, x2: position, y2: frame.plotBottom,
          classes: "deadline", title: mark.label)
        let fits = position + ChartCanvas.textWidth(mark.label) + 6 <= frame.plotRight
        // Low in the plot: by the deadline most curves are high, so the bottom is free.
        canvas.text(
          mark.label, x: fits ? position + 6 : position - 6, y: frame.plotBottom - 10,
          anchor: fits ? "start" : "end", classes: "deadline-label")
        deadlineNote =
          " The dashed line marks the \(Chart.escape(mark.label)); deadlines are "
          + "\(deadlineWords(consent.deadline))\(mark.band == nil ? "" : " (shaded)")."
      } else {
        deadlineNote =
          " The \(Chart.escape(mark.label)) lies outside the axis; deadlines are "
          + "\(deadlineWords(consent.deadline))."
      }
    }
    for (group, members) in groups.enumerated() {
      let curve = curves[members[0]]
      let tooltip = members.map { member in
        let tally = data.pooled[curves[member].policy]
        return "\(data.names[curves[member].policy]): median "
          + (tally.latency[.priceIncreaseConsent].quantile(0.5).map(Chart.duration) ?? "—")
          + ", p99 "
          + (tally.latency[.priceIncreaseConsent].quantile(0.99).map(Chart.duration) ?? "—")
      }.joined(separator: "; ")
      canvas.beginGroup(classes: "curve", title: tooltip)
      let style = groupStyles[group]
      let points = curve.points.map { (x: x($0.seconds), y: y($0.fraction)) }
      canvas.polyline(points, classes: "series-line \(style.classes)")
      // The variant's marker where the curve ends, so curves of one colour differ in shape.
      if let end = points.last {
        canvas.marker(
          style.marker, x: end.x, y: end.y, radius: 4, classes: "point \(style.classes)")
      }
      canvas.endGroup()
    }
    let svg = canvas.svg(
      title: "Consent latency: empirical CDF per policy",
      description: "For each policy, the share of displayed price-increase consent messages "
        + "shown within a given time of their first issuance, on a log time axis from "
        + "\(Chart.durationTickLabel(from)) to the \(Chart.duration(to)) horizon.",
      id: "consent-chart")
    let caption =
      "Empirical CDF of price-increase consent latency, all \(data.replications) replications "
      + "pooled: higher and further left is faster. The curves are over <em>displayed</em> "
      + "messages only; messages never displayed by the horizon (expired or still pending) are "
      + "not in them, so the legend gives each policy's share displayed. Policies whose curves "
      + "would draw as one line (within half a percentage point everywhere) share one, in black "
      + "with a dash of its own, named together in the legend.\(deadlineNote) "
      + "In the table, the hold is the part of the latency the policy added: from the "
      + "message's first delivery to the app to its display."
    let table =
      "<div class=\"table-wrap\"><table class=\"numbers\"><thead><tr><th scope=\"col\">Policy</th>"
      + "<th scope=\"col\">Issued</th><th scope=\"col\">Displayed</th><th scope=\"col\">Share"
      + "</th><th scope=\"col\">Median</th><th scope=\"col\">p90</th><th scope=\"col\">p99</th>"
      + "<th scope=\"col\">Hold median</th><th scope=\"col\">Hold p99</th>"
      + "</tr></thead><tbody>\n\(rows)</tbody></table></div>"
    return figure(
      id: "consent", heading: "How fast consent messages are shown", svg: svg, caption: caption,
      details: table)
  }
}
