import MessageDeferral

// The decoder's building blocks: collecting problems, reading objects with known keys, and
// scalar fields (strings, enumerations, integers, probabilities).

/// Decodes a scenario tree, collecting every problem instead of stopping at the first.
///
/// Each `read...` method returns `nil` when the value is unusable, after recording why; the
/// caller carries on with the other fields, so one run of the decoder finds every problem.
struct _ScenarioDecoder {
  var problems: [ScenarioErrors.Problem] = []
  /// Candidate names left to compare against misspellings (see ``suggestion(for:in:)``).
  var suggestionBudget = 20_000
  /// The horizon, once read: bounds what recurring messages may cost (``checkIssuanceBound``).
  var messageHorizon: Double?
  /// The horizon, once read, for the screens' checks (``checkInstantCycles``).
  var screenHorizon: Double?
  /// `population.new_user_share` once read (`nil`: absent or invalid): with 0, no user
  /// onboards and `entries.new_user` may be left out.
  var newUserShare: Double?

  mutating func report(_ path: String, _ node: JSONNode?, _ message: String) {
    problems.append(ScenarioErrors.Problem(path: path, message: message, position: node?.position))
  }

  /// The text of a value for "got ..." in messages: a number as written, a string quoted.
  static func shown(_ node: JSONNode) -> String {
    switch node.value {
    case .number(_, let literal): literal.count > 24 ? String(literal.prefix(20)) + "..." : literal
    case .string(let text): text.count > 40 ? "\"\(text.prefix(37))...\"" : "\"\(text)\""
    default: node.typeName
    }
  }
}

/// A key an object may hold; `example` is what to add when a required key is missing, and
/// `nil` for an optional key.
struct _Key {
  var name: String
  var example: String?

  static func required(_ name: String, _ example: String) -> _Key {
    _Key(name: name, example: example)
  }
  static func optional(_ name: String) -> _Key { _Key(name: name, example: nil) }
}

/// An object whose keys were checked: every member is a known key, each present once.
struct _Object {
  var node: JSONNode
  var path: String
  var members: [String: JSONNode]

  subscript(key: String) -> JSONNode? { members[key] }

  func path(_ key: String) -> String { _JSONPath.member(path, key) }

  /// Whether the key is present (with any value, `null` included).
  func has(_ key: String) -> Bool { members[key] != nil }
}

/// JSON paths as error messages write them: `$.screens[2].transitions.home`, with
/// `['odd key']` for keys that are not plain identifiers.
enum _JSONPath {
  static let root = "$"

  static func member(_ base: String, _ key: String) -> String {
    let isIdentifier =
      !key.isEmpty
      && key.unicodeScalars.allSatisfy {
        $0 == "_" || ("a"..."z").contains($0) || ("A"..."Z").contains($0)
          || ("0"..."9").contains($0)
      } && !("0"..."9").contains(key.unicodeScalars.first!)
    if isIdentifier { return "\(base).\(key)" }
    let escaped = key.replacingAll("\\", with: "\\\\").replacingAll("'", with: "\\'")
    return "\(base)['\(escaped)']"
  }

  static func element(_ base: String, _ index: Int) -> String { "\(base)[\(index)]" }
}

extension String {
  /// Every occurrence of `target` replaced (no Foundation in this file's callers' paths).
  func replacingAll(_ target: String, with replacement: String) -> String {
    guard !target.isEmpty, contains(target) else { return self }
    var result = ""
    var rest = self[...]
    while let range = rest.firstRange(of: target) {
      result += rest[..<range.lowerBound]
      result += replacement
      rest = rest[range.upperBound...]
    }
    return result + rest
  }
}

extension _ScenarioDecoder {
  /// Reads an object, reporting a wrong type, repeated keys, unknown keys (with the closest
  /// valid one) and missing required keys. Returns `nil` only when the value is not an object.
  mutating func readObject(
    _ node: JSONNode, at path: String, keys: [_Key], what: String = ""
  ) -> _Object? {
    guard case .object(let list) = node.value else {
      report(
        path, node,
        "must be an object\(what.isEmpty ? "" : " (\(what))"), got \(node.typeName)"
          + "; valid keys: \(keys.map(\.name).joined(separator: ", "))")
      return nil
    }
    let names = keys.map(\.name)
    // Misspellings are matched against the keys not already present.
    let present = Set(list.map(\.key))
    let absent = names.filter { !present.contains($0) }
    var members: [String: JSONNode] = [:]
    var seen: Set<String> = []
    for member in list {
      let memberPath = _JSONPath.member(path, member.key)
      if !seen.insert(member.key).inserted {
        problems.append(
          ScenarioErrors.Problem(
            path: memberPath,
            message: "duplicate key '\(member.key)'; keep only one of them",
            position: member.keyPosition))
        continue
      }
      guard names.contains(member.key) else {
        problems.append(
          ScenarioErrors.Problem(
            path: memberPath,
            message: unknownKeyMessage(member.key, valid: names, absent: absent),
            position: member.keyPosition))
        continue
      }
      members[member.key] = member.value
    }
    // A misspelled required key is reported once, as an unknown key with its correction.
    let corrected = Set(
      list.compactMap { member in
        names.contains(member.key) ? nil : suggestion(for: member.key, in: absent)
      })
    for key in keys where members[key.name] == nil && !seen.contains(key.name) {
      guard let example = key.example, !corrected.contains(key.name) else { continue }
      report(path, node, "missing key '\(key.name)'; add \"\(key.name)\": \(example)")
    }
    return _Object(node: node, path: path, members: members)
  }

  mutating func unknownKeyMessage(_ key: String, valid: [String], absent: [String]) -> String {
    if let suggestion = suggestion(for: key, in: absent) {
      return "unknown key '\(key)'; did you mean '\(suggestion)'?"
    }
    return "unknown key '\(key)'; valid keys: \(valid.joined(separator: ", "))"
  }

  /// The closest valid name to a misspelled one (``Spelling/closest(to:in:)``).
  ///
  /// Bounded work on hostile input: names longer than 64 characters get no suggestion (they
  /// are no typo), and once ``suggestionBudget`` comparisons are spent, none does.
  mutating func suggestion(for name: String, in candidates: [String]) -> String? {
    guard name.utf8.count <= 64, suggestionBudget >= candidates.count else { return nil }
    suggestionBudget -= candidates.count
    return Spelling.closest(to: name, in: candidates)
  }

  /// A required field: reports nothing when absent (``readObject`` did), else reads it.
  mutating func field<T>(
    _ object: _Object, _ key: String, _ read: (inout _ScenarioDecoder, JSONNode, String) -> T?
  ) -> T? {
    guard let node = object[key] else { return nil }
    return read(&self, node, object.path(key))
  }

  mutating func readString(_ node: JSONNode, at path: String, example: String) -> String? {
    guard case .string(let text) = node.value else {
      report(
        path, node, "must be a string, got \(node.typeName); write it in quotes, such as \(example)"
      )
      return nil
    }
    return text
  }

  /// A name for a scenario, screen or policy: letters, digits, `_`, `-` and `.`, starting
  /// with a letter or digit, at most 64 characters (it ends up in file names and CSVs).
  mutating func readName(_ node: JSONNode, at path: String, example: String) -> String? {
    guard let text = readString(node, at: path, example: "\"\(example)\"") else { return nil }
    guard NameRule.isValid(text) else {
      report(path, node, "invalid name \(Self.shown(node)); " + NameRule.fix(example: example))
      return nil
    }
    return text
  }

  /// One of `cases`; an unknown value gets the closest case and the list of valid ones.
  mutating func readEnumeration(
    _ node: JSONNode, at path: String, cases: [String], what: String
  ) -> String? {
    guard case .string(let text) = node.value else {
      report(
        path, node,
        "must be a string naming \(what), got \(node.typeName); valid: "
          + cases.joined(separator: ", "))
      return nil
    }
    guard cases.contains(text) else {
      let suggestion = suggestion(for: text, in: cases).map { "did you mean '\($0)'? " } ?? ""
      report(
        path, node,
        "unknown \(what) '\(text)'; \(suggestion)valid: \(cases.joined(separator: ", "))")
      return nil
    }
    return text
  }

  /// A JSON number that is a whole number within `bounds` (`1e3` is 1000).
  mutating func readInteger(
    _ node: JSONNode, at path: String, bounds: ClosedRange<Int>, what: String
  ) -> Int? {
    let range = "\(bounds.lowerBound) and \(bounds.upperBound)"
    guard case .number(let value, _) = node.value else {
      report(
        path, node, "must be a whole number, got \(node.typeName); give \(what) between \(range)")
      return nil
    }
    guard value == value.rounded() else {
      report(
        path, node, "must be a whole number, got \(Self.shown(node)); give \(what) between \(range)"
      )
      return nil
    }
    guard value >= Double(bounds.lowerBound), value <= Double(bounds.upperBound) else {
      report(
        path, node, "must be between \(range), got \(Self.shown(node)); give \(what) in that range")
      return nil
    }
    return Int(value)
  }

  /// A number in [0, 1].
  mutating func readProbability(_ node: JSONNode, at path: String) -> Double? {
    guard case .number(let value, _) = node.value else {
      report(
        path, node,
        "must be a probability (a number from 0 to 1), got \(node.typeName); "
          + "write a number such as 0.25 for 25%")
      return nil
    }
    guard value >= 0, value <= 1 else {
      report(
        path, node,
        "must be between 0 and 1, got \(Self.shown(node)); write a probability, "
          + "such as 0.25 for 25%")
      return nil
    }
    return value
  }

  /// A number greater than 0 (a shape, a sigma).
  mutating func readPositiveNumber(
    _ node: JSONNode, at path: String, what: String, example: String
  ) -> Double? {
    guard case .number(let value, _) = node.value else {
      report(
        path, node,
        "must be a number, got \(node.typeName); give a positive \(what) such as \(example)")
      return nil
    }
    guard value > 0 else {
      report(
        path, node,
        "must be > 0, got \(Self.shown(node)); give a positive \(what) such as \(example)")
      return nil
    }
    return value
  }
}
