import MessageDeferral

/// How one series is drawn: a colour of ``ChartPalette/colours`` (or the ink colour) and a
/// variant, which sets the marker shape and the line dash, so series that share a colour stay
/// apart by shape.
public struct SeriesStyle: Sendable, Hashable {
  /// An index into ``ChartPalette/allColours``; `nil` for the ink colour (`currentColor`: black
  /// on light pages, near-white on dark ones), used for a sweep's grid points.
  public var colour: Int?
  /// An index into ``ChartPalette/variants``: circle and solid line, square and dashed line,
  /// triangle and dotted line, diamond and dash-dot line.
  public var variant: Int

  public init(colour: Int?, variant: Int) {
    precondition(colour.map { ChartPalette.allColours.indices.contains($0) } ?? true)
    precondition(ChartPalette.variants.indices.contains(variant))
    self.colour = colour
    self.variant = variant
  }

  /// The ink colour with variant `variant`.
  public static func ink(_ variant: Int = 0) -> SeriesStyle {
    SeriesStyle(colour: nil, variant: variant)
  }

  /// The CSS classes: `series-N` (or `series-ink`), its colour through `--series`, and
  /// `variant-V`, its dash on lines.
  public var classes: String { "series-\(colour.map(String.init) ?? "ink") variant-\(variant)" }

  /// The marker's shape.
  public var marker: ChartPalette.Marker { ChartPalette.variants[variant].marker }
}

/// The colours and variants of chart series, fixed per preset name across every report.
///
/// **Colours.** Seven colours picked (starting from Okabe and Ito's "Color Universal Design"
/// blue, vermillion, bluish green and reddish purple; yellow, orange and sky blue dropped as
/// too faint on white) so that every pair stays apart under the common colour-vision
/// deficiencies. The check, in `ChartPaletteTests.paletteSurvivesColourBlindness`: each
/// colour is simulated for protanopia, deuteranopia and tritanopia with the severity-1.0
/// matrices of Machado, Oliveira and Fernandes (2009, IEEE TVCG 15(6)) applied in linear sRGB,
/// then every pair (any two can share a chart) must differ by CIEDE2000 ΔE ≥ 12 under each
/// simulation and under normal vision (a ΔE00 near 1 is just noticeable); each colour must
/// have a WCAG 2.1 contrast of at least 3:1 (non-text contrast, SC 1.4.11) against the white
/// page and the dark page (`#14171c`). Seven colours cannot cover twelve presets, so series
/// that share a colour differ by marker shape and line dash (``variants``).
///
/// **Presets.** Each preset's declaration in ``PolicyCatalog`` gives its colour and variant; a
/// preset's variant (`screen-gate-ceiling` of `screen-gate`) has its colour with another
/// marker and dash, so no two presets share both.
///
/// **One colour per policy in a report** (``styles(for:)``). A preset keeps its own colour
/// unless a preset before it in the catalog has that colour in the same report; then it takes
/// the first of the ``extraColours`` the report has not used, with its own variant. Other
/// names (custom policies) take a colour no policy of the report uses (a primary colour first,
/// chosen by a stable hash of the name, FNV-1a), with a variant no preset has in that colour.
/// Only beyond the 16 colours do two policies of a report share one (told apart by variant).
/// The extra colours are apart from every other colour under normal vision (CIEDE2000 ≥ 15,
/// `ChartPaletteTests`) and have the same contrast; under a colour-vision deficiency the
/// policies that take them are told apart by marker and dash as before.
public enum ChartPalette {
  /// The seven colours: (name, sRGB hex).
  public static let colours: [(name: String, value: String)] = [
    ("blue", "#0072B2"), ("vermillion", "#D55E00"), ("bluish green", "#009E73"),
    ("reddish purple", "#CC79A7"), ("olive", "#666644"), ("violet", "#9977FF"),
    ("magenta", "#BB1188"),
  ]

  /// Nine more colours for reports with more policies than the seven (or presets that share
  /// one): apart from each other and from the seven under normal vision, 3:1 on both pages.
  public static let extraColours: [(name: String, value: String)] = [
    ("olive yellow", "#999900"), ("crimson", "#EE1144"), ("slate", "#777788"),
    ("teal", "#0099AA"), ("taupe", "#AA8877"), ("green", "#007700"), ("purple", "#8811FF"),
    ("fuchsia", "#FF00FF"), ("ochre", "#AA7700"),
  ]

  /// The seven colours, then the extra ones: what a style's colour indexes.
  public static let allColours = colours + extraColours

  /// A marker's shape.
  public enum Marker: String, Sendable, CaseIterable {
    case circle, square, triangle, diamond

    /// The shape as a text glyph (tables and legends in HTML).
    public var glyph: String {
      switch self {
      case .circle: "●"
      case .square: "■"
      case .triangle: "▲"
      case .diamond: "◆"
      }
    }
  }

  /// The variants: marker shape and SVG `stroke-dasharray` (`nil` for a solid line).
  public static let variants: [(marker: Marker, dash: String?)] = [
    (.circle, nil), (.square, "7 4"), (.triangle, "2 3"), (.diamond, "8 3 2 3"),
  ]

  /// Every preset's style, from its declaration (``PolicyCatalog/Preset/chart``).
  public static let presets: [String: SeriesStyle] = Dictionary(
    uniqueKeysWithValues: PolicyCatalog.presets.map { preset in
      (preset.name, SeriesStyle(colour: preset.chart.colour, variant: preset.chart.variant))
    })

  /// The entries no preset uses, in a fixed order (variant, then colour): where other names'
  /// styles come from.
  public static let free: [SeriesStyle] = {
    let taken = Set(presets.values)
    return variants.indices.flatMap { variant in
      colours.indices.map { SeriesStyle(colour: $0, variant: variant) }
    }.filter { !taken.contains($0) }
  }()

  /// The style of each of `names` (one report's series): each name a colour of its own while
  /// the 16 colours last (see the type's documentation). A preset keeps its own colour unless
  /// a preset before it in the catalog has it here; custom names are placed in sorted order;
  /// so the result depends on the set of names only, not on their order.
  public static func styles(for names: [String]) -> [String: SeriesStyle] {
    var result: [String: SeriesStyle] = [:]
    var used = Set<Int>()
    let named = Set(names)
    var moved: [String] = []
    for preset in PolicyCatalog.presets where named.contains(preset.name) {
      let style = presets[preset.name]!
      if used.insert(style.colour!).inserted {
        result[preset.name] = style
      } else {
        moved.append(preset.name)
      }
    }
    let extras = colours.count..<allColours.count
    for name in moved {
      let own = presets[name]!
      guard let colour = extras.first(where: { !used.contains($0) }) else {
        result[name] = own
        continue
      }
      used.insert(colour)
      result[name] = SeriesStyle(colour: colour, variant: own.variant)
    }
    let taken = Set(presets.values)
    for name in named.sorted() where presets[name] == nil {
      let hash = hash(name)
      let primaries = colours.indices.filter { !used.contains($0) }
      let pool = primaries.isEmpty ? extras.filter { !used.contains($0) } : primaries
      guard !pool.isEmpty else {
        // Every colour is taken: an entry no preset has, by hash.
        result[name] = free[Int(hash % UInt64(free.count))]
        continue
      }
      let colour = pool[Int(hash % UInt64(pool.count))]
      let first = Int((hash >> 32) % UInt64(variants.count))
      let variant =
        variants.indices.lazy.map { (first + $0) % variants.count }.first {
          !taken.contains(SeriesStyle(colour: colour, variant: $0))
        } ?? first
      used.insert(colour)
      result[name] = SeriesStyle(colour: colour, variant: variant)
    }
    return result
  }

  /// The style of `name` alone (a preset's own, else by hash without collisions).
  public static func style(for name: String) -> SeriesStyle {
    styles(for: [name])[name]!
  }

  /// FNV-1a, 64 bits, over the name's UTF-8: the same on every platform and run (Swift's
  /// `hashValue` is seeded per process).
  static func hash(_ name: String) -> UInt64 {
    var value: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in name.utf8 {
      value = (value ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
    }
    return value
  }

  /// CSS that gives each `series-N` class its colour through the `--series` custom property,
  /// which the chart rules (`.series-line`, `.bar`, `.point`, `.whisker`) use, and each
  /// `variant-V` its dash on lines.
  public static var css: String {
    var rules = allColours.enumerated().map { index, colour in
      ".series-\(index){--series:\(colour.value)}"
    }
    rules.append(".series-ink{--series:currentColor}")
    for (index, variant) in variants.enumerated() {
      if let dash = variant.dash {
        rules.append("svg.chart .series-line.variant-\(index){stroke-dasharray:\(dash)}")
      }
    }
    return rules.joined(separator: "\n")
  }
}
