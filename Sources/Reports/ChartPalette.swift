/// The colours of chart series: the Okabe–Ito palette (Okabe and Ito, "Color Universal
/// Design", 2008), chosen to stay distinguishable under the common colour-vision
/// deficiencies.
///
/// Series 0 is drawn in the ink colour (`currentColor`: black on light pages, near-white on
/// dark ones) instead of Okabe–Ito black, so it stays visible in dark mode; yellow, the palette's
/// weakest colour for thin lines on white, comes fifth so that small comparisons never use it.
/// Series beyond the eighth reuse the colours with a dashed stroke (`series-dash`), so up to 16
/// series stay distinct. Charts name series by CSS class only; ``css`` holds the colours.
public enum ChartPalette {
  /// The eight colours, in series order: (name, sRGB hex or `currentColor`).
  public static let colours: [(name: String, value: String)] = [
    ("ink", "currentColor"), ("orange", "#E69F00"), ("sky blue", "#56B4E9"),
    ("bluish green", "#009E73"), ("yellow", "#F0E442"), ("blue", "#0072B2"),
    ("vermillion", "#D55E00"), ("reddish purple", "#CC79A7"),
  ]

  /// The CSS classes of series `index`: `series-N` (its colour) and, from the ninth series
  /// on, `series-dash` too.
  public static func seriesClass(_ index: Int) -> String {
    precondition(index >= 0, "A series index cannot be negative")
    let colour = "series-\(index % colours.count)"
    return index >= colours.count ? colour + " series-dash" : colour
  }

  /// CSS that gives each `series-N` class its colour through the `--series` custom property,
  /// which the chart rules (`.series-line`, `.bar`, `.point`, `.whisker`) use.
  public static var css: String {
    var rules = colours.enumerated().map { index, colour in
      ".series-\(index){--series:\(colour.value)}"
    }
    rules.append(".series-dash{stroke-dasharray:6 3}")
    return rules.joined(separator: "\n")
  }
}
