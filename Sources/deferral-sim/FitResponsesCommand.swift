import Fitting
import Foundation
import MessageDeferral
import Reports
import Simulation

/// `deferral-sim fit-responses LOG [SCENARIO] [-o FILE] [--policy NAME]`: estimates the
/// scenario's `responses` section from a message log (``ResponseFit``) and writes the scenario
/// with it.
enum FitResponsesCommand {
  static let spec = CommandSpec(
    name: "fit-responses",
    abstract: "Estimate what users do with a sheet, by screen kind and wait, from a message log.",
    positionalUsage: "LOG [SCENARIO]",
    positionalCount: (1, 2),
    declaring: [out, policy],
    discussion:
      "LOG is messages.csv of 'run --messages-log' on a scenario with a 'responses' section,\n"
      + "or JSON lines of the app's store_message_response records (reason, screen_kind,\n"
      + "waited_seconds, response). Each chance (consent choice and acceptance, billing fixed,\n"
      + "win-back redeemed) is a logistic regression by maximum likelihood: the chance over\n"
      + "the most frequent calm screen kind at no wait, an odds ratio per other kind seen and\n"
      + "per day held, each with a Wald 95% interval. The table compares observed and fitted\n"
      + "shares by kind. SCENARIO (default: the embedded indie-subscription) gets the fitted\n"
      + "section (a chance with no row keeps the scenario's own); -o writes it (default:\n"
      + "standard output gets the section alone). Examples:\n"
      + "  deferral-sim fit-responses results/my-app/messages.csv scenarios/my-app.json -o fitted.json\n"
      + "  deferral-sim fit-responses scenarios/fit-samples/responses.csv --policy storekit-auto")

  static let out = Option.text(
    "out", "file", "Write the scenario with the fitted section here.", short: "o")
  static let policy = Option.text(
    "policy", "name", "Only the log's rows of this policy (messages.csv has every policy's).")

  static func execute(_ parsed: ParsedArguments, _ output: any OutputStreams) throws -> Int32 {
    let logPath = parsed.positionals[0]
    let bytes: [UInt8]
    switch readRegularFile(logPath, limit: 1 << 30) {
    case .success(let read): bytes = read
    case .failure(let problem):
      throw UsageError(message: "\(logPath): \(problem.message)", command: "fit-responses")
    }
    let loaded = try RunCommand.loadScenario(
      parsed.positionals.count > 1 ? parsed.positionals[1] : nil)
    let rows: [ResponseFit.Row]
    let wanted = try parsed.value(Self.policy)
    switch ResponseFit.parsed(
      text: String(decoding: bytes, as: UTF8.self), file: logPath, policy: wanted)
    {
    case .success(let read): rows = read
    case .failure(let error):
      throw UsageError(message: error.description, command: "fit-responses")
    }
    guard !rows.isEmpty else {
      throw UsageError(
        message: "\(logPath): no sheet with a response in the log (is it of a scenario with a "
          + "'responses' section, or the right --policy?)", command: "fit-responses")
    }
    let fit = ResponseFit(rows: rows)
    output.out("\(logPath): \(rows.count) sheets with a response")
    for estimate in fit.estimates {
      let p = estimate.probabilityInterval
      output.out(
        "\(estimate.name): \(estimate.rows) sheets; probability over \(estimate.reference.rawValue) "
          + "at no wait \(Self.text(estimate.probability)) [\(Self.text(p.lowerBound)), "
          + "\(Self.text(p.upperBound))]; odds per day held \(Self.text(estimate.perDayWaited)) "
          + "[\(Self.text(estimate.perDayWaitedInterval.lowerBound)), "
          + "\(Self.text(estimate.perDayWaitedInterval.upperBound))]")
      for entry in estimate.byKind {
        let odds = estimate.kindOdds.first { $0.kind == entry.kind }
        let oddsText =
          odds.map {
            "odds ratio \(Self.text($0.ratio)) [\(Self.text($0.interval.lowerBound)), "
              + "\(Self.text($0.interval.upperBound))]"
          } ?? "reference"
        output.out(
          "  \(entry.kind.rawValue.padding(toLength: 11, withPad: " ", startingAt: 0)) "
            + "\(String(entry.rows).padding(toLength: 7, withPad: " ", startingAt: 0)) sheets  "
            + "observed \(Self.percent(entry.observed))  fitted \(Self.percent(entry.fitted))  "
            + oddsText)
      }
    }
    for warning in fit.warnings { output.out("Warning: \(warning)") }
    if fit.warnings.isEmpty { output.out("Warnings: none") }
    output.out(
      "Not estimated (a message log cannot tell): first_seconds and interrupting stay 1 (the "
        + "kinds' odds absorb interruption).")
    let model = fit.model(over: loaded.scenario.responses)
    let sources = Dictionary(
      uniqueKeysWithValues: fit.estimates.map {
        ($0.name, "fitted by deferral-sim fit-responses from \(logPath) (\($0.rows) sheets)")
      })
    let section = model.configValue(sources: sources)
    guard let path = try parsed.value(Self.out) else {
      output.out(section.jsonText())
      return ExitStatus.success
    }
    let document = try JSONReader.parse(loaded.bytes).configValue
    var members = document.objectMembers.filter { $0.key != "responses" }
    let at = members.firstIndex { $0.key == "policies" } ?? members.count
    members.insert(.init(key: "responses", value: section), at: at)
    let folderPath = (path as NSString).deletingLastPathComponent
    let folder = try OutputFolder(path: folderPath.isEmpty ? "." : folderPath, mode: .shared)
    try folder.write(
      ConfigValue.object(members).jsonText() + "\n", to: (path as NSString).lastPathComponent)
    output.out("Wrote \(path) (the scenario with the fitted responses section)")
    return ExitStatus.success
  }

  static func text(_ value: Double) -> String {
    value.isFinite ? String(format: "%.3g", value) : "?"
  }

  static func percent(_ value: Double) -> String { String(format: "%5.1f%%", value * 100) }
}
