/// An SVG drawing being built: elements are appended as markup, coordinates rounded to 0.1
/// user unit, every text escaped with ``Chart/escape(_:)``.
///
/// Colours are never written into the markup: elements carry CSS classes (see
/// ``ChartPalette``) so one stylesheet gives light, dark and print colours, and text uses
/// `currentColor`. The result is inline SVG for an HTML page; it is also well-formed XML.
public struct ChartCanvas: Sendable {
  /// The drawing's size in user units (the `viewBox`).
  public let width: Double
  public private(set) var height: Double
  /// The markup appended so far (without the `<svg>` element).
  public private(set) var body = ""

  public init(width: Double, height: Double) {
    precondition(width > 0 && height > 0, "A canvas needs a positive size")
    self.width = width
    self.height = height
  }

  /// Makes the drawing at least `height` tall (for labels placed below the plot).
  public mutating func grow(toHeight height: Double) {
    self.height = Swift.max(self.height, height)
  }

  static func attributes(_ pairs: [(String, String?)]) -> String {
    var text = ""
    for (name, value) in pairs {
      guard let value else { continue }
      text += " \(name)=\"\(Chart.escape(value))\""
    }
    return text
  }

  static func tooltip(_ title: String?) -> String {
    title.map { "<title>\(Chart.escape($0))</title>" } ?? ""
  }

  /// Appends an element with `attributes`, and a `<title>` child (a tooltip) when `title` is
  /// given.
  mutating func element(_ name: String, _ attributes: [(String, String?)], title: String? = nil) {
    let attributeText = Self.attributes(attributes)
    if let title {
      body += "<\(name)\(attributeText)>\(Self.tooltip(title))</\(name)>"
    } else {
      body += "<\(name)\(attributeText)/>"
    }
  }

  public mutating func line(
    x1: Double, y1: Double, x2: Double, y2: Double, classes: String, title: String? = nil
  ) {
    let c = Chart.coordinate
    element(
      "line",
      [("x1", c(x1)), ("y1", c(y1)), ("x2", c(x2)), ("y2", c(y2)), ("class", classes)],
      title: title)
  }

  public mutating func rect(
    x: Double, y: Double, width: Double, height: Double, classes: String, title: String? = nil
  ) {
    let c = Chart.coordinate
    element(
      "rect",
      [
        ("x", c(x)), ("y", c(y)), ("width", c(Swift.max(0, width))),
        ("height", c(Swift.max(0, height))), ("class", classes),
      ], title: title)
  }

  public mutating func circle(
    x: Double, y: Double, radius: Double, classes: String, title: String? = nil
  ) {
    let c = Chart.coordinate
    element(
      "circle", [("cx", c(x)), ("cy", c(y)), ("r", c(radius)), ("class", classes)], title: title)
  }

  /// A marker of `style`'s shape centred on (`x`, `y`), `radius` its half-size (a circle's
  /// radius; other shapes are scaled to a similar area), with `classes` (add the style's
  /// classes and `point` for the palette's fill).
  public mutating func marker(
    _ shape: ChartPalette.Marker, x: Double, y: Double, radius: Double, classes: String,
    title: String? = nil
  ) {
    let c = Chart.coordinate
    switch shape {
    case .circle:
      circle(x: x, y: y, radius: radius, classes: classes, title: title)
    case .square:
      let half = radius * 0.9
      rect(
        x: x - half, y: y - half, width: 2 * half, height: 2 * half, classes: classes, title: title)
    case .triangle:
      let r = radius * 1.3
      path(
        "M\(c(x)) \(c(y - r))L\(c(x + r * 0.866)) \(c(y + r / 2))L\(c(x - r * 0.866)) "
          + "\(c(y + r / 2))Z", classes: classes, title: title)
    case .diamond:
      let r = radius * 1.25
      path(
        "M\(c(x)) \(c(y - r))L\(c(x + r)) \(c(y))L\(c(x)) \(c(y + r))L\(c(x - r)) \(c(y))Z",
        classes: classes, title: title)
    }
  }

  /// A polyline through `points` (nothing for fewer than two).
  public mutating func polyline(_ points: [(x: Double, y: Double)], classes: String) {
    guard points.count >= 2 else { return }
    let list = points.map { Chart.coordinate($0.x) + "," + Chart.coordinate($0.y) }
    element("polyline", [("points", list.joined(separator: " ")), ("class", classes)])
  }

  /// A path with data `d` (built by the caller from ``Chart/coordinate(_:)`` values).
  public mutating func path(_ d: String, classes: String, title: String? = nil) {
    element("path", [("d", d), ("class", classes)], title: title)
  }

  /// Text at (`x`, `y`) (the baseline), escaped; `anchor` is `start`, `middle` or `end`.
  public mutating func text(
    _ content: String, x: Double, y: Double, anchor: String = "start", classes: String = "",
    rotate: Double? = nil
  ) {
    let c = Chart.coordinate
    body +=
      "<text"
      + Self.attributes([
        ("x", c(x)), ("y", c(y)), ("text-anchor", anchor == "start" ? nil : anchor),
        ("class", classes.isEmpty ? nil : classes),
        ("transform", rotate.map { "rotate(\(c($0)) \(c(x)) \(c(y)))" }),
      ]) + ">\(Chart.escape(content))</text>"
  }

  /// Opens a group with `classes`, a tooltip when `title` is given, and its origin moved to
  /// `origin` when given (for small multiples); close it with ``endGroup()``.
  public mutating func beginGroup(
    classes: String, title: String? = nil, origin: (x: Double, y: Double)? = nil
  ) {
    let c = Chart.coordinate
    body +=
      "<g"
      + Self.attributes([
        ("class", classes), ("transform", origin.map { "translate(\(c($0.x)) \(c($0.y)))" }),
      ]) + ">" + Self.tooltip(title)
  }

  public mutating func endGroup() {
    body += "</g>"
  }

  /// The drawing as an `<svg>` element: scalable (a `viewBox`, width 100% by the stylesheet),
  /// with `title` and `description` for screen readers (role `img`).
  public func svg(title: String, description: String, id: String) -> String {
    let c = Chart.coordinate
    return "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\""
      + Self.attributes([
        ("viewBox", "0 0 \(c(width)) \(c(height))"), ("role", "img"),
        ("aria-labelledby", "\(id)-title \(id)-desc"), ("id", id),
      ]) + "><title id=\"\(Chart.escape(id))-title\">\(Chart.escape(title))</title>"
      + "<desc id=\"\(Chart.escape(id))-desc\">\(Chart.escape(description))</desc>" + body
      + "</svg>"
  }
}
