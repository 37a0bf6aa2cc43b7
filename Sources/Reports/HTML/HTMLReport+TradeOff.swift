/// One point of the trade-off plot: a policy (or a sweep's grid point) with its onboarding
/// interruption rate and consent p99 latency, each a mean with its 95% interval.
public struct TradeOffPoint: Sendable, Equatable {
  /// The name shown next to the point (escaped when drawn).
  public var label: String
  /// Its colour and marker (``ChartPalette/styles(for:)``).
  public var style: SeriesStyle
  /// Onboarding interruption rate, a ratio in [0, 1].
  public var onboarding: MeanInterval
  /// The y value, a duration in seconds (positive): consent p99 latency on a run's page; on a
  /// sweep's, the sweep's own y metric when it is a duration.
  public var duration: MeanInterval

  public init(
    label: String, style: SeriesStyle, onboarding: MeanInterval, duration: MeanInterval
  ) {
    self.label = label
    self.style = style
    self.onboarding = onboarding
    self.duration = duration
  }
}

extension HTMLReport {
  /// The trade-off plot as SVG: onboarding interruption rate (x, linear, %) against the y
  /// metric: a duration on a log time axis (`yUnit` "seconds", consent p99 latency unless
  /// `yLabel` names another) or a rate on a linear % axis (`yUnit` "ratio"), one marker per
  /// entry (its style's colour and shape) with both 95% intervals as error bars.
  ///
  /// The Pareto front (on the means; lower is better on both) is drawn as a staircase from the
  /// top of the plot down through each front point to its right edge, with the region it
  /// dominates shaded; front markers are filled and the dominated ones hollow. Points within
  /// a unit of each other and on the same side of the front share a label, front labels bold;
  /// labels are placed by ``Chart/placeLabels(_:obstacles:area:)`` (none overlaps another),
  /// with a leader line when moved away from their point. With more than `labelLimit` points
  /// only the front is labelled (every point keeps a tooltip). `legend`, when given, is drawn
  /// above the plot after the front's entry.
  ///
  /// - Complexity: O(n²) in the number of points (the front, the labels).
  public static func tradeOffChart(
    _ points: [TradeOffPoint], id: String = "tradeoff-chart", labelLimit: Int = 12,
    yLabel: String = "Consent latency p99", yUnit: MetricUnit = .seconds,
    legend: [LegendEntry] = [], drawsFront: Bool = true
  ) -> String {
    let width = 960.0
    // A front is over choices: without one (points that are worlds, not policies to choose
    // between) every point is drawn alike.
    let front =
      drawsFront ? Set(Pareto.front(points.map { ($0.onboarding.mean, $0.duration.mean) })) : []
    let frontEntry = LegendEntry(
      label: "Pareto front: no other point better on both (filled; hollow: beaten)",
      style: .ink(), symbol: .reference)
    let legend = (drawsFront ? [frontEntry] : []) + legend
    var scratch = ChartCanvas(width: width, height: 100)
    let legendHeight = scratch.legend(legend, x: 0, y: 0, maxWidth: width - 290)
    let top = legendHeight + 40
    let frame = ChartFrame(
      width: width, height: 420 + top, top: top, right: 210, bottom: 56, left: 70)
    var canvas = ChartCanvas(width: width, height: frame.height)
    let largestRate = points.map { Swift.min(1, $0.onboarding.high) }.max() ?? 0
    let right = largestRate > 0 ? Chart.niceDomain(min: 0, max: largestRate * 100, count: 6).1 : 1
    // A little room left of 0 so points at 0% sit off the axis line.
    let x = LinearScale(domain: (-right / 50, right), range: (frame.plotLeft, frame.plotRight))
    let y = tradeOffYAxis(points, canvas: &canvas, frame: frame, yLabel: yLabel, yUnit: yUnit)
    let xDecimals = Chart.tickDecimals(min: 0, max: right, count: 6)
    canvas.bottomAxis(
      frame: frame,
      ticks: Chart.niceTicks(min: 0, max: right, count: 6).map {
        AxisTick(position: x($0), label: Chart.fixed($0, xDecimals) + "%")
      }, title: "Onboarding runs interrupted (lower is better)")
    // Below the plot, left of the axis title: inside it, a point's label could land on it.
    canvas.text("↙ better on both", x: frame.plotLeft, y: frame.plotBottom + 40, classes: "hint")
    canvas.legend(legend, x: frame.plotLeft, y: 6, maxWidth: width - 290)

    let positions = points.map { (x: x($0.onboarding.mean * 100), y: y.position($0.duration.mean)) }
    // The front as a staircase: down from the top of the plot to the first front point, then
    // across to each next one's rate and down to its value, then across to the right edge:
    // the boundary of the region the front dominates, which is shaded.
    let stairs = points.indices.filter { front.contains($0) }.sorted {
      (points[$0].onboarding.mean, points[$0].duration.mean)
        < (points[$1].onboarding.mean, points[$1].duration.mean)
    }
    if let first = stairs.first {
      let c = Chart.coordinate
      var d = "M\(c(positions[first].x)) \(c(frame.plotTop))"
      for index in stairs {
        d += " H\(c(positions[index].x)) V\(c(positions[index].y))"
      }
      d += " H\(c(frame.plotRight))"
      canvas.path(
        d + " V\(c(frame.plotTop)) Z", classes: "front-region",
        title: "dominated by the Pareto front")
      canvas.path(d, classes: "front", title: "Pareto front")
    }

    let tooltips = points.indices.map { index in
      "\(points[index].label): onboarding "
        + "\(inlineValue(points[index].onboarding, unit: .ratio)), \(yLabel.lowercased()) "
        + "\(inlineValue(points[index].duration, unit: yUnit))"
        + (front.contains(index) ? " (Pareto front)" : "")
    }
    for (index, point) in points.enumerated() {
      let (px, py) = positions[index]
      canvas.beginGroup(classes: "whisker \(point.style.classes)", title: tooltips[index])
      let xLow = x(Swift.max(0, point.onboarding.low) * 100)
      let xHigh = x(Swift.min(1, point.onboarding.high) * 100)
      if xHigh - xLow > 0.5 {
        canvas.line(x1: xLow, y1: py, x2: xHigh, y2: py, classes: "")
        canvas.line(x1: xLow, y1: py - 4, x2: xLow, y2: py + 4, classes: "")
        canvas.line(x1: xHigh, y1: py - 4, x2: xHigh, y2: py + 4, classes: "")
      }
      let yLowPosition = y.clamped(Swift.max(y.floor, point.duration.low))
      let yHighPosition = y.clamped(point.duration.high)
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
      canvas.marker(
        points[index].style.marker, x: positions[index].x, y: positions[index].y,
        radius: onFront ? 6 : 5,
        classes: "point \(points[index].style.classes)"
          + (onFront ? " on-front" : drawsFront ? " dominated" : ""),
        title: tooltips[index])
    }
    tradeOffLabels(
      points, positions: positions, front: front, labelLimit: labelLimit, frame: frame,
      canvas: &canvas)
    return canvas.svg(
      title: "Trade-off: onboarding interruptions against \(yLabel.lowercased())",
      description: "One point per policy: x is the share of onboarding runs interrupted, y "
        + "\(yLabel.lowercased())\(yUnit == .ratio ? "" : " (log scale)"), with 95% intervals; "
        + "the Pareto front is drawn as a dashed staircase.",
      id: id)
  }

  /// The trade-off plot's y axis, drawn on `canvas`: a linear % axis for a ratio, a log time
  /// axis for seconds, else a linear axis. Returns the position of a value, the same clamped to the plot, and the
  /// smallest value a whisker reaches down to.
  static func tradeOffYAxis(
    _ points: [TradeOffPoint], canvas: inout ChartCanvas, frame: ChartFrame, yLabel: String,
    yUnit: MetricUnit
  ) -> (position: (Double) -> Double, clamped: (Double) -> Double, floor: Double) {
    if yUnit == .ratio {
      let largest = points.map { Swift.min(1, $0.duration.high) }.max() ?? 0
      let top = largest > 0 ? Chart.niceDomain(min: 0, max: largest * 100, count: 6).1 : 1
      let scale = LinearScale(domain: (-top / 50, top), range: (frame.plotBottom, frame.plotTop))
      let decimals = Chart.tickDecimals(min: 0, max: top, count: 6)
      canvas.leftAxis(
        frame: frame,
        ticks: Chart.niceTicks(min: 0, max: top, count: 6).map {
          AxisTick(position: scale($0), label: Chart.fixed($0, decimals) + "%")
        }, title: "\(yLabel) (lower is better)")
      return ({ scale($0 * 100) }, { scale.clamped($0 * 100) }, 0)
    }
    if yUnit != .seconds {
      // Counts and values: a plain linear axis.
      let lowest = Swift.min(0, points.map(\.duration.low).min() ?? 0)
      let highest = Swift.max(points.map(\.duration.high).max() ?? 1, lowest + 1e-9)
      let (bottom, top) = Chart.niceDomain(min: lowest, max: highest, count: 5)
      let scale = LinearScale(domain: (bottom, top), range: (frame.plotBottom, frame.plotTop))
      let decimals = Chart.tickDecimals(min: bottom, max: top, count: 5)
      canvas.leftAxis(
        frame: frame,
        ticks: Chart.niceTicks(min: bottom, max: top, count: 5).map {
          AxisTick(position: scale($0), label: Chart.fixed($0, decimals))
        }, title: "\(yLabel) (lower is better)")
      return ({ scale($0) }, { scale.clamped($0) }, bottom)
    }
    let positive = points.flatMap { [$0.duration.mean, $0.duration.low] }.filter { $0 > 0 }
    let smallest = positive.min() ?? 60
    let largest = Swift.max(points.map(\.duration.high).max() ?? 3600, smallest * 1.01)
    let yLow = smallest / 1.5
    let scale = LogScale(domain: (yLow, largest * 1.5), range: (frame.plotBottom, frame.plotTop))
    canvas.leftAxis(
      frame: frame,
      ticks: Chart.durationTicks(min: yLow, max: largest * 1.5, count: 7).map {
        AxisTick(position: scale($0), label: Chart.durationTickLabel($0))
      }, title: "\(yLabel), log scale (lower is better)")
    return ({ scale($0) }, { scale.clamped($0) }, yLow)
  }

  /// The trade-off plot's labels: points within a unit of each other and on the same side of
  /// the front share one (in lines of at most 44 characters); placed clear of each other and of other markers, leader lines to
  /// displaced ones; the canvas grows when labels had to go below the plot.
  static func tradeOffLabels(
    _ points: [TradeOffPoint], positions: [(x: Double, y: Double)], front: Set<Int>,
    labelLimit: Int, frame: ChartFrame, canvas: inout ChartCanvas
  ) {
    var groups: [[Int]] = []
    for index in points.indices where points.count <= labelLimit || front.contains(index) {
      let (px, py) = positions[index]
      if let near = groups.firstIndex(where: {
        front.contains($0[0]) == front.contains(index) && abs(positions[$0[0]].x - px) < 1
          && abs(positions[$0[0]].y - py) < 1
      }) {
        groups[near].append(index)
      } else {
        groups.append([index])
      }
    }
    // Front labels first: they get the spots nearest their points.
    groups = groups.filter { front.contains($0[0]) } + groups.filter { !front.contains($0[0]) }
    let markers = positions.map {
      ChartBox(left: $0.x - 7, top: $0.y - 7, right: $0.x + 7, bottom: $0.y + 7)
    }
    // A group's names in lines of at most 44 characters.
    let texts = groups.map { group in
      var lines = [""]
      for (number, member) in group.enumerated() {
        let name = points[member].label + (number < group.count - 1 ? "," : "")
        if !lines[lines.count - 1].isEmpty, lines[lines.count - 1].count + 1 + name.count > 44 {
          lines.append("")
        }
        lines[lines.count - 1] += (lines[lines.count - 1].isEmpty ? "" : " ") + name
      }
      return lines.joined(separator: "\n")
    }
    let placed = Chart.placeLabels(
      zip(groups, texts).map { (positions[$0[0]].x, positions[$0[0]].y, $1, $0) },
      obstacles: markers,
      area: ChartBox(
        left: frame.plotLeft + 2, top: frame.plotTop - 4, right: frame.width - 2,
        bottom: frame.plotBottom))
    for (group, label) in zip(groups, placed) where label.displaced {
      let (px, py) = positions[group[0]]
      let endX = Swift.min(Swift.max(px, label.box.left), label.box.right)
      let endY = Swift.min(Swift.max(py, label.box.top), label.box.bottom)
      let length = ((endX - px) * (endX - px) + (endY - py) * (endY - py)).squareRoot()
      if length > 9 {
        canvas.line(
          x1: px + (endX - px) * 7 / length, y1: py + (endY - py) * 7 / length, x2: endX, y2: endY,
          classes: "leader")
      }
    }
    for (index, label) in placed.enumerated() {
      let onFront = front.contains(groups[index][0])
      for (number, line) in texts[index].split(separator: "\n").enumerated() {
        canvas.text(
          String(line), x: label.x, y: label.y + 14 * Double(number), anchor: label.anchor,
          classes: "point-label" + (onFront ? " on-front" : front.isEmpty ? "" : " dominated"))
      }
    }
    if let lowest = placed.map(\.box.bottom).max(), lowest > frame.plotBottom {
      canvas.grow(toHeight: frame.height + (lowest - frame.plotBottom) + 4)
    }
  }

  static func tradeOffSection(_ data: _ReportData) -> String {
    let (xMetric, yMetric) = (_ReportData.frontX, _ReportData.frontY)
    var points: [TradeOffPoint] = []
    var missing: [String] = []
    for (policy, name) in data.names.enumerated() {
      if let onboarding = data.interval(policy, xMetric), let miss = data.interval(policy, yMetric)
      {
        points.append(
          TradeOffPoint(
            label: name, style: data.styles[policy], onboarding: onboarding, duration: miss))
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
      + "on both), joined by the dashed staircase; the shaded region above and right of it is "
      + "what the front beats. Hollow points are beaten by a front policy on one metric and matched or beaten on the "
      + "other. Consent latency and hold (the delay a policy adds) are in the consent table."
    if !missing.isEmpty {
      caption +=
        " Not plotted, for lack of data (no consent deadline in the horizon, or no onboarding "
        + "run): " + missing.map { "<code>\(Chart.escape($0))</code>" }.joined(separator: ", ")
        + "."
    }
    return figure(
      id: "tradeoff", heading: "The trade-off: onboarding against consent",
      svg: tradeOffChart(points, yLabel: "Consent deadlines missed", yUnit: .ratio),
      caption: caption)
  }
}
