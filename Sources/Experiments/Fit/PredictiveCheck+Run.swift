import Fitting
import Simulation
import Synchronization

/// The fit's predictive check, run: Fitting says what to simulate and how to count it
/// (`PredictiveCheck.Simulated`), and the engine runs it here, where every simulation runs.
extension PredictiveCheck {
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
    let simulated = Simulated(scenario, like: observed, map: fitMap, windowStart: windowStart)
    let total = Mutex(JourneyStats())
    let options = RunOptions(users: users, replications: 1, seed: seed, jobs: 2)
    _ = try? Engine.run(
      world, policies: [simulated.policy], options: options,
      makeSink: { _ in simulated.makeSink() },
      finishSink: { sink, _ in
        let stats = simulated.journeys(of: &sink)
        total.withLock { $0.merge(stats) }
      })
    return total.withLock { $0 }
  }
}
