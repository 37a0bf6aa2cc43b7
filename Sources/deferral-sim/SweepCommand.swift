import Foundation
import MessageDeferral
import Reports
import Simulation

/// `deferral-sim sweep`: runs a grid of policy and scenario parameters on the same users and
/// reports every point and the Pareto front.
enum SweepCommand {
  static let spec = CommandSpec(
    name: "sweep",
    abstract: "Run a grid of policy and scenario parameters and find the Pareto front.",
    positionalUsage: "SWEEP",
    positionalCount: (1, 1),
    options: [
      .value("jobs", "j", "Worker threads (default: the number of cores)."),
      .value("out", "dir", "Output folder (default: results/sweep-<file name>/)."),
      .flag("no-report", "Do not write report.html."),
      .flag("quiet", "No progress line on standard error."),
    ],
    discussion:
      "SWEEP is a JSON file: a base policy, a grid of 'policy.KEY' and 'scenario.PATH'\n"
      + "values, presets to compare, and the two metrics of the Pareto front. See the README,\n"
      + "section Sweeps. Writes sweep.csv and pareto.csv.")

  static func execute(_ parsed: ParsedArguments, _ output: any OutputStreams) throws -> Int32 {
    let path = parsed.positionals[0]
    let plan: SweepPlan
    do {
      plan = try SweepPlan.load(contentsOf: path)
    } catch {
      throw ToolError.input(error.description)
    }
    let jobs =
      try parsed.integer("jobs", in: 1...1024) ?? ProcessInfo.processInfo.activeProcessorCount
    let name = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
    let outPath = parsed.value("out") ?? "results/sweep-\(name)"
    let folder: OutputFolder
    do {
      folder = try OutputFolder(path: outPath)
    } catch {
      throw ToolError.failure(error.message)
    }
    let started = Date()
    let showProgress = output.errorIsTerminal && !parsed.flag("quiet")
    let outcome: SweepOutcome
    do {
      outcome = try plan.run(
        jobs: jobs, file: path,
        progress: showProgress
          ? { done, total in output.errInline("\r  scenario points \(done)/\(total)   ") }
          : nil)
    } catch let error as ScenarioErrors {
      throw ToolError.input(error.description)
    } catch let error as ConfigIssues {
      throw ToolError.input(
        error.issues.map { "\(path): \($0.path): \($0.message)" }.joined(separator: "\n"))
    } catch let error as EngineError {
      throw ToolError.failure(error.description)
    }
    if showProgress { output.errInline("\r" + String(repeating: " ", count: 40) + "\r") }
    do {
      try folder.write(outcome.sweep.text, to: "sweep.csv")
      try folder.write(outcome.pareto.text, to: "pareto.csv")
      if !parsed.flag("no-report") {
        try folder.write(
          HTMLReport.renderSweep(name: name, outcome: outcome, pareto: plan.pareto),
          to: "report.html")
      }
    } catch {
      throw ToolError.failure(error.message)
    }
    output.out(
      "\(name): \(outcome.points) points, \(outcome.events) events, "
        + "\(TerminalTable.fixed(Date().timeIntervalSince(started), 1)) s")
    output.out("Pareto front (\(plan.pareto.x) vs \(plan.pareto.y), lower is better):")
    for line in outcome.frontLines { output.out("  " + line) }
    let report = parsed.flag("no-report") ? "" : ", report.html"
    output.out("Wrote sweep.csv, pareto.csv\(report) to \(outPath)/")
    return ExitStatus.success
  }
}
