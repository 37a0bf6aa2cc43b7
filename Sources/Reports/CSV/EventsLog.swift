import Foundation
import MessageDeferral
import Simulation

/// `events.csv` (`run --events-log`): every simulated screen view and every return to the
/// background, in the generic schema `deferral-sim fit` reads, so a run can be analysed like
/// real analytics and fitted back.
///
/// Columns: `replication,user,policy,timestamp,screen,kind,session,event`. `timestamp` is in
/// seconds from the start of the horizon (an epoch-seconds timestamp to `fit`); `session`
/// counts the user's opens from 1; `event` is `screen_view` or `background` (the moment the
/// app left the foreground, on the screen it left). A warm resume logs a `screen_view` of the
/// screen the user returns to (its dwell starts afresh), as a cold launch logs the splash.
///
/// Streamed like `messages.csv` (``MessageLog``): each work item writes a file of its own and
/// the files are joined in item order, so the file is the same whatever `--jobs`. What it
/// does not hold: sheets, messages and the policy's decisions (`messages.csv` has messages).
public final class EventsLog: Sendable {
  public static let header = "replication,user,policy,timestamp,screen,kind,session,event"
  public static let fileName = "events.csv"

  let parts: _ItemFiles
  let policyNames: [String]
  let screenNames: [String]
  let screenKinds: [String]

  /// The one policy whose rows are written (its index in `policies`), or `nil` for every
  /// policy's.
  let onlyPolicy: Int?

  /// Prepares a scratch folder inside `folder` for the item files. With `onlyPolicy`, only
  /// that policy's rows are written (`fit` reads one policy: the others would be discarded).
  public init(
    folder: String, scenario: Scenario, policies: [NamedPolicy], onlyPolicy: Int? = nil
  ) throws(OutputError) {
    self.onlyPolicy = onlyPolicy
    parts = try _ItemFiles(folder: folder, name: Self.fileName, header: Self.header)
    policyNames = policies.map { CSVTable.escape($0.name) }
    screenNames = scenario.screens.map { CSVTable.escape($0.name) }
    screenKinds = scenario.screens.map(\.kind.rawValue)
  }

  /// The sink for work item `item` (item -1: a placeholder that writes nothing).
  public func sink(for item: Int) -> Sink {
    Sink(log: self, file: item >= 0 ? parts.open(item) : nil)
  }

  /// Joins the item files, in order, into `events.csv` and removes the scratch folder.
  public func finish(itemCount: Int) throws(OutputError) {
    try parts.finish(itemCount: itemCount)
  }

  /// Removes the scratch folder (after a failure).
  public func discard() { parts.discard() }

  /// Writes the rows of one work item.
  public struct Sink: SimulationSink, @unchecked Sendable {
    let log: EventsLog
    let file: UnsafeMutablePointer<FILE>?
    var prefix = ""
    var policy = ""
    var session = 0
    var line = ""
    /// Whether the current life's rows are written (``EventsLog/onlyPolicy``).
    var writes = true

    public static var recordsSteps: Bool { false }
    public static var recordsOutcomes: Bool { false }
    public static var recordsJourney: Bool { true }

    public mutating func begin(replication: Int, user: Int, policy: Int) {
      prefix = "\(replication),\(user),"
      self.policy = log.policyNames[policy]
      writes = log.onlyPolicy.map { $0 == policy } ?? true
      session = 0
    }

    public mutating func step(_ step: TraceStep) {
      switch step.what {
      case .coldLaunch: session += 1
      case .warmResume:
        session += 1
        write(step, event: "screen_view")
      case .screenAppeared: write(step, event: "screen_view")
      case .background: write(step, event: "background")
      default: break
      }
    }

    mutating func write(_ step: TraceStep, event: String) {
      guard writes, let file, step.screen >= 0 else { return }
      line.removeAll(keepingCapacity: true)
      line += prefix
      line += policy
      line += ","
      line += CSVField.format(step.time)
      line += ","
      line += log.screenNames[step.screen]
      line += ","
      line += log.screenKinds[step.screen]
      line += ",\(session),\(event)\n"
      fputs(line, file)
    }

    public mutating func outcome(
      _ outcome: MessageOutcome, policy: Int, replication: Int, user: Int
    ) {}

    /// Closes the item's file.
    public func close() {
      if let file { fclose(file) }
    }
  }
}
