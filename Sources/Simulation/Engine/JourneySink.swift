import MessageDeferral

/// A sink that keeps, for one work item, each simulated screen view and each return to the
/// background of one policy's lives (the rows of `events.csv`, which Reports writes from
/// ``rows``).
///
/// It lives in the engine's module so that ``Engine/run(_:policies:options:journeys:finishJourneys:progress:)``
/// is compiled for it here: run with a sink of a module above, the whole simulation runs as
/// unspecialized generic code (the type's metadata looked up at every call), several times
/// slower. And since it keeps one policy's rows, a run of many policies keeps its shared
/// branches (``SimulationSink/recordsJourneyInGroups``): the policy's journey costs no
/// simulation of its own.
public struct JourneySink: SimulationSink {
  /// One screen view or one return to the background.
  public struct Row: Sendable, Equatable {
    public var time: Double
    public var replication: Int32
    public var user: Int32
    /// The screen (an index of the scenario's screens).
    public var screen: Int32
    /// The user's opens so far, from 1.
    public var session: Int32
    /// A return to the background (else a screen view).
    public var background: Bool
  }

  /// The rows recorded since the last ``removeAll()``, in the order of the lives' steps.
  public private(set) var rows: ContiguousArray<Row> = []
  /// The policy whose rows are kept (its index among the run's policies).
  public let onlyPolicy: Int
  var replication: Int32 = 0
  var user: Int32 = 0
  var session: Int32 = 0
  /// Whether the current life's rows are kept (``onlyPolicy``).
  var keeps = true

  /// A sink keeping `onlyPolicy`'s rows, with room for `reservingCapacity` rows before it
  /// grows.
  public init(onlyPolicy: Int, reservingCapacity: Int = 0) {
    self.onlyPolicy = onlyPolicy
    rows.reserveCapacity(reservingCapacity)
  }

  public static var recordsSteps: Bool { false }
  public static var recordsOutcomes: Bool { false }
  public static var recordsJourney: Bool { true }
  public static var recordsJourneyInGroups: Bool { true }
  public func wantsJourney(of policy: Int) -> Bool { policy == onlyPolicy }

  public mutating func begin(replication: Int, user: Int, policy: Int) {
    self.replication = Int32(replication)
    self.user = Int32(user)
    session = 0
    keeps = policy == onlyPolicy
  }

  /// Keeps the row the step makes (``TraceWhat/eventsLogRow``).
  public mutating func step(_ step: TraceStep) {
    let row = step.what.eventsLogRow
    if row.opensSession { session += 1 }
    if let background = row.background { keep(step, background: background) }
  }

  mutating func keep(_ step: TraceStep, background: Bool) {
    guard keeps, step.screen >= 0 else { return }
    rows.append(
      Row(
        time: step.time, replication: replication, user: user, screen: Int32(step.screen),
        session: session, background: background))
  }

  public mutating func outcome(_ outcome: MessageOutcome, policy: Int, replication: Int, user: Int)
  {}

  /// Forgets the rows, keeping their storage.
  public mutating func removeAll() { rows.removeAll(keepingCapacity: true) }
}

extension Engine {
  /// ``run(_:policies:options:makeSink:finishSink:progress:)`` with a ``JourneySink`` per work
  /// item, compiled for it in this module (see ``JourneySink``): `finishJourneys(&sink, item)`
  /// after the item's users ran.
  public static func run(
    _ world: CompiledScenario, policies: [NamedPolicy], options: RunOptions,
    journeys makeSink: @Sendable (Int) -> JourneySink,
    finishJourneys: @Sendable (inout JourneySink, Int) -> Void,
    progress: (@Sendable (RunProgress) -> Void)? = nil
  ) throws(EngineError) -> RunResult {
    try run(
      world, policies: policies, options: options, makeSink: makeSink,
      finishSink: finishJourneys, progress: progress)
  }
}
