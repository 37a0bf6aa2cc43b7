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

  let folder: String
  let scratch: String
  let policyNames: [String]
  let screenNames: [String]
  let screenKinds: [String]

  /// Prepares a scratch folder inside `folder` for the item files.
  public init(folder: String, scenario: Scenario, policies: [NamedPolicy]) throws(OutputError) {
    self.folder = folder
    scratch = (folder as NSString).appendingPathComponent(".messages-\(getpid()).parts")
    policyNames = policies.map { CSVTable.escape($0.name) }
    screenNames = scenario.screens.map { CSVTable.escape($0.name) }
    screenKinds = scenario.screens.map(\.kind.rawValue)
    do {
      try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
    } catch {
      throw OutputError(message: "cannot create '\(scratch)': \(error.localizedDescription)")
    }
  }

  func partPath(_ item: Int) -> String {
    (scratch as NSString).appendingPathComponent(String(format: "item-%08d.csv", item))
  }

  /// The sink for work item `item` (item -1: a placeholder that writes nothing).
  public func sink(for item: Int) -> Sink {
    Sink(log: self, file: item >= 0 ? fopen(partPath(item), "w") : nil)
  }

  /// Joins the item files, in order, into `messages.csv` and removes the scratch folder.
  public func finish(itemCount: Int) throws(OutputError) {
    let final = (folder as NSString).appendingPathComponent("messages.csv")
    let temporary = (folder as NSString).appendingPathComponent(".messages.csv.tmp-\(getpid())")
    guard let output = fopen(temporary, "w") else {
      throw OutputError(message: "cannot write '\(temporary)': \(String(cString: strerror(errno)))")
    }
    var ok = fputs(Self.header + "\n", output) >= 0
    var buffer = [UInt8](repeating: 0, count: 1 << 20)
    for item in 0..<itemCount where ok {
      guard let input = fopen(partPath(item), "r") else {
        ok = false
        break
      }
      while true {
        let read = fread(&buffer, 1, buffer.count, input)
        if read == 0 { break }
        if fwrite(buffer, 1, read, output) != read { ok = false }
      }
      fclose(input)
    }
    ok = fclose(output) == 0 && ok
    if ok, rename(temporary, final) != 0 { ok = false }
    let code = errno
    discard()
    if !ok {
      unlink(temporary)
      throw OutputError(message: "cannot write '\(final)': \(String(cString: strerror(code)))")
    }
  }

  /// Removes the scratch folder (after success or failure).
  public func discard() {
    try? FileManager.default.removeItem(atPath: scratch)
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
      line += "\(outcome.attempts),\(outcome.outcome)\n"
      fputs(line, file)
    }

    /// Closes the item's file.
    public func close() {
      if let file { fclose(file) }
    }
  }
}
