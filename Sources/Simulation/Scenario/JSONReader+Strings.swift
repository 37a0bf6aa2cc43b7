// Strings, UTF-8 validation and the descriptions of unexpected input used in error messages.

extension _JSONParser {
  /// Reads a string, the cursor on its opening quote; leaves the cursor after the closing one.
  mutating func parseString() throws(JSONSyntaxError) -> String {
    let start = index
    index += 1
    var utf8: [UInt8] = []
    while true {
      guard let byte = current else {
        throw error(at: start, "unterminated string; add the closing '\"'")
      }
      switch byte {
      case UInt8(ascii: "\""):
        index += 1
        return String(decoding: utf8, as: UTF8.self)
      case UInt8(ascii: "\\"):
        try parseEscape(into: &utf8)
      case UInt8(ascii: "\n"):
        throw error(
          at: start,
          "unterminated string: a line break before its closing '\"'; close it, or "
            + "write a line break inside a string as \\n")
      case 0..<0x20:
        throw error(
          at: index,
          "control character U+\(hex(UInt32(byte), width: 4)) inside a string; escape it as "
            + "\\u\(hex(UInt32(byte), width: 4))")
      case 0x20..<0x80:
        utf8.append(byte)
        index += 1
      default:
        let length = _JSONParser.validUTF8Length(bytes, at: index)
        guard length > 0 else {
          throw error(
            at: index, "invalid UTF-8 byte 0x\(hex(UInt32(byte), width: 2)); save the file as UTF-8"
          )
        }
        utf8.append(contentsOf: bytes[index..<index + length])
        index += length
      }
    }
  }

  /// Reads one escape sequence (the cursor on the backslash) and appends its UTF-8.
  mutating func parseEscape(into utf8: inout [UInt8]) throws(JSONSyntaxError) {
    let start = index
    index += 1
    guard let byte = current else {
      throw error(at: start, "unterminated string; add the closing '\"'")
    }
    index += 1
    switch byte {
    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): utf8.append(byte)
    case UInt8(ascii: "b"): utf8.append(0x08)
    case UInt8(ascii: "f"): utf8.append(0x0C)
    case UInt8(ascii: "n"): utf8.append(0x0A)
    case UInt8(ascii: "r"): utf8.append(0x0D)
    case UInt8(ascii: "t"): utf8.append(0x09)
    case UInt8(ascii: "u"):
      let first = try parseHex4(escapeStart: start)
      var scalarValue = first
      if (0xD800...0xDBFF).contains(first) {
        let lowStart = index
        guard bytes[index...].starts(with: [UInt8(ascii: "\\"), UInt8(ascii: "u")]) else {
          throw error(
            at: start,
            "unpaired surrogate \\u\(hex(first, width: 4)); follow it with a low "
              + "surrogate (\\uDC00 to \\uDFFF) or write the character itself")
        }
        index += 2
        let second = try parseHex4(escapeStart: lowStart)
        guard (0xDC00...0xDFFF).contains(second) else {
          throw error(
            at: start,
            "unpaired surrogate \\u\(hex(first, width: 4)); follow it with a low "
              + "surrogate (\\uDC00 to \\uDFFF) or write the character itself")
        }
        scalarValue = 0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00)
      } else if (0xDC00...0xDFFF).contains(first) {
        throw error(
          at: start,
          "unpaired surrogate \\u\(hex(first, width: 4)); a low surrogate must "
            + "follow a high one (\\uD800 to \\uDBFF)")
      }
      // Surrogates were excluded above, so the value is a valid scalar.
      if let scalar = Unicode.Scalar(scalarValue) {
        UTF8.encode(scalar) { utf8.append($0) }
      }
    default:
      throw error(
        at: start,
        "invalid escape '\\\(describeCharacter(at: index - 1, quoted: false))'; valid escapes: "
          + "\\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX")
    }
  }

  /// Reads four hexadecimal digits after `\u`.
  mutating func parseHex4(escapeStart: Int) throws(JSONSyntaxError) -> UInt32 {
    var value: UInt32 = 0
    for _ in 0..<4 {
      guard let byte = current, let digit = _JSONParser.hexValue(byte) else {
        throw error(
          at: escapeStart,
          "invalid \\u escape; write four hexadecimal digits after \\u, as in \\u00e9")
      }
      value = value << 4 | digit
      index += 1
    }
    return value
  }

  static func hexValue(_ byte: UInt8) -> UInt32? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
    case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
    case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
    default: nil
    }
  }

  /// The length of the well-formed UTF-8 sequence starting at `offset` (Unicode 15 table 3-7:
  /// no overlong forms, no surrogates, nothing beyond U+10FFFF), or 0 if there is none.
  static func validUTF8Length(_ bytes: [UInt8], at offset: Int) -> Int {
    let lead = bytes[offset]
    let length: Int
    var secondRange: ClosedRange<UInt8> = 0x80...0xBF
    switch lead {
    case 0x00...0x7F: return 1
    case 0xC2...0xDF: length = 2
    case 0xE0:
      length = 3
      secondRange = 0xA0...0xBF
    case 0xE1...0xEC, 0xEE...0xEF: length = 3
    case 0xED:
      length = 3
      secondRange = 0x80...0x9F
    case 0xF0:
      length = 4
      secondRange = 0x90...0xBF
    case 0xF1...0xF3: length = 4
    case 0xF4:
      length = 4
      secondRange = 0x80...0x8F
    default: return 0
    }
    guard offset + length <= bytes.count, secondRange.contains(bytes[offset + 1]) else { return 0 }
    for next in offset + 2..<offset + length where bytes[next] & 0xC0 != 0x80 {
      return 0
    }
    return length
  }

  /// What is at `offset`, for "found ..." in messages: `'x'`, `the end of the input`,
  /// `U+0009`, `byte 0xFF (not UTF-8)`.
  func describe(at offset: Int) -> String {
    guard offset < bytes.count else { return "the end of the input" }
    return describeCharacter(at: offset, quoted: true)
  }

  func describeCharacter(at offset: Int, quoted: Bool) -> String {
    let byte = bytes[offset]
    if byte < 0x20 || byte == 0x7F { return "U+\(hex(UInt32(byte), width: 4))" }
    let length = _JSONParser.validUTF8Length(bytes, at: offset)
    guard length > 0 else { return "byte 0x\(hex(UInt32(byte), width: 2)) (not UTF-8)" }
    let text = String(decoding: bytes[offset..<offset + length], as: UTF8.self)
    return quoted ? "'\(text)'" : text
  }

  /// A fix for common mistakes at `offset` (comments, single quotes, bare words), or
  /// `otherwise`.
  func hint(at offset: Int, otherwise: String) -> String {
    guard offset < bytes.count else { return otherwise }
    switch bytes[offset] {
    case UInt8(ascii: "/"), UInt8(ascii: "#"): return "; JSON has no comments"
    case UInt8(ascii: "'"): return "; JSON strings use double quotes"
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
      UInt8(ascii: "_"):
      return "; put text in double quotes"
    default: return otherwise
    }
  }

  func hex(_ value: UInt32, width: Int) -> String {
    let digits = String(value, radix: 16, uppercase: true)
    return String(repeating: "0", count: max(0, width - digits.count)) + digits
  }
}
