import MessageDeferral

/// A strict RFC 8259 reader from JSON text to ``ConfigValue`` (members kept in file order), so
/// a policy file reaches ``PolicyFile/read(_:)`` in the shape a scenario's policies do.
///
/// Does *not* hold: duplicate keys are kept (the policy decoder reads the first); nesting is
/// limited to ``maximumDepth``.
enum _PolicyJSON {
  static let maximumDepth = 64

  struct SyntaxError: Error, Equatable {
    /// 1-based line and column of the offending byte.
    var line: Int
    var column: Int
    var message: String
  }

  static func parse(_ text: String) throws(SyntaxError) -> ConfigValue {
    var parser = _Parser(bytes: Array(text.utf8))
    parser.skipSpace()
    let value = try parser.value(depth: 0)
    parser.skipSpace()
    guard parser.index == parser.bytes.count else {
      throw parser.error("text after the JSON value")
    }
    return value
  }
}

private struct _Parser {
  let bytes: [UInt8]
  var index = 0

  init(bytes: [UInt8]) { self.bytes = bytes }

  func error(_ message: String) -> _PolicyJSON.SyntaxError {
    var line = 1
    var column = 1
    for byte in bytes[..<min(index, bytes.count)] {
      if byte == UInt8(ascii: "\n") {
        line += 1
        column = 1
      } else {
        column += 1
      }
    }
    return _PolicyJSON.SyntaxError(line: line, column: column, message: message)
  }

  mutating func skipSpace() {
    while index < bytes.count,
      [UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t")].contains(
        bytes[index])
    {
      index += 1
    }
  }

  mutating func value(depth: Int) throws(_PolicyJSON.SyntaxError) -> ConfigValue {
    guard depth < _PolicyJSON.maximumDepth else { throw error("nested too deeply") }
    guard index < bytes.count else { throw error("unexpected end of text") }
    switch bytes[index] {
    case UInt8(ascii: "{"):
      index += 1
      var members: [ConfigValue.Member] = []
      skipSpace()
      if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
        index += 1
        return .object(members)
      }
      while true {
        skipSpace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
          throw error("expected a key in double quotes")
        }
        let key = try string()
        skipSpace()
        try expect(UInt8(ascii: ":"), "expected ':' after a key")
        skipSpace()
        members.append(ConfigValue.Member(key: key, value: try value(depth: depth + 1)))
        skipSpace()
        if try endOrComma(UInt8(ascii: "}")) { return .object(members) }
      }
    case UInt8(ascii: "["):
      index += 1
      var items: [ConfigValue] = []
      skipSpace()
      if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
        index += 1
        return .array(items)
      }
      while true {
        skipSpace()
        items.append(try value(depth: depth + 1))
        skipSpace()
        if try endOrComma(UInt8(ascii: "]")) { return .array(items) }
      }
    case UInt8(ascii: "\""):
      return .string(try string())
    case UInt8(ascii: "t"):
      try literal("true")
      return .bool(true)
    case UInt8(ascii: "f"):
      try literal("false")
      return .bool(false)
    case UInt8(ascii: "n"):
      try literal("null")
      return .null
    default:
      return .number(try number())
    }
  }

  mutating func expect(_ byte: UInt8, _ message: String) throws(_PolicyJSON.SyntaxError) {
    guard index < bytes.count, bytes[index] == byte else { throw error(message) }
    index += 1
  }

  /// After a member or item: `true` at the closing bracket, `false` after a comma.
  mutating func endOrComma(_ close: UInt8) throws(_PolicyJSON.SyntaxError) -> Bool {
    guard index < bytes.count else { throw error("unexpected end of text") }
    if bytes[index] == close {
      index += 1
      return true
    }
    try expect(UInt8(ascii: ","), "expected ',' or '\(Character(UnicodeScalar(close)))'")
    return false
  }

  mutating func literal(_ word: String) throws(_PolicyJSON.SyntaxError) {
    let expected = Array(word.utf8)
    guard index + expected.count <= bytes.count,
      Array(bytes[index..<index + expected.count]) == expected
    else { throw error("expected '\(word)'") }
    index += expected.count
  }

  mutating func number() throws(_PolicyJSON.SyntaxError) -> Double {
    let start = index
    let allowed = Set("+-0123456789.eE".utf8)
    while index < bytes.count, allowed.contains(bytes[index]) { index += 1 }
    let text = String(decoding: bytes[start..<index], as: UTF8.self)
    // JSON forbids a leading '+', leading zeros and a bare '.'; Double(_:) is laxer.
    let body = text.hasPrefix("-") ? String(text.dropFirst()) : text
    guard let first = body.first, first.isNumber,
      !(body.count > 1 && first == "0" && body.dropFirst().first?.isNumber == true),
      !body.contains("+") || body.contains("e") || body.contains("E"),
      let number = Double(text), number.isFinite
    else {
      index = start
      throw error("expected a JSON value")
    }
    return number
  }

  mutating func string() throws(_PolicyJSON.SyntaxError) -> String {
    index += 1  // the opening quote
    var scalars = String.UnicodeScalarView()
    var chunkStart = index
    func flush(_ end: Int) {
      scalars.append(
        contentsOf: String(decoding: bytes[chunkStart..<end], as: UTF8.self).unicodeScalars)
    }
    while index < bytes.count {
      let byte = bytes[index]
      if byte == UInt8(ascii: "\"") {
        flush(index)
        index += 1
        return String(scalars)
      }
      if byte < 0x20 { throw error("control character in a string; escape it") }
      if byte == UInt8(ascii: "\\") {
        flush(index)
        index += 1
        guard index < bytes.count else { break }
        let escape = bytes[index]
        index += 1
        switch escape {
        case UInt8(ascii: "\""): scalars.append("\"")
        case UInt8(ascii: "\\"): scalars.append("\\")
        case UInt8(ascii: "/"): scalars.append("/")
        case UInt8(ascii: "b"): scalars.append("\u{8}")
        case UInt8(ascii: "f"): scalars.append("\u{c}")
        case UInt8(ascii: "n"): scalars.append("\n")
        case UInt8(ascii: "r"): scalars.append("\r")
        case UInt8(ascii: "t"): scalars.append("\t")
        case UInt8(ascii: "u"):
          var code = try hex4()
          if (0xD800...0xDBFF).contains(code) {
            try literal("\\u")
            let low = try hex4()
            guard (0xDC00...0xDFFF).contains(low) else { throw error("unpaired surrogate") }
            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
          }
          guard let scalar = Unicode.Scalar(code) else { throw error("unpaired surrogate") }
          scalars.append(scalar)
        default: throw error("unknown escape in a string")
        }
        chunkStart = index
        continue
      }
      index += 1
    }
    throw error("unterminated string")
  }

  mutating func hex4() throws(_PolicyJSON.SyntaxError) -> UInt32 {
    guard index + 4 <= bytes.count,
      let code = UInt32(String(decoding: bytes[index..<index + 4], as: UTF8.self), radix: 16)
    else { throw error("expected four hex digits after \\u") }
    index += 4
    return code
  }
}
