import MessageDeferral
import Simulation
import Testing

@testable import Reports

/// Small worlds of hand-written tallies whose value figures and verdicts are computed by hand
/// (in the comments), not by ``Metric``: a priced immersive cost, in the total and in the
/// recommendation it changes, and a close call whose paired interval straddles zero.
enum ValueVerdictWorld {
  /// Four screens; `buy` (a checkout) and `home` are interrupted too, so a total that took
  /// the immersive count from another screen or kind would differ.
  static let screens: [(name: String, kind: ScreenKind)] = [
    ("splash", .launch), ("player", .immersive), ("home", .home), ("buy", .checkout),
  ]
  /// Users per replication: every count is worth twice its amount per 1000 users.
  static let users = 500

  /// One replication of one policy: `completed` new users completed onboarding and `player`
  /// visits to the immersive screen had a sheet over them (home 3, buy `buy`).
  static func tally(completed: Int, player: Int, buy: Int = 2) -> Tally {
    var tally = Tally(screenCount: screens.count)
    tally.users = users
    tally.newUsersOnboarding = 50
    tally.newUsersCompleted = completed
    tally.screenVisits = [100, 40, 200, 10]
    tally.screenInterrupted = [0, player, 3, buy]
    return tally
  }

  /// `tallies[policy][replication]` under `value`, the first policy the baseline.
  static func report(
    _ names: [String], _ tallies: [[Tally]], value: ValueModel
  ) -> RunReport {
    var scenario = ScenarioLoader.embeddedDefault()
    // Without responses: these tests weigh the model of a consent shown as a renewal kept.
    scenario.responses = nil
    scenario.screens = screens.map {
      Screen(name: $0.name, kind: $0.kind, dwell: .fixed(1), transitions: [])
    }
    let policies = names.map { NamedPolicy(name: $0, configuration: PolicyConfiguration()) }
    scenario.policies = policies
    scenario.baseline = names[0]
    scenario.value = value
    let byReplication = tallies[0].indices.map { replication in
      tallies.map { $0[replication] }
    }
    return RunReport(
      scenario: scenario, result: RunResult(policies: policies, tallies: byReplication),
      baseline: names[0])
  }

  /// t(0.975, 2) in closed form: with 2 degrees of freedom F(t) = ½ + t / (2√(2 + t²)), so
  /// F(t) = 0.975 gives t = 0.95 √(2 / (1 − 0.95²)) = 4.302 65 (the printed tables' 4.303).
  static let t2 = 0.95 * (2 / (1 - 0.95 * 0.95)).squareRoot()

  /// Mean and 95% half-width of three paired differences, by the textbook formula.
  static func interval(_ d: [Double]) -> (mean: Double, half: Double) {
    let mean = d.reduce(0, +) / 3
    let variance = d.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / 2
    return (mean, t2 * (variance / 3).squareRoot())
  }

  static func row(_ decision: Decision, _ policy: String) -> Decision.Row? {
    decision.rows.first { $0.policy == policy }
  }
}

@Suite("Value and verdicts against hand-computed worlds")
struct ValueVerdictOracleTests {
  typealias World = ValueVerdictWorld

  /// `eager` completes more onboardings but shows sheets over the player; `gentle` hardly ever.
  ///
  /// | replication | eager: completed, player | gentle: completed, player |
  /// | --- | --- | --- |
  /// | 1 | 40, 10 | 38, 0 |
  /// | 2 | 43, 12 | 40, 1 |
  /// | 3 | 41, 11 | 39, 0 |
  static let names = ["eager", "gentle"]
  static let tallies = [
    [
      World.tally(completed: 40, player: 10), World.tally(completed: 43, player: 12),
      World.tally(completed: 41, player: 11),
    ],
    [
      World.tally(completed: 38, player: 0, buy: 5), World.tally(completed: 40, player: 1, buy: 5),
      World.tally(completed: 39, player: 0, buy: 5),
    ],
  ]

  /// Onboarding worth 10, a sheet over an immersive screen costing 4 (checkout unpriced, so
  /// `buy`'s sheets cost nothing): per 1000 users (× 2), eager's totals are
  /// 2 · (10 · 40 − 4 · 10) = 720, 2 · (430 − 48) = 764 and 2 · (410 − 44) = 732, its immersive
  /// part −80, −96, −88; gentle's totals 760, 2 · (400 − 4) = 792 and 780, its immersive part
  /// 0, −8, 0.
  @Test func aPricedImmersiveCostIsInTheTotal() throws {
    let report = World.report(
      Self.names, Self.tallies,
      value: ValueModel(unit: "USD", onboardingCompleted: 10, immersiveInterrupted: 4))
    let expected: [(total: [Double], immersive: [Double])] = [
      ([720, 764, 732], [-80, -96, -88]),
      ([760, 792, 780], [0, -8, 0]),
    ]
    for (policy, (total, immersive)) in expected.enumerated() {
      let name = Self.names[policy]
      let totals = report.values[policy][MetricID.valuePer1kUsers.index].map { $0 ?? .nan }
      let parts = report.values[policy][MetricID.valueImmersivePer1kUsers.index].map { $0 ?? .nan }
      for replication in 0..<3 {
        #expect(abs(totals[replication] - total[replication]) < 1e-9, "\(name) total \(totals)")
        #expect(abs(parts[replication] - immersive[replication]) < 1e-9, "\(name) part \(parts)")
      }
      let mean = try #require(report.interval(policy: policy, metric: .valuePer1kUsers)).mean
      #expect(abs(mean - total.reduce(0, +) / 3) < 1e-9, "\(name) mean \(mean)")
    }
    // summary.csv says the same: eager's mean 2216 / 3 = 738.667.
    let summary = report.summary.text.split(separator: "\n")
    let line = try #require(summary.first { $0.hasPrefix("eager,value_per_1k_users,") })
    let mean = try #require(Double(line.split(separator: ",")[2]))
    #expect(abs(mean - 2216.0 / 3) < 1e-6, "\(line)")
  }

  /// Unpriced, eager is worth more (gentle − eager = −40, −60, −40: mean −46.7 ± 28.7, shown
  /// worse); priced at 4 a sheet, gentle is (eager − gentle = −40, −28, −48: mean −38.7 ±
  /// 25.0, interval [−63.7, −13.7], shown worse). The cost sentence names the immersive part:
  /// gentle − eager = 80, 88, 88, mean +85.3 USD.
  @Test func aPricedImmersiveCostChangesTheRecommendation() throws {
    let unpriced = Decision(
      World.report(
        Self.names, Self.tallies, value: ValueModel(unit: "USD", onboardingCompleted: 10))
    )
    #expect(unpriced.rows.map(\.policy) == ["eager", "gentle"])
    #expect(unpriced.rows.map(\.verdict) == [.recommended, .worse])
    #expect(!unpriced.sentences.joined().contains("immersive screens"))

    let priced = Decision(
      World.report(
        Self.names, Self.tallies,
        value: ValueModel(unit: "USD", onboardingCompleted: 10, immersiveInterrupted: 4)))
    #expect(priced.rows.map(\.policy) == ["gentle", "eager"])
    #expect(priced.rows.map(\.verdict) == [.recommended, .worse])
    let eager = try #require(World.row(priced, "eager")?.differenceToBest)
    let (mean, half) = World.interval([-40, -28, -48])
    #expect(abs(eager.mean - mean) < 1e-9 && abs(mean + 116.0 / 3) < 1e-12)
    #expect(abs(eager.low - (mean - half)) < 1e-9, "\(eager)")
    #expect(abs(eager.high - (mean + half)) < 1e-9, "\(eager)")
    #expect(eager.high < 0)
    let text = priced.sentences.joined(separator: " ")
    #expect(text.hasPrefix("Recommendation: gentle, the highest expected value"), "\(text)")
    #expect(text.contains("immersive screens +85.3 USD"), "\(text)")
  }

  /// Three policies, onboarding worth 10 (× 2 per 1000 users):
  ///
  /// | replication | a | b | c |
  /// | --- | --- | --- | --- |
  /// | 1 | 40 → 800 | 42 → 840 | 30 → 600 |
  /// | 2 | 41 → 820 | 40 → 800 | 31 → 620 |
  /// | 3 | 42 → 840 | 39 → 780 | 33 → 660 |
  ///
  /// a is best (mean 820). b − a = 40, −20, −60: mean −13.3, s = 50.3, half-width
  /// 4.303 · 50.3 / √3 = 125.0, interval [−138.4, 111.7]: it contains 0, so b is
  /// indistinguishable from a although its mean is lower. c − a = −200, −200, −180: mean
  /// −193.3 ± 28.7, worse.
  @Test func aCloseCallIsIndistinguishableNotWorse() throws {
    let tallies = [[40, 41, 42], [42, 40, 39], [30, 31, 33]].map { completed in
      completed.map { World.tally(completed: $0, player: 0) }
    }
    let decision = Decision(
      World.report(
        ["a", "b", "c"], tallies, value: ValueModel(unit: "USD", onboardingCompleted: 10)))
    #expect(decision.rows.map(\.policy) == ["a", "b", "c"])
    #expect(decision.rows.map(\.rank) == [1, 2, 3])
    #expect(decision.rows.map(\.verdict) == [.recommended, .indistinguishable, .worse])
    let b = try #require(World.row(decision, "b")?.differenceToBest)
    let (mean, half) = World.interval([40, -20, -60])
    #expect(abs(b.mean - mean) < 1e-9 && abs(mean + 40.0 / 3) < 1e-12)
    #expect(abs(b.low - (mean - half)) < 1e-9 && abs(b.high - (mean + half)) < 1e-9, "\(b)")
    #expect(b.low < 0 && b.high > 0)
    let c = try #require(World.row(decision, "c")?.differenceToBest)
    #expect(c.high < 0, "\(c)")
    // What the user reads: the recommendation hedged, b named, decision.csv's verdicts.
    #expect(decision.sentences[0].contains("cannot separate it from b"), "\(decision.sentences)")
    #expect(decision.sentences.contains { $0.hasPrefix("a and b: indistinguishable here") })
    let verdicts = decision.table.text.split(separator: "\n").dropFirst().map {
      $0.split(separator: ",").map(String.init)[3]
    }
    #expect(verdicts == ["recommended", "indistinguishable", "worse"])
  }
}
