import Foundation

/// A small chart toolkit for the HTML report: tick generation, number and duration labels,
/// markup escaping, and (in the other `Chart*.swift` files) scales, an SVG canvas, axes,
/// legends and a colour-blind-safe palette. Pure functions of their inputs: the same data
/// gives byte-identical SVG.
public enum Chart {
  /// About `count` round ticks covering [`min`, `max`]: multiples of a step of 1, 2 or 5 times
  /// a power of ten, the smallest such step that gives at most `count` + 1 ticks.
  ///
  /// Ticks are the multiples of the step inside [`min`, `max`] (ends included, with a tolerance
  /// of 10⁻⁹ step for rounding), each computed as an integer times the step, so 0.1 steps give
  /// `0.3`, never `0.30000000000000004`. A degenerate interval (`min == max`) gives `[min]`.
  ///
  /// - Precondition: `min <= max`, both finite; `count >= 1`.
  public static func niceTicks(min: Double, max: Double, count: Int) -> [Double] {
    precondition(min.isFinite && max.isFinite && min <= max, "Bad tick interval [\(min), \(max)]")
    precondition(count >= 1, "A tick count must be at least 1")
    guard min < max else { return [min] }
    let step = niceStep(span: max - min, count: count)
    let firstIndex = (min / step.value - 1e-9).rounded(.up)
    let lastIndex = (max / step.value + 1e-9).rounded(.down)
    // Only a span too wide for a Double (±1e308) gives more ticks than asked: end ticks then.
    guard lastIndex - firstIndex <= Double(4 * count + 4) else { return [min, max] }
    let first = Int(firstIndex)
    let last = Int(lastIndex)
    guard first <= last else { return [] }
    return (first...last).map { step.multiple($0) }
  }

  /// The interval [`min`, `max`] widened outwards to the nearest multiples of the step
  /// ``niceTicks(min:max:count:)`` would use, so an axis ends on a tick. A degenerate interval
  /// is returned unchanged.
  public static func niceDomain(min: Double, max: Double, count: Int) -> (Double, Double) {
    precondition(min.isFinite && max.isFinite && min <= max, "Bad tick interval [\(min), \(max)]")
    guard min < max else { return (min, max) }
    let step = niceStep(span: max - min, count: count)
    let first = Int((min / step.value + 1e-9).rounded(.down))
    let last = Int((max / step.value - 1e-9).rounded(.up))
    return (step.multiple(first), step.multiple(last))
  }

  /// The decimals a tick label needs for ticks ``niceTicks(min:max:count:)`` gives on this
  /// interval: 0 for steps of 1 or more, 1 for 0.1, 0.2, 0.5, and so on.
  public static func tickDecimals(min: Double, max: Double, count: Int) -> Int {
    guard min < max else { return 0 }
    return Swift.max(0, -niceStep(span: max - min, count: count).exponent)
  }

  /// Ticks for a log axis over [`min`, `max`] (both positive): the powers of ten inside, plus
  /// 2 and 5 times them when that still makes at most `count` ticks; when there are more
  /// decades than `count`, every second (third...) decade. With no power of ten inside, the
  /// 1-2-5 values inside, or linear ``niceTicks(min:max:count:)`` when there are none of those.
  ///
  /// - Precondition: `0 < min <= max`, both finite; `count >= 1`.
  public static func logTicks(min: Double, max: Double, count: Int) -> [Double] {
    precondition(
      min > 0 && min.isFinite && max.isFinite && min <= max,
      "Bad log tick interval [\(min), \(max)]")
    precondition(count >= 1, "A tick count must be at least 1")
    let low = Int((log10(min) - 1e-9).rounded(.down))
    let high = Int((log10(max) + 1e-9).rounded(.up))
    func inside(_ value: Double) -> Bool {
      value >= min * (1 - 1e-12) && value <= max * (1 + 1e-12)
    }
    var decades: [Double] = []
    var withSteps: [Double] = []
    for exponent in low...high {
      for mantissa in [1, 2, 5] {
        let value = _Step(mantissa: mantissa, exponent: exponent).value
        guard inside(value) else { continue }
        withSteps.append(value)
        if mantissa == 1 { decades.append(value) }
      }
    }
    if withSteps.count <= count, !withSteps.isEmpty { return withSteps }
    if decades.isEmpty { return niceTicks(min: min, max: max, count: count) }
    let stride = (decades.count + count - 1) / count
    return decades.enumerated().filter { $0.offset % stride == 0 }.map(\.element)
  }

  /// Ticks for a log axis of durations in seconds, at round human durations (1 min, 10 min,
  /// 1 h, 6 h, 1 d, 7 d, 30 d...) inside [`min`, `max`]: the main ones, and the secondary ones
  /// (5 min, 30 min, 3 h, 12 h, 3 d, 14 d...) too when that still makes at most `count`. An
  /// interval too narrow for three of those gets linear round ticks in one unit instead (15 d,
  /// 20 d, 25 d, 30 d).
  ///
  /// - Precondition: `0 < min <= max`; `count >= 1`.
  public static func durationTicks(min: Double, max: Double, count: Int) -> [Double] {
    precondition(min > 0 && min <= max, "Bad duration tick interval [\(min), \(max)]")
    precondition(count >= 1, "A tick count must be at least 1")
    let main: [Double] = [
      0.001, 0.01, 0.1, 1, 10, 60, 600, 3600, 21600, 86400, 604_800, 2_592_000, 31_536_000,
    ]
    let secondary: [Double] = [
      0.002, 0.005, 0.02, 0.05, 0.2, 0.5, 2, 5, 30, 300, 1800, 10800, 43200, 259_200, 1_209_600,
      7_776_000,
    ]
    func inside(_ value: Double) -> Bool {
      value >= min * (1 - 1e-12) && value <= max * (1 + 1e-12)
    }
    let primary = main.filter(inside)
    let both = (main + secondary).filter(inside).sorted()
    if both.count < 3 {
      // A narrow interval (say 11 to 31 days): round values of one unit, linearly spaced.
      let unit = durationUnit(for: max)
      let linear = niceTicks(min: min / unit.size, max: max / unit.size, count: Swift.min(count, 5))
        .map { $0 * unit.size }
      if linear.count > both.count { return linear }
    }
    if both.count <= count, !both.isEmpty { return both }
    if primary.count <= count, !primary.isEmpty { return primary }
    return logTicks(min: min, max: max, count: count)
  }

  /// A tick label for a round duration: the largest unit that divides it (`"1 min"`, `"6 h"`,
  /// `"7 d"`, `"1 y"` for 365 days), else ``duration(_:)``.
  public static func durationTickLabel(_ seconds: Double) -> String {
    let units: [(Double, String)] = [
      (31_536_000, "y"), (86400, "d"), (3600, "h"), (60, "min"), (1, "s"), (0.001, "ms"),
    ]
    for (size, name) in units where seconds >= size {
      let amount = seconds / size
      if abs(amount - amount.rounded()) < 1e-9 * amount, amount < 9.0e15 {
        return "\(Int64(amount.rounded())) \(name)"
      }
    }
    return duration(seconds)
  }

  /// A duration in a readable unit, with ``number(_:)``'s digits: `"45 s"`, `"4.5 min"`,
  /// `"12 h"`, `"6.1 d"`. Seconds below two minutes, minutes below two hours,
  /// hours below two days, days above. Zero is `"0 s"`; negative values keep their sign.
  public static func duration(_ seconds: Double) -> String {
    let unit = durationUnit(for: seconds)
    return number(seconds / unit.size) + " " + unit.name
  }

  /// The unit ``duration(_:)`` uses for `seconds`: its size in seconds and its name.
  public static func durationUnit(for seconds: Double) -> (size: Double, name: String) {
    let magnitude = abs(seconds)
    if magnitude < 120 { return (1, "s") }
    if magnitude < 7200 { return (60, "min") }
    if magnitude < 172_800 { return (3600, "h") }
    return (86400, "d")
  }

  /// `value` in few digits, no locale, no exponent: none from 10 up (`"42"`), one decimal
  /// from 0.1 (`"4.2"`, `"0.4"`), one significant digit below (`"0.04"`); zero is `"0"`.
  public static func number(_ value: Double) -> String {
    let magnitude = abs(value)
    if magnitude == 0 { return "0" }
    if magnitude >= 10 { return fixed(value, 0) }
    if magnitude >= 0.1 { return fixed(value, 1) }
    let leadingZeros = Int((-log10(magnitude)).rounded(.down))
    return fixed(value, Swift.min(12, leadingZeros + 1))
  }

  /// `values` as ``number(_:)`` writes them, each with up to four more decimals, the fewest
  /// extra (the same for all) that give values that differ different labels: 0.137 and 0.149
  /// read `0.14` and `0.15`, not `0.1` twice. Values closer than that share a label.
  public static func distinctNumbers(_ values: [Double]) -> [String] {
    func decimals(_ value: Double) -> Int {
      let magnitude = abs(value)
      if magnitude == 0 || magnitude >= 10 { return 0 }
      if magnitude >= 0.1 { return 1 }
      return Swift.min(12, Int((-log10(magnitude)).rounded(.down)) + 1)
    }
    var labels: [String] = []
    for extra in 0...4 {
      labels = values.map { $0 == 0 ? "0" : fixed($0, decimals($0) + extra) }
      var seen: [String: Double] = [:]
      let clash = zip(labels, values).contains { label, value in
        defer { seen[label] = seen[label] ?? value }
        return seen[label].map { $0 != value } ?? false
      }
      if !clash { break }
    }
    return labels
  }

  /// `values` at one precision (the labels of one panel): the decimals ``number(_:)`` gives
  /// the largest magnitude, with up to four more (the same for all) until values that differ
  /// read differently; a value that is not 0 but rounds to it reads `<0.01` (at the same
  /// decimals), so it is neither shown as zero nor at another precision: `0.07268` and
  /// `0.0008255` read `0.07` and `<0.01`.
  ///
  /// With `distinct` false the decimals are those of the largest magnitude alone (for notes
  /// beside a value, where telling near-equal ones apart is not the point).
  public static func panelNumbers(_ values: [Double], distinct: Bool = true) -> [String] {
    let largest = values.map { abs($0) }.filter(\.isFinite).max() ?? 0
    let base: Int
    if largest == 0 || largest >= 10 {
      base = 0
    } else if largest >= 0.1 {
      base = 1
    } else {
      base = Swift.min(12, Int((-log10(largest)).rounded(.down)) + 1)
    }
    var digits = base
    for extra in 0...(distinct ? 4 : 0) {
      digits = base + extra
      let labels = values.map { fixed($0, digits) }
      var seen: [String: Double] = [:]
      let clash = zip(labels, values).contains { label, value in
        defer { seen[label] = seen[label] ?? value }
        return seen[label].map { $0 != value } ?? false
      }
      if !clash { break }
    }
    let zero = fixed(0, digits)
    let smallest = fixed(pow(10, -Double(digits)), digits)
    return values.map { value in
      let label = fixed(value, digits)
      guard value != 0, label == zero || label == "-" + zero else { return label }
      return (value < 0 ? ">-" : "<") + smallest
    }
  }

  /// `value` with exactly `digits` decimals, `.` as separator, no locale (`-0.0` prints `0.0`).
  public static func fixed(_ value: Double, _ digits: Int) -> String {
    TerminalTable.fixed(value, digits)
  }

  /// A coordinate for SVG: rounded to 0.1 user unit, without a trailing `.0`.
  static func coordinate(_ value: Double) -> String {
    // Far outside any canvas: clamp, so a wild value draws off-canvas instead of trapping.
    guard value.isFinite else { return "0" }
    let rounded = (Swift.min(Swift.max(value, -1e9), 1e9) * 10).rounded() / 10
    if rounded == rounded.rounded() { return String(Int64(rounded)) }
    return fixed(rounded, 1)
  }

  /// A step of `mantissa` × 10^`exponent`, computed exactly where decimals allow.
  struct _Step {
    var mantissa: Int
    var exponent: Int

    var value: Double { multiple(1) }

    /// `index` × the step, computed as an integer scaled once by a power of ten.
    func multiple(_ index: Int) -> Double {
      let integer = Double(index * mantissa)
      return exponent >= 0
        ? integer * pow(10, Double(exponent)) : integer / pow(10, Double(-exponent))
    }
  }

  /// The smallest 1-2-5 step at least `span / count`.
  static func niceStep(span: Double, count: Int) -> _Step {
    // Keep the step inside what a power of ten can express: a span of ±1e308 overflows to
    // infinity, and log10 of it must not reach Int().
    let raw = Swift.min(Swift.max(span / Double(count), 1e-300), 1e300)
    var exponent = Int(log10(raw).rounded(.down))
    let fraction = raw / pow(10, Double(exponent))
    let mantissa: Int
    if fraction <= 1 + 1e-9 {
      mantissa = 1
    } else if fraction <= 2 + 1e-9 {
      mantissa = 2
    } else if fraction <= 5 + 1e-9 {
      mantissa = 5
    } else {
      mantissa = 1
      exponent += 1
    }
    return _Step(mantissa: mantissa, exponent: exponent)
  }
}
