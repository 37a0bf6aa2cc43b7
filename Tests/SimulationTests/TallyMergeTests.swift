import Testing

@testable import Simulation

/// ``Tally/merge(_:)`` against hand-written tallies: every count adds, the longest break is
/// the larger of the two, and each histogram merges with its own kind (hold with hold).
@Suite("Tally merge against hand-written sums")
struct TallyMergeTests {
  static func tally(_ k: Int) -> Tally {
    var tally = Tally(screenCount: 2)
    tally.screenVisits = [10 * k, 20 * k]
    tally.screenInterrupted = [k, 2 * k]
    tally.onboardingRunsStarted = 30 + k
    tally.onboardingRunsCompleted = 20 + k
    tally.onboardingRunsInterrupted = 5 + k
    tally.newUsersOnboarding = 15 + k
    tally.newUsersCompleted = 12 + k
    tally.users = 100 * k
    tally.issued = PerReason(lanes: [1, 2, 3, 4, 5].map { $0 * k + 10 })
    tally.displayed = PerReason(lanes: [1, 2, 3, 4, 5].map { $0 * k })
    tally.expired = [k, 0, 1, 0, 2]
    tally.pending = PerReason(lanes: [9, 10, 11, 12, 13].map { $0 - k })
    for value in 1...k { tally.latency[0].record(Double(value) * 100) }
    for value in 1...k { tally.hold[0].record(Double(value)) }
    tally.latencySumMilliseconds = PerReason(lanes: [1000, 0, 0, 0, 7].map { Int64($0 * k) })
    tally.consentDeadlineMisses = k
    tally.consentDeadlinesDue = 3 * k
    tally.fallbackFired = 2 * k
    tally.displayAttempts = 40 * k
    tally.displayFailures = 4 * k
    tally.sheets = 7 * k
    tally.breaks = 3 * k
    tally.sheetsInBreaks = 6 * k
    tally.maxSheetsPerBreak = k == 2 ? 9 : 4
    tally.events = 1000 * k
    tally.simulatedSeconds = Int64(500 * k)
    return tally
  }

  @Test func everyFieldAddsAndTheLongestBreakIsTheMaximum() {
    var merged = Self.tally(2)
    merged.merge(Self.tally(3))
    #expect(merged.screenVisits == [50, 100])
    #expect(merged.screenInterrupted == [5, 10])
    #expect(merged.onboardingRunsStarted == 65 && merged.onboardingRunsCompleted == 45)
    #expect(merged.onboardingRunsInterrupted == 15)
    #expect(merged.newUsersOnboarding == 35 && merged.newUsersCompleted == 29)
    #expect(merged.users == 500)
    #expect(merged.issued == [25, 30, 35, 40, 45])
    #expect(merged.displayed == [5, 10, 15, 20, 25])
    #expect(merged.expired == [5, 0, 2, 0, 4])
    #expect(merged.pending == [13, 15, 17, 19, 21])
    #expect(merged.latencySumMilliseconds == [5000, 0, 0, 0, 35])
    #expect(merged.consentDeadlineMisses == 5 && merged.consentDeadlinesDue == 15)
    #expect(merged.fallbackFired == 10)
    #expect(merged.displayAttempts == 200 && merged.displayFailures == 20)
    #expect(merged.sheets == 35 && merged.breaks == 15 && merged.sheetsInBreaks == 30)
    #expect(merged.maxSheetsPerBreak == 9)
    #expect(merged.events == 5000 && merged.simulatedSeconds == 2500)
    // Latency: 100, 200 and 100, 200, 300; hold: 1, 2 and 1, 2, 3.
    #expect(merged.latency[0].count == 5 && merged.hold[0].count == 5)
    #expect(merged.latency[0].quantile(1) == 300 && merged.hold[0].quantile(1) == 3)
    #expect(merged.latency[0].quantile(0) == 100 && merged.hold[0].quantile(0) == 1)
    #expect(merged.latency[1].isEmpty && merged.hold[1].isEmpty)
  }

  @Test func mergeIsCommutative() {
    var ab = Self.tally(2)
    ab.merge(Self.tally(3))
    var ba = Self.tally(3)
    ba.merge(Self.tally(2))
    #expect(ab.maxSheetsPerBreak == ba.maxSheetsPerBreak && ab.issued == ba.issued)
    #expect(ab.hold[0].quantile(0.5) == ba.hold[0].quantile(0.5))
  }
}

/// Work items merge in item order whatever `jobs`: a histogram's `Double` sum, whose last bits
/// depend on the order of additions, comes out bit for bit the same, and so does a partial.
@Suite struct ItemOrderMergeTests {
  @Test(arguments: [false, true])
  func tallyIsBitIdenticalWhateverJobs(shard: Bool) throws {
    let scenario = try ScenarioLoader.load(
      json: ScenarioLoader.embeddedDefaultJSON, file: "indie-subscription.json")
    let world = CompiledScenario(scenario)
    func run(jobs: Int) throws -> RunResult {
      // Many small items per replication, so two workers finish them out of order.
      var options = RunOptions(
        users: 240, replications: 2, seed: 17, jobs: jobs, blockSize: 8,
        shard: shard ? (index: 1, count: 3) : nil)
      options.sharedTrunk = true
      return try Engine.run(world, policies: scenario.policies, options: options)
    }
    let one = try run(jobs: 1)
    let two = try run(jobs: 2)
    #expect(one.tallies == two.tallies)
    let sums = { (result: RunResult) in
      result.tallies.flatMap { $0.map { $0.latency[.priceIncreaseConsent].sum.bitPattern } }
    }
    #expect(sums(one) == sums(two))
    #expect(sums(one).contains { $0 != 0 }, "the run displayed no consent: nothing compared")
  }
}
