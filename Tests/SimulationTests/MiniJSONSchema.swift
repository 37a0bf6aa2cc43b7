import Foundation
import MessageDeferral
import Simulation

/// A tiny JSON Schema (2020-12) validator for the keywords `scenarios/schema.json` uses, so
/// the tests can check that the schema and the decoder agree without a third-party package.
///
/// Supported: `type`, `properties`, `required`, `additionalProperties`, `enum`, `const`,
/// `pattern` (NSRegularExpression), `minimum`, `maximum`, `exclusiveMinimum`, `items`,
/// `minItems`, `maxItems`, `uniqueItems`, `minProperties`, `maxProperties`, `oneOf`, `anyOf`, and `$ref`
/// to `#/$defs/...`; annotations (`$schema`, `title`, `description`, `$defs`) are ignored.
/// Any other keyword is recorded in ``unsupported``, so the schema cannot silently rely on
/// something this validator skips.
struct MiniJSONSchema {
  static let keywords: Set<String> = [
    "$schema", "$id", "title", "description", "$defs", "type", "properties", "required",
    "additionalProperties", "enum", "const", "pattern", "minimum", "maximum", "exclusiveMinimum",
    "items", "minItems", "maxItems", "uniqueItems", "minProperties", "maxProperties", "oneOf",
    "anyOf", "$ref",
  ]

  let root: JSONNode
  /// Keywords met that this validator does not implement.
  private(set) var unsupported: Set<String> = []

  init(_ root: JSONNode) { self.root = root }

  /// Every violation, as `path: what`; empty when `instance` is valid.
  mutating func violations(of instance: JSONNode) -> [String] {
    var found: [String] = []
    check(instance, root, "$", &found)
    return found
  }

  private mutating func check(
    _ instance: JSONNode, _ schema: JSONNode, _ path: String, _ found: inout [String]
  ) {
    if case .bool(let allowed) = schema.value {
      if !allowed { found.append("\(path): not allowed") }
      return
    }
    guard case .object(let keywords) = schema.value else {
      found.append("\(path): schema is not an object")
      return
    }
    for keyword in keywords where !Self.keywords.contains(keyword.key) {
      unsupported.insert(keyword.key)
    }
    if let reference = schema["$ref"], case .string(let target) = reference.value {
      let name = String(target.dropFirst("#/$defs/".count))
      guard target.hasPrefix("#/$defs/"), let definition = root["$defs"]?[name] else {
        unsupported.insert("$ref \(target)")
        return
      }
      check(instance, definition, path, &found)
    }
    if let type = schema["type"] {
      let allowed: [String] =
        switch type.value {
        case .string(let name): [name]
        case .array(let names):
          names.compactMap { if case .string(let s) = $0.value { s } else { nil } }
        default: []
        }
      if !allowed.contains(where: { Self.has(instance, type: $0) }) {
        found.append("\(path): not of type \(allowed.joined(separator: " or "))")
        return
      }
    }
    if let values = schema["enum"], case .array(let options) = values.value,
      !options.contains(where: { $0.configValue == instance.configValue })
    {
      found.append("\(path): not one of the enumerated values")
    }
    if let constant = schema["const"], constant.configValue != instance.configValue {
      found.append("\(path): not the constant value")
    }
    switch instance.value {
    case .string(let text):
      if case .string(let pattern)? = schema["pattern"]?.value {
        let expression = try! NSRegularExpression(pattern: pattern)
        let range = NSRange(text.startIndex..., in: text)
        if expression.firstMatch(in: text, range: range) == nil {
          found.append("\(path): does not match \(pattern)")
        }
      }
    case .number(let number, let literal):
      if case .number(let bound, let boundLiteral)? = schema["minimum"]?.value,
        Self.compare(number, literal, bound, boundLiteral) < 0
      {
        found.append("\(path): below the minimum \(bound)")
      }
      if case .number(let bound, let boundLiteral)? = schema["maximum"]?.value,
        Self.compare(number, literal, bound, boundLiteral) > 0
      {
        found.append("\(path): above the maximum \(bound)")
      }
      if case .number(let bound, _)? = schema["exclusiveMinimum"]?.value, number <= bound {
        found.append("\(path): not above \(bound)")
      }
    case .array(let elements):
      if case .number(let bound, _)? = schema["minItems"]?.value, Double(elements.count) < bound {
        found.append("\(path): fewer than \(bound) items")
      }
      if case .number(let bound, _)? = schema["maxItems"]?.value, Double(elements.count) > bound {
        found.append("\(path): more than \(bound) items")
      }
      if case .bool(true)? = schema["uniqueItems"]?.value {
        let values = elements.map(\.configValue)
        for (index, value) in values.enumerated() where values[..<index].contains(value) {
          found.append("\(path)[\(index)]: repeats an earlier item")
        }
      }
      if let items = schema["items"] {
        for (index, element) in elements.enumerated() {
          check(element, items, "\(path)[\(index)]", &found)
        }
      }
    case .object(let members):
      checkObject(members, schema, path, &found)
    default:
      break
    }
    if case .array(let branches)? = schema["anyOf"]?.value {
      let passing = branches.filter { branch in
        var branchFound: [String] = []
        check(instance, branch, path, &branchFound)
        return branchFound.isEmpty
      }
      if passing.isEmpty { found.append("\(path): matches none of anyOf") }
    }
    if case .array(let branches)? = schema["oneOf"]?.value {
      let passing = branches.filter { branch in
        var branchFound: [String] = []
        check(instance, branch, path, &branchFound)
        return branchFound.isEmpty
      }
      if passing.count != 1 { found.append("\(path): matches \(passing.count) of oneOf, not 1") }
    }
  }

  private mutating func checkObject(
    _ members: [JSONNode.Member], _ schema: JSONNode, _ path: String, _ found: inout [String]
  ) {
    if case .number(let bound, _)? = schema["minProperties"]?.value, Double(members.count) < bound {
      found.append("\(path): fewer than \(bound) properties")
    }
    if case .number(let bound, _)? = schema["maxProperties"]?.value, Double(members.count) > bound {
      found.append("\(path): more than \(bound) properties")
    }
    if case .array(let required)? = schema["required"]?.value {
      for key in required {
        if case .string(let name) = key.value, !members.contains(where: { $0.key == name }) {
          found.append("\(path): missing \(name)")
        }
      }
    }
    let properties = schema["properties"]
    for member in members {
      let memberPath = "\(path).\(member.key)"
      if let property = properties?[member.key] {
        check(member.value, property, memberPath, &found)
      } else if let additional = schema["additionalProperties"] {
        check(member.value, additional, memberPath, &found)
      }
    }
  }

  /// Compares two numbers, exactly when both are written as non-negative integers (as a
  /// validator with arbitrary-precision integers does: 2^64 is above 2^64 - 1, although both
  /// round to the same `Double`).
  static func compare(_ a: Double, _ aText: String, _ b: Double, _ bText: String) -> Int {
    let digits = { (text: String) in text.utf8.allSatisfy { $0 >= 48 && $0 <= 57 } }
    if digits(aText) && digits(bText) {
      if aText.count != bText.count { return aText.count < bText.count ? -1 : 1 }
      return aText == bText ? 0 : (aText < bText ? -1 : 1)
    }
    return a == b ? 0 : (a < b ? -1 : 1)
  }

  static func has(_ instance: JSONNode, type: String) -> Bool {
    switch (instance.value, type) {
    case (.null, "null"), (.bool, "boolean"), (.string, "string"), (.array, "array"),
      (.object, "object"), (.number, "number"):
      true
    case (.number(let value, _), "integer"): value == value.rounded()
    default: false
    }
  }
}
