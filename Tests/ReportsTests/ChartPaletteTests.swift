import Foundation
import MessageDeferral
import Testing

@testable import Reports

/// Colour science for the palette check: sRGB to CIELAB (D65), CIEDE2000, the Machado et al.
/// (2009) colour-vision-deficiency simulation, WCAG 2.1 relative luminance.
enum _ColourScience {
  /// Machado, Oliveira and Fernandes (2009), severity 1.0, for linear sRGB.
  static let deficiencies: [(name: String, matrix: [[Double]])] = [
    (
      "protanopia",
      [
        [0.152286, 1.052583, -0.204868], [0.114503, 0.786281, 0.099216],
        [-0.003882, -0.048116, 1.051998],
      ]
    ),
    (
      "deuteranopia",
      [
        [0.367322, 0.860646, -0.227968], [0.280085, 0.672501, 0.047413],
        [-0.011820, 0.042940, 0.968881],
      ]
    ),
    (
      "tritanopia",
      [
        [1.255528, -0.076749, -0.178779], [-0.078411, 0.930809, 0.147602],
        [0.004733, 0.691367, 0.303900],
      ]
    ),
    ("normal vision", [[1, 0, 0], [0, 1, 0], [0, 0, 1]]),
  ]

  /// `#RRGGBB` as linear sRGB components in [0, 1].
  static func linear(_ hex: String) -> [Double] {
    let value = Int(hex.dropFirst(), radix: 16)!
    return [16, 8, 0].map { shift in
      let c = Double((value >> shift) & 0xFF) / 255
      return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
    }
  }

  static func simulate(_ rgb: [Double], _ matrix: [[Double]]) -> [Double] {
    matrix.map { row in Swift.min(1, Swift.max(0, zip(row, rgb).map(*).reduce(0, +))) }
  }

  /// WCAG 2.1 relative luminance of linear sRGB.
  static func luminance(_ rgb: [Double]) -> Double {
    0.2126 * rgb[0] + 0.7152 * rgb[1] + 0.0722 * rgb[2]
  }

  static func contrast(_ a: String, _ b: String) -> Double {
    let (x, y) = (luminance(linear(a)), luminance(linear(b)))
    return (Swift.max(x, y) + 0.05) / (Swift.min(x, y) + 0.05)
  }

  /// CIELAB (D65 white) of linear sRGB.
  static func lab(_ rgb: [Double]) -> (l: Double, a: Double, b: Double) {
    let x = (0.4124564 * rgb[0] + 0.3575761 * rgb[1] + 0.1804375 * rgb[2]) / 0.95047
    let y = 0.2126729 * rgb[0] + 0.7151522 * rgb[1] + 0.0721750 * rgb[2]
    let z = (0.0193339 * rgb[0] + 0.1191920 * rgb[1] + 0.9503041 * rgb[2]) / 1.08883
    func f(_ t: Double) -> Double { t > 216 / 24389 ? cbrt(t) : (24389 / 27 * t + 16) / 116 }
    return (116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z)))
  }

  /// CIEDE2000 colour difference (Sharma, Wu and Dalal 2005), kL = kC = kH = 1.
  static func deltaE2000(
    _ one: (l: Double, a: Double, b: Double), _ two: (l: Double, a: Double, b: Double)
  ) -> Double {
    let degrees = 180 / Double.pi
    let meanC = (hypot(one.a, one.b) + hypot(two.a, two.b)) / 2
    let g = 0.5 * (1 - (pow(meanC, 7) / (pow(meanC, 7) + pow(25, 7))).squareRoot())
    let (a1, a2) = ((1 + g) * one.a, (1 + g) * two.a)
    let (c1, c2) = (hypot(a1, one.b), hypot(a2, two.b))
    func hue(_ a: Double, _ b: Double) -> Double {
      a == 0 && b == 0 ? 0 : (atan2(b, a) * degrees + 360).truncatingRemainder(dividingBy: 360)
    }
    let (h1, h2) = (hue(a1, one.b), hue(a2, two.b))
    var dh = h2 - h1
    if c1 * c2 == 0 {
      dh = 0
    } else if dh > 180 {
      dh -= 360
    } else if dh < -180 {
      dh += 360
    }
    let dL = two.l - one.l
    let dC = c2 - c1
    let dH = 2 * (c1 * c2).squareRoot() * sin(dh / 2 / degrees)
    let meanL = (one.l + two.l) / 2
    let meanCp = (c1 + c2) / 2
    var meanH = h1 + h2
    if c1 * c2 != 0 {
      meanH =
        abs(h1 - h2) <= 180 ? meanH / 2 : (meanH < 360 ? (meanH + 360) / 2 : (meanH - 360) / 2)
    }
    let t =
      1 - 0.17 * cos((meanH - 30) / degrees) + 0.24 * cos(2 * meanH / degrees)
      + 0.32 * cos((3 * meanH + 6) / degrees) - 0.20 * cos((4 * meanH - 63) / degrees)
    let dTheta = 30 * exp(-pow((meanH - 275) / 25, 2))
    let rC = 2 * (pow(meanCp, 7) / (pow(meanCp, 7) + pow(25, 7))).squareRoot()
    let sL = 1 + 0.015 * pow(meanL - 50, 2) / (20 + pow(meanL - 50, 2)).squareRoot()
    let sC = 1 + 0.045 * meanCp
    let sH = 1 + 0.015 * meanCp * t
    let rT = -sin(2 * dTheta / degrees) * rC
    let terms = pow(dL / sL, 2) + pow(dC / sC, 2) + pow(dH / sH, 2) + rT * (dC / sC) * (dH / sH)
    return terms.squareRoot()
  }
}

@Suite("Chart palette")
struct ChartPaletteTests {
  /// The CIEDE2000 implementation reproduces pairs of Sharma, Wu and Dalal's (2005) test data.
  @Test(arguments: [
    ((50.0, 2.6772, -79.7751), (50.0, 0.0, -82.7485), 2.0425),
    ((50.0, 2.5, 0.0), (73.0, 25.0, -18.0), 27.1492),
    ((60.2574, -34.0099, 36.2677), (60.4626, -34.1751, 39.4387), 1.2644),
    ((22.7233, 20.0904, -46.6940), (23.0331, 14.9730, -42.5619), 2.0373),
  ])
  func deltaE2000MatchesPublishedPairs(
    one: (Double, Double, Double), two: (Double, Double, Double), expected: Double
  ) {
    let value = _ColourScience.deltaE2000(one, two)
    #expect(abs(value - expected) < 5e-4, "ΔE00 \(value), published \(expected)")
  }

  /// Every pair of palette colours (any two can share a chart) differs by CIEDE2000 ≥ 12 under
  /// simulated protanopia, deuteranopia and tritanopia and under normal vision, and each
  /// colour has 3:1 contrast on the white and on the dark page (see ``ChartPalette``).
  @Test func paletteSurvivesColourBlindness() {
    let colours = ChartPalette.colours.map(\.value)
    #expect(colours.count == 7)
    var worst = Double.infinity
    for (name, matrix) in _ColourScience.deficiencies {
      let labs = colours.map {
        _ColourScience.lab(_ColourScience.simulate(_ColourScience.linear($0), matrix))
      }
      for i in colours.indices {
        for j in colours.indices where j > i {
          let difference = _ColourScience.deltaE2000(labs[i], labs[j])
          worst = Swift.min(worst, difference)
          #expect(
            difference >= 12, "\(colours[i]) and \(colours[j]) under \(name): ΔE00 \(difference)")
        }
      }
    }
    #expect(worst < 13, "the bound is tight (worst pair ΔE00 \(worst)), so the check can fail")
    for colour in colours {
      #expect(_ColourScience.contrast(colour, "#FFFFFF") >= 3, "\(colour) on white")
      #expect(_ColourScience.contrast(colour, "#14171C") >= 3, "\(colour) on the dark page")
    }
    // The colours the issue found weak are gone: Okabe–Ito yellow fails on white.
    #expect(_ColourScience.contrast("#F0E442", "#FFFFFF") < 3)
  }

  /// Every preset has its own style, and no two presets share both colour and variant.
  @Test func everyPresetHasItsOwnStyle() {
    for preset in PolicyCatalog.presets {
      #expect(ChartPalette.presets[preset.name] != nil, "\(preset.name) has no colour")
    }
    #expect(Set(ChartPalette.presets.values).count == ChartPalette.presets.count)
    #expect(Set(ChartPalette.free).isDisjoint(with: ChartPalette.presets.values))
    #expect(
      ChartPalette.free.count + ChartPalette.presets.count
        == ChartPalette.colours.count * ChartPalette.variants.count)
  }

  /// Custom names take colours no policy of the report has, by a stable hash, and the result
  /// does not depend on the order of the names.
  @Test func customNamesAreStableAndDistinct() {
    #expect(ChartPalette.hash("") == 0xcbf2_9ce4_8422_2325)
    #expect(ChartPalette.hash("a") == 0xaf63_dc4c_8601_ec8c)
    let names = ["storekit-auto", "my-policy", "tuned", "p1", "p2", "p3", "openiap"]
    let styles = ChartPalette.styles(for: names)
    #expect(ChartPalette.styles(for: names.reversed()) == styles)
    #expect(Set(styles.values.map(\.colour)).count == names.count, "one colour per name")
    for name in ["my-policy", "tuned", "p1"] {
      #expect(!ChartPalette.presets.values.contains(styles[name]!), "\(name) has a preset's style")
    }
    #expect(styles["storekit-auto"] == ChartPalette.presets["storekit-auto"])
    // More custom names than colours: every name still gets a style, the first 16 a colour each.
    let many = (0..<40).map { "custom-\($0)" }
    #expect(ChartPalette.styles(for: many).count == 40)
    #expect(
      Set(ChartPalette.styles(for: many).values.map(\.colour)).count
        == ChartPalette.allColours.count)
  }

  /// A report's policies each have a colour of their own (#34: a custom policy took Adapty's
  /// colour, and two presets shared one): every preset together, with custom names, and any
  /// subset; a preset keeps its own colour unless one before it in the catalog has it.
  @Test func everyPolicyOfAReportHasAColourOfItsOwn() throws {
    let presets = PolicyCatalog.presets.map(\.name)
    let all = ChartPalette.styles(for: presets)
    #expect(Set(all.values.map(\.colour)).count == presets.count)
    #expect(all["storekit-auto"] == ChartPalette.presets["storekit-auto"])
    #expect(all["adapty-manual"] == ChartPalette.presets["adapty-manual"])
    // deadline-blind shares storekit-auto's colour in the catalog: here it takes an extra one,
    // with its own marker and dash.
    let blind = try #require(all["deadline-blind"])
    #expect(blind.colour! >= ChartPalette.colours.count)
    #expect(blind.variant == ChartPalette.presets["deadline-blind"]!.variant)
    // Alone, or without storekit-auto, it has its own colour.
    #expect(
      ChartPalette.styles(for: ["deadline-blind", "never"])["deadline-blind"]
        == ChartPalette.presets["deadline-blind"])
    for number in 0..<60 {
      let custom = "custom-\(number)"
      let styles = ChartPalette.styles(for: presets + [custom, "mine"])
      #expect(Set(styles.values.map(\.colour)).count == presets.count + 2, "\(custom)")
      let presetColours = Set(presets.map { styles[$0]!.colour })
      #expect(!presetColours.contains(styles[custom]!.colour), "\(custom) took a preset's colour")
    }
    // Any subset of presets with a custom name: one colour each.
    var generator = _SplitMix64(state: 34)
    for _ in 0..<200 {
      let subset = presets.filter { _ in generator.next() % 2 == 0 } + ["my-policy"]
      let styles = ChartPalette.styles(for: subset)
      #expect(Set(styles.values.map(\.colour)).count == subset.count, "\(subset)")
      #expect(ChartPalette.styles(for: subset.reversed()) == styles)
    }
  }

  /// The nine extra colours: apart from every colour under normal vision (CIEDE2000 ≥ 15; the
  /// policies that take them differ by marker and dash too, for colour-vision deficiencies),
  /// and 3:1 on both pages.
  @Test func extraColoursAreApartAndReadable() {
    let colours = ChartPalette.allColours.map(\.value)
    #expect(colours.count == 16)
    let labs = colours.map { _ColourScience.lab(_ColourScience.linear($0)) }
    for i in colours.indices {
      for j in colours.indices where j > i && j >= ChartPalette.colours.count {
        let difference = _ColourScience.deltaE2000(labs[i], labs[j])
        #expect(difference >= 15, "\(colours[i]) and \(colours[j]): ΔE00 \(difference)")
      }
    }
    for colour in ChartPalette.extraColours.map(\.value) {
      #expect(_ColourScience.contrast(colour, "#FFFFFF") >= 3, "\(colour) on white")
      #expect(_ColourScience.contrast(colour, "#14171C") >= 3, "\(colour) on the dark page")
    }
    #expect(ChartPalette.css.contains(".series-15{--series:#AA7700}"))
  }

  /// The swatch classes of every policy in the headline table of `html`, by policy name.
  static func swatches(_ html: String) -> [String: String] {
    var result: [String: String] = [:]
    for part in html.components(separatedBy: "<span class=\"swatch ").dropFirst() {
      let classes = String(part.prefix { $0 != "\"" })
      guard let close = part.range(of: "</span>") else { continue }
      let name = String(part[close.upperBound...].prefix { $0 != "<" && $0 != " " })
      result[name] = classes
    }
    return result
  }

  /// Two reports of the same policies in different orders give each policy the same colour
  /// and marker (the done-when), in the table and in the charts.
  @Test func coloursStayAcrossPolicyOrders() throws {
    let report = HTMLReportFixture.report()
    let order = [3, 1, 0, 2]
    var result = report.result
    result.policies = order.map { report.result.policies[$0] }
    result.tallies = report.result.tallies.map { row in order.map { row[$0] } }
    var scenario = report.scenario
    scenario.policies = result.policies
    let reordered = RunReport(scenario: scenario, result: result, baseline: report.baseline)
    let first = HTMLReport.render(report, manifest: HTMLReportFixture.manifest(for: report))
    let second = HTMLReport.render(reordered, manifest: HTMLReportFixture.manifest(for: reordered))
    let one = Self.swatches(first)
    #expect(one.count == 4)
    #expect(one == Self.swatches(second))
    #expect(one["storekit-auto"] == "series-1 variant-0")
    // The bars of the fallback chart carry each policy's classes in its tooltip'd rect.
    for (name, classes) in one {
      #expect(first.contains("class=\"bar \(classes)\"><title>\(name):"))
      #expect(second.contains("class=\"bar \(classes)\"><title>\(name):"))
    }
  }

  @Test func paletteCSSGivesEveryColourAndDash() {
    let css = ChartPalette.css
    #expect(css.contains(".series-0{--series:#0072B2}"))
    #expect(css.contains(".series-ink{--series:currentColor}"))
    #expect(css.contains(".series-line.variant-1{stroke-dasharray:7 4}"))
    #expect(!css.contains("#F0E442"))
    #expect(SeriesStyle(colour: 3, variant: 2).classes == "series-3 variant-2")
    #expect(SeriesStyle.ink(1).classes == "series-ink variant-1")
  }
}
