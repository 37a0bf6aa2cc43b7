import Experiments
import Fitting
import MessageDeferral
import Reports
import Simulation

/// How a command that throws ends: the one place where every error type becomes the message
/// a user reads and the exit status (README, "Exit status": 2 for bad usage or bad input, 1
/// for a failure while running). Commands throw the libraries' errors as they are; none
/// re-wraps them.
struct Failure: Equatable {
  /// What is printed after `error: `.
  var message: String
  var status: Int32
  /// Whether `See 'deferral-sim COMMAND --help'.` follows (a mistake in the command line).
  var pointsToHelp = false

  init(message: String, status: Int32, pointsToHelp: Bool = false) {
    self.message = message
    self.status = status
    self.pointsToHelp = pointsToHelp
  }

  init(_ error: any Error) {
    switch error {
    case let error as UsageError:
      self.init(message: Self.oneLine(error.message), status: ExitStatus.usage, pointsToHelp: true)
    case let error as ScenarioErrors:
      self.init(message: error.description, status: ExitStatus.usage)
    case let error as FitInputError:
      self.init(message: error.description, status: ExitStatus.usage)
    case let error as PartialError:
      self.init(message: Self.oneLine(error.message), status: ExitStatus.usage)
    case let error as ConfigIssues:
      // Commands name the file (``ScenarioErrors/init(file:_:)``); this is the fallback.
      self.init(
        message: error.issues.map(\.description).joined(separator: "\n"),
        status: ExitStatus.usage)
    case let error as OutputError:
      // A path that cannot be an output folder is bad input; a folder that cannot be
      // written is a failure while running.
      self.init(
        message: Self.oneLine(error.message),
        status: error.isUsage ? ExitStatus.usage : ExitStatus.failure)
    case let error as EngineError:
      var message = error.description
      if case .eventBudgetExceeded(let replication, let user, _, _, _, _) = error {
        // The engine knows no command; the tool points to the one that shows the life.
        message += " See it with 'deferral-sim trace --user \(user) --replication \(replication)'."
      }
      self.init(message: message, status: ExitStatus.failure)
    default:
      self.init(message: String(describing: error), status: ExitStatus.failure)
    }
  }

  /// A message that is one line by construction, kept on one line whatever a path or a value
  /// from outside holds (``TerminalText/quoted(_:limit:)``): no forged second `error:` line.
  static func oneLine(_ message: String) -> String {
    TerminalText.quoted(message, limit: TerminalText.lineLimit)
  }

  /// The lines printed on standard error for `command`, control characters made visible.
  func text(command: String) -> String {
    "error: \(DeferralSim.visible(message))"
      + (pointsToHelp ? "\nSee 'deferral-sim \(command) --help'." : "")
  }
}

extension ScenarioErrors {
  /// The problems of a policy configuration read from `file`: `FILE: $.path: message`.
  init(file: String, _ issues: ConfigIssues) {
    self.init(file: file, problems: issues.issues)
  }

  /// A file that could not be read: `FILE: why`.
  init(file: String, _ problem: FileReadProblem) {
    self.init(file: file, problems: [ConfigIssue(path: "", message: problem.message)])
  }
}
