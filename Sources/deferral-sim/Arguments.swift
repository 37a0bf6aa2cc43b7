import MessageDeferral

/// One option a command accepts: `--name VALUE` (or `--name=VALUE`), or a flag `--name`.
struct OptionSpec: Sendable {
  /// The long name, without the leading dashes.
  var name: String
  /// The placeholder shown in help for an option that takes a value; `nil` for a flag.
  var valueName: String?
  /// One line of help.
  var help: String
  /// Whether the option may be given more than once (values are kept in order).
  var repeatable = false
  /// A one-letter spelling, `-u` for `--users`, or `nil`.
  var short: Character?

  static func flag(_ name: String, _ help: String, short: Character? = nil) -> OptionSpec {
    OptionSpec(name: name, valueName: nil, help: help, short: short)
  }

  static func value(
    _ name: String, _ valueName: String, _ help: String, repeatable: Bool = false,
    short: Character? = nil
  )
    -> OptionSpec
  {
    OptionSpec(
      name: name, valueName: valueName, help: help, repeatable: repeatable, short: short)
  }
}

/// What a command is called, what it does and what it accepts; the source of its `--help`.
struct CommandSpec: Sendable {
  var name: String
  var abstract: String
  /// Positional arguments as shown in the usage line, e.g. `[SCENARIO]` or `FILE...`.
  var positionalUsage: String
  /// The fewest and most positional arguments accepted (`nil`: no upper bound).
  var positionalCount: (min: Int, max: Int?)
  var options: [OptionSpec]
  /// Extra paragraphs printed after the options.
  var discussion: String = ""

  /// The full help text for `deferral-sim NAME --help`.
  var helpText: String {
    var lines = ["OVERVIEW: \(abstract)", ""]
    let usageOptions = options.isEmpty ? "" : " [options]"
    let positional = positionalUsage.isEmpty ? "" : " \(positionalUsage)"
    lines.append("USAGE: deferral-sim \(name)\(positional)\(usageOptions)")
    lines.append("")
    lines.append("OPTIONS:")
    let rows =
      options.map { option -> (String, String) in
        let short = option.short.map { "-\($0), " } ?? "    "
        let left = short + "--\(option.name)" + (option.valueName.map { " <\($0)>" } ?? "")
        return (left, option.help)
      } + [("-h, --help", "Show help information.")]
    let width = rows.map(\.0.count).max() ?? 0
    for (left, help) in rows {
      lines.append("  " + left.padding(to: width) + "  " + help)
    }
    if !discussion.isEmpty {
      lines.append("")
      lines.append(discussion)
    }
    return lines.joined(separator: "\n")
  }
}

/// A mistake in how the tool was called. Printed with the command's usage; exit code 2.
struct UsageError: Error, Equatable {
  var message: String
  /// The command whose usage applies, when one was recognised.
  var command: String?
}

/// The options and positional arguments of one command, parsed and checked against its spec.
struct ParsedArguments {
  private(set) var values: [String: [String]] = [:]
  private(set) var flags: Set<String> = []
  private(set) var positionals: [String] = []
  /// Whether `--help` or `-h` was given.
  private(set) var wantsHelp = false
  let command: String

  /// Parses `arguments` (without the program and command names) against `spec`.
  ///
  /// Accepts `--name value`, `--name=value`, flags, and `--` to end the options. Rejects an
  /// unknown option (suggesting the closest known one), a missing value, a value given to a
  /// flag, a repeated option that is not repeatable, and a wrong number of positionals.
  init(_ arguments: [String], spec: CommandSpec) throws(UsageError) {
    command = spec.name
    var index = 0
    var optionsEnded = false
    while index < arguments.count {
      let argument = arguments[index]
      index += 1
      if optionsEnded || !argument.hasPrefix("-") || argument == "-" {
        positionals.append(argument)
        continue
      }
      if argument == "--" {
        optionsEnded = true
        continue
      }
      if argument == "-h" || argument == "--help" {
        wantsHelp = true
        continue
      }
      var name: String
      var inlineValue: String?
      if argument.hasPrefix("--") {
        name = String(argument.dropFirst(2))
      } else if argument.count == 2, let letter = argument.last,
        let option = spec.options.first(where: { $0.short == letter })
      {
        name = option.name
      } else {
        let known = spec.options.compactMap { $0.short.map { "-\($0)" } }
        throw UsageError(
          message: "unknown option '\(argument)'; options are spelled --name"
            + (known.isEmpty ? "" : " (short ones: \(known.joined(separator: ", ")))"),
          command: spec.name)
      }
      if let equals = name.firstIndex(of: "=") {
        inlineValue = String(name[name.index(after: equals)...])
        name = String(name[..<equals])
      }
      guard let option = spec.options.first(where: { $0.name == name }) else {
        var message = "unknown option '--\(name)' for '\(spec.name)'"
        if let near = Spelling.closest(to: name, in: spec.options.map(\.name)) {
          message += "; did you mean '--\(near)'?"
        }
        throw UsageError(message: message, command: spec.name)
      }
      if option.valueName == nil {
        if inlineValue != nil {
          throw UsageError(message: "'--\(name)' is a flag and takes no value", command: spec.name)
        }
        flags.insert(name)
        continue
      }
      let value: String
      if let inlineValue {
        value = inlineValue
      } else if index < arguments.count,
        !arguments[index].hasPrefix("--")
          || Double(arguments[index]) != nil
      {
        value = arguments[index]
        index += 1
      } else {
        throw UsageError(
          message: "'--\(name)' needs a value: --\(name) <\(option.valueName!)>", command: spec.name
        )
      }
      if values[name] != nil, !option.repeatable {
        throw UsageError(message: "'--\(name)' was given more than once", command: spec.name)
      }
      values[name, default: []].append(value)
    }
    if wantsHelp { return }
    if positionals.count < spec.positionalCount.min {
      throw UsageError(
        message: "missing argument: deferral-sim \(spec.name) \(spec.positionalUsage)",
        command: spec.name)
    }
    if let most = spec.positionalCount.max, positionals.count > most {
      let extra = positionals[most...].map { "'\($0)'" }.joined(separator: ", ")
      throw UsageError(message: "unexpected argument \(extra)", command: spec.name)
    }
  }

  /// Whether the flag `--name` was given.
  func flag(_ name: String) -> Bool { flags.contains(name) }

  /// The last value of `--name`, if given.
  func value(_ name: String) -> String? { values[name]?.last }

  /// Every value of a repeatable `--name`, in the order given.
  func allValues(_ name: String) -> [String] { values[name] ?? [] }

  /// The value of `--name` as an integer within `range`, if given.
  func integer(_ name: String, in range: ClosedRange<Int>) throws(UsageError) -> Int? {
    guard let text = value(name) else { return nil }
    guard let number = Int(text.replacingUnderscores()), range.contains(number) else {
      throw UsageError(
        message: "'--\(name)' must be a whole number from \(range.lowerBound) to "
          + "\(range.upperBound), not '\(text)'",
        command: command)
    }
    return number
  }

  /// The value of `--name` as an unsigned 64-bit integer, if given.
  func unsigned(_ name: String) throws(UsageError) -> UInt64? {
    guard let text = value(name) else { return nil }
    guard let number = UInt64(text.replacingUnderscores()) else {
      throw UsageError(
        message: "'--\(name)' must be a whole number from 0 to \(UInt64.max), not '\(text)'",
        command: command)
    }
    return number
  }

  /// The value of `--name` as a number in (0, `bound`), if given.
  func positiveNumber(_ name: String, below bound: Double) throws(UsageError) -> Double? {
    guard let text = value(name) else { return nil }
    guard let number = Double(text), number > 0, number < bound else {
      throw UsageError(
        message: "'--\(name)' must be a number above 0 and below \(bound), such as 0.05, "
          + "not '\(text)'", command: command)
    }
    return number
  }

  /// The value of `--name`, which must be one of `choices`, if given.
  func choice(_ name: String, in choices: [String]) throws(UsageError) -> String? {
    guard let text = value(name) else { return nil }
    guard choices.contains(text) else {
      var message = "'--\(name)' must be one of \(choices.joined(separator: ", ")), not '\(text)'"
      if let near = Spelling.closest(to: text, in: choices) {
        message += "; did you mean '\(near)'?"
      }
      throw UsageError(message: message, command: command)
    }
    return text
  }

  /// The value of `--name` split at commas, empty items removed, if given.
  func list(_ name: String) -> [String]? {
    guard let text = value(name) else { return nil }
    return text.split(separator: ",").map { String($0).trimmed() }.filter { !$0.isEmpty }
  }
}

extension String {
  func padding(to width: Int) -> String {
    count >= width ? self : self + String(repeating: " ", count: width - count)
  }

  fileprivate func replacingUnderscores() -> String {
    String(filter { $0 != "_" })
  }

  func trimmed() -> String {
    var scalars = Substring(self)
    while let first = scalars.first, first.isWhitespace { scalars.removeFirst() }
    while let last = scalars.last, last.isWhitespace { scalars.removeLast() }
    return String(scalars)
  }
}
