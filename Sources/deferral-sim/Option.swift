import MessageDeferral
import Simulation

/// A typed handle on one option that takes a value: its declaration (name, placeholder, help,
/// short spelling; from which `--help`, the man page and completions are written) and how its
/// text becomes a `Value`, checked. Commands read options only through these handles
/// (``ParsedArguments/value(_:)``), so a read cannot misspell a name.
struct Option<Value>: Sendable {
  /// The declaration the parser, help, man page and completions read.
  var spec: OptionSpec
  /// Turns the text given into a value, or says what is wrong (`command` for the usage line).
  let convert:
    @Sendable (_ text: String, _ spec: OptionSpec, _ command: String) throws(UsageError)
      -> Value

  /// The same option (name, type, checks) with the help line one command shows.
  func help(_ text: String) -> Option {
    var copy = self
    copy.spec.help = text
    return copy
  }
}

/// A typed handle on a flag (`--quiet`): given or not.
struct Flag: Sendable {
  var spec: OptionSpec

  init(_ name: String, _ help: String, short: Character? = nil) {
    spec = .flag(name, help, short: short)
  }

  /// The same flag with the help line one command shows.
  func help(_ text: String) -> Flag {
    var copy = self
    copy.spec.help = text
    return copy
  }
}

extension Option where Value == String {
  /// Any text (a path, a name).
  static func text(
    _ name: String, _ valueName: String, _ help: String, repeatable: Bool = false,
    short: Character? = nil, completion: OptionSpec.Completion = .none
  ) -> Option {
    var spec = OptionSpec.value(name, valueName, help, repeatable: repeatable, short: short)
    spec.completion = completion
    return Option(spec: spec) { text, _, _ in text }
  }

  /// One of `choices`; the placeholder is `a|b|c` unless `valueName` is given.
  static func choice(
    _ name: String, _ choices: [String], _ help: String, valueName: String? = nil
  ) -> Option {
    var spec = OptionSpec.value(name, valueName ?? choices.joined(separator: "|"), help)
    spec.completion = .choices(choices)
    return Option(spec: spec) { text, spec, command throws(UsageError) in
      guard choices.contains(text) else {
        var message =
          "'--\(spec.name)' must be one of \(choices.joined(separator: ", ")), not '\(text)'"
        if let near = Spelling.closest(to: text, in: choices) {
          message += "; did you mean '\(near)'?"
        }
        throw UsageError(message: message, command: command)
      }
      return text
    }
  }
}

extension Option where Value == [String] {
  /// Names separated by commas, blanks trimmed and empty items dropped.
  static func list(
    _ name: String, _ valueName: String, _ help: String, completion: OptionSpec.Completion
  ) -> Option {
    var spec = OptionSpec.value(name, valueName, help)
    spec.completion = completion
    return Option(spec: spec) { text, _, _ in
      text.split(separator: ",").map { String($0).trimmed() }.filter { !$0.isEmpty }
    }
  }
}

extension Option where Value == Int {
  /// A whole number within `range` (underscores allowed: `1_000`).
  static func integer(
    _ name: String, _ valueName: String, _ help: String, in range: ClosedRange<Int>,
    short: Character? = nil
  ) -> Option {
    Option(spec: .value(name, valueName, help, short: short), convert: integer(in: range))
  }

  /// The same option checked against `range`, for bounds known only once the scenario is
  /// read (`trace --user` below the scenario's users).
  func within(_ range: ClosedRange<Int>) -> Option {
    Option(spec: spec, convert: Option.integer(in: range))
  }

  private static func integer(
    in range: ClosedRange<Int>
  ) -> @Sendable (String, OptionSpec, String) throws(UsageError) -> Int {
    { text, spec, command throws(UsageError) in
      guard let number = Int(text.replacingUnderscores()), range.contains(number) else {
        throw UsageError(
          message: "'--\(spec.name)' must be a whole number from \(range.lowerBound) to "
            + "\(range.upperBound), not '\(text)'",
          command: command)
      }
      return number
    }
  }
}

extension Option where Value == UInt64 {
  /// A whole number from 0 to `UInt64.max` (a seed).
  static func unsigned(_ name: String, _ valueName: String, _ help: String) -> Option {
    Option(spec: .value(name, valueName, help)) { text, spec, command throws(UsageError) in
      // The seed rule every input file follows (digits only: no sign, no spaces), with the
      // command line's digit groups (`1_000`).
      guard let number = ScenarioFields.seed(digits: text.replacingUnderscores()) else {
        throw UsageError(
          message: "'--\(spec.name)' must be a whole number from 0 to \(UInt64.max), not '\(text)'",
          command: command)
      }
      return number
    }
  }
}

extension Option where Value == Double {
  /// A number above 0 and below `bound`.
  static func positive(
    _ name: String, _ valueName: String, _ help: String, below bound: Double
  ) -> Option {
    Option(spec: .value(name, valueName, help)) { text, spec, command throws(UsageError) in
      guard let number = Double(text), number > 0, number < bound else {
        throw UsageError(
          message: "'--\(spec.name)' must be a number above 0 and below \(bound), such as 0.05, "
            + "not '\(text)'", command: command)
      }
      return number
    }
  }
}

extension ParsedArguments {
  /// The last value of `option` converted and checked, or `nil` when it was not given.
  func value<Value>(_ option: Option<Value>) throws(UsageError) -> Value? {
    guard let text = rawValues(of: option.spec).last else { return nil }
    return try option.convert(text, option.spec, command)
  }

  /// Every value of a repeatable `option`, converted, in the order given.
  func values<Value>(_ option: Option<Value>) throws(UsageError) -> [Value] {
    var converted: [Value] = []
    for text in rawValues(of: option.spec) {
      converted.append(try option.convert(text, option.spec, command))
    }
    return converted
  }

  /// Whether `option` was given at all (whatever its value).
  func isGiven<Value>(_ option: Option<Value>) -> Bool {
    !rawValues(of: option.spec).isEmpty
  }

  /// Whether `flag` was given.
  func flag(_ flag: Flag) -> Bool { isFlagGiven(flag.spec) }

  /// Whether the command offers `option` at all (a group read by commands that offer only
  /// some of its options).
  func declares(_ option: some OptionDeclaration) -> Bool { isDeclared(option.declaration) }
}

extension CommandSpec {
  /// A command's spec from its typed options and flags, in the order its help lists them.
  init(
    name: String, abstract: String, positionalUsage: String, positionalCount: (min: Int, max: Int?),
    declaring options: [any OptionDeclaration], discussion: String = ""
  ) {
    self.init(
      name: name, abstract: abstract, positionalUsage: positionalUsage,
      positionalCount: positionalCount, options: options.map(\.declaration),
      discussion: discussion)
  }
}

/// An option or flag handle, as a command lists it.
protocol OptionDeclaration: Sendable {
  var declaration: OptionSpec { get }
}

extension Option: OptionDeclaration {
  var declaration: OptionSpec { spec }
}

extension Flag: OptionDeclaration {
  var declaration: OptionSpec { spec }
}
