/// A canvas's plot area: the canvas size less margins for axes, labels and legend.
public struct ChartFrame: Sendable, Equatable {
  public var width: Double
  public var height: Double
  public var top: Double
  public var right: Double
  public var bottom: Double
  public var left: Double

  public init(
    width: Double, height: Double, top: Double, right: Double, bottom: Double, left: Double
  ) {
    precondition(
      left + right < width && top + bottom < height, "Margins leave no room for the plot")
    self.width = width
    self.height = height
    self.top = top
    self.right = right
    self.bottom = bottom
    self.left = left
  }

  public var plotLeft: Double { left }
  public var plotRight: Double { width - right }
  public var plotTop: Double { top }
  public var plotBottom: Double { height - bottom }
  public var plotWidth: Double { plotRight - plotLeft }
  public var plotHeight: Double { plotBottom - plotTop }
}

/// One tick of an axis: where it is (in canvas units) and what it says.
public struct AxisTick: Sendable, Equatable {
  public var position: Double
  public var label: String

  public init(position: Double, label: String) {
    self.position = position
    self.label = label
  }
}

/// One entry of a legend: a series' symbol and its label.
public struct LegendEntry: Sendable, Equatable {
  public enum Symbol: Sendable, Equatable {
    /// A short line (line charts).
    case line
    /// A filled square (bars).
    case box
    /// A dot (scatter plots).
    case point
    /// A short dashed line in the ink colour (a reference line, not a series).
    case reference
    /// No symbol: the label goes on from the entry before (a long label, wrapped).
    case none
  }

  public var label: String
  /// The series' colour and variant (marker, dash).
  public var style: SeriesStyle
  public var symbol: Symbol

  public init(label: String, style: SeriesStyle, symbol: Symbol) {
    self.label = label
    self.style = style
    self.symbol = symbol
  }
}

extension ChartCanvas {
  /// Estimated width of `text` at the chart's 12-unit font (no font metrics in a report
  /// generator: an average glyph width, generous so labels do not collide).
  public static func textWidth(_ text: String, fontSize: Double = 12) -> Double {
    Double(text.count) * fontSize * 0.6
  }

  /// A horizontal axis along the bottom of `frame`: grid lines up through the plot (when
  /// `grid`), tick marks, labels under them, and `title` centred below.
  public mutating func bottomAxis(
    frame: ChartFrame, ticks: [AxisTick], title: String, grid: Bool = true
  ) {
    beginGroup(classes: "axis axis-x")
    for tick in ticks {
      if grid {
        line(
          x1: tick.position, y1: frame.plotTop, x2: tick.position, y2: frame.plotBottom,
          classes: "grid")
      }
      line(
        x1: tick.position, y1: frame.plotBottom, x2: tick.position, y2: frame.plotBottom + 5,
        classes: "tick")
      text(
        tick.label, x: tick.position, y: frame.plotBottom + 19, anchor: "middle",
        classes: "tick-label")
    }
    line(
      x1: frame.plotLeft, y1: frame.plotBottom, x2: frame.plotRight, y2: frame.plotBottom,
      classes: "domain")
    if !title.isEmpty {
      text(
        title, x: (frame.plotLeft + frame.plotRight) / 2, y: frame.plotBottom + 40,
        anchor: "middle", classes: "axis-title")
    }
    endGroup()
  }

  /// A vertical axis along the left of `frame`: grid lines across the plot (when `grid`),
  /// labels to the left of the ticks, and `title` above the axis, left-aligned (easier to read
  /// than rotated text).
  public mutating func leftAxis(
    frame: ChartFrame, ticks: [AxisTick], title: String, grid: Bool = true
  ) {
    beginGroup(classes: "axis axis-y")
    for tick in ticks {
      if grid {
        line(
          x1: frame.plotLeft, y1: tick.position, x2: frame.plotRight, y2: tick.position,
          classes: "grid")
      }
      text(
        tick.label, x: frame.plotLeft - 8, y: tick.position + 4, anchor: "end",
        classes: "tick-label")
    }
    line(
      x1: frame.plotLeft, y1: frame.plotTop, x2: frame.plotLeft, y2: frame.plotBottom,
      classes: "domain")
    if !title.isEmpty {
      text(title, x: frame.plotLeft - 8, y: frame.plotTop - 12, classes: "axis-title")
    }
    endGroup()
  }

  /// Lays `entries` out left to right from (`x`, `y`) (the top of the first row), wrapping at
  /// `maxWidth`; returns the height used.
  @discardableResult
  public mutating func legend(
    _ entries: [LegendEntry], x: Double, y: Double, maxWidth: Double
  )
    -> Double
  {
    guard !entries.isEmpty else { return 0 }
    let rowHeight = 20.0
    var cursor = x
    var row = 0
    beginGroup(classes: "legend")
    for entry in entries {
      let width = 24 + Self.textWidth(entry.label) + 18
      if cursor > x, cursor + width > x + maxWidth {
        row += 1
        cursor = x
      }
      let middle = y + Double(row) * rowHeight + 10
      let series = entry.style.classes
      switch entry.symbol {
      case .line:
        line(
          x1: cursor, y1: middle, x2: cursor + 18, y2: middle, classes: "series-line \(series)")
        marker(
          entry.style.marker, x: cursor + 9, y: middle, radius: 3.5, classes: "point \(series)")
      case .box:
        rect(x: cursor + 3, y: middle - 6, width: 12, height: 12, classes: "bar \(series)")
        marker(entry.style.marker, x: cursor + 9, y: middle, radius: 2.5, classes: "bar-mark")
      case .point:
        marker(
          entry.style.marker, x: cursor + 9, y: middle, radius: 5, classes: "point \(series)")
      case .reference:
        line(x1: cursor, y1: middle, x2: cursor + 18, y2: middle, classes: "reference")
      case .none:
        break
      }
      text(entry.label, x: cursor + 24, y: middle + 4, classes: "legend-label")
      cursor += width
    }
    endGroup()
    return Double(row + 1) * rowHeight
  }
}
