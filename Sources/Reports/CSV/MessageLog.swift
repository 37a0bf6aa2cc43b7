import Foundation
import MessageDeferral
import Simulation

/// `messages.csv`, streamed: each work item's rows go to a temporary file of their own as the
/// users are simulated (nothing is held in memory), and at the end the item files are
/// concatenated in item order into the final file, atomically. So the file is the same
/// whatever `--jobs`, and a failed run leaves none.
public final class MessageLog: Sendable {
  public static let header =
    "policy,replication,user,message,reason,issued_at_s,delivered_at_s,displayed_at_s,wait_s,"
    + "screen,screen_kind,forced,attempts,outcome"

  /// The header of a scenario with a response model: ``header`` and `response` (accepted,
  /// declined, closed, fixed, not fixed, redeemed, not redeemed, seen; empty when not shown).
  public static let responseHeader = header + ",response"

  let parts: _ItemFiles
  let policyNames: [String]
  let screenNames: [String]
  let screenKinds: [String]
  /// Whether rows end with the response (the scenario has a response model).
  let writesResponses: Bool

  /// Prepares a scratch folder inside `folder` for the item files.
  public init(folder: String, scenario: Scenario, policies: [NamedPolicy]) throws(OutputError) {
    writesResponses = scenario.responses != nil
    parts = try _ItemFiles(
      folder: folder, name: "messages.csv",
      header: writesResponses ? Self.responseHeader : Self.header)
    policyNames = policies.map { CSVTable.escape($0.name) }
    screenNames = scenario.screens.map { CSVTable.escape($0.name) }
    screenKinds = scenario.screens.map(\.kind.rawValue)
  }

  /// The sink for work item `item` (item -1: a placeholder that writes nothing).
  public func sink(for item: Int) -> Sink {
    Sink(log: self, file: item >= 0 ? parts.open(item) : nil)
  }

  /// Joins the item files, in order, into `messages.csv` and removes the scratch folder.
  public func finish(itemCount: Int) throws(OutputError) {
    try parts.finish(itemCount: itemCount)
  }

  /// Removes the scratch folder (after success or failure).
  public func discard() {
    parts.discard()
  }

  /// Writes the rows of one work item.
  public struct Sink: SimulationSink, @unchecked Sendable {
    let log: MessageLog
    let file: UnsafeMutablePointer<FILE>?
    var line = ""

    public static var recordsSteps: Bool { false }
    public static var recordsOutcomes: Bool { true }

    public mutating func step(_ step: TraceStep) {}

    public mutating func outcome(
      _ outcome: MessageOutcome, policy: Int, replication: Int, user: Int
    ) {
      guard let file else { return }
      func number(_ value: Double?) -> String { value.map { CSVField.format($0) } ?? "" }
      line.removeAll(keepingCapacity: true)
      line += log.policyNames[policy]
      line += ",\(replication),\(user),\(outcome.message),\(outcome.reason.name),"
      line += number(outcome.issuedAt) + "," + number(outcome.deliveredAt) + ","
      line += number(outcome.displayedAt) + ","
      line += number(outcome.displayedAt.map { $0 - outcome.issuedAt }) + ","
      line += outcome.screen.map { log.screenNames[$0] + "," + log.screenKinds[$0] } ?? ","
      line += outcome.forced ? ",true," : ",false,"
      line += "\(outcome.attempts),\(outcome.outcome.rawValue)"
      if log.writesResponses { line += "," + outcome.response.name }
      line += "\n"
      fputs(line, file)
    }

    /// Closes the item's file.
    public func close() {
      if let file { fclose(file) }
    }
  }
}
