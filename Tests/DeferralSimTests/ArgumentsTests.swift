import Testing

@testable import deferral_sim

@Suite("Argument parser")
struct ArgumentsTests {
  let spec = CommandSpec(
    name: "demo", abstract: "A demo.", positionalUsage: "[FILE]", positionalCount: (0, 1),
    options: [
      .value("users", "n", "Users."), .value("policy", "name", "Policy.", repeatable: true),
      .flag("quiet", "Quiet."),
    ])

  @Test func parsesValuesFlagsAndPositionals() throws {
    let parsed = try ParsedArguments(
      ["file.json", "--users", "1_000", "--quiet", "--policy=a", "--policy", "b"], spec: spec)
    #expect(parsed.positionals == ["file.json"])
    #expect(try parsed.integer("users", in: 1...10_000) == 1000)
    #expect(parsed.flag("quiet"))
    #expect(parsed.allValues("policy") == ["a", "b"])
  }

  @Test func doubleDashEndsOptions() throws {
    let parsed = try ParsedArguments(["--", "--quiet"], spec: spec)
    #expect(parsed.positionals == ["--quiet"])
    #expect(!parsed.flag("quiet"))
  }

  @Test(arguments: [
    (["--usrs", "3"], "did you mean '--users'?"),
    (["--users"], "needs a value"),
    (["--quiet=yes"], "takes no value"),
    (["--users", "1", "--users", "2"], "more than once"),
    (["a", "b"], "unexpected argument 'b'"),
    (["-x"], "unknown option '-x'"),
  ])
  func rejectsBadUsage(arguments: [String], message: String) {
    #expect {
      try ParsedArguments(arguments, spec: spec)
    } throws: { error in
      (error as? UsageError)?.message.contains(message) == true
    }
  }

  @Test func rejectsOutOfRangeInteger() throws {
    let parsed = try ParsedArguments(["--users", "0"], spec: spec)
    #expect(throws: UsageError.self) { try parsed.integer("users", in: 1...10) }
  }

  @Test func helpListsEveryOption() {
    let help = spec.helpText
    for option in spec.options { #expect(help.contains("--\(option.name)")) }
    #expect(help.contains("USAGE: deferral-sim demo [FILE] [options]"))
  }
}

@Suite("Command line, end to end")
struct CommandLineTests {
  @Test func helpListsTheCommands() throws {
    let result = try ToolRunner.run(["--help"])
    #expect(result.status == 0)
    for command in ["run", "validate", "policies"] {
      #expect(result.stdout.contains("\n  \(command) "))
    }
  }

  @Test(arguments: ["run", "validate", "policies"])
  func everyCommandHasHelp(command: String) throws {
    let result = try ToolRunner.run([command, "--help"])
    #expect(result.status == 0)
    #expect(result.stdout.contains("USAGE: deferral-sim \(command)"))
  }

  @Test func versionPrintsTheVersion() throws {
    let result = try ToolRunner.run(["--version"])
    #expect(result.status == 0)
    #expect(result.stdout == "deferral-sim \(DeferralSim.version)\n")
  }

  @Test(arguments: [["frobnicate"], ["run", "--usrs", "5"], ["validate"]])
  func badUsageExitsWithTwo(arguments: [String]) throws {
    let result = try ToolRunner.run(arguments)
    #expect(result.status == 2)
    #expect(result.stderr.hasPrefix("error: "))
    #expect(result.stdout.isEmpty)
  }
}
