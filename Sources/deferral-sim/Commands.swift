import Experiments
import MessageDeferral
import Reports
import Simulation

/// A subcommand: its spec (for parsing and help) and what it does.
struct Command: Sendable {
  var spec: CommandSpec
  var execute: @Sendable (ParsedArguments, any OutputStreams) throws -> Int32
}

enum Commands {
  static let all: [Command] = [
    run, trace, sweep, robust, tune, merge, fit, fitResponses, validate, policies, exportPolicy,
    completions,
  ]

  static let tune = Command(
    spec: TuneCommand.spec,
    execute: { arguments, output in try TuneCommand.execute(arguments, output) })

  static let fitResponses = Command(
    spec: FitResponsesCommand.spec,
    execute: { arguments, output in try FitResponsesCommand.execute(arguments, output) })

  static let exportPolicy = Command(
    spec: ExportPolicyCommand.spec,
    execute: { arguments, output in try ExportPolicyCommand.execute(arguments, output) })

  static let completions = Command(
    spec: Completions.spec,
    execute: { arguments, output in try Completions.execute(arguments, output) })

  static func find(_ name: String) -> Command? {
    all.first { $0.spec.name == name }
  }

  static let run = Command(
    spec: CommandSpec(
      name: "run",
      abstract: "Simulate a scenario under every policy and write the reports.",
      positionalUsage: "[SCENARIO]",
      positionalCount: (0, 1),
      declaring: RunCommand.options,
      discussion:
        "Without SCENARIO the embedded default scenario (indie-subscription) is used.\n\n"
        + "--precision starts from the scenario's (or --replications') count and doubles it until\n"
        + "every headline metric of every policy has a 95% half-width below REL of its mean (a\n"
        + "metric at exactly 0 with a zero-width interval counts as precise), or --max-replications\n"
        + "is reached (then it says which metrics fell short). Replication r is the same users\n"
        + "whatever the count, so the files are those of a plain run with the final count.\n\n"
        + "The table fits COLUMNS, else the terminal (blocks of columns, each repeating the\n"
        + "policy); piped with no COLUMNS, or with --wide, it is one table, a line per policy."
    ),
    execute: { arguments, output in try RunCommand.execute(arguments, output) }
  )

  static let trace = Command(
    spec: TraceCommand.spec,
    execute: { arguments, output in try TraceCommand.execute(arguments, output) })

  static let sweep = Command(
    spec: SweepCommand.spec,
    execute: { arguments, output in try SweepCommand.execute(arguments, output) })

  static let robust = Command(
    spec: RobustCommand.spec,
    execute: { arguments, output in try RobustCommand.execute(arguments, output) })

  static let merge = Command(
    spec: MergeCommand.spec,
    execute: { arguments, output in try MergeCommand.execute(arguments, output) })

  static let fit = Command(
    spec: FitCommand.spec,
    execute: { arguments, output in try FitCommand.execute(arguments, output) })

  static let validate = Command(
    spec: CommandSpec(
      name: "validate",
      abstract: "Check scenario, sweep and robustness files and report every error at once.",
      positionalUsage: "FILE...",
      positionalCount: (1, nil),
      options: [],
      discussion:
        "A file with a top-level 'grid' is checked as a sweep (its scenario, every grid point\n"
        + "and every preset, as 'sweep' would before running); one with 'parameters' as a\n"
        + "robustness study (every world, as 'robust' would); one with 'knobs' as a tune file\n"
        + "(every candidate, as 'tune' would); a partial result, a tune's part or state as\n"
        + "'merge' reads it; any other as a scenario."
    ),
    execute: { arguments, output in
      var status = ExitStatus.success
      for path in arguments.positionals {
        do {
          if SweepPlan.isJSONSchema(contentsOf: path) {
            output.out("\(path): skipped (a JSON Schema, not a scenario or sweep)")
            continue
          }
          if TunePart.isPart(contentsOf: path) {
            // A tune's stage files are checked as merge reads them.
            let part = try TunePart.read(contentsOf: path)
            output.out(
              "\(path): ok (a part of stage \(part.stage) of the tune \(part.tune.name): shards "
                + "\(part.covers.description) of \(part.shards); merge the stage's parts with "
                + "'deferral-sim merge')")
          } else if TuneState.isState(contentsOf: path) {
            let state = try TuneState.read(contentsOf: path)
            output.out(
              "\(path): ok (the state for stage \(state.stage) of the tune \(state.tune.name), "
                + "\(state.records.count) run\(state.records.count == 1 ? "" : "s") recorded)")
          } else if PartialFile.isPartial(contentsOf: path) {
            // A shard's partial is checked as merge reads it, not as a scenario.
            switch try PartialFile.read(contentsOf: path) {
            case .run(let partial):
              output.out(
                "\(path): ok (a partial result: shards \(partial.covers.description) of "
                  + "\(partial.shards); merge it with 'deferral-sim merge')")
            case .sweep(let partial):
              output.out(
                "\(path): ok (a partial result: shards \(partial.covers.description) of "
                  + "\(partial.shards); merge it with 'deferral-sim merge')")
            }
          } else if SweepPlan.isSweep(contentsOf: path) {
            let plan = try SweepPlan.load(contentsOf: path)
            output.out("\(path): ok (sweep of \(plan.pointCount) points)")
          } else if RobustPlan.isStudy(contentsOf: path) {
            let plan = try RobustPlan.load(contentsOf: path)
            output.out("\(path): ok (robustness study of \(plan.worlds) worlds)")
          } else if TunePlan.isTune(contentsOf: path) {
            let plan = try TunePlan.load(contentsOf: path)
            output.out(
              "\(path): ok (tune of \(plan.search.knobs.count) "
                + "knob\(plan.search.knobs.count == 1 ? "" : "s"), "
                + "\(plan.search.firstRoundSize) candidates"
                + (plan.search.screensEverySetting ? ": every setting)" : ")"))
          } else {
            _ = try ScenarioLoader.load(contentsOf: path)
            output.out("\(path): ok")
          }
        } catch let errors as ScenarioErrors {
          // Every file is checked: its problems are printed and the next one read.
          let failure = Failure(errors)
          output.err(failure.message)
          status = failure.status
        } catch let error as PartialError {
          let failure = Failure(error)
          output.err(failure.message)
          status = failure.status
        }
      }
      return status
    }
  )

  /// `policies --json`.
  static let policiesJSON = Flag("json", "Print each preset's full configuration as JSON.")
  /// `policies --markdown`.
  static let policiesMarkdown = Flag(
    "markdown", "Print the presets as the README's Markdown table (name, what it reproduces).")

  static let policies = Command(
    spec: CommandSpec(
      name: "policies",
      abstract: "List the built-in deferral policies.",
      positionalUsage: "",
      positionalCount: (0, 0),
      declaring: [policiesJSON, policiesMarkdown]
    ),
    execute: { arguments, output in
      if arguments.flag(policiesMarkdown) {
        output.out(PolicyCatalog.markdownTable)
      } else if arguments.flag(policiesJSON) {
        let document = ConfigValue.object(
          PolicyCatalog.presets.map {
            ConfigValue.Member(
              key: $0.name,
              value: .object(
                [
                  ConfigValue.Member(key: "description", value: .string($0.summary)),
                  ConfigValue.Member(key: "reproduces", value: .string($0.doc)),
                  ConfigValue.Member(key: "shipping", value: .string($0.shipping.summary)),
                ] + ($0.configuration.configValue.objectMembers)))
          })
        output.out(document.jsonText())
      } else {
        for preset in PolicyCatalog.presets { output.out("\(preset.name)\t\(preset.summary)") }
      }
      return ExitStatus.success
    }
  )
}
