import MessageDeferral
import Synchronization

/// The posterior predictive check of a fit: the fitted scenario simulated, its screen views
/// cut into sessions exactly as the log was, and the same journey statistics counted.
public enum PredictiveCheck {
  /// Simulates `users` users of `scenario` (one replication, under the `never` policy so no
  /// sheet changes a journey) and counts sessions per user, screens per session and paths.
  /// Users who never open the app in the horizon are not counted, as a log cannot see them.
  /// The simulated log is cut into sessions as `like`'s was: by named sessions or by `timeout`,
  /// with or without session-end events.
  public static func simulate(
    _ scenario: Scenario, users: Int, seed: UInt64, like observed: FitObservations,
    timeout: Double
  ) -> JourneyStats {
    let world = CompiledScenario(scenario)
    var timedMap = FitMap.forEventsLog(of: scenario, policy: "never")
    timedMap.sessionTimeout = timeout
    let map = timedMap
    let named = observed.namedSessions
    let ends = observed.markedSessionEnds
    let total = Mutex(JourneyStats())
    let policy = NamedPolicy(
      name: "never", configuration: PolicyCatalog.preset(named: "never")!.configuration)
    let options = RunOptions(users: users, replications: 1, seed: seed, jobs: 2)
    _ = try? Engine.run(
      world, policies: [policy], options: options,
      makeSink: { _ in _JourneySink(map: map, namedSessions: named, sessionEnds: ends) },
      finishSink: { sink, _ in
        let stats = sink.builder.finish(windowEnd: scenario.horizon).journeys
        total.withLock { $0.merge(stats) }
      })
    return total.withLock { $0 }
  }
}

/// Feeds a simulated user's journey steps to a session builder, as `events.csv` rows would.
struct _JourneySink: SimulationSink {
  var builder: _SessionBuilder
  let namedSessions: Bool
  let sessionEnds: Bool
  var user = ""
  var session = 0

  init(map: FitMap, namedSessions: Bool, sessionEnds: Bool) {
    builder = _SessionBuilder(map: map)
    self.namedSessions = namedSessions
    self.sessionEnds = sessionEnds
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
      guard sessionEnds else { return }
      kind = .sessionEnd
    default: return
    }
    guard step.screen >= 0 else { return }
    let event = _LogEvent(
      user: user, time: step.time, kind: kind, screen: kind == .screenView ? step.screen : -1,
      session: namedSessions ? String(session) : nil)
    try? builder.add(event, file: "", line: 0)
  }

  mutating func outcome(_ outcome: MessageOutcome, policy: Int, replication: Int, user: Int) {}
}
