import TestSupport
import Testing

@testable import deferral_sim

@Suite("Argument parser")
struct ArgumentsTests {
  static let users = Option.integer("users", "n", "Users.", in: 1...10_000)
  static let policy = Option.text("policy", "name", "Policy.", repeatable: true)
  static let quiet = Flag("quiet", "Quiet.")
  let spec = CommandSpec(
    name: "demo", abstract: "A demo.", positionalUsage: "[FILE]", positionalCount: (0, 1),
    declaring: [
      users, policy, quiet, ExecutionOptions.shard, ScenarioOptions.policies, ScenarioOptions.seed,
    ])

  @Test func parsesValuesFlagsAndPositionals() throws {
    let parsed = try ParsedArguments(
      ["file.json", "--users", "1_000", "--quiet", "--policy=a", "--policy", "b"], spec: spec)
    #expect(parsed.positionals == ["file.json"])
    #expect(try parsed.value(Self.users) == 1000)
    #expect(parsed.flag(Self.quiet))
    #expect(try parsed.values(Self.policy) == ["a", "b"])
    #expect(try parsed.value(ExecutionOptions.shard) == nil)
  }

  @Test func doubleDashEndsOptions() throws {
    let parsed = try ParsedArguments(["--", "--quiet"], spec: spec)
    #expect(parsed.positionals == ["--quiet"])
    #expect(!parsed.flag(Self.quiet))
  }

  @Test func typedValuesComeOutConverted() throws {
    let parsed = try ParsedArguments(
      ["--shard", "2/8", "--policies", " a, ,b ,"], spec: spec)
    let shard = try #require(try parsed.value(ExecutionOptions.shard))
    #expect(shard.index == 2 && shard.count == 8)
    #expect(try parsed.value(ScenarioOptions.policies) == ["a", "b"])
  }

  @Test(arguments: ["2/2", "-1/4", "1/0", "1", "1/100001", "a/b"])
  func shardOutsideItsRangeIsRefused(text: String) throws {
    let parsed = try ParsedArguments(["--shard", text], spec: spec)
    #expect {
      try parsed.value(ExecutionOptions.shard)
    } throws: { error in
      (error as? UsageError)?.message
        == "'--shard' must be K/N with 0 <= K < N (for example 0/4), not '\(text)'"
    }
  }

  /// `--seed` follows the seed rule of every input file (digits only), with digit groups.
  @Test(arguments: [("42", UInt64(42)), ("1_000", 1000), ("+5", nil), (" 5", nil), ("0x5", nil)])
  func seedsFollowTheFilesRule(text: String, seed: UInt64?) throws {
    let parsed = try ParsedArguments(["--seed", text], spec: spec)
    if let seed {
      #expect(try parsed.value(ScenarioOptions.seed) == seed)
    } else {
      #expect(throws: UsageError.self) { try parsed.value(ScenarioOptions.seed) }
    }
  }

  @Test func boundsKnownLaterNarrowAnOption() throws {
    let parsed = try ParsedArguments(["--users", "20"], spec: spec)
    #expect(try parsed.value(Self.users) == 20)
    #expect {
      try parsed.value(Self.users.within(0...19))
    } throws: { error in
      (error as? UsageError)?.message == "'--users' must be a whole number from 0 to 19, not '20'"
    }
  }

  @Test func commandHelpKeepsNameAndTypeOfASharedOption() {
    let run = RunCommand.options.map(\.declaration)
    let sweep = SweepCommand.spec.options
    for name in ["jobs", "out", "quiet", "no-report", "shard", "no-shared-trunk", "wide"] {
      let inRun = run.first { $0.name == name }
      let inSweep = sweep.first { $0.name == name }
      #expect(inRun?.short == inSweep?.short, "\(name)")
      #expect(inRun?.valueName == inSweep?.valueName, "\(name)")
      #expect(inRun?.completion == inSweep?.completion, "\(name)")
    }
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
    #expect(throws: UsageError.self) { try parsed.value(Self.users) }
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
