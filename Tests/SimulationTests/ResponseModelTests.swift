import Foundation
import MessageDeferral
import Testing

@testable import Simulation

/// What users do with a sheet (``ResponseModel``, #31) against closed forms: the logistic form
/// itself, acceptance by the screen under the sheet, renewals kept, and that a run without a
/// response model draws nothing and counts nothing.
@Suite("Responses by moment")
struct ResponseModelTests {
  static let z = 4.5

  /// |observed − p| within z standard errors of a binomial share of n.
  static func close(_ count: Int, of n: Int, to p: Double) -> Bool {
    guard n > 0 else { return false }
    let spread = z * (p * (1 - p) / Double(n)).squareRoot()
    return abs(Double(count) / Double(n) - p) <= max(spread, 1e-12)
  }

  @Test func logisticFormMultipliesTheOdds() {
    var chance = ResponseModel.Chance(probability: 0.5)
    chance.odds.interrupting = 0.5
    chance.odds.firstSeconds = 2
    chance.odds.perDayWaited = 0.9
    chance.odds.screenKinds[ScreenKind.paywall.index] = 3
    func p(_ kind: ScreenKind, early: Bool, days: Double, strength: Double = 1) -> Double {
      chance.probability(kind: kind, early: early, waitedDays: days, strength: strength)
    }
    // A calm screen, not early, shown at delivery: the reference probability.
    #expect(p(.home, early: false, days: 0) == 0.5)
    // Onboarding: odds 1 × 0.5 → 1/3. Early over onboarding: 0.5 × 2 = 1 → 1/2.
    #expect(abs(p(.onboarding, early: false, days: 0) - 1.0 / 3) < 1e-12)
    #expect(abs(p(.onboarding, early: true, days: 0) - 0.5) < 1e-12)
    // Two days held: odds 0.81 → 0.81 / 1.81.
    #expect(abs(p(.home, early: false, days: 2) - 0.81 / 1.81) < 1e-12)
    // Paywall (interruptible): odds 3 × 0.5 = 1.5 → 0.6; strength 2 squares it: 2.25 → 2.25/3.25.
    #expect(abs(p(.paywall, early: false, days: 0) - 0.6) < 1e-12)
    #expect(abs(p(.paywall, early: false, days: 0, strength: 2) - 2.25 / 3.25) < 1e-12)
    // Strength 0: no effect of the moment.
    #expect(p(.paywall, early: true, days: 5, strength: 0) == 0.5)
    // 0 and 1 stay 0 and 1 whatever the odds.
    for probability in [0.0, 1.0] {
      chance.probability = probability
      #expect(p(.onboarding, early: true, days: 3) == probability)
    }
  }

  @Test func consentOutcomesPartitionTheDraw() {
    var model = ResponseModel(
      consentChoice: .init(probability: 0.8), consentAccept: .init(probability: 0.75),
      billingFixed: .init(probability: 0.4), winBackRedeemed: .init(probability: 0.1))
    model.momentStrength = 1
    func consent(_ u: Double) -> SheetResponse {
      model.response(to: .priceIncreaseConsent, u: u, kind: .home, early: false, waitedDays: 0)
    }
    // accepted [0, 0.6), declined [0.6, 0.8), closed [0.8, 1).
    #expect(consent(0.59) == .accepted)
    #expect(consent(0.61) == .declined)
    #expect(consent(0.79) == .declined)
    #expect(consent(0.81) == .closed)
    #expect(
      model.response(to: .billingIssue, u: 0.39, kind: .home, early: false, waitedDays: 0)
        == .fixed)
    #expect(
      model.response(to: .winBackOffer, u: 0.11, kind: .home, early: false, waitedDays: 0)
        == .notRedeemed)
    #expect(
      model.response(to: .generic, u: 0.99, kind: .home, early: false, waitedDays: 0) == .seen)
  }

  /// Existing subscribers opening the app as a Poisson process, each with one consent: the
  /// odds of a choice depend only on the screen kind (launch 0.25, home 2; base 0.5), and a
  /// chooser accepts with 0.75. So over the launch screen P(accepted) = 0.2 × 0.75, over home
  /// 2/3 × 0.75, declined and closed the rest, by screen, whichever policy put it there.
  static func twoScreenWorld(users: Int) -> (Scenario, ResponseModel) {
    let nu = 1.0 / 3600
    var scenario = Fixtures.latencyToNextOpen(nu: nu, window: 3600)
    scenario.policies = [Fixtures.policy("storekit-auto"), Fixtures.policy("screen-gate")]
    scenario.baseline = "storekit-auto"
    // Deadlines well inside the horizon and far after the display (P(late) = e^-20).
    scenario.messages.consent?.deadline = .fixed(20 / nu)
    scenario.users = users
    var choice = ResponseModel.Chance(probability: 0.5)
    choice.odds.screenKinds[ScreenKind.launch.index] = 0.25
    choice.odds.screenKinds[ScreenKind.home.index] = 2
    let model = ResponseModel(
      consentChoice: choice, consentAccept: .init(probability: 0.75),
      billingFixed: .init(probability: 0.4), winBackRedeemed: .init(probability: 0.1))
    scenario.responses = model
    return (scenario, model)
  }

  @Test func acceptanceByScreenKindMatchesTheClosedForm() throws {
    let users = 16_000
    let (scenario, _) = Self.twoScreenWorld(users: users)
    let result = try Engine.run(
      CompiledScenario(scenario), policies: scenario.policies,
      options: RunOptions(users: users, replications: 1, seed: 31, jobs: 2))
    let expected = [0.25 / 1.25, 2.0 / 3]  // P(choice) over splash (launch) and home.
    var shownOverEach = [0, 0]
    for (policy, tally) in result.tallies[0].enumerated() {
      let consent = tally.displayed[.priceIncreaseConsent]
      #expect(consent == tally.screenConsentShown.reduce(0, +), "policy \(policy)")
      #expect(tally.consentAccepted + tally.consentDeclined + tally.consentClosed == consent)
      for screen in 0..<2 {
        let shown = tally.screenConsentShown[screen]
        shownOverEach[screen] += shown
        guard shown >= 200 else { continue }
        let accepted = tally.screenConsentAccepted[screen]
        #expect(
          Self.close(accepted, of: shown, to: expected[screen] * 0.75),
          "policy \(policy) screen \(screen): \(accepted) of \(shown) accepted")
      }
      // Declined and closed over all screens: their mixture by where each sheet was shown.
      let shownSplash = Double(tally.screenConsentShown[0])
      let shownHome = Double(tally.screenConsentShown[1])
      let closedShare =
        (shownSplash * (1 - expected[0]) + shownHome * (1 - expected[1]))
        / max(1, shownSplash + shownHome)
      #expect(
        Self.close(tally.consentClosed, of: consent, to: closedShare),
        "policy \(policy): \(tally.consentClosed) of \(consent) closed")
      // No outside channel (no expiry): a renewal is kept exactly when accepted in time.
      #expect(tally.consentDeadlinesDue == tally.issued[.priceIncreaseConsent])
      #expect(tally.consentKept == tally.consentAccepted, "policy \(policy)")
      #expect(tally.consentKeptOutside == 0)
    }
    // storekit-auto shows at the launch screen, screen-gate at home: both screens are seen.
    #expect(shownOverEach[0] >= 200 && shownOverEach[1] >= 200, "\(shownOverEach)")
  }

  /// The same users meet both policies: each message's draw is fixed at issuance, so a policy
  /// that moves every sheet from the launch screen to home (a better moment here) turns no
  /// acceptance into a refusal.
  @Test func aBetterMomentNeverTurnsAnAcceptanceIntoARefusal() throws {
    let (scenario, _) = Self.twoScreenWorld(users: 300)
    let world = CompiledScenario(scenario)
    var improved = 0
    for user in 0..<300 {
      let lives = scenario.policies.map { policy in
        Engine.trace(world, policy: policy.configuration, seed: 31, replication: 0, user: user)
      }
      let byPolicy = lives.map { life in
        life.outcomes.filter { $0.reason == .priceIncreaseConsent }.map(\.response)
      }
      let kinds = lives.map { life in
        life.outcomes.filter { $0.reason == .priceIncreaseConsent }.map(\.screen)
      }
      guard byPolicy[0].count == byPolicy[1].count else { continue }
      for (index, response) in byPolicy[0].enumerated()
      where kinds[0][index] == 0 && kinds[1][index] == 1 {
        // Over the launch screen under storekit-auto, over home under screen-gate.
        if response == .accepted { #expect(byPolicy[1][index] == .accepted, "user \(user)") }
        if response != .accepted, byPolicy[1][index] == .accepted { improved += 1 }
      }
    }
    #expect(improved > 0)
  }

  /// The outside channel: with the consent's expiry as the time the subscriber agrees outside
  /// the app, a closed sheet keeps its renewal when that time comes by the deadline, unless
  /// `after_close` says the renewal is lost.
  @Test func aClosedConsentIsKeptOutsideTheAppUnlessAfterCloseSaysLost() throws {
    var (scenario, model) = Self.twoScreenWorld(users: 2_000)
    scenario.policies = [Fixtures.policy("screen-gate")]
    scenario.baseline = "screen-gate"
    // Outside consent long after the display (mean 2 hours after issuance, deadline 20 hours).
    scenario.messages.consent?.expiry = .exponential(mean: 7_200)
    func run(_ afterClose: ResponseModel.AfterClose) throws -> Tally {
      var copy = scenario
      var changed = model
      changed.afterClose = afterClose
      copy.responses = changed
      return try Engine.run(
        CompiledScenario(copy), policies: copy.policies,
        options: RunOptions(users: 2_000, replications: 1, seed: 5, jobs: 1)
      ).tallies[0][0]
    }
    let open = try run(.outsideChannel)
    let lost = try run(.renewalLost)
    // The same lives: only the accounting of closes differs.
    #expect(open.consentClosed == lost.consentClosed)
    #expect(open.consentClosed > 100)
    // Every renewal not declined is kept with the outside channel: accepted, closed (agreed
    // outside by the deadline: P(T > 20 h) = e^-10), or expired before its sheet.
    let due = open.consentDeadlinesDue
    #expect(open.consentKept + open.consentDeclined >= due - 5)
    #expect(open.consentKept - lost.consentKept <= open.consentClosed)
    #expect(open.consentKept - lost.consentKept >= open.consentClosed - 5)
    #expect(lost.consentKept == lost.consentAccepted + lost.expired[.priceIncreaseConsent])
  }

  @Test func withoutAResponseModelNothingIsDrawnOrCounted() throws {
    var (scenario, _) = Self.twoScreenWorld(users: 500)
    scenario.responses = nil
    let run = try Engine.run(
      CompiledScenario(scenario), policies: scenario.policies,
      options: RunOptions(users: 500, replications: 1, seed: 3, jobs: 1, countsVariates: true))
    for tally in run.tallies[0] {
      #expect(tally.consentAccepted + tally.consentDeclined + tally.consentClosed == 0)
      #expect(tally.consentKept == 0 && tally.billingRecovered == 0)
      #expect(tally.screenConsentShown.allSatisfy { $0 == 0 })
    }
    // The same users with the model draw one uniform per message more, and nothing else moves
    // (the response stream is its own).
    var withModel = scenario
    withModel.responses = Self.twoScreenWorld(users: 500).1
    let modelled = try Engine.run(
      CompiledScenario(withModel), policies: withModel.policies,
      options: RunOptions(users: 500, replications: 1, seed: 3, jobs: 1, countsVariates: true))
    for (plain, with) in zip(run.tallies[0], modelled.tallies[0]) {
      #expect(plain.displayed == with.displayed)
      #expect(plain.screenInterrupted == with.screenInterrupted)
      #expect(plain.latency == with.latency)
      #expect(plain.consentDeadlineMisses == with.consentDeadlineMisses)
    }
    let drawn = { (run: RunResult) -> Int in
      run.tallies[0].map { $0.variates.counts.reduce(0, +) }.reduce(0, +)
    }
    let issued: Int = modelled.tallies[0][0].issued.reduce(0, +)
    // One uniform per message, counted once per life whichever policy holds it.
    #expect(drawn(modelled) - drawn(run) == issued, "\(drawn(modelled)) vs \(drawn(run))")
  }

  /// A scenario with `responses` (the given text as the section's value).
  static func withResponses(_ section: String) -> String {
    ScenarioTemplates.minimal(replacing: [
      (
        #""policies": ["storekit-auto", "deadline-aware"]"#,
        #""responses": "# + section + #", "policies": ["storekit-auto", "deadline-aware"]"#
      )
    ])
  }

  static let valid = #"""
    {"price_increase_consent": {"choice": {"probability": 0.8, "odds": {"interrupting": 0.5,
      "screen_kinds": {"paywall": 0.7}}}, "accept": {"probability": 0.9}},
     "billing_issue": {"fixed": {"probability": 0.4}},
     "win_back_offer": {"redeemed": {"probability": 0.1, "odds": {"per_day_waited": 0.9}}},
     "first_seconds": "15s", "moment_strength": 0.5, "after_close": "renewal_lost"}
    """#

  @Test func aSectionLoadsWithEveryKey() throws {
    let scenario = try ScenarioLoader.load(json: Self.withResponses(Self.valid), file: "r.json")
    let model = try #require(scenario.responses)
    #expect(model.consentChoice.probability == 0.8)
    #expect(model.consentChoice.odds.interrupting == 0.5)
    #expect(model.consentChoice.odds.screenKinds[ScreenKind.paywall.index] == 0.7)
    #expect(model.winBackRedeemed.odds.perDayWaited == 0.9)
    #expect(model.firstSeconds == 15 && model.momentStrength == 0.5)
    #expect(model.afterClose == .renewalLost)
  }

  @Test(arguments: [
    (
      "\"probability\": 0.8, \"odds\"", "\"probability\": 1.5, \"odds\"",
      "$.responses.price_increase_consent.choice.probability", "between 0 and 1"
    ),
    ("\"interrupting\": 0.5", "\"interrupting\": 0", "odds.interrupting", "odds ratio above 0"),
    ("\"interrupting\": 0.5", "\"interupting\": 0.5", "odds.interupting", "did you mean"),
    ("\"paywall\": 0.7", "\"payroll\": 0.7", "screen_kinds.payroll", "unknown key"),
    ("\"renewal_lost\"", "\"renewal_lose\"", "$.responses.after_close", "did you mean"),
    ("\"moment_strength\": 0.5", "\"moment_strength\": -1", "moment_strength", "from 0 to 100"),
    (
      "\"billing_issue\": {\"fixed\": {\"probability\": 0.4}},", "",
      "$.responses", "missing key 'billing_issue'"
    ),
  ])
  func badSectionsAreNamedByPath(_ edit: (String, String, String, String)) throws {
    let (old, new, path, words) = edit
    #expect(Self.valid.contains(old), "fragment \(old)")
    let text = Self.withResponses(Self.valid.replacingOccurrences(of: old, with: new))
    let errors = try #require(ScenarioTemplates.errors(of: text))
    let problem = errors.problems.first { $0.path.contains(path) }
    #expect(problem?.message.contains(words) == true, "\(errors.problems)")
  }
}
