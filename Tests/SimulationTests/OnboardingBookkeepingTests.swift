import MessageDeferral
import Testing

@testable import Simulation

/// Onboarding runs through terminations, warm resumes and churn, against exact counts and
/// closed forms (z = 4.5, standard deviations from the model).
///
/// The world: new users only, no messages. Splash → intro (onboarding, 1 s), which leads home
/// with probability 1 − p or to the background with probability p; home lasts past the
/// horizon. In the background the process is terminated with probability τ (the run is
/// abandoned: the next launch starts a new one), then the user never returns with
/// probability c; otherwise they come back 1 s later: to the same run after a warm resume,
/// to a new run after a termination.
@Suite("Onboarding runs against closed forms")
struct OnboardingBookkeepingTests {
  static let z = 4.5
  static let users = 20_000

  static func world(p: Double, tau: Double, churn: Double) -> Scenario {
    var scenario = Fixtures.base(
      screens: [
        Screen(name: "splash", kind: .launch, dwell: .fixed(0.5), transitions: []),
        Screen(
          name: "intro", kind: .onboarding, dwell: .fixed(1),
          transitions: [
            Fixtures.transition(.screen(2), 1 - p), Fixtures.transition(.background, p),
          ]
        ),
        Screen(
          name: "home", kind: .home, dwell: .fixed(1e12),
          transitions: [Fixtures.transition(.background, 1)]),
      ],
      entries: Entries(coldLaunch: 0, newUser: 1, returning: 2), horizon: 1e6, gap: .fixed(1),
      newUserShare: 1)
    scenario.sessions.backgroundTerminationProbability = tau
    scenario.onboarding.neverReturnAfterLeavingProbability = churn
    return scenario
  }

  static let cases: [(p: Double, tau: Double, churn: Double)] = [
    (0.5, 0.5, 0.2), (0.6, 1, 0), (0.4, 0, 0.3),
  ]

  /// Each stay on intro ends in the background with probability p, and the user comes back
  /// with probability 1 − c: the number K of returns is geometric with q = p(1 − c),
  /// P(K = k) = q^k (1 − q), and a user completes unless the last departure was churn:
  /// P(complete) = (1 − p) / (1 − q). Runs started: 1 + Binomial(K, τ).
  @Test(arguments: cases)
  func runsRestartAfterTerminationOnly(p: Double, tau: Double, churn: Double) throws {
    let scenario = Self.world(p: p, tau: tau, churn: churn)
    let tally = try Engine.run(
      CompiledScenario(scenario), policies: scenario.policies,
      options: RunOptions(users: Self.users, replications: 1, seed: 31, jobs: 2)
    ).tallies[0][0]
    let n = Double(Self.users)

    // Exact bookkeeping: every user starts once; every run starts with a cold launch onto
    // intro (a warm resume continues the run without a new visit); a user completes once.
    #expect(tally.newUsersOnboarding == Self.users)
    #expect(tally.screenVisits[0] == tally.onboardingRunsStarted, "one launch per run")
    #expect(tally.screenVisits[1] == tally.onboardingRunsStarted, "one intro visit per run")
    #expect(tally.onboardingRunsCompleted == tally.newUsersCompleted)
    #expect(tally.screenVisits[2] == tally.newUsersCompleted)
    #expect(tally.onboardingRunsInterrupted == 0)

    let q = p * (1 - churn)
    let complete = (1 - p) / (1 - q)
    let completedTolerance = Self.z * (n * complete * (1 - complete)).squareRoot()
    #expect(
      abs(Double(tally.newUsersCompleted) - n * complete) <= completedTolerance,
      "completed \(tally.newUsersCompleted), expected \(n * complete) ± \(completedTolerance)")

    let meanK = q / (1 - q)
    let varianceK = q / ((1 - q) * (1 - q))
    let meanRuns = 1 + tau * meanK
    let varianceRuns = meanK * tau * (1 - tau) + tau * tau * varianceK
    let runsTolerance = Self.z * (n * varianceRuns).squareRoot()
    #expect(
      abs(Double(tally.onboardingRunsStarted) - n * meanRuns) <= runsTolerance,
      "runs \(tally.onboardingRunsStarted), expected \(n * meanRuns) ± \(runsTolerance)")
    if tau == 0 { #expect(tally.onboardingRunsStarted == Self.users, "no termination") }
    if churn == 0 { #expect(tally.newUsersCompleted == Self.users, "nobody churns") }
  }
}
