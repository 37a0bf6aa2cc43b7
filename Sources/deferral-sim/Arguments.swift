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
  /// What shell completion offers for the value.
  var completion = Completion.none

  /// What shell completion offers for an option's value.
  enum Completion: Sendable, Equatable {
    /// Nothing in particular (files, as the shell does by default).
    case none
    /// These words.
    case choices([String])
    /// Folders.
    case folders
  }

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
  private var values: [String: [String]] = [:]
  private var flags: Set<String> = []
  private(set) var positionals: [String] = []
  /// Whether `--help` or `-h` was given.
  private(set) var wantsHelp = false
  let command: String
  /// The names the command's spec declares: reading any other is a programming error.
  private let declared: Set<String>

  /// Parses `arguments` (without the program and command names) against `spec`.
  ///
  /// Accepts `--name value`, `--name=value`, flags, and `--` to end the options. Rejects an
  /// unknown option (suggesting the closest known one), a missing value, a value given to a
  /// flag, a repeated option that is not repeatable, and a wrong number of positionals.
  init(_ arguments: [String], spec: CommandSpec) throws(UsageError) {
    command = spec.name
    declared = Set(spec.options.map(\.name))
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

  /// The texts given for `option`, in order. Options are read through typed handles
  /// (``Option``, ``Flag``); one the command does not declare is a mistake in the tool.
  func rawValues(of option: OptionSpec) -> [String] {
    assert(declared.contains(option.name), "'\(command)' reads undeclared '--\(option.name)'")
    return values[option.name] ?? []
  }

  /// Whether the command's spec declares `option`.
  func isDeclared(_ option: OptionSpec) -> Bool { declared.contains(option.name) }

  /// Whether the flag `option` was given.
  func isFlagGiven(_ option: OptionSpec) -> Bool {
    assert(declared.contains(option.name), "'\(command)' reads undeclared '--\(option.name)'")
    return flags.contains(option.name)
  }
}

extension String {
  func padding(to width: Int) -> String {
    count >= width ? self : self + String(repeating: " ", count: width - count)
  }

  func replacingUnderscores() -> String {
    String(filter { $0 != "_" })
  }

  func trimmed() -> String {
    var scalars = Substring(self)
    while let first = scalars.first, first.isWhitespace { scalars.removeFirst() }
    while let last = scalars.last, last.isWhitespace { scalars.removeLast() }
    return String(scalars)
  }
}
