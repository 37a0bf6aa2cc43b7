extension HTMLReport {
  /// One line of a sweep's axis chart: a compared preset, or the tuned policy at fixed values
  /// of the other parameters, with its value at each grid value of the axis (`nil`: the same
  /// at every value, a preset on a policy parameter).
  struct _AxisLine {
    /// The full name (tooltips) and the chart's label (a preset's with the other values only).
    var name: String
    var label: String
    var style: SeriesStyle
    var points: [(index: Int?, interval: MeanInterval)] = []
  }

  /// The lines of the chart of `metric` (the Pareto x when `useX`, else y) against grid
  /// parameter `axis`: rows grouped by policy (presets) or as the tuned policy, and by the
  /// values of the other parameters.
  static func axisLines(_ outcome: SweepOutcome, axis: Int, useX: Bool) -> [_AxisLine] {
    var lines: [_AxisLine] = []
    var keys: [String: Int] = [:]
    var gridLines = 0
    let styles = outcome.presetStyles
    for row in outcome.rows {
      guard let interval = useX ? row.x : row.y else { continue }
      let others = zip(outcome.parameterNames, row.labels).enumerated().filter {
        $0.offset != axis && !$0.element.1.isEmpty
      }.map { String($0.element.0.split(separator: ".").last ?? "") + "=" + $0.element.1 }
      let key = (row.isPreset ? row.policy : "") + "\u{1F}" + others.joined(separator: "\u{1F}")
      if keys[key] == nil {
        keys[key] = lines.count
        let detail = others.joined(separator: ", ")
        if row.isPreset {
          let values = others.map { $0.split(separator: "=", maxSplits: 1).last ?? "" }
          lines.append(
            _AxisLine(
              name: row.policy + (detail.isEmpty ? "" : " (\(detail))"),
              label: row.policy + (values.isEmpty ? "" : " (\(values.joined(separator: ", ")))"),
              style: styles[row.policy]!))
        } else {
          lines.append(
            _AxisLine(
              name: detail.isEmpty ? "tuned policy" : detail,
              label: detail.isEmpty ? "tuned policy" : detail,
              style: .ink(gridLines % ChartPalette.variants.count)))
          gridLines += 1
        }
      }
      let value = row.labels[axis]
      let index = value.isEmpty ? nil : outcome.parameterValues[axis].firstIndex(of: value)
      lines[keys[key]!].points.append((index, interval))
    }
    return lines
  }

  /// A line chart of `metric` against grid parameter `axis`: the axis's values evenly spaced,
  /// one line per ``axisLines(_:axis:useX:)`` entry with its 95% interval at each value
  /// (whiskers; a flat line with one whisker for a preset the axis does not change), each line
  /// tagged with its number at its right end (``Chart/placeLabels(_:obstacles:area:)``) and
  /// named in full in the key below the plot: no label is cut or runs past the chart.
  static func sweepAxisChart(
    _ outcome: SweepOutcome, axis: Int, metric: MetricID, useX: Bool, id: String
  ) -> String {
    let width = 480.0
    let frame = ChartFrame(width: width, height: 300, top: 34, right: 34, bottom: 64, left: 60)
    var canvas = ChartCanvas(width: width, height: frame.height)
    let lines = axisLines(outcome, axis: axis, useX: useX)
    let values = outcome.parameterValues[axis]
    let unit = metric.metric.unit
    let intervals = lines.flatMap { $0.points.map(\.interval) }
    let y = tradeOffYAxis(
      intervals.map {
        TradeOffPoint(label: "", style: .ink(), onboarding: $0, duration: $0)
      }, canvas: &canvas, frame: frame, yLabel: headings[metric] ?? metric.name,
      yUnit: unit)
    // Room at the right for the whiskers of flat lines (presets the axis does not change).
    let flatCount = lines.filter { $0.points.contains { $0.index == nil } }.count
    let reserve = flatCount > 0 ? 8 + 7 * Double(flatCount) : 0
    let step = (frame.plotWidth - reserve) / Double(Swift.max(1, values.count))
    func x(_ index: Int) -> Double { frame.plotLeft + step * (Double(index) + 0.5) }
    // Values too wide for their slot alternate between two rows, so none is cut or overlaps.
    let stagger = values.contains { ChartCanvas.textWidth($0) > step - 6 }
    canvas.bottomAxis(
      frame: frame,
      ticks: values.indices.map {
        AxisTick(position: x($0), label: stagger && $0 % 2 == 1 ? "" : values[$0])
      }, title: "", grid: false)
    if stagger {
      for index in values.indices where index % 2 == 1 {
        canvas.text(
          values[index], x: x(index), y: frame.plotBottom + 32, anchor: "middle",
          classes: "tick-label")
      }
    }
    canvas.text(
      outcome.parameterNames[axis], x: (frame.plotLeft + frame.plotRight) / 2,
      y: frame.plotBottom + 52, anchor: "middle", classes: "axis-title")
    var ends: [(x: Double, y: Double, text: String, own: [Int])] = []
    var flatLines = 0
    for (number, line) in lines.enumerated() {
      let classes = line.style.classes
      // Lines side by side at one value, so their whiskers do not hide each other.
      let shift =
        (Double(number) - Double(lines.count - 1) / 2)
        * Swift.min(3, step / 4 / Double(lines.count))
      let constant = line.points.filter { $0.index == nil }.map(\.interval)
      if let interval = constant.first {
        // The same at every value: a flat line, its interval as a whisker near the right
        // edge (each flat line's a little further left).
        let level = y.position(interval.mean)
        let tooltip = "\(line.name): \(inlineValue(interval, unit: unit))"
        canvas.line(
          x1: frame.plotLeft, y1: level, x2: frame.plotRight, y2: level,
          classes: "series-line \(classes)", title: tooltip)
        let px = frame.plotRight - 8 - 7 * Double(flatLines)
        flatLines += 1
        whisker(
          &canvas, x: px, low: y.clamped(Swift.max(y.floor, interval.low)),
          high: y.clamped(interval.high), classes: classes, title: tooltip)
        canvas.marker(
          line.style.marker, x: px, y: level, radius: 3.5, classes: "point \(classes)",
          title: tooltip)
        ends.append((frame.plotRight, level, "\(number + 1)", []))
        continue
      }
      let points = line.points.compactMap { point in point.index.map { ($0, point.interval) } }
        .sorted { $0.0 < $1.0 }
      canvas.polyline(
        points.map { (x: x($0.0) + shift, y: y.position($0.1.mean)) },
        classes: "series-line \(classes)")
      for (index, interval) in points {
        let px = x(index) + shift
        let tooltip = "\(line.name), \(values[index]): \(inlineValue(interval, unit: unit))"
        whisker(
          &canvas, x: px, low: y.clamped(Swift.max(y.floor, interval.low)),
          high: y.clamped(interval.high), classes: classes, title: tooltip)
        canvas.marker(
          line.style.marker, x: px, y: y.position(interval.mean), radius: 3.5,
          classes: "point \(classes)", title: tooltip)
      }
      if let last = points.last {
        ends.append((frame.plotRight, y.position(last.1.mean), "\(number + 1)", []))
      }
    }
    let placed = Chart.placeLabels(
      ends, obstacles: [],
      area: ChartBox(
        left: frame.plotRight, top: frame.plotTop - 4, right: width - 2, bottom: frame.plotBottom))
    for (end, label) in zip(ends, placed) {
      if label.displaced || abs(label.y - 4 - end.y) > 2 {
        canvas.line(
          x1: end.x + 1, y1: end.y, x2: label.box.left - 1, y2: label.y - 4, classes: "leader")
      }
      canvas.text(end.text, x: label.x, y: label.y, anchor: label.anchor, classes: "line-label")
    }
    // The key: each line's number, symbol and full name, wrapped to the chart's width.
    var key: [LegendEntry] = []
    for (number, line) in lines.enumerated() {
      let text = "\(number + 1): \(line.label)"
      for (part, words) in wrapped(text, width: width - 20 - 42).enumerated() {
        key.append(LegendEntry(label: words, style: line.style, symbol: part == 0 ? .line : .none))
      }
    }
    let keyTop = Swift.max(frame.height, (placed.map(\.box.bottom).max() ?? 0) + 18) + 4
    let keyHeight = canvas.legend(key, x: 10, y: keyTop, maxWidth: width - 20)
    canvas.grow(toHeight: keyTop + keyHeight + 4)
    let metricName = headings[metric] ?? metric.name
    return canvas.svg(
      title: "\(metricName) against \(outcome.parameterNames[axis])",
      description: "Line chart: \(metricName.lowercased()) (mean with 95% interval) at each value "
        + "of \(outcome.parameterNames[axis]), one line per compared preset and per setting of "
        + "the other parameters.",
      id: id)
  }

  /// A vertical 95% whisker with caps at `x`, from `low` to `high` (canvas positions, `low`
  /// below `high`); nothing when it would be under half a pixel tall.
  static func whisker(
    _ canvas: inout ChartCanvas, x: Double, low: Double, high: Double, classes: String,
    title: String
  ) {
    guard low - high > 0.5 else { return }
    canvas.beginGroup(classes: "whisker \(classes)", title: title)
    canvas.line(x1: x, y1: low, x2: x, y2: high, classes: "")
    canvas.line(x1: x - 3, y1: low, x2: x + 3, y2: low, classes: "")
    canvas.line(x1: x - 3, y1: high, x2: x + 3, y2: high, classes: "")
    canvas.endGroup()
  }
}
