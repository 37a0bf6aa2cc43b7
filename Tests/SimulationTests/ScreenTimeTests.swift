import MessageDeferral
import Testing

@testable import Simulation

/// Time on each screen (``Tally/screenMilliseconds``) against closed forms.
@Suite("Time on screen")
struct ScreenTimeTests {
  /// Every open a cold launch (termination 1), no messages: each visit lasts its dwell, so
  /// time per visit estimates the mean dwell (30 s, exponential), within 4.5 standard errors,
  /// and the fixed 2 s splash gets exactly 2 s a visit (whole milliseconds).
  @Test func timePerVisitIsTheMeanDwell() throws {
    var scenario = Fixtures.base(
      screens: [
        Screen(name: "splash", kind: .launch, dwell: .fixed(2), transitions: []),
        Screen(
          name: "home", kind: .home, dwell: .exponential(mean: 30),
          transitions: [Fixtures.transition(.background, 1)]),
      ],
      entries: Entries(coldLaunch: 0, newUser: 1, returning: 1), horizon: 20 * 86_400,
      gap: .exponential(mean: 3600))
    scenario.sessions.backgroundTerminationProbability = 1
    let tally = try Engine.run(
      CompiledScenario(scenario), policies: scenario.policies,
      options: RunOptions(users: 500, replications: 1, seed: 2, jobs: 2)
    ).tallies[0][0]
    let visits = Double(tally.screenVisits[1])
    // A visit cut by the horizon is counted with its time so far: at most one per user.
    let splashVisits = tally.screenVisits[0]
    #expect(abs(tally.screenMilliseconds[0] - Int64(splashVisits) * 2000) <= 2000 * 500)
    let mean = Double(tally.screenMilliseconds[1]) / 1000 / visits
    let tolerance = 4.5 * 30 / visits.squareRoot() + 30 * 500 / visits
    #expect(abs(mean - 30) < tolerance, "time per visit \(mean) s over \(visits) visits")
    // Foreground time is the sum over screens (each session rounded to whole seconds there).
    let screens = Double(tally.screenMilliseconds.reduce(0, +)) / 1000
    #expect(abs(screens - Double(tally.simulatedSeconds)) <= 0.5 * (visits + 500))
  }
}
