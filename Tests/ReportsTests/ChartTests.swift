import Foundation
import Testing

@testable import Reports

#if canImport(FoundationXML)
  import FoundationXML
#endif

@Suite("Chart: ticks, scales, labels, escaping")
struct ChartTests {
  @Test(arguments: [
    (0.0, 1.0, 5, [0, 0.2, 0.4, 0.6, 0.8, 1.0]),
    (0.0, 100.0, 5, [0, 20, 40, 60, 80, 100]),
    (0.13, 0.87, 4, [0.2, 0.4, 0.6, 0.8]),
    (-3.0, 7.0, 5, [-2, 0, 2, 4, 6]),
    (0.0, 0.3, 3, [0, 0.1, 0.2, 0.3]),
    (5.0, 5.0, 3, [5]),
    (1e6, 5e6, 4, [1e6, 2e6, 3e6, 4e6, 5e6]),
    (0.0, 6.3, 5, [0, 2, 4, 6]),
    (0.001, 0.0042, 3, [0.002, 0.004]),
  ])
  func niceTicksTable(min: Double, max: Double, count: Int, expected: [Double]) {
    // Exact equality: ticks are integers times a decimal step, so 0.3 is the literal 0.3.
    #expect(Chart.niceTicks(min: min, max: max, count: count) == expected)
  }

  /// Seeded random intervals: ticks are inside, evenly spaced by 1, 2 or 5 × 10^k, at most
  /// count + 1 of them, and at least one from count 3 up.
  @Test func niceTicksProperties() {
    for seed in UInt64(0)..<2000 {
      var random = _ChartTestRandom(state: seed)
      let scale = pow(10, Double(random.next() % 13) - 6)
      let a = (Double(random.next() % 20_001) / 1000 - 10) * scale
      let b = a + Double(random.next() % 10_000 + 1) / 1000 * scale
      let count = Int(random.next() % 10) + 1
      let ticks = Chart.niceTicks(min: a, max: b, count: count)
      let context = "seed \(seed): [\(a), \(b)] count \(count) -> \(ticks)"
      #expect(ticks.count <= count + 1, "\(context)")
      if count >= 3 { #expect(!ticks.isEmpty, "\(context)") }
      let span = b - a
      for tick in ticks {
        #expect(tick >= a - 1e-9 * span && tick <= b + 1e-9 * span, "\(context)")
      }
      guard ticks.count >= 2 else { continue }
      let step = ticks[1] - ticks[0]
      let mantissa = step / pow(10, log10(step).rounded(.down))
      #expect(
        [1.0, 2, 5, 10].contains { abs(mantissa - $0) < 1e-6 }, "\(context): step \(step)")
      for (left, right) in zip(ticks, ticks.dropFirst()) {
        #expect(abs((right - left) - step) <= 1e-9 * Swift.max(1, abs(step)) * 10, "\(context)")
      }
    }
  }

  @Test func niceDomainEndsOnTicks() {
    #expect(Chart.niceDomain(min: 0, max: 6.3, count: 5) == (0, 8))
    #expect(Chart.niceDomain(min: 0, max: 0.93, count: 5) == (0, 1))
    #expect(Chart.niceDomain(min: 0.3, max: 6.3, count: 5) == (0, 8))
    #expect(Chart.niceDomain(min: 2, max: 2, count: 5) == (2, 2))
    #expect(Chart.tickDecimals(min: 0, max: 0.93, count: 5) == 1)
    #expect(Chart.tickDecimals(min: 0, max: 93, count: 5) == 0)
  }

  @Test(arguments: [
    (1.0, 1000.0, 8, [1, 10, 100, 1000]),
    (1.0, 100.0, 8, [1, 2, 5, 10, 20, 50, 100]),
    (0.01, 1e6, 4, [0.01, 10, 1e4]),
    (2.0, 8.0, 5, [2, 5]),
    (3.0, 4.0, 5, [3, 3.2, 3.4, 3.6, 3.8, 4]),
    (0.001, 0.1, 3, [0.001, 0.01, 0.1]),
  ])
  func logTicksTable(min: Double, max: Double, count: Int, expected: [Double]) {
    #expect(Chart.logTicks(min: min, max: max, count: count) == expected)
  }

  @Test func durationTicksAreRoundHumanDurations() {
    let day = 86400.0
    let ticks = Chart.durationTicks(min: 60, max: 30 * day, count: 9)
    #expect(ticks == [60, 600, 3600, 21600, day, 7 * day, 30 * day])
    #expect(
      ticks.map(Chart.durationTickLabel) == ["1 min", "10 min", "1 h", "6 h", "1 d", "7 d", "30 d"])
    #expect(
      Chart.durationTicks(min: 60, max: 3 * 3600, count: 9) == [60, 300, 600, 1800, 3600, 10800])
    let narrow = Chart.durationTicks(min: 11 * day, max: 31 * day, count: 7)
    #expect(narrow.map(Chart.durationTickLabel) == ["15 d", "20 d", "25 d", "30 d"])
    #expect(Chart.durationTickLabel(365 * day) == "1 y")
    #expect(Chart.durationTickLabel(90) == "90 s")
    #expect(Chart.durationTickLabel(0.005) == "5 ms")
  }

  @Test(arguments: [
    (45.0, "45 s"), (0.5, "0.5 s"), (270.0, "4.5 min"), (16_560.0, "4.6 h"),
    (527_040.0, "6.1 d"), (0.0, "0 s"), (119.9, "120 s"), (0.042, "0.04 s"),
  ])
  func durationsRead(seconds: Double, text: String) {
    #expect(Chart.duration(seconds) == text)
  }

  @Test func linearScaleMapsAndInverts() {
    let scale = LinearScale(domain: (0, 10), range: (100, 0))
    #expect(scale(0) == 100)
    #expect(scale(10) == 0)
    #expect(scale(2.5) == 75)
    #expect(scale.clamped(20) == 0 && scale.clamped(-5) == 100)
    #expect(scale(20) == -100, "not clamped unless asked")
    for value in stride(from: -5.0, through: 15, by: 0.25) {
      #expect(abs(scale.invert(scale(value)) - value) < 1e-12)
    }
    let reversed = LinearScale(domain: (10, 0), range: (0, 50))
    #expect(reversed(10) == 0 && reversed(0) == 50)
    #expect(scale.ticks(count: 5) == [0, 2, 4, 6, 8, 10])
  }

  @Test func logScaleMapsRatiosToEqualDistances() {
    let scale = LogScale(domain: (1, 1000), range: (0, 300))
    #expect(abs(scale(10) - 100) < 1e-9)
    #expect(abs(scale(100) - 200) < 1e-9)
    #expect(abs(scale.invert(150) - 1000.0.squareRoot()) < 1e-9)
    for exponent in stride(from: -2.0, through: 5, by: 0.1) {
      let value = pow(10, exponent)
      #expect(abs(scale.invert(scale(value)) / value - 1) < 1e-12)
    }
    #expect(scale(0).isFinite && scale(-1) < 0, "non-positive values map off the start")
    #expect(scale.clamped(1e9) == 300)
    let y = LogScale(domain: (60, 86400), range: (400, 0))
    #expect(y(60) == 400 && abs(y(86400)) < 1e-9)
    #expect(scale.ticks(count: 8) == [1, 10, 100, 1000])
  }

  @Test func escapesMarkupAndControlCharacters() {
    #expect(
      Chart.escape("<a href=\"x\">&'</a>") == "&lt;a href=&quot;x&quot;&gt;&amp;&#39;&lt;/a&gt;")
    #expect(Chart.escape("tab\there\nline") == "tab\there\nline")
    #expect(Chart.escape("bell\u{7}") == "bell\u{FFFD}")
    #expect(Chart.escape("café 😀 日本") == "café 😀 日本")
    #expect(Chart.escape("&amp;") == "&amp;amp;", "already-escaped text is escaped again")
  }

  @Test func canvasEscapesTextAndIsWellFormed() {
    var canvas = ChartCanvas(width: 200, height: 100)
    canvas.text("a <b> & \"c\"", x: 10, y: 20)
    canvas.rect(x: 0, y: 0, width: 10, height: 5.04, classes: "bar series-1", title: "t<&>")
    canvas.line(x1: 0, y1: 0.06, x2: 1.25, y2: -3, classes: "grid")
    canvas.polyline([(0, 0), (1, 1)], classes: "series-line")
    canvas.circle(x: 1, y: 2, radius: 3, classes: "point")
    canvas.legend(
      [LegendEntry(label: "x & y", style: .ink(), symbol: .line)], x: 0, y: 0, maxWidth: 200)
    let svg = canvas.svg(title: "T <1>", description: "D & d", id: "c1")
    #expect(svg.contains(">a &lt;b&gt; &amp; &quot;c&quot;</text>"))
    #expect(svg.contains("<title>t&lt;&amp;&gt;</title>"))
    #expect(svg.contains("height=\"5\""), "coordinates rounded to 0.1")
    #expect(svg.contains("y1=\"0.1\" x2=\"1.3\" y2=\"-3\""))
    #expect(svg.contains("viewBox=\"0 0 200 100\""))
    #expect(svg.contains("<title id=\"c1-title\">T &lt;1&gt;</title>"))
    #expect(!svg.contains("fill=\"#") && !svg.contains("stroke=\"#"), "colours come from CSS")
    #if canImport(FoundationXML) || canImport(Darwin)
      #expect(XMLParser(data: Data(svg.utf8)).parse())
    #endif
  }

  @Test func legendWrapsToItsWidth() {
    var canvas = ChartCanvas(width: 300, height: 100)
    let entries = (0..<6).map {
      LegendEntry(label: "policy number \($0)", style: ChartPalette.free[$0], symbol: .box)
    }
    #expect(canvas.legend(Array(entries.prefix(1)), x: 0, y: 0, maxWidth: 300) == 20)
    #expect(canvas.legend(entries, x: 0, y: 0, maxWidth: 300) >= 60)
  }
}

/// SplitMix64, for seeded random loops that print their seed.
struct _ChartTestRandom {
  var state: UInt64

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
