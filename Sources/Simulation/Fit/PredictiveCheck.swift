import MessageDeferral
import Synchronization

/// The posterior predictive check of a fit: the fitted scenario simulated, its screen views
/// cut into sessions exactly as the log was, and the same journey statistics counted.
public enum PredictiveCheck {
  /// Simulates `users` users of `scenario` (one replication, under the `never` policy so no
  /// sheet changes a journey) and counts the journey statistics the log was counted for.
  /// Users who never open the app in the horizon are not counted, as a log cannot see them.
  /// The simulated log is cut into sessions as `like`'s was (`map`'s timeout, named sessions,
  /// session-end events), its times start at `windowStart` (for hours of day, with the map's
  /// `utc_offset`), and without a splash in the log the fitted scenario's splash is left out.
  public static func simulate(
    _ scenario: Scenario, users: Int, seed: UInt64, like observed: FitObservations,
    map fitMap: FitMap, windowStart: Double
  ) -> JourneyStats {
    let world = CompiledScenario(scenario)
    var timedMap = FitMap.forEventsLog(of: scenario, policy: "never")
    timedMap.sessionTimeout = fitMap.sessionTimeout
    timedMap.utcOffset = fitMap.utcOffset
    let map = timedMap
    let named = observed.namedSessions
    let ends = observed.markedSessionEnds
    let activity = observed.activityAfterScreens
    let dropsLaunch = !fitMap.screens.contains { $0.kind == .launch }
    let total = Mutex(JourneyStats())
    let policy = NamedPolicy(
      name: "never", configuration: PolicyCatalog.preset(named: "never")!.configuration)
    let options = RunOptions(users: users, replications: 1, seed: seed, jobs: 2)
    _ = try? Engine.run(
      world, policies: [policy], options: options,
      makeSink: { _ in
        var sink = _JourneySink(
          map: map, namedSessions: named, sessionEnds: ends, offset: windowStart)
        sink.activityAtBackground = activity
        sink.builder.dropsLaunchViews = dropsLaunch
        return sink
      },
      finishSink: { sink, _ in
        let stats = sink.builder.finish(windowEnd: scenario.horizon + windowStart).journeys
        total.withLock { $0.merge(stats) }
      })
    return total.withLock { $0 }
  }

  /// How many users the check simulates for a log of `users`: ten times as many (so that
  /// the simulation's own noise is small beside the log's), from 1,000 to 20,000.
  public static func simulatedUsers(forLogOf users: Int) -> Int {
    min(20_000, max(1000, users * 10))
  }
}

/// Feeds a simulated user's journey steps to a session builder, as `events.csv` rows would.
struct _JourneySink: SimulationSink {
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

  static var recordsSteps: Bool { false }
  static var recordsOutcomes: Bool { false }
  static var recordsJourney: Bool { true }

  mutating func begin(replication: Int, user: Int, policy: Int) {
    self.user = "\(replication)/\(user)"
    session = 0
  }

  mutating func step(_ step: TraceStep) {
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

  mutating func outcome(_ outcome: MessageOutcome, policy: Int, replication: Int, user: Int) {}
}
