import Foundation

/// Human-readable numbers for the bench's log lines and table.
enum Format {
  static func fixed(_ value: Double, _ digits: Int) -> String {
    guard value.isFinite else { return "\(value)" }
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    let rounded = (value * scale).rounded() / scale
    var text = "\(rounded)"
    if text.contains("e") { return text }
    if digits == 0 {
      if let dot = text.firstIndex(of: ".") { text = String(text[..<dot]) }
      return text
    }
    let parts = text.split(separator: ".", omittingEmptySubsequences: false)
    let fraction = parts.count > 1 ? String(parts[1]) : ""
    return parts[0] + "." + fraction.padding(toLength: digits, withPad: "0", startingAt: 0)
  }

  /// Three significant figures, no exponent for everyday magnitudes.
  static func significant(_ value: Double) -> String {
    guard value.isFinite, value != 0 else { return "\(value)" }
    let magnitude = abs(value)
    let digits = magnitude >= 100 ? 0 : magnitude >= 10 ? 1 : magnitude >= 1 ? 2 : 3
    return fixed(value, magnitude < 0.001 ? 6 : digits)
  }

  static func nanoseconds(_ value: Double) -> String {
    value >= 1e6
      ? significant(value / 1e6) + " ms"
      : value >= 1e3 ? significant(value / 1e3) + " µs" : significant(value) + " ns"
  }

  static func ratio(_ value: Double) -> String { significant(value) + "×" }

  /// 12 345 678 → "12.3M".
  static func count(_ value: Double) -> String {
    value >= 1e9
      ? significant(value / 1e9) + "G"
      : value >= 1e6
        ? significant(value / 1e6) + "M"
        : value >= 1e3 ? significant(value / 1e3) + "k" : significant(value)
  }

  static func padded(_ text: String, _ width: Int, right: Bool = false) -> String {
    let count = text.count
    guard count < width else { return text }
    let pad = String(repeating: " ", count: width - count)
    return right ? pad + text : text + pad
  }
}

/// A plain text table: a header, aligned columns (numbers right-aligned).
struct TextTable {
  var header: [String]
  var rows: [[String]] = []

  init(_ header: [String]) { self.header = header }

  mutating func add(_ row: [String]) { rows.append(row) }

  var text: String {
    var widths = header.map(\.count)
    for row in rows {
      for (index, field) in row.enumerated() { widths[index] = max(widths[index], field.count) }
    }
    func line(_ fields: [String]) -> String {
      fields.enumerated().map { index, field in
        Format.padded(field, widths[index], right: index > 0)
      }.joined(separator: "  ")
    }
    var lines = [
      line(header), widths.map { String(repeating: "-", count: $0) }.joined(separator: "  "),
    ]
    lines += rows.map(line)
    return lines.joined(separator: "\n")
  }
}
