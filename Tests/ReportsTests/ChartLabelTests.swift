import Foundation
import Testing

@testable import Reports

@Suite("Chart labels")
struct ChartLabelTests {
  /// One precision per panel (#34: `0.07268` next to `0.0008255`): every label of a panel has
  /// the decimals of its largest value, more only to tell values apart, and a value that
  /// rounds to zero reads `<` the smallest step rather than 0 or another precision.
  @Test func panelNumbersHaveOnePrecision() {
    #expect(Chart.distinctNumbers([0.07268, 0.0008255]) == ["0.07", "0.0008"], "the old mix")
    #expect(Chart.panelNumbers([0.07268, 0.0008255]) == ["0.07", "<0.01"])
    #expect(Chart.panelNumbers([0.137, 0.149]) == ["0.14", "0.15"])
    #expect(Chart.panelNumbers([12.31, 3.2, 0]) == ["12", "3", "0"])
    #expect(Chart.panelNumbers([0, 0.5]) == ["0.0", "0.5"])
    #expect(Chart.panelNumbers([0.3112, 0.3138], distinct: false) == ["0.3", "0.3"])
    #expect(Chart.panelNumbers([0.3112, 0.3138]) == ["0.311", "0.314"])
    for values in [[0.07268, 0.0008255, 0.5], [120, 3.25, 0.001], [0.02, 0.019, 0.0001]] {
      let labels = Chart.panelNumbers(values)
      let decimals = Set(
        labels.map { $0.split(separator: ".").dropFirst().first?.count ?? 0 })
      #expect(decimals.count == 1, "\(labels)")
    }
  }

  /// Bar value labels keep values that differ apart (the 0.137% and 0.149%).
  @Test func valueLabelsTellDifferentValuesApart() {
    #expect(Chart.number(0.137) == Chart.number(0.149), "the old labels collide")
    #expect(Chart.distinctNumbers([0.137, 0.149]) == ["0.14", "0.15"])
    #expect(Chart.distinctNumbers([0.137, 0.137, 2.5]) == ["0.1", "0.1", "2.5"])
    #expect(Chart.distinctNumbers([12.31, 12.44, 0]) == ["12.3", "12.4", "0"])
    #expect(Chart.distinctNumbers([0.0123, 0.0124]) == ["0.0123", "0.0124"])
    // Values closer than four extra decimals share a label rather than grow without bound.
    #expect(Chart.distinctNumbers([1, 1 + 1e-12]) == ["1.00000", "1.00000"])
  }

  /// In a dense case (60 labels, some of three lines, on a few spots, markers in the way) no
  /// two label boxes
  /// overlap, and every label starts inside the area.
  @Test func placedLabelsNeverOverlap() {
    var random = _ChartTestRandom(state: 11)
    let area = ChartBox(left: 70, top: 40, right: 500, bottom: 300)
    var requests: [(x: Double, y: Double, text: String, own: [Int])] = []
    var markers: [ChartBox] = []
    for index in 0..<60 {
      let x = 100 + Double(random.next() % 5) * 3
      let y = 150 + Double(random.next() % 5) * 3
      markers.append(ChartBox(left: x - 7, top: y - 7, right: x + 7, bottom: y + 7))
      let text = "policy-\(index)" + String(repeating: "x", count: index % 7)
      // Every fifth label has three lines.
      requests.append((x, y, index % 5 == 0 ? text + ",\nsecond,\nthird" : text, [index]))
    }
    let placed = Chart.placeLabels(requests, obstacles: markers, area: area)
    #expect(placed.count == requests.count)
    for i in placed.indices {
      #expect(placed[i].box.left >= area.left && placed[i].box.top >= area.top)
      for j in placed.indices where j > i {
        #expect(!placed[i].box.overlaps(placed[j].box), "labels \(i) and \(j) overlap")
      }
    }
    #expect(placed.contains { $0.displaced })
    #expect(placed[5].box.bottom - placed[5].box.top == 42, "three lines, 14 units apart")
    #expect(!placed[0].displaced, "the first label sits by its point")
  }

  /// Sparse labels sit next to their points, clear of other markers.
  @Test func sparseLabelsSitByTheirPoints() {
    let area = ChartBox(left: 0, top: 0, right: 400, bottom: 300)
    let markers = [
      ChartBox(left: 93, top: 93, right: 107, bottom: 107),
      ChartBox(left: 108, top: 78, right: 122, bottom: 92),
    ]
    let placed = Chart.placeLabels(
      [(100, 100, "first", [0]), (300, 200, "second", [1])], obstacles: markers, area: area)
    #expect(!placed[0].box.overlaps(markers[1]))
    #expect(!placed[0].displaced && !placed[1].displaced)
    #expect(abs(placed[1].x - 300) <= 9 && abs(placed[1].y - 200) <= 20)
  }

  static func point(_ label: String, _ x: Double, _ y: Double) throws -> TradeOffPoint {
    TradeOffPoint(
      label: label, style: ChartPalette.style(for: label),
      onboarding: try #require(MeanInterval(values: [x, x])),
      duration: try #require(MeanInterval(values: [y, y])))
  }

  /// The run's trade-off chart draws the front's staircase (down from the top, across to the
  /// right edge) and its shaded region, even for a front of one point.
  @Test func tradeOffChartDrawsTheStaircase() throws {
    let html = try HTMLReportFixture.render()
    let chart = try #require(html.components(separatedBy: "id=\"tradeoff-chart\"").last)
    let path = try #require(
      chart.components(separatedBy: "class=\"front\"").first?.components(
        separatedBy: "<path d=\""
      ).last)
    #expect(path.hasPrefix("M"))
    #expect(path.contains(" H") && path.contains(" V"), "\(path)")
    #expect(chart.contains("class=\"front-region\""))
    let single = HTMLReport.tradeOffChart([try Self.point("only", 0.1, 0.2)], yUnit: .ratio)
    #expect(single.contains("class=\"front\""))
  }

  /// Points at the same spot share a label only with points on the same side of the front:
  /// a front point's label is bold, a dominated one's apart and plain.
  @Test func labelsSplitByFrontMembership() throws {
    let points = [
      try Self.point("never", 0, 0.5), try Self.point("custom-a", 0, 0.5005),
      try Self.point("custom-b", 0, 0.5005), try Self.point("storekit-auto", 0.2, 0.1),
    ]
    let svg = HTMLReport.tradeOffChart(points, yUnit: .ratio)
    #expect(svg.contains("class=\"point-label on-front\">never<"))
    #expect(svg.contains("class=\"point-label dominated\">custom-a, custom-b<"))
    #expect(svg.contains("class=\"point-label on-front\">storekit-auto<"))
  }
}
