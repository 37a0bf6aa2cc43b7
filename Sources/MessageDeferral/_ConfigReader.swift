/// Reads typed values out of a ``ConfigValue``, recording a problem for each mismatch.
struct _ConfigReader {
  var issues: [ConfigIssue]
  /// Candidate names left to compare against misspellings (see ``suggestion(for:in:)``).
  var suggestionBudget: Int

  mutating func issue(at path: String, _ message: String) {
    issues.append(ConfigIssue(path: path, message: message))
  }

  /// The closest valid name to a misspelled one (``Spelling/closest(to:in:)``).
  ///
  /// Bounded work on hostile input: names longer than 64 bytes get no suggestion (they are no
  /// typo, and comparing them costs their length times each candidate's), and once
  /// ``suggestionBudget`` comparisons are spent, none does.
  mutating func suggestion(for name: String, in candidates: [String]) -> String? {
    guard name.utf8.count <= 64, suggestionBudget >= candidates.count else { return nil }
    suggestionBudget -= candidates.count
    return Spelling.closest(to: name, in: candidates)
  }

  mutating func unknownName(_ name: String, at path: String, what: String, valid: [String]) {
    var message = "unknown \(what) '\(name)'"
    if let near = suggestion(for: name, in: valid) {
      message += "; did you mean '\(near)'?"
    } else {
      message += "; valid: " + valid.joined(separator: ", ")
    }
    issue(at: path, message)
  }

  mutating func object(
    _ value: ConfigValue, at path: String, keys: [String]? = nil
  )
    -> [ConfigValue.Member]?
  {
    guard case .object(let members) = value else {
      issue(at: path, "must be an object, not \(value.typeName)")
      return nil
    }
    if let keys {
      for member in members where !keys.contains(member.key) {
        unknownName(member.key, at: "\(path).\(member.key)", what: "key", valid: keys)
      }
    }
    return members
  }

  mutating func required(_ value: ConfigValue, _ key: String, at path: String) -> ConfigValue? {
    guard let found = value[key] else {
      issue(at: path, "missing key '\(key)'; add it")
      return nil
    }
    return found
  }

  mutating func array(_ value: ConfigValue, at path: String) -> [ConfigValue]? {
    guard case .array(let items) = value else {
      issue(at: path, "must be an array, not \(value.typeName)")
      return nil
    }
    return items
  }

  mutating func string(_ value: ConfigValue, at path: String) -> String? {
    guard case .string(let text) = value else {
      issue(at: path, "must be a string, not \(value.typeName)")
      return nil
    }
    return text
  }

  mutating func bool(_ value: ConfigValue, at path: String) -> Bool? {
    guard case .bool(let flag) = value else {
      issue(at: path, "must be true or false, not \(value.typeName)")
      return nil
    }
    return flag
  }

  mutating func integer(_ value: ConfigValue, at path: String, in range: ClosedRange<Int>) -> Int? {
    guard case .number(let number) = value, number == number.rounded(),
      number >= Double(range.lowerBound), number <= Double(range.upperBound)
    else {
      issue(at: path, "must be a whole number from \(range.lowerBound) to \(range.upperBound)")
      return nil
    }
    return Int(number)
  }

  mutating func duration(_ value: ConfigValue, at path: String, positive: Bool) -> Double? {
    let seconds: Double
    switch value {
    case .number(let number): seconds = number
    case .string(let text):
      do {
        seconds = try DurationText.seconds(in: text)
      } catch {
        issue(at: path, error.message)
        return nil
      }
    default:
      issue(
        at: path, "must be a duration such as \"12h\" or a number of seconds, not \(value.typeName)"
      )
      return nil
    }
    guard seconds.isFinite, positive ? seconds > 0 : seconds >= 0 else {
      issue(at: path, "must be \(positive ? "positive" : "zero or more"); give e.g. \"12h\"")
      return nil
    }
    return seconds
  }

  mutating func reason(_ value: ConfigValue, at path: String) -> Reason? {
    guard let name = string(value, at: path) else { return nil }
    if let reason = Reason(name: name) { return reason }
    unknownName(
      name, at: path, what: "reason", valid: Reason.known.map(\.name) + ["unknown_<raw value>"])
    return nil
  }

  mutating func enumValue<E: RawRepresentable & CaseIterable>(
    _ type: E.Type, _ value: ConfigValue, at path: String, what: String
  ) -> E? where E.RawValue == String {
    guard let name = string(value, at: path) else { return nil }
    if let found = E(rawValue: name) { return found }
    unknownName(name, at: path, what: what, valid: E.allCases.map(\.rawValue))
    return nil
  }
}

extension _ConfigReader {
  /// A finite number greater than 0 (a σ, a shape).
  mutating func positiveNumber(_ value: ConfigValue, at path: String) -> Double? {
    guard case .number(let number) = value, number.isFinite, number > 0 else {
      issue(at: path, "must be a number greater than 0, such as 0.5")
      return nil
    }
    return number
  }
}
