import MessageDeferral

/// A small JSON reader (RFC 8259) that keeps, for every value, where it was written.
///
/// Input is UTF-8 bytes (a leading byte-order mark is skipped). The reader is strict: no
/// comments, no trailing commas, no single quotes, no `NaN`, strings must be valid UTF-8 and
/// escaped surrogates must pair up. It never traps and never recurses on its input: nesting
/// is tracked on an explicit stack capped at ``maximumDepth``, and every malformed input
/// yields a ``JSONSyntaxError`` with a line, a column and what was expected.
///
/// Implementation limits (RFC 8259 §9): numbers must be finite as a `Double` (`1e400` is
/// rejected; `1e-400` reads as 0), and arrays and objects nest at most ``maximumDepth`` deep.
public enum JSONReader {
  /// The deepest nesting of arrays and objects accepted. Scenario files need fewer than 10.
  public static let maximumDepth = 512

  /// Reads one JSON document (a single value, surrounded by optional whitespace).
  ///
  /// - Complexity: O(*n*) in the size of the input.
  public static func parse(_ bytes: [UInt8]) throws(JSONSyntaxError) -> JSONNode {
    var parser = _JSONParser(bytes: bytes)
    return try parser.parseDocument()
  }

  /// Reads one JSON document from text (its UTF-8 encoding).
  public static func parse(_ text: String) throws(JSONSyntaxError) -> JSONNode {
    try parse(Array(text.utf8))
  }
}

/// Why a text is not well-formed JSON, and where.
public struct JSONSyntaxError: Error, Equatable, Sendable, CustomStringConvertible {
  /// Where the problem was found (the first byte that could not be read).
  public var position: SourcePosition
  /// What is wrong and, where it helps, how to fix it.
  public var message: String

  public init(position: SourcePosition, message: String) {
    self.position = position
    self.message = message
  }

  /// `line 3, column 14: expected ',' or '}' after an object member, found ']'`.
  public var description: String { "\(position): \(message)" }
}

/// One open array or object while reading.
struct _JSONFrame {
  var isObject: Bool
  var position: SourcePosition
  var elements: [JSONNode] = []
  var members: [JSONNode.Member] = []
  /// The key whose value is being read (objects only).
  var key = ""
  var keyPosition = SourcePosition(line: 1, column: 1)
}

/// The reader's state: the input, a cursor, and what it needs to turn the cursor into a
/// line and column cheaply.
struct _JSONParser {
  let bytes: [UInt8]
  var index = 0
  /// The current line (1-based) and the index of its first byte.
  var line = 1
  var lineStart = 0
  /// A memo for columns: the column of the byte at `columnIndex` (on the current line).
  var columnIndex = 0
  var column = 1

  init(bytes: [UInt8]) {
    self.bytes = bytes
  }

  /// The position of the byte at `offset` on the current line.
  ///
  /// - Complexity: amortized O(1) when called with increasing offsets, as the reader does.
  mutating func position(at offset: Int) -> SourcePosition {
    if columnIndex < lineStart || columnIndex > offset {
      columnIndex = lineStart
      column = 1
    }
    while columnIndex < offset {
      // Continuation bytes (10xxxxxx) do not start a new character.
      if bytes[columnIndex] & 0xC0 != 0x80 { column += 1 }
      columnIndex += 1
    }
    return SourcePosition(line: line, column: column)
  }

  mutating func error(at offset: Int, _ message: String) -> JSONSyntaxError {
    JSONSyntaxError(position: position(at: offset), message: message)
  }

  var atEnd: Bool { index >= bytes.count }

  /// The byte at the cursor, or `nil` at the end.
  var current: UInt8? { index < bytes.count ? bytes[index] : nil }

  /// Skips spaces, tabs, carriage returns and line feeds, counting lines.
  mutating func skipWhitespace() {
    while index < bytes.count {
      switch bytes[index] {
      case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"):
        index += 1
      case UInt8(ascii: "\n"):
        index += 1
        line += 1
        lineStart = index
      default:
        return
      }
    }
  }

  mutating func parseDocument() throws(JSONSyntaxError) -> JSONNode {
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
      index = 3
      lineStart = 3
    }
    skipWhitespace()
    if atEnd {
      throw error(at: index, "the input is empty; write a JSON value, such as {}")
    }
    var stack: [_JSONFrame] = []
    var value: JSONNode
    readValue: while true {
      let start = index
      let startPosition = position(at: start)
      guard let byte = current else {
        throw error(
          at: index, "expected a value, found the end of the input; complete the document")
      }
      switch byte {
      case UInt8(ascii: "{"), UInt8(ascii: "["):
        let isObject = byte == UInt8(ascii: "{")
        guard stack.count < JSONReader.maximumDepth else {
          throw error(
            at: start,
            "arrays and objects are nested more than \(JSONReader.maximumDepth) deep; "
              + "flatten the document")
        }
        index += 1
        skipWhitespace()
        let close = UInt8(ascii: isObject ? "}" : "]")
        if current == close {
          index += 1
          value = JSONNode(isObject ? .object([]) : .array([]), at: startPosition)
        } else {
          var frame = _JSONFrame(isObject: isObject, position: startPosition)
          if isObject { (frame.key, frame.keyPosition) = try parseKey(afterComma: false) }
          stack.append(frame)
          continue readValue
        }
      case UInt8(ascii: "\""):
        value = JSONNode(.string(try parseString()), at: startPosition)
      case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
        let (number, literal) = try parseNumber()
        value = JSONNode(.number(number, literal: literal), at: startPosition)
      case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
        value = JSONNode(try parseLiteral(), at: startPosition)
      case UInt8(ascii: "]"), UInt8(ascii: "}"):
        throw error(
          at: start,
          "expected a value, found '\(Character(Unicode.Scalar(byte)))'; "
            + "remove the trailing comma before it")
      default:
        throw error(
          at: start,
          "expected a value, found \(describe(at: start))"
            + hint(
              at: start,
              otherwise: "; write a string, a number, an object, an array, true, false or null"))
      }

      // A value is complete: hand it to the open containers, closing those that end here.
      while true {
        skipWhitespace()
        guard !stack.isEmpty else {
          if !atEnd {
            throw error(
              at: index,
              "unexpected \(describe(at: index)) after the end of the JSON value; "
                + "a document holds a single value")
          }
          return value
        }
        let top = stack.count - 1
        if stack[top].isObject {
          stack[top].members.append(
            JSONNode.Member(key: stack[top].key, keyPosition: stack[top].keyPosition, value: value))
          switch current {
          case UInt8(ascii: ","):
            index += 1
            (stack[top].key, stack[top].keyPosition) = try parseKey(afterComma: true)
            continue readValue
          case UInt8(ascii: "}"):
            index += 1
            let frame = stack.removeLast()
            value = JSONNode(.object(frame.members), at: frame.position)
          default:
            throw error(
              at: index,
              "expected ',' or '}' after an object member, found \(describe(at: index))"
                + "; separate members with ',' and close the object with '}'")
          }
        } else {
          stack[top].elements.append(value)
          switch current {
          case UInt8(ascii: ","):
            index += 1
            skipWhitespace()
            continue readValue
          case UInt8(ascii: "]"):
            index += 1
            let frame = stack.removeLast()
            value = JSONNode(.array(frame.elements), at: frame.position)
          default:
            throw error(
              at: index,
              "expected ',' or ']' after an array element, found \(describe(at: index))"
                + "; separate elements with ',' and close the array with ']'")
          }
        }
      }
    }
  }

  /// Reads `"key"` and the colon after it, leaving the cursor at the member's value.
  mutating func parseKey(afterComma: Bool) throws(JSONSyntaxError) -> (String, SourcePosition) {
    skipWhitespace()
    let start = index
    guard current == UInt8(ascii: "\"") else {
      if afterComma && current == UInt8(ascii: "}") {
        throw error(at: start, "expected a key after ',', found '}'; remove the trailing comma")
      }
      throw error(
        at: start,
        "expected a key in double quotes, found \(describe(at: start))"
          + hint(at: start, otherwise: "; write keys as \"key\": value"))
    }
    let keyPosition = position(at: start)
    let key = try parseString()
    skipWhitespace()
    guard current == UInt8(ascii: ":") else {
      throw error(
        at: index,
        "expected ':' after the key \"\(key)\", found \(describe(at: index)); write \"\(key)\": value"
      )
    }
    index += 1
    skipWhitespace()
    return (key, keyPosition)
  }

  mutating func parseLiteral() throws(JSONSyntaxError) -> JSONNode.Value {
    for (word, value) in [
      ("true", JSONNode.Value.bool(true)), ("false", .bool(false)), ("null", .null),
    ]
    where bytes[index...].starts(with: word.utf8) {
      index += word.utf8.count
      return value
    }
    throw error(
      at: index, "expected a value, found \(describe(at: index)); did you mean true, false or null?"
    )
  }

  /// Reads a number: `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`.
  mutating func parseNumber() throws(JSONSyntaxError) -> (Double, String) {
    let start = index
    func isDigit(_ byte: UInt8?) -> Bool {
      guard let byte else { return false }
      return byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }
    if current == UInt8(ascii: "-") { index += 1 }
    guard isDigit(current) else {
      throw error(
        at: index,
        "expected a digit after '-', found \(describe(at: index)); write a number such as -1")
    }
    if current == UInt8(ascii: "0") {
      index += 1
      if isDigit(current) {
        throw error(at: start, "numbers cannot have leading zeros; write 7, not 07")
      }
    } else {
      while isDigit(current) { index += 1 }
    }
    if current == UInt8(ascii: ".") {
      index += 1
      guard isDigit(current) else {
        throw error(
          at: index,
          "expected a digit after the decimal point, found \(describe(at: index)); write 1.0 or 1, not 1."
        )
      }
      while isDigit(current) { index += 1 }
    }
    if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
      index += 1
      if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
      guard isDigit(current) else {
        throw error(
          at: index,
          "expected a digit in the exponent, found \(describe(at: index)); write 1e5, not 1e")
      }
      while isDigit(current) { index += 1 }
    }
    let literal = String(decoding: bytes[start..<index], as: UTF8.self)
    guard let number = Double(literal), number.isFinite else {
      let shown = literal.count > 24 ? String(literal.prefix(20)) + "..." : literal
      throw error(
        at: start, "number \(shown) is too large; numbers must fit a double (at most about 1.8e308)"
      )
    }
    return (number, literal)
  }
}
