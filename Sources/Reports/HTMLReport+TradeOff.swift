/// One point of the trade-off plot: a policy (or a sweep's grid point) with its onboarding
/// interruption rate and consent p99 latency, each a mean with its 95% interval.
public struct TradeOffPoint: Sendable, Equatable {
  /// The name shown next to the point (escaped when drawn).
  public var label: String
  /// The palette series for its colour (``ChartPalette/seriesClass(_:)``).
  public var series: Int
  /// Onboarding interruption rate, a ratio in [0, 1].
  public var onboarding: MeanInterval
  /// The y value, a duration in seconds (positive): consent p99 latency on a run's page; on a
  /// sweep's, the sweep's own y metric when it is a duration.
  public var duration: MeanInterval

  public init(label: String, series: Int, onboarding: MeanInterval, duration: MeanInterval) {
    self.label = label
    self.series = series
    self.onboarding = onboarding
    self.duration = duration
  }
}

extension HTMLReport {
  /// The trade-off plot as SVG: onboarding interruption rate (x, linear, %) against the y
  /// metric: a duration on a log time axis (`yUnit` "seconds", consent p99 latency unless
  /// `yLabel` names another) or a rate on a linear % axis (`yUnit` "ratio"), one point per
  /// entry with both 95% intervals as error bars,
  /// the Pareto front (on the means; lower is better on both) drawn as a staircase, its
  /// points filled and the dominated ones hollow.
  ///
  /// Works for a run's few policies and for a sweep's grid alike: with more than
  /// `labelLimit` points only the front is labelled (every point keeps a tooltip).
  ///
  /// - Complexity: O(n²) in the number of points (the front).
  public static func tradeOffChart(
    _ points: [TradeOffPoint], id: String = "tradeoff-chart", labelLimit: Int = 12,
    yLabel: String = "Consent latency p99", yUnit: String = "seconds"
  ) -> String {
    let width = 960.0
    let front = Set(paretoFront(points.map { ($0.onboarding.mean, $0.duration.mean) }))
    // Room at the top for the front's legend only when there is a staircase to explain.
    let top = front.count >= 2 ? 60.0 : 40.0
    let frame = ChartFrame(
      width: width, height: 420 + top, top: top, right: 210, bottom: 56, left: 70)
    var canvas = ChartCanvas(width: width, height: frame.height)
    let largestRate = points.map { Swift.min(1, $0.onboarding.high) }.max() ?? 0
    let right = largestRate > 0 ? Chart.niceDomain(min: 0, max: largestRate * 100, count: 6).1 : 1
    // A little room left of 0 so points at 0% sit off the axis line.
    let x = LinearScale(domain: (-right / 50, right), range: (frame.plotLeft, frame.plotRight))
    let yPosition: (Double) -> Double
    let yClamped: (Double) -> Double
    // The smallest y value a whisker reaches down to.
    let yFloor: Double
    if yUnit == "ratio" {
      let largest = points.map { Swift.min(1, $0.duration.high) }.max() ?? 0
      let top = largest > 0 ? Chart.niceDomain(min: 0, max: largest * 100, count: 6).1 : 1
      let scale = LinearScale(domain: (-top / 50, top), range: (frame.plotBottom, frame.plotTop))
      yPosition = { scale($0 * 100) }
      yClamped = { scale.clamped($0 * 100) }
      yFloor = 0
      let decimals = Chart.tickDecimals(min: 0, max: top, count: 6)
      canvas.leftAxis(
        frame: frame,
        ticks: Chart.niceTicks(min: 0, max: top, count: 6).map {
          AxisTick(position: scale($0), label: Chart.fixed($0, decimals) + "%")
        }, title: "\(yLabel) (lower is better)")
    } else {
      let positive = points.flatMap { [$0.duration.mean, $0.duration.low] }.filter { $0 > 0 }
      let smallest = positive.min() ?? 60
      let largest = Swift.max(points.map(\.duration.high).max() ?? 3600, smallest * 1.01)
      let yLow = smallest / 1.5
      let yHigh = largest * 1.5
      let scale = LogScale(domain: (yLow, yHigh), range: (frame.plotBottom, frame.plotTop))
      yPosition = { scale($0) }
      yClamped = { scale.clamped($0) }
      yFloor = yLow
      canvas.leftAxis(
        frame: frame,
        ticks: Chart.durationTicks(min: yLow, max: yHigh, count: 7).map {
          AxisTick(position: scale($0), label: Chart.durationTickLabel($0))
        }, title: "\(yLabel), log scale (lower is better)")
    }
    let xDecimals = Chart.tickDecimals(min: 0, max: right, count: 6)
    canvas.bottomAxis(
      frame: frame,
      ticks: Chart.niceTicks(min: 0, max: right, count: 6).map {
        AxisTick(position: x($0), label: Chart.fixed($0, xDecimals) + "%")
      }, title: "Onboarding runs interrupted (lower is better)")
    canvas.text(
      "↙ better on both", x: frame.plotLeft + 10, y: frame.plotBottom - 10, classes: "hint")

    // The front as a staircase: from each front point across to the next one's rate, then
    // down to its latency (the boundary of the region the front dominates).
    let stairs = points.indices.filter { front.contains($0) }.sorted {
      points[$0].onboarding.mean < points[$1].onboarding.mean
    }
    if stairs.count >= 2 {
      var d = ""
      for (step, index) in stairs.enumerated() {
        let px = Chart.coordinate(x(points[index].onboarding.mean * 100))
        let py = Chart.coordinate(yPosition(points[index].duration.mean))
        d += step == 0 ? "M\(px) \(py)" : " H\(px) V\(py)"
      }
      canvas.path(d, classes: "front", title: "Pareto front")
      canvas.legend(
        [
          LegendEntry(
            label: "Pareto front: no other point better on both", series: 0, symbol: .reference)
        ], x: frame.plotLeft, y: 6, maxWidth: frame.plotWidth)
    }

    let positions = points.map { (x: x($0.onboarding.mean * 100), y: yPosition($0.duration.mean)) }
    let tooltips = points.indices.map { index in
      "\(points[index].label): onboarding "
        + "\(inlineValue(points[index].onboarding, unit: "ratio")), \(yLabel.lowercased()) "
        + "\(inlineValue(points[index].duration, unit: yUnit))"
        + (front.contains(index) ? " (Pareto front)" : "")
    }
    for (index, point) in points.enumerated() {
      let (px, py) = positions[index]
      canvas.beginGroup(
        classes: "whisker \(ChartPalette.seriesClass(point.series))", title: tooltips[index])
      let xLow = x(Swift.max(0, point.onboarding.low) * 100)
      let xHigh = x(Swift.min(1, point.onboarding.high) * 100)
      if xHigh - xLow > 0.5 {
        canvas.line(x1: xLow, y1: py, x2: xHigh, y2: py, classes: "")
        canvas.line(x1: xLow, y1: py - 4, x2: xLow, y2: py + 4, classes: "")
        canvas.line(x1: xHigh, y1: py - 4, x2: xHigh, y2: py + 4, classes: "")
      }
      let yLowPosition = yClamped(Swift.max(yFloor, point.duration.low))
      let yHighPosition = yClamped(point.duration.high)
      if yLowPosition - yHighPosition > 0.5 {
        canvas.line(x1: px, y1: yLowPosition, x2: px, y2: yHighPosition, classes: "")
        canvas.line(x1: px - 4, y1: yLowPosition, x2: px + 4, y2: yLowPosition, classes: "")
        canvas.line(x1: px - 4, y1: yHighPosition, x2: px + 4, y2: yHighPosition, classes: "")
      }
      canvas.endGroup()
    }
    // Dominated points first, so the front is drawn on top of any point it overlaps.
    let drawingOrder =
      points.indices.filter { !front.contains($0) } + points.indices.filter { front.contains($0) }
    for index in drawingOrder {
      let onFront = front.contains(index)
      canvas.circle(
        x: positions[index].x, y: positions[index].y, radius: onFront ? 6 : 5,
        classes: "point \(ChartPalette.seriesClass(points[index].series))"
          + (onFront ? " on-front" : " dominated"), title: tooltips[index])
    }

    // Labels: points within 4 units of each other share one label ("a, b"); front labels bold.
    struct _Label {
      var members: [Int]
      var x: Double
      var y: Double
      var text = ""
      var anchor = "start"
      var onFront = false
    }
    var labels: [_Label] = []
    for index in drawingOrder.sorted() where points.count <= labelLimit || front.contains(index) {
      let (px, py) = positions[index]
      if let near = labels.firstIndex(where: { abs($0.x - px) < 4 && abs($0.y - py) < 4 }) {
        labels[near].members.append(index)
      } else {
        labels.append(_Label(members: [index], x: px, y: py))
      }
    }
    // Placement: the first of four spots around the point (above right, below right, above
    // left, below left) whose box stays inside the plot (or the margin on its right) and clear
    // of other points and of labels already placed; else above right, moved down past the labels it would overlap.
    struct _Box {
      var left, top, right, bottom: Double
      func overlaps(_ other: _Box) -> Bool {
        left < other.right && other.left < right && top < other.bottom && other.top < bottom
      }
    }
    func box(_ label: _Label) -> _Box {
      let width = ChartCanvas.textWidth(label.text)
      let left = label.anchor == "start" ? label.x : label.x - width
      return _Box(left: left, top: label.y - 11, right: left + width, bottom: label.y + 3)
    }
    let pointBoxes = positions.map {
      _Box(left: $0.x - 6, top: $0.y - 6, right: $0.x + 6, bottom: $0.y + 6)
    }
    var placed: [_Box] = []
    for index in labels.indices {
      let label = labels[index]
      labels[index].text = label.members.map { shortName(points[$0].label) }.joined(
        separator: ", ")
      labels[index].onFront = label.members.contains { front.contains($0) }
      let spots: [(dx: Double, dy: Double, anchor: String)] = [
        (7, -8, "start"), (7, 16, "start"), (-7, -8, "end"), (-7, 16, "end"),
      ]
      var chosen: _Label?
      for spot in spots {
        var candidate = labels[index]
        candidate.x = label.x + spot.dx
        candidate.y = label.y + spot.dy
        candidate.anchor = spot.anchor
        let area = box(candidate)
        let onCanvas =
          area.left >= frame.plotLeft + 2 && area.right <= frame.width - 2
          && area.top >= frame.plotTop - 4
          && area.bottom <= frame.plotBottom
        let clear =
          !placed.contains { $0.overlaps(area) }
          && !pointBoxes.indices.contains {
            !label.members.contains($0) && pointBoxes[$0].overlaps(area)
          }
        if onCanvas, clear {
          chosen = candidate
          break
        }
      }
      if chosen == nil {
        var fallback = labels[index]
        fallback.x = label.x + 7
        fallback.y = label.y - 8
        while placed.contains(where: { $0.overlaps(box(fallback)) }), fallback.y < frame.height {
          fallback.y += 14
        }
        // A leader line from the point's edge to its displaced label.
        let (endX, endY) = (fallback.x - 2, fallback.y - 4)
        let length = ((endX - label.x) * (endX - label.x) + (endY - label.y) * (endY - label.y))
          .squareRoot()
        if length > 8 {
          canvas.line(
            x1: label.x + (endX - label.x) * 7 / length,
            y1: label.y + (endY - label.y) * 7 / length,
            x2: endX, y2: endY, classes: "leader")
        }
        chosen = fallback
      }
      labels[index] = chosen!
      placed.append(box(chosen!))
    }
    for label in labels {
      canvas.text(
        label.text, x: label.x, y: label.y, anchor: label.anchor,
        classes: "point-label" + (label.onFront ? " on-front" : " dominated"))
    }
    return canvas.svg(
      title: "Trade-off: onboarding interruptions against \(yLabel.lowercased())",
      description: "One point per policy: x is the share of onboarding runs interrupted, y "
        + "\(yLabel.lowercased())\(yUnit == "ratio" ? "" : " (log scale)"), with 95% intervals; "
        + "the Pareto front is drawn as a dashed staircase.",
      id: id)
  }

  static func tradeOffSection(_ data: _ReportData) -> String {
    let (xMetric, yMetric) = (_ReportData.frontX, _ReportData.frontY)
    var points: [TradeOffPoint] = []
    var missing: [String] = []
    for (policy, name) in data.names.enumerated() {
      if let onboarding = data.interval(policy, xMetric), let miss = data.interval(policy, yMetric)
      {
        points.append(
          TradeOffPoint(label: name, series: policy, onboarding: onboarding, duration: miss))
      } else {
        missing.append(name)
      }
    }
    guard !points.isEmpty else { return "" }
    var caption =
      "Each point is a policy: the share of onboarding runs interrupted against the share of "
      + "consent deadlines missed (renewals that came before the price-increase consent was "
      + "shown), means over \(data.replications) replications with 95% intervals as error bars. "
      + "Lower left is better. Filled points are on the Pareto front (no other policy is better "
      + "on both)"
      + (data.paretoFront(x: xMetric, y: yMetric).count > 1
        ? ", joined by the dashed staircase" : "")
      + "; hollow points are beaten by a front policy on one metric and matched or beaten on the "
      + "other. Consent latency and hold (the delay a policy adds) are in the consent table."
    if !missing.isEmpty {
      caption +=
        " Not plotted, for lack of data (no consent deadline in the horizon, or no onboarding "
        + "run): " + missing.map { "<code>\(Chart.escape($0))</code>" }.joined(separator: ", ")
        + "."
    }
    return figure(
      id: "tradeoff", heading: "The trade-off: onboarding against consent",
      svg: tradeOffChart(points, yLabel: "Consent deadlines missed", yUnit: "ratio"),
      caption: caption)
  }
}
