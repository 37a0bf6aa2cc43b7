import MessageDeferral
import Simulation

/// The posterior predictive check of a fit: the fitted scenario simulated, its screen views
/// cut into sessions exactly as the log was, and the same journey statistics counted.
///
/// Fitting says what is simulated and how it is counted (``Simulated``); Experiments runs it
/// (`PredictiveCheck.simulate`, `Sources/Experiments/Fit/PredictiveCheck+Run.swift`), as it
/// runs every simulation.
public enum PredictiveCheck {
  /// How many users the check simulates for a log of `users`: ten times as many (so that
  /// the simulation's own noise is small beside the log's), from 1,000 to 20,000.
  public static func simulatedUsers(forLogOf users: Int) -> Int {
    min(20_000, max(1000, users * 10))
  }

  /// What the check simulates of a fitted `scenario` and how it counts it: one replication
  /// under the `never` policy (so no sheet changes a journey), each work item's users fed to
  /// a ``_JourneySink`` and counted as the log was. Users who never open the app in the
  /// horizon are not counted, as a log cannot see them. The simulated log is cut into
  /// sessions as `like`'s was (`map`'s timeout, named sessions, session-end events), its
  /// times start at `windowStart` (for hours of day, with the map's `utc_offset`), and
  /// without a splash in the log the fitted scenario's splash is left out.
  package struct Simulated: Sendable {
    /// The one policy simulated.
    package let policy: NamedPolicy
    let map: FitMap
    let namedSessions: Bool
    let sessionEnds: Bool
    let activityAtBackground: Bool
    let dropsLaunchViews: Bool
    let windowStart: Double
    let windowEnd: Double

    package init(
      _ scenario: Scenario, like observed: FitObservations, map fitMap: FitMap,
      windowStart: Double
    ) {
      var timedMap = FitMap.forEventsLog(of: scenario, policy: "never")
      timedMap.sessionTimeout = fitMap.sessionTimeout
      timedMap.utcOffset = fitMap.utcOffset
      map = timedMap
      namedSessions = observed.namedSessions
      sessionEnds = observed.markedSessionEnds
      activityAtBackground = observed.activityAfterScreens
      dropsLaunchViews = !fitMap.screens.contains { $0.kind == .launch }
      policy = NamedPolicy(
        name: "never", configuration: PolicyCatalog.preset(named: "never")!.configuration)
      self.windowStart = windowStart
      windowEnd = scenario.horizon + windowStart
    }

    /// A work item's sink (a fresh one for each).
    package func makeSink() -> _JourneySink {
      var sink = _JourneySink(
        map: map, namedSessions: namedSessions, sessionEnds: sessionEnds, offset: windowStart)
      sink.activityAtBackground = activityAtBackground
      sink.builder.dropsLaunchViews = dropsLaunchViews
      return sink
    }

    /// The journey statistics of a work item's users, to be merged over the items.
    package func journeys(of sink: inout _JourneySink) -> JourneyStats {
      sink.builder.finish(windowStart: windowStart, windowEnd: windowEnd).journeys
    }
  }
}

/// Feeds a simulated user's journey steps to a session builder, as `events.csv` rows would.
package struct _JourneySink: SimulationSink {
  var builder: _SessionBuilder
  let namedSessions: Bool
  let sessionEnds: Bool
  /// Added to every simulated time (the log's window start).
  let offset: Double
  /// Whether a backgrounding is logged as an ordinary event (when the log's sessions end so).
  var activityAtBackground = false
  var user = ""
  var session = 0

  init(map: FitMap, namedSessions: Bool, sessionEnds: Bool, offset: Double = 0) {
    builder = _SessionBuilder(map: map)
    self.namedSessions = namedSessions
    self.sessionEnds = sessionEnds
    self.offset = offset
  }

  package static var recordsSteps: Bool { false }
  package static var recordsOutcomes: Bool { false }
  package static var recordsJourney: Bool { true }

  package mutating func begin(replication: Int, user: Int, policy: Int) {
    self.user = "\(replication)/\(user)"
    session = 0
  }

  package mutating func step(_ step: TraceStep) {
    var kind = _LogEvent.Kind.screenView
    switch step.what {
    case .coldLaunch:
      session += 1
      return
    case .warmResume: session += 1
    case .screenAppeared: break
    case .background:
      guard sessionEnds || activityAtBackground else { return }
      kind = sessionEnds ? .sessionEnd : .other
    default: return
    }
    guard step.screen >= 0 else { return }
    let event = _LogEvent(
      user: user, time: step.time + offset, kind: kind,
      screen: kind == .screenView ? step.screen : -1,
      session: namedSessions ? String(session) : nil)
    try? builder.add(event, file: "", line: 0)
  }

  package mutating func outcome(
    _ outcome: MessageOutcome, policy: Int, replication: Int, user: Int
  ) {}
}
