import Fitting
import MessageDeferral
import Reports
import Simulation
import Testing

@testable import deferral_sim

/// The one mapping from errors to what a user reads and the exit status (README, "Exit
/// status": 2 bad usage or input, 1 a failure while running).
@Suite("Errors mapped in one place")
struct FailureTests {
  @Test func usageErrorsPointToTheCommandsHelp() {
    let failure = Failure(UsageError(message: "'--jobs' must be a whole number", command: "run"))
    #expect(failure.status == 2)
    #expect(
      failure.text(command: "run")
        == "error: '--jobs' must be a whole number\nSee 'deferral-sim run --help'.")
  }

  @Test func badInputFilesExitWithTwoAndNameFileAndPath() {
    let scenario = ScenarioErrors(
      file: "a.json", problems: [ConfigIssue(path: "$.users", message: "must be positive")])
    #expect(Failure(scenario) == Failure(message: "a.json: $.users: must be positive", status: 2))
    let fit = FitInputError(file: "log.csv", line: 3, message: "no timestamp")
    #expect(Failure(fit) == Failure(message: fit.description, status: 2))
    let policy = ScenarioErrors(
      file: "sweep.json", ConfigIssues([ConfigIssue(path: "$.base.ttl", message: "too long")]))
    #expect(Failure(policy).message == "sweep.json: $.base.ttl: too long")
  }

  @Test func outputFolderErrorsAreUsageOnlyWhenThePathCannotBeAFolder() {
    #expect(Failure(OutputError(message: "no name", isUsage: true)).status == 2)
    #expect(Failure(OutputError(message: "disk full")).status == 1)
  }

  @Test func engineErrorsAreFailuresWhileRunning() {
    let error = EngineError.eventBudgetExceeded(
      replication: 0, user: 4, simulatedTime: 10, horizon: 100, screen: nil)
    #expect(
      Failure(error)
        == Failure(
          message: error.description
            + " See it with 'deferral-sim trace --user 4 --replication 0'.",
          status: 1))
  }

  @Test func controlCharactersInAMessageAreShownNotObeyed() {
    let failure = Failure(UsageError(message: "unknown policy 'a\u{1B}[2J'", command: nil))
    #expect(failure.text(command: "run").hasPrefix("error: unknown policy 'a\\u{1B}[2J'"))
  }

  @Test(arguments: Commands.all.map(\.spec))
  func noCommandDeclaresASpellingTwice(spec: CommandSpec) {
    let names = spec.options.map(\.name)
    let shorts = spec.options.compactMap(\.short)
    #expect(Set(names).count == names.count, "\(spec.name): \(names)")
    #expect(Set(shorts).count == shorts.count, "\(spec.name): \(shorts)")
  }
}
