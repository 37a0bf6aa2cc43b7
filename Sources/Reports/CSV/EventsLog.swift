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
/// Holds the rows of the policies it is given (`run` gives it one, the baseline by default, in
/// a pass of that policy alone; `--events-log-policy all` every policy of the run).
///
/// Streamed like `messages.csv` (``MessageLog``): each work item writes a file of its own and
/// the files are joined in item order, so the file is the same whatever `--jobs`. What it
/// does not hold: sheets, messages and the policy's decisions (`messages.csv` has messages).
public final class EventsLog: Sendable {
  public static let header = "replication,user,policy,timestamp,screen,kind,session,event"
  public static let fileName = "events.csv"

  let parts: _ItemFiles
  /// Each policy's, screen's and kind's CSV field as UTF-8, ready to copy into a row.
  let policyNames: [[UInt8]]
  let screenNames: [[UInt8]]
  let screenKinds: [[UInt8]]

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
    policyNames = policies.map { Array(CSVTable.escape($0.name).utf8) }
    screenNames = scenario.screens.map { Array(CSVTable.escape($0.name).utf8) }
    screenKinds = scenario.screens.map { Array($0.kind.rawValue.utf8) }
  }

  /// The sink for work item `item` (item -1: a placeholder that writes nothing).
  public func sink(for item: Int) -> Sink {
    Sink(log: self, file: item >= 0 ? parts.open(item) : nil)
  }

  /// Work item `item`'s sink is closed: its rows join the file now if every earlier item's
  /// have (``_ItemFiles/itemDone(_:)``), so the join overlaps the run. Optional.
  public func itemDone(_ item: Int) { parts.itemDone(item) }

  /// A sink that keeps a work item's rows in the engine's own type (``JourneySink``, for which
  /// the run is compiled: several times faster than with ``Sink``, and with its shared
  /// branches); ``write(_:item:)`` then writes them as ``Sink`` would have. The rows of
  /// ``onlyPolicy``, or of the run's only policy.
  public func journeySink() -> JourneySink {
    JourneySink(onlyPolicy: onlyPolicy ?? 0, reservingCapacity: 1 << 16)
  }

  /// Writes the rows `journeys` kept for work item `item` into the item's file, byte for byte
  /// those ``Sink`` writes from the same steps, forgets them, and marks the item done
  /// (``itemDone(_:)``).
  public func write(_ journeys: inout JourneySink, item: Int) {
    // The item's text in memory, handed to the join whole (``_ItemFiles/deliver(_:item:)``).
    var sink = Sink(log: self, file: nil, collectsRows: journeys.rows.count)
    var life: (replication: Int32, user: Int32)?
    for row in journeys.rows {
      if life.map({ $0 != (row.replication, row.user) }) ?? true {
        life = (row.replication, row.user)
        sink.begin(
          replication: Int(row.replication), user: Int(row.user), policy: journeys.onlyPolicy)
      }
      sink.write(
        time: row.time, screen: Int(row.screen), session: Int(row.session),
        background: row.background)
    }
    parts.deliver(&sink.buffer, item: item)
    journeys.removeAll()
  }

  /// Joins the item files, in order, into `events.csv` and removes the scratch folder.
  public func finish(itemCount: Int) throws(OutputError) {
    try parts.finish(itemCount: itemCount)
  }

  /// Removes the scratch folder (after a failure).
  public func discard() { parts.discard() }

  /// Writes the rows of one work item: each row's bytes made in a buffer of its own (no
  /// `String` per row) and written in blocks of ``Sink/blockSize`` bytes, not a write per row.
  public struct Sink: SimulationSink, @unchecked Sendable {
    /// The bytes gathered before a write (a row is well under 1 KiB).
    static let blockSize = 1 << 18

    let log: EventsLog
    let file: UnsafeMutablePointer<FILE>?
    /// `replication,user,policy,` of the current life.
    var prefix: [UInt8] = []
    var session = 0
    /// Rows not written yet.
    var buffer: [UInt8] = []
    /// Whether the current life's rows are written (``EventsLog/onlyPolicy``).
    var writes = true
    /// Each screen's `name,kind,` one after another, screen `s`'s from `fieldEnds[s - 1]` (0
    /// for the first) to `fieldEnds[s]`: the sink's own storage, made for its work item. (Read
    /// from the log's arrays, every row retained and released a buffer that both workers
    /// share, its reference count bouncing between the cores: 15% of a `--jobs 2` run.)
    var screenFields: [UInt8] = []
    var fieldEnds: [Int] = []

    /// Whether the rows stay in ``buffer`` (no file): ``EventsLog/write(_:item:)``.
    let collects: Bool

    /// A sink writing to `file` in blocks (none: it writes nothing), or, with `collectsRows`,
    /// keeping about that many rows in ``buffer``.
    init(log: EventsLog, file: UnsafeMutablePointer<FILE>?, collectsRows: Int? = nil) {
      self.log = log
      self.file = file
      collects = collectsRows != nil
      guard file != nil || collects else { return }
      buffer.reserveCapacity(collectsRows.map { $0 * 80 } ?? Self.blockSize + 1024)
      for (name, kind) in zip(log.screenNames, log.screenKinds) {
        screenFields.append(contentsOf: name)
        screenFields.append(UInt8(ascii: ","))
        screenFields.append(contentsOf: kind)
        screenFields.append(UInt8(ascii: ","))
        fieldEnds.append(screenFields.count)
      }
    }

    public static var recordsSteps: Bool { false }
    public static var recordsOutcomes: Bool { false }
    public static var recordsJourney: Bool { true }

    public mutating func begin(replication: Int, user: Int, policy: Int) {
      prefix.removeAll(keepingCapacity: true)
      CSVField.append(Int64(replication), to: &prefix)
      prefix.append(UInt8(ascii: ","))
      CSVField.append(Int64(user), to: &prefix)
      prefix.append(UInt8(ascii: ","))
      prefix.append(contentsOf: log.policyNames[policy])
      prefix.append(UInt8(ascii: ","))
      writes = log.onlyPolicy.map { $0 == policy } ?? true
      session = 0
    }

    /// Writes the row the step makes (``TraceWhat/eventsLogRow``).
    public mutating func step(_ step: TraceStep) {
      let row = step.what.eventsLogRow
      if row.opensSession { session += 1 }
      if let background = row.background { write(step, background: background) }
    }

    static let screenView: StaticString = ",screen_view\n"
    static let background: StaticString = ",background\n"

    /// Appends the row `replication,user,policy,timestamp,screen,kind,session,event`.
    mutating func write(_ step: TraceStep, background: Bool) {
      write(time: step.time, screen: step.screen, session: session, background: background)
    }

    /// Appends the row of the current life (``begin(replication:user:policy:)``) at `time` on
    /// `screen`.
    mutating func write(time: Double, screen: Int, session: Int, background: Bool) {
      guard writes, file != nil || collects, screen >= 0 else { return }
      buffer.append(contentsOf: prefix)
      CSVField.append(time, to: &buffer)
      buffer.append(UInt8(ascii: ","))
      let start = screen == 0 ? 0 : fieldEnds[screen - 1]
      let end = fieldEnds[screen]
      screenFields.withUnsafeBufferPointer { fields in
        buffer.append(contentsOf: UnsafeBufferPointer(rebasing: fields[start..<end]))
      }
      CSVField.append(Int64(session), to: &buffer)
      (background ? Self.background : Self.screenView).withUTF8Buffer {
        buffer.append(contentsOf: $0)
      }
      if buffer.count >= Self.blockSize { flush() }
    }

    /// Writes the rows gathered so far.
    mutating func flush() {
      guard let file, !buffer.isEmpty else { return }
      _ = buffer.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
      buffer.removeAll(keepingCapacity: true)
    }

    public mutating func outcome(
      _ outcome: MessageOutcome, policy: Int, replication: Int, user: Int
    ) {}

    /// Writes what is left and closes the item's file.
    public mutating func close() {
      flush()
      if let file { fclose(file) }
    }
  }
}
