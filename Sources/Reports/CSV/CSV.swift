import Foundation

/// RFC 4180 CSV text: a header row, comma separators, CRLF-free `\n` line ends, fields quoted
/// only when they contain a comma, a quote or a line break. Numbers use `.` decimals and the
/// shortest text that reads back to the same `Double` (full precision), whatever the locale.
public struct CSVTable: Sendable {
  public var header: [String]
  public private(set) var rows: [[String]] = []

  public init(header: [String]) { self.header = header }

  public mutating func append(_ fields: [CSVField]) {
    precondition(
      fields.count == header.count, "Row has \(fields.count) fields, header \(header.count)")
    rows.append(fields.map(\.text))
  }

  /// Appends the rows of `other` (a table of the same header).
  public mutating func appendRows(of other: CSVTable) {
    precondition(other.header == header, "Tables of different headers")
    rows += other.rows
  }

  /// The table as CSV text, ending with a line break.
  public var text: String {
    var result = ""
    for row in [header] + rows {
      result += row.map(Self.escape).joined(separator: ",")
      result += "\n"
    }
    return result
  }

  public static func escape(_ field: String) -> String {
    guard field.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else {
      return field
    }
    return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
  }
}

/// One CSV field.
public enum CSVField: Sendable, ExpressibleByStringLiteral {
  case text(String)
  case integer(Int)
  case number(Double?)

  public init(stringLiteral value: String) { self = .text(value) }

  var text: String {
    switch self {
    case .text(let text): Self.neutralised(text)
    case .integer(let value): String(value)
    case .number(let value): value.map(Self.format) ?? ""
    }
  }

  /// `text` made safe to open in a spreadsheet: control characters dropped, and a leading
  /// `=`, `+`, `-`, `@`, tab or carriage return (which Excel, LibreOffice and Sheets would read
  /// as a formula) quoted with `'`, unless the whole text is a number such as `-5`.
  /// Names under the name rule never change.
  public static func neutralised(_ text: String) -> String {
    var scalars = String.UnicodeScalarView()
    for scalar in text.unicodeScalars
    where !(scalar.value < 0x20 && scalar != "\n") && !(0x7F...0x9F).contains(scalar.value) {
      scalars.append(scalar)
    }
    let clean = String(scalars)
    guard let first = text.unicodeScalars.first,
      "=+-@\t\r".unicodeScalars.contains(first), Double(clean) == nil
    else { return clean }
    return "'" + clean
  }

  /// Shortest round-trip text; integers without a fraction; empty for NaN or infinity.
  public static func format(_ value: Double) -> String {
    guard value.isFinite else { return "" }
    if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
    return "\(value)"
  }

  /// Appends ``format(_:)``'s text of `value` to `bytes` (UTF-8), the integer case without
  /// making a `String`: for logs of millions of rows.
  public static func append(_ value: Double, to bytes: inout [UInt8]) {
    guard value.isFinite else { return }
    if value == value.rounded(), abs(value) < 1e15 {
      append(Int64(value), to: &bytes)
      return
    }
    // The interpolation's text, written as ASCII straight into the bytes: `description` makes
    // a `String`, which for the 16 or more characters of most times in seconds is a heap
    // allocation per field (`events.csv` has one per row).
    var stream = _ASCIIBytes()
    swap(&stream.bytes, &bytes)
    value.write(to: &stream)
    swap(&stream.bytes, &bytes)
  }

  /// Appends the decimal digits of `value` (a `-` first when negative) to `bytes`: the text
  /// of `String(value)`.
  public static func append(_ value: Int64, to bytes: inout [UInt8]) {
    // The magnitude as unsigned: `Int64.min` has no positive counterpart.
    var magnitude = value.magnitude
    if value < 0 { bytes.append(UInt8(ascii: "-")) }
    let start = bytes.count
    repeat {
      bytes.append(UInt8(ascii: "0") + UInt8(magnitude % 10))
      magnitude /= 10
    } while magnitude > 0
    bytes[start...].reverse()
  }
}

/// A text output stream into bytes, for ``CSVField/append(_:to:)-(Double,_)``: a number writes its
/// text as ASCII through `_writeASCII` (the standard library's entry for it), with no `String`.
struct _ASCIIBytes: TextOutputStream {
  var bytes: [UInt8] = []

  mutating func write(_ string: String) {
    var string = string
    string.withUTF8 { bytes.append(contentsOf: $0) }
  }

  mutating func _writeASCII(_ buffer: UnsafeBufferPointer<UInt8>) {
    bytes.append(contentsOf: buffer)
  }
}
