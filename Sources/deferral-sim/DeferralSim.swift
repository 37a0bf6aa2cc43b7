import Foundation
import MessageDeferral
import Reports
import Simulation

/// The command-line tool: parses, validates in one place, calls the libraries, prints.
///
/// Exit codes (documented in the README): 0 success; 1 a failure while running; 2 bad usage
/// or bad input, found before any work starts.
@main
struct DeferralSim {
  static let version = "0.1.0"

  static func main() {
    let arguments = Array(CommandLine.arguments.dropFirst())
    StopSignals.install()
    let status = run(arguments, output: StandardStreams())
    // Whatever a failing command left staged goes; committed folders are not listed.
    OutputFolder.discardAll()
    exit(status)
  }

  /// Runs the tool on `arguments` (program name excluded) and returns the exit status.
  static func run(_ arguments: [String], output: some OutputStreams) -> Int32 {
    guard let first = arguments.first else {
      output.err(toolHelp)
      output.err("\nerror: no command given; for example 'deferral-sim run'")
      return ExitStatus.usage
    }
    switch first {
    case "-h", "--help", "help":
      if first == "help", arguments.count > 1 {
        if arguments[1] == "--man" {
          output.out(ManPage.page(version: version))
        } else if let command = Commands.find(arguments[1]) {
          output.out(command.spec.helpText)
        } else {
          output.err(
            "error: no command '\(arguments[1])'; 'deferral-sim help' lists them, "
              + "'deferral-sim help --man' prints the man page")
          return ExitStatus.usage
        }
      } else {
        output.out(toolHelp)
      }
      return 0
    case "--version", "-V":
      guard arguments.count == 1 else {
        let extra = arguments.dropFirst().map { "'\($0)'" }.joined(separator: ", ")
        output.err(
          "error: '--version' takes no arguments, not \(extra)\nSee 'deferral-sim --help'.")
        return ExitStatus.usage
      }
      output.out("deferral-sim \(version)")
      return 0
    default:
      break
    }
    guard let command = Commands.find(first) else {
      var message = "unknown command '\(TerminalText.quoted(first))'"
      if let near = Spelling.closest(to: first, in: Commands.all.map(\.spec.name)) {
        message += "; did you mean '\(near)'?"
      }
      output.err("error: \(message)\nSee 'deferral-sim --help'.")
      return ExitStatus.usage
    }
    do {
      let parsed = try ParsedArguments(Array(arguments.dropFirst()), spec: command.spec)
      if parsed.wantsHelp {
        output.out(command.spec.helpText)
        return 0
      }
      return try command.execute(parsed, output)
    } catch {
      let failure = Failure(error)
      output.err(failure.text(command: command.spec.name))
      return failure.status
    }
  }

  /// `text` with control characters (but line breaks and tabs) shown as `\u{1B}`: the one
  /// sanitiser, ``TerminalText``, applied to everything the tool prints.
  static func visible(_ text: String) -> String {
    TerminalText.visible(text)
  }

  static var toolHelp: String {
    var lines = [
      "OVERVIEW: Compare App Store system-message deferral policies on synthetic users.",
      "",
      "Runs every policy on the same Monte Carlo users (common random numbers) and reports",
      "onboarding interruptions, consent latency, fallbacks fired and more, with 95% intervals.",
      "",
      "USAGE: deferral-sim <command> [options]",
      "",
      "COMMANDS:",
    ]
    let width = Commands.all.map(\.spec.name.count).max() ?? 0
    for command in Commands.all {
      lines.append("  " + command.spec.name.padding(to: width) + "  " + command.spec.abstract)
    }
    lines += [
      "",
      "OPTIONS:",
      "  -h, --help     Show help information (also: deferral-sim <command> --help).",
      "  -V, --version  Show the version.",
      "",
      "'deferral-sim help COMMAND' for a command's options; 'deferral-sim help --man' prints the",
      "man page; 'deferral-sim completions bash|zsh|fish' a shell completion script.",
      "",
      "EXIT STATUS: 0 success, 1 failure while running, 2 bad usage or bad input.",
    ]
    return lines.joined(separator: "\n")
  }
}

/// Exit statuses, mapped in one place.
enum ExitStatus {
  static let success: Int32 = 0
  static let failure: Int32 = 1
  static let usage: Int32 = 2
}

/// Where a command prints; a protocol so tests can capture what is printed.
protocol OutputStreams: Sendable {
  func out(_ text: String)
  func err(_ text: String)
  /// Writes to standard error without a line break (for a progress line).
  func errInline(_ text: String)
  /// Whether standard error is a terminal (progress lines are shown only then).
  var errorIsTerminal: Bool { get }
}

struct StandardStreams: OutputStreams {
  /// Standard output goes through the same sanitiser as standard error: a path or a name in
  /// a `Wrote ... to DIR` line or a summary can no more act on the terminal than an error.
  func out(_ text: String) {
    print(DeferralSim.visible(text))
  }

  func err(_ text: String) {
    FileHandle.standardError.write(Data((DeferralSim.visible(text) + "\n").utf8))
  }

  func errInline(_ text: String) {
    FileHandle.standardError.write(Data(text.utf8))
  }

  var errorIsTerminal: Bool { isatty(2) == 1 }
}
