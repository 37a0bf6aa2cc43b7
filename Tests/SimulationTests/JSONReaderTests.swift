import MessageDeferral
import Simulation
import TestSupport
import Testing

@Suite("JSON reader")
struct JSONReaderTests {
  @Test func readsEveryKindOfValueWithPositions() throws {
    let text = "{\n  \"a\": [1, -2.5e1, true],\n  \"é\": {\"b\": null, \"c\": \"x\\u00e9\\n\"}\n}"
    let root = try JSONReader.parse(text)
    #expect(root.position == SourcePosition(line: 1, column: 1))
    let array = try #require(root["a"])
    #expect(array.position == SourcePosition(line: 2, column: 8))
    guard case .array(let elements) = array.value else {
      Issue.record("not an array")
      return
    }
    #expect(elements.map(\.position.column) == [9, 12, 20])
    #expect(elements[1].value == .number(-25, literal: "-2.5e1"))
    #expect(elements[2].value == .bool(true))
    // Columns count characters: "é" is one column, two bytes.
    let inner = try #require(root["é"])
    #expect(inner.position == SourcePosition(line: 3, column: 8))
    #expect(inner["b"]?.position == SourcePosition(line: 3, column: 14))
    #expect(inner["c"]?.value == .string("xé\n"))
    guard case .object(let members) = root.value else {
      Issue.record("the root is not an object: \(root.value)")
      return
    }
    #expect(members.map(\.key) == ["a", "é"])
    #expect(members[1].keyPosition == SourcePosition(line: 3, column: 3))
  }

  @Test func convertsToConfigValueKeepingMemberOrder() throws {
    let root = try JSONReader.parse(#"{"z": 1, "a": [true, null, "s"], "m": {}}"#)
    #expect(
      root.configValue
        == .object([
          .init(key: "z", value: .number(1)),
          .init(key: "a", value: .array([.bool(true), .null, .string("s")])),
          .init(key: "m", value: .object([])),
        ]))
  }

  @Test func keepsRepeatedKeysForTheLoaderToReport() throws {
    let root = try JSONReader.parse(#"{"a": 1, "a": 2}"#)
    guard case .object(let members) = root.value else {
      Issue.record("the root is not an object: \(root.value)")
      return
    }
    #expect(members.count == 2)
    #expect(root["a"]?.value == .number(1, literal: "1"))
  }

  @Test func acceptsByteOrderMarkAndCRLF() throws {
    let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("{\r\n\"a\": 1\r\n}".utf8)
    let root = try JSONReader.parse(bytes)
    #expect(root.position == SourcePosition(line: 1, column: 1))
    #expect(root["a"]?.position == SourcePosition(line: 2, column: 6))
  }

  @Test func surrogatePairsDecode() throws {
    let root = try JSONReader.parse(#"["\ud83d\ude00", "\u00E9"]"#)
    #expect(root.configValue == .array([.string("😀"), .string("é")]))
  }

  /// Malformed JSON: where and what. Columns are 1-based and count characters.
  @Test(arguments: [
    ("{\"a\": 1,}", 1, 9, "remove the trailing comma"),
    ("[1, 2,]", 1, 7, "remove the trailing comma"),
    ("{\n  \"a\": 1\n  \"b\": 2\n}", 3, 3, "expected ',' or '}' after an object member"),
    ("[1, 2", 1, 6, "expected ',' or ']' after an array element, found the end of the input"),
    ("{\"a\": tru}", 1, 7, "did you mean true, false or null?"),
    ("{\"a\": 01}", 1, 7, "leading zeros"),
    ("{\"a\": \"x\ny\"}", 1, 7, "unterminated string"),
    ("{\"a\": \"x", 1, 7, "unterminated string"),
    ("{'a': 1}", 1, 2, "JSON strings use double quotes"),
    ("{\"a\": 1} x", 1, 10, "after the end of the JSON value"),
    ("// note\n{}", 1, 1, "JSON has no comments"),
    ("{\"é\": x}", 1, 7, "put text in double quotes"),
    ("[\"\\ud800\"]", 1, 3, "unpaired surrogate \\uD800"),
    ("[\"\\udc00\"]", 1, 3, "unpaired surrogate \\uDC00"),
    ("[\"\\q\"]", 1, 3, "invalid escape '\\q'"),
    ("[\"\\u12G4\"]", 1, 3, "four hexadecimal digits"),
    ("[\"a\tb\"]", 1, 4, "control character U+0009"),
    ("[1e999]", 1, 2, "too large"),
    ("[-]", 1, 3, "expected a digit after '-'"),
    ("[1.]", 1, 4, "expected a digit after the decimal point"),
    ("[1e+]", 1, 5, "expected a digit in the exponent"),
    ("{\"a\" 1}", 1, 6, "expected ':' after the key \"a\""),
    ("{1: 2}", 1, 2, "expected a key in double quotes"),
    ("[NaN]", 1, 2, "put text in double quotes"),
    ("", 1, 1, "the input is empty"),
    ("  \n\t ", 2, 3, "the input is empty"),
    ("{\r\n\"a\": 1,\r\n}", 3, 1, "remove the trailing comma"),
  ])
  func malformedJSONReportsLineAndColumn(text: String, line: Int, column: Int, fragment: String) {
    #expect {
      try JSONReader.parse(text)
    } throws: { error in
      guard let error = error as? JSONSyntaxError else { return false }
      let matches =
        error.position == SourcePosition(line: line, column: column)
        && error.message.contains(fragment)
      if !matches { Issue.record("got \(error)") }
      return matches
    }
  }

  /// Invalid UTF-8 is an error where it occurs, never a crash or a replacement character.
  @Test(
    arguments: [
      ([0x22, 0xFF, 0x22], "invalid UTF-8 byte 0xFF"),
      ([0x22, 0xC0, 0x80, 0x22], "invalid UTF-8 byte 0xC0"),  // overlong NUL
      ([0x22, 0xED, 0xA0, 0x80, 0x22], "invalid UTF-8 byte 0xED"),  // encoded surrogate
      ([0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], "invalid UTF-8 byte 0xF4"),  // beyond U+10FFFF
      ([0x22, 0xE2, 0x82], "invalid UTF-8 byte 0xE2"),  // truncated at the end
      ([0xFE], "byte 0xFE (not UTF-8)"),
      ([0x5B, 0x00, 0x5D], "U+0000"),
    ] as [([UInt8], String)])
  func invalidUTF8IsAnError(bytes: [UInt8], fragment: String) {
    #expect {
      try JSONReader.parse(bytes)
    } throws: { error in
      (error as? JSONSyntaxError)?.message.contains(fragment) == true
    }
  }

  @Test func nestingUpToTheLimitIsRead() throws {
    let depth = JSONReader.maximumDepth
    let text = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
    let root = try JSONReader.parse(text)
    var value = root.configValue
    var levels = 0
    while case .array(let inner) = value {
      levels += 1
      guard let first = inner.first else { break }
      value = first
    }
    #expect(levels == depth)
  }

  @Test(arguments: [JSONReader.maximumDepth + 1, 100_000])
  func deeperNestingIsAnError(depth: Int) {
    let text = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
    #expect {
      try JSONReader.parse(text)
    } throws: { error in
      let error = error as? JSONSyntaxError
      return error?.message.contains("nested more than \(JSONReader.maximumDepth) deep") == true
        && error?.position == SourcePosition(line: 1, column: JSONReader.maximumDepth + 1)
    }
    let objects =
      String(repeating: "{\"a\":", count: depth) + "1" + String(repeating: "}", count: depth)
    #expect(throws: JSONSyntaxError.self) { try JSONReader.parse(objects) }
  }

  @Test func hugeNumbersAreErrorsOrExact() throws {
    #expect(throws: JSONSyntaxError.self) {
      try JSONReader.parse("[" + String(repeating: "9", count: 100_000) + "]")
    }
    let tiny = try JSONReader.parse("[0." + String(repeating: "0", count: 100_000) + "1]")
    #expect(tiny.configValue == .array([.number(0)]))
    let big = try JSONReader.parse("18446744073709551615")
    #expect(big.value == .number(0x1p64, literal: "18446744073709551615"))
  }

  /// Random bytes and random corruptions of a real scenario: the reader and the loader must
  /// answer (a value or errors), never crash. Prints the seed of a failing case.
  @Test func randomInputsNeverCrash() throws {
    let scenario = try ScenarioFixtures.bytes(of: "indie-subscription.json")
    let alphabet = Array("{}[],:\"\\ 0123456789.-+eEtrufalsn\n".utf8) + [0xC3, 0xA9, 0xFF]
    for seed in UInt64(0)..<300 {
      var random = SplitMix64(seed: seed)
      let noise = (0..<Int(random.next() % 64)).map { _ in
        alphabet[Int(random.next() % UInt64(alphabet.count))]
      }
      _ = try? JSONReader.parse(noise)
      var corrupted = scenario
      for _ in 0..<(1 + Int(random.next() % 4)) {
        let at = Int(random.next() % UInt64(corrupted.count))
        corrupted[at] = alphabet[Int(random.next() % UInt64(alphabet.count))]
      }
      do {
        _ = try ScenarioLoader.load(json: corrupted, file: "fuzz.json")
      } catch {
        #expect(!error.problems.isEmpty, "seed \(seed): no problem reported")
        for problem in error.problems {
          #expect(problem.message.contains("; "), "seed \(seed): no fix in \(problem)")
        }
      }
    }
  }
}
