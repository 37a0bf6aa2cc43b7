/// A rectangle on a chart's canvas (user units, y down): a label's or a marker's extent.
public struct ChartBox: Sendable, Equatable {
  public var left: Double
  public var top: Double
  public var right: Double
  public var bottom: Double

  public init(left: Double, top: Double, right: Double, bottom: Double) {
    self.left = left
    self.top = top
    self.right = right
    self.bottom = bottom
  }

  /// Whether the two boxes share interior area (touching edges do not overlap).
  public func overlaps(_ other: ChartBox) -> Bool {
    left < other.right && other.left < right && top < other.bottom && other.top < bottom
  }

  /// Whether `other` lies inside this box.
  public func contains(_ other: ChartBox) -> Bool {
    other.left >= left && other.right <= right && other.top >= top && other.bottom <= bottom
  }
}

/// A label placed by ``Chart/placeLabels(_:obstacles:area:)``: its baseline start or end
/// (`anchor` `start` or `end`), its box, and whether it sits away from its point (draw a leader
/// line then).
public struct PlacedLabel: Sendable, Equatable {
  public var x: Double
  public var y: Double
  public var anchor: String
  public var box: ChartBox
  public var displaced: Bool
}

extension Chart {
  /// The box of a 12-unit label with its first baseline at (`x`, `y`) and text anchor
  /// `anchor`; lines of `text` (split at line feeds) are 14 units apart.
  static func labelBox(_ text: String, x: Double, y: Double, anchor: String) -> ChartBox {
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    let width = lines.map { ChartCanvas.textWidth(String($0)) }.max() ?? 0
    let extra = 14 * Double(lines.count - 1)
    let left = anchor == "start" ? x : anchor == "middle" ? x - width / 2 : x - width
    return ChartBox(left: left, top: y - 11, right: left + width, bottom: y + 3 + extra)
  }

  /// Places one label per request next to its point so that no two labels overlap.
  ///
  /// A label's text may hold line feeds: its lines go 14 units apart.
  ///
  /// Each label, in order, takes the first spot clear of the labels already placed and of
  /// `obstacles` other than its own (`own`: indices into `obstacles`, the markers it labels),
  /// with its box inside `area`: eight spots around the point (right above, right below, left
  /// above, left below, right, left, above, below), then the same pushed out two and three
  /// times as far. Failing those it goes to the nearest free row (14 units apart) of `area`,
  /// level with or near its point, ignoring obstacles, and is marked ``PlacedLabel/displaced``;
  /// when every row of `area` is taken the rows continue below `area` (the caller grows its
  /// canvas to the labels' lowest box). So labels never overlap each other, whatever the
  /// density.
  ///
  /// - Complexity: O(n² + n · m) for n labels and m obstacles, O(n² · rows) in the worst case.
  public static func placeLabels(
    _ requests: [(x: Double, y: Double, text: String, own: [Int])], obstacles: [ChartBox],
    area: ChartBox
  ) -> [PlacedLabel] {
    var placed: [PlacedLabel] = []
    let spots: [(dx: Double, dy: Double, anchor: String)] = [
      (7, -8, "start"), (7, 16, "start"), (-7, -8, "end"), (-7, 16, "end"),
      (9, 4, "start"), (-9, 4, "end"), (0, -12, "middle"), (0, 20, "middle"),
    ]
    for request in requests {
      let extra = 14 * Double(request.text.count { $0 == "\n" })
      func clear(_ box: ChartBox, obstaclesToo: Bool) -> Bool {
        !placed.contains { $0.box.overlaps(box) }
          && (!obstaclesToo
            || !obstacles.indices.contains {
              !request.own.contains($0) && obstacles[$0].overlaps(box)
            })
      }
      var chosen: PlacedLabel?
      search: for scale in [1.0, 2.0, 3.0] {
        for spot in spots {
          let x = request.x + spot.dx * scale
          // A label above its point grows upwards by its extra lines.
          let y = request.y + (spot.dy - 4) * scale + 4 - (spot.dy < 0 ? extra : 0)
          let box = labelBox(request.text, x: x, y: y, anchor: spot.anchor)
          if area.contains(box), clear(box, obstaclesToo: true) {
            chosen = PlacedLabel(
              x: x, y: y, anchor: spot.anchor, box: box, displaced: scale > 1)
            break search
          }
        }
      }
      if chosen == nil {
        // Rows of the area by distance from the point's own, then rows below the area.
        let width = labelBox(request.text, x: 0, y: 0, anchor: "start").right
        let anchor = request.x + 7 + width <= area.right ? "start" : "end"
        let x = anchor == "start" ? request.x + 7 : Swift.max(area.left + width, request.x - 7)
        let rows = Swift.max(1, Int(((area.bottom - area.top - 3) / 14).rounded(.down)))
        let baselines = (0..<rows).map { area.top + 11 + 14 * Double($0) }.sorted {
          abs($0 - request.y) < abs($1 - request.y)
        }
        var row = 0
        while chosen == nil {
          let y = row < baselines.count ? baselines[row] : area.top + 11 + 14 * Double(row)
          let box = labelBox(request.text, x: x, y: y, anchor: anchor)
          if clear(box, obstaclesToo: false) {
            chosen = PlacedLabel(x: x, y: y, anchor: anchor, box: box, displaced: true)
          }
          row += 1
        }
      }
      placed.append(chosen!)
    }
    return placed
  }

}
