extension HTMLReport {
  /// A horizontal bar chart: one bar per policy with its 95% whisker and its value written at
  /// the end.
  static func horizontalBars(
    _ data: _ReportData, metric: MetricID, title: String, axisTitle: String, id: String,
    note: (Int) -> (value: Double, unit: String)?
  ) -> String {
    let width = 470.0
    let rowHeight = 26.0
    let intervals = data.names.indices.map { data.interval($0, metric) }
    // One precision per panel: the values, and the notes' numbers, each at one.
    let values = Chart.panelNumbers(intervals.map { $0?.mean ?? 0 })
    let notes = data.names.indices.map(note)
    let noteNumbers = Chart.panelNumbers(notes.map { $0?.value ?? 0 }, distinct: false)
    let noteText = data.names.indices.map { policy in
      notes[policy].map { noteNumbers[policy] + ($0.unit.hasPrefix("%") ? "" : " ") + $0.unit }
    }
    let labels = data.names.indices.map { values[$0] + (noteText[$0].map { " (\($0))" } ?? "") }
    // Room for every preset's name whole (the longest is 24 characters), and at the right for
    // the longest value label (11-unit text) past the longest bar.
    let nameWidth = data.names.map { ChartCanvas.textWidth(shortName($0, limit: 24)) }.max() ?? 0
    let labelWidth = labels.map { ChartCanvas.textWidth($0, fontSize: 11) }.max() ?? 0
    let left = Swift.min(210, nameWidth + 28)
    let frame = ChartFrame(
      width: width, height: 28 + rowHeight * Double(data.names.count) + 50,
      top: 28, right: Swift.min(width - left - 100, Swift.max(130, labelWidth + 14)), bottom: 50,
      left: left)
    var canvas = ChartCanvas(width: width, height: frame.height)
    let largest = intervals.compactMap { $0.map { Swift.max($0.high, $0.mean) } }.max() ?? 0
    let right = largest > 0 ? Chart.niceDomain(min: 0, max: largest, count: 4).1 : 1
    let x = LinearScale(domain: (0, right), range: (frame.plotLeft, frame.plotRight))
    let decimals = Chart.tickDecimals(min: 0, max: right, count: 4)
    canvas.bottomAxis(
      frame: frame,
      ticks: Chart.niceTicks(min: 0, max: right, count: 4).map {
        AxisTick(position: x($0), label: Chart.fixed($0, decimals))
      }, title: axisTitle)
    for (policy, name) in data.names.enumerated() {
      let top = frame.plotTop + rowHeight * Double(policy)
      let middle = top + rowHeight / 2
      canvas.text(
        shortName(name, limit: 24), x: frame.plotLeft - 20, y: middle + 4, anchor: "end",
        classes: "tick-label")
      canvas.marker(
        data.styles[policy].marker, x: frame.plotLeft - 10, y: middle, radius: 4,
        classes: "point \(data.styles[policy].classes)")
      guard let interval = intervals[policy] else {
        canvas.text("no data", x: frame.plotLeft + 6, y: middle + 4, classes: "value-label")
        continue
      }
      let text = inlineValue(interval, unit: .count)
      let tooltip = "\(name): \(text) per replication" + (noteText[policy].map { ", \($0)" } ?? "")
      canvas.rect(
        x: frame.plotLeft, y: top + 4, width: x(interval.mean) - frame.plotLeft,
        height: rowHeight - 8, classes: "bar \(data.styles[policy].classes)", title: tooltip)
      let low = x(Swift.max(0, interval.low))
      let high = x(interval.high)
      if high - low > 0.5 {
        canvas.beginGroup(classes: "whisker", title: tooltip)
        canvas.line(x1: low, y1: middle, x2: high, y2: middle, classes: "")
        canvas.line(x1: low, y1: middle - 5, x2: low, y2: middle + 5, classes: "")
        canvas.line(x1: high, y1: middle - 5, x2: high, y2: middle + 5, classes: "")
        canvas.endGroup()
      }
      canvas.text(
        labels[policy], x: Swift.max(high, x(interval.mean)) + 6, y: middle + 4,
        classes: "value-label")
    }
    canvas.text(title, x: 0, y: 16, classes: "panel-title")
    return canvas.svg(
      title: title,
      description: "\(title): mean per replication for each policy, with 95% intervals.",
      id: id)
  }

  static func countsSection(_ data: _ReportData) -> String {
    let fallback = horizontalBars(
      data, metric: .fallbackFired, title: "Fallbacks fired",
      axisTitle: "Messages forced past a ceiling, per replication", id: "fallback-chart"
    ) { policy in
      data.interval(policy, .fallbackFiredPer1kUsers).map { ($0.mean, "per 1k users") }
    }
    let failures = horizontalBars(
      data, metric: .displayFailures, title: "Display failures",
      axisTitle: "Failed display attempts, per replication", id: "failures-chart"
    ) { policy in
      let tally = data.pooled[policy]
      guard tally.displayAttempts > 0 else { return nil }
      return (Double(tally.displayFailures) / Double(tally.displayAttempts) * 100, "% of attempts")
    }
    var rows = ""
    for (policy, name) in data.names.enumerated() {
      let tally = data.pooled[policy]
      rows += "<tr><th scope=\"row\">\(Chart.escape(name))</th>"
      for metric: MetricID in [
        .fallbackFired, .fallbackFiredPer1kUsers, .displayAttempts, .displayFailures,
      ] {
        rows +=
          "<td>" + (data.interval(policy, metric).map { inlineValue($0, unit: .count) } ?? "—")
          + "</td>"
      }
      rows +=
        "<td>\(grouped(tally.fallbackFired))</td><td>\(grouped(tally.displayFailures))</td></tr>\n"
    }
    let table =
      "<div class=\"table-wrap\"><table class=\"numbers\"><thead><tr><th scope=\"col\">Policy</th>"
      + "<th scope=\"col\">Fallbacks per replication</th><th scope=\"col\">per 1k users</th>"
      + "<th scope=\"col\">Display attempts per replication</th><th scope=\"col\">Failures per "
      + "replication</th><th scope=\"col\">Fallbacks, all replications</th><th scope=\"col\">"
      + "Failures, all replications</th></tr></thead><tbody>\n\(rows)</tbody></table></div>"
    let caption =
      "Left: messages shown because they waited past a policy's ceiling (forced, even over a "
      + "screen the policy would otherwise protect). Right: display attempts that failed (no "
      + "active window scene yet, or a presentation failure); a failed attempt is retried or "
      + "dropped as the policy decides. Means per replication of "
      + "\(grouped(data.report.scenario.users)) users with 95% whiskers; lower is better."
    return """
      <section class="panel" id="counts">
      <h2>Fallbacks and display failures</h2>
      <figure>
      <div class="pair">
      \(fallback)
      \(failures)
      </div>
      <figcaption>\(caption)</figcaption>
      </figure>
      <details><summary>The numbers</summary>
      \(table)
      </details>
      </section>
      """
  }
}
