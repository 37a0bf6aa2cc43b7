extension HTMLReport {
  /// The interruption metrics, one per screen kind, with their group labels.
  static let interruptionMetrics: [(metric: MetricID, label: String)] = [
    (.onboardingInterruptionRate, "Onboarding runs"),
    (.paywallInterruptionRate, "Paywall visits"),
    (.checkoutInterruptionRate, "Checkout visits"),
    (.immersiveInterruptionRate, "Immersive screen visits"),
  ]

  /// Grouped bars: one group per screen kind (those with data), one bar per policy, 95%
  /// whiskers.
  static func interruptionSection(_ data: _ReportData) -> String {
    let groups = interruptionMetrics.filter { group in
      data.names.indices.contains { data.interval($0, group.metric) != nil }
    }
    guard !groups.isEmpty else { return "" }
    let width = 960.0
    let entries = data.names.enumerated().map {
      LegendEntry(label: shortName($0.element), style: data.styles[$0.offset], symbol: .box)
    }
    var scratch = ChartCanvas(width: width, height: 100)
    let legendHeight = scratch.legend(entries, x: 0, y: 0, maxWidth: width - 90)
    // Small multiples: one panel per screen kind, two per row, each with its own y axis (the
    // kinds' rates differ by orders of magnitude; a shared axis would flatten all but one).
    let columns = groups.count == 1 ? 1 : 2
    let rowCount = (groups.count + columns - 1) / columns
    let panelWidth = width / Double(columns)
    let panelHeight = 270.0
    let top = legendHeight + 16
    var canvas = ChartCanvas(width: width, height: top + panelHeight * Double(rowCount))
    canvas.legend(entries, x: 64, y: 8, maxWidth: width - 80)
    var rows = ""
    for (policy, name) in data.names.enumerated() {
      rows += "<tr><th scope=\"row\">\(Chart.escape(name))</th>"
      for group in groups {
        rows +=
          "<td>"
          + (data.interval(policy, group.metric).map { inlineValue($0, unit: .ratio) } ?? "—")
          + "</td>"
      }
      rows += "</tr>\n"
    }
    var showValues = true
    var anyValues = false
    for (index, group) in groups.enumerated() {
      let originX = panelWidth * Double(index % columns)
      let originY = top + panelHeight * Double(index / columns)
      let frame = ChartFrame(
        width: panelWidth, height: panelHeight, top: 44, right: 20, bottom: 22, left: 64)
      canvas.beginGroup(classes: "small-multiple", origin: (originX, originY))
      canvas.text(group.label, x: frame.plotLeft - 56, y: 16, classes: "panel-title")
      var largest = 0.0
      for policy in data.names.indices {
        if let interval = data.interval(policy, group.metric) {
          largest = Swift.max(largest, Swift.min(1, interval.high), interval.mean)
        }
      }
      let top = largest > 0 ? Chart.niceDomain(min: 0, max: largest * 100, count: 4).1 : 1
      let y = LinearScale(domain: (0, top), range: (frame.plotBottom, frame.plotTop))
      let decimals = Chart.tickDecimals(min: 0, max: top, count: 4)
      canvas.leftAxis(
        frame: frame,
        ticks: Chart.niceTicks(min: 0, max: top, count: 4).map {
          AxisTick(position: y($0), label: Chart.fixed($0, decimals) + "%")
        }, title: "")
      canvas.line(
        x1: frame.plotLeft, y1: frame.plotBottom, x2: frame.plotRight, y2: frame.plotBottom,
        classes: "domain")
      let slot = frame.plotWidth / Double(data.names.count)
      let barWidth = Swift.min(44, slot * 0.78)
      // One precision for the panel, its labels no wider than a bar's slot: telling near-equal
      // values apart only when that fits, and no labels when even the plainest do not.
      let means = data.names.indices.map { (data.interval($0, group.metric)?.mean ?? 0) * 100 }
      let fits = { (labels: [String]) in
        labels.allSatisfy { ChartCanvas.textWidth($0, fontSize: 11) <= slot - 2 }
      }
      var values = Chart.panelNumbers(means)
      if !fits(values) { values = Chart.panelNumbers(means, distinct: false) }
      let panelShowsValues = fits(values)
      showValues = showValues && panelShowsValues
      anyValues = anyValues || panelShowsValues
      for policy in data.names.indices {
        guard let interval = data.interval(policy, group.metric) else { continue }
        let middle = frame.plotLeft + slot * (Double(policy) + 0.5)
        let tooltip =
          "\(data.names[policy]), \(group.label): " + inlineValue(interval, unit: .ratio)
        let barTop = y(interval.mean * 100)
        canvas.rect(
          x: middle - barWidth / 2, y: barTop, width: barWidth, height: frame.plotBottom - barTop,
          classes: "bar \(data.styles[policy].classes)", title: tooltip)
        // The variant's marker under the bar, so bars of one colour differ in shape.
        canvas.marker(
          data.styles[policy].marker, x: middle, y: frame.plotBottom + 9, radius: 3.5,
          classes: "point \(data.styles[policy].classes)")
        let low = y(Swift.max(0, interval.low) * 100)
        let high = y(Swift.min(1, interval.high) * 100)
        if low - high > 0.5 {
          let cap = Swift.min(6, barWidth / 4)
          canvas.beginGroup(classes: "whisker", title: tooltip)
          canvas.line(x1: middle, y1: low, x2: middle, y2: high, classes: "")
          canvas.line(x1: middle - cap, y1: high, x2: middle + cap, y2: high, classes: "")
          canvas.line(x1: middle - cap, y1: low, x2: middle + cap, y2: low, classes: "")
          canvas.endGroup()
        }
        if panelShowsValues {
          canvas.text(
            values[policy], x: middle, y: Swift.min(high, barTop) - 5,
            anchor: "middle", classes: "value-label")
        }
      }
      canvas.endGroup()
    }
    let svg = canvas.svg(
      title: "Interruption rates per screen kind and policy",
      description: "Grouped bars: for each screen kind, the share of onboarding runs or screen "
        + "visits with a sheet shown over them, per policy, with 95% intervals.",
      id: "interruptions-chart")
    let header =
      "<tr><th scope=\"col\">Policy</th>"
      + groups.map { "<th scope=\"col\">\($0.label)</th>" }.joined() + "</tr>"
    let table =
      "<div class=\"table-wrap\"><table class=\"numbers\"><thead>\(header)</thead><tbody>\n"
      + "\(rows)</tbody></table></div>"
    let caption =
      "Share of onboarding runs (out of runs started) and of visits to paywall, checkout and "
      + "immersive screens with at least one sheet shown over them. Lower is better. Each panel "
      + "has its own scale: compare policies within a panel. Bars: the mean over "
      + "\(data.replications) replications\(showValues ? ", its value in % on top" : anyValues ? ", its value in % on top where it fits" : "")"
      + "; whiskers: the 95% interval (clipped at 0 and 100%). Screen kinds the scenario does not "
      + "have are left out."
    return figure(
      id: "interruptions", heading: "Where sheets interrupt users", svg: svg, caption: caption,
      details: table)
  }
}
