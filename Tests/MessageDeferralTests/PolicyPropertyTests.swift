import Foundation
import MessageDeferral
import Testing

/// Properties of every preset over thousands of seeded random lives (``PolicyDriver``), 500
/// per preset by default. A failure prints the seed; `PolicyDriver(preset:seed:)` with it
/// replays the life exactly.
///
/// Checked after every event (see ``PolicyDriver``): timers are asked for in the future
/// only; only queued messages, as issued, are displayed; no display without an active scene
/// where the policy checks for one; RevenueCat never displays an unknown reason; the
/// screen-gate policies display unforced only with the article's `canPresent` true (and
/// plain screen-gate never forces); both deadline-aware versions display unforced only on
/// home, settings or content, at most one per break; a sequential batch has one display in flight; FIFO in
/// arrival order for arrival-ordered presets; conservation: every message delivered to the
/// process and not displayed is queued (except after a call of `revenuecat-manual-legacy`,
/// which empties the queue), every other one is awaiting redelivery. And:
/// - a policy that removes displayed messages displays each at most once when it
///   de-duplicates, and at most once per extra copy delivered while one was queued when it
///   does not (the article's array and OpenIAP queue a redelivered message twice);
///   `revenuecat-manual-legacy`, which removes nothing on success, is excluded;
/// - replaying the same events into a new coordinator gives identical answers.
///
/// Each life ends with a relaunch that redelivers everything not displayed, then two phases
/// with every display succeeding. What holds after each, per preset:
///
/// | preset | immersive screen, timers only | then home, again and again |
/// | --- | --- | --- |
/// | storekit-auto | all displayed (at activation) | all displayed |
/// | screen-gate | nothing displayed | all displayed |
/// | screen-gate-ceiling | every consent displayed (forced at 12 h) | all displayed |
/// | adapty-manual | nothing displayed | all displayed |
/// | revenuecat-manual | nothing displayed | all but unknown reasons displayed |
/// | revenuecat-manual-legacy | nothing displayed | all but unknown and win-back displayed |
/// | openiap | all displayed (retry timer, one at a time) | all displayed |
/// | never | nothing displayed | nothing ever displayed, all still queued |
/// | deadline-aware, deadline-aware-value | all displayed (urgent consent, or forced at ceiling + grace) | all displayed |
/// | deadline-aware-v1, deadline-blind | all displayed (forced at ceiling + grace) | all displayed |
@Suite("Policy properties over random lives")
struct PolicyPropertyTests {
  /// Random lives per preset: 500 by default, so the suite stays fast in a debug build (an
  /// event costs the coordinator and the checks about 15 µs there); set
  /// `MESSAGE_DEFERRAL_LIVES` for a soak, e.g. `MESSAGE_DEFERRAL_LIVES=20000 swift test
  /// --filter PolicyPropertyTests`.
  static let lives: UInt64 = {
    if let text = ProcessInfo.processInfo.environment["MESSAGE_DEFERRAL_LIVES"],
      let count = UInt64(text), count > 0
    {
      return count
    }
    return 500
  }()
  /// Random steps per life, before the two closing phases: 10 to 60.
  static let stepsPerLife = 10..<61
  /// Lives whose events are replayed for determinism.
  static let replayEvery: UInt64 = 8

  /// Totals over all lives of one preset, to show the lives reach the interesting cases.
  struct Coverage {
    var issued = 0
    var displays = 0
    var forced = 0
    var lost = 0
    var duplicatesIgnored = 0
    var refused = 0
  }

  @Test(arguments: PolicyCatalog.presetNames)
  func randomLives(name: String) throws {
    let preset = try #require(PolicyCatalog.preset(named: name))
    var coverage = Coverage()
    for seed in 0..<Self.lives {
      var driver = PolicyDriver(preset: preset, seed: seed)
      driver.recordsLog = seed % Self.replayEvery == 0
      for _ in 0..<driver.randomLength(in: Self.stepsPerLife) { driver.step() }
      let shownOnImmersive = driver.finishOnAnImmersiveScreen()
      var problems = Self.afterTheImmersivePhase(driver, shownOnImmersive: shownOnImmersive)
      driver.finishAtHome()
      problems = driver.problems + problems + Self.atTheEnd(driver)
      if driver.recordsLog, let difference = Self.replayDifference(driver) {
        problems.append(difference)
      }
      if !problems.isEmpty {
        Issue.record(Comment(rawValue: problems.joined(separator: "\n")))
        return
      }
      let counters = driver.coordinator.counters
      coverage.issued += driver.records.count
      coverage.displays += driver.displayCount
      coverage.forced += driver.forcedCount
      coverage.lost += counters.lostWithProcess
      coverage.duplicatesIgnored += counters.duplicatesIgnored
      coverage.refused += counters.refusedShowCalls
    }
    #expect(coverage.issued > 3 * Int(Self.lives) && coverage.lost > Int(Self.lives) / 10)
    switch name {
    case "never": #expect(coverage.displays == 0)
    case "screen-gate-ceiling", "deadline-aware", "deadline-aware-value", "deadline-aware-v1",
      "deadline-blind":
      #expect(coverage.forced > Int(Self.lives) / 10)
    case "adapty-manual": #expect(coverage.refused > 10 && coverage.duplicatesIgnored > 100)
    default: #expect(coverage.displays > 3 * Int(Self.lives) && coverage.forced == 0)
    }
  }

  /// After the immersive phase: who has shown what by timers alone.
  static func afterTheImmersivePhase(_ driver: PolicyDriver, shownOnImmersive: Int) -> [String] {
    let label = "seed \(driver.seed) \(driver.name) after the immersive phase"
    let left = driver.outstandingIDs
    switch driver.name {
    case "storekit-auto", "openiap", "deadline-aware", "deadline-aware-value", "deadline-aware-v1",
      "deadline-blind":
      // Shown at activation / by the retry timer / forced once past ceiling and grace.
      return left.isEmpty ? [] : ["\(label): \(left) never displayed"]
    case "screen-gate-ceiling":
      let consent = left.filter { driver.issued($0).reason == .priceIncreaseConsent }
      return consent.isEmpty ? [] : ["\(label): consent \(consent) not forced"]
    default:
      // screen-gate, adapty-manual, revenuecat-manual, never: nothing opens on this screen.
      return shownOnImmersive == 0 ? [] : ["\(label): \(shownOnImmersive) displays"]
    }
  }

  /// At the end, after the home rounds: everything is displayed, except what the system
  /// never shows.
  static func atTheEnd(_ driver: PolicyDriver) -> [String] {
    let label = "seed \(driver.seed) \(driver.name) at the end"
    let left = driver.outstandingIDs
    let queued = Set(driver.coordinator.pending.map(\.id))
    var problems: [String] = []
    if driver.name != "revenuecat-manual-legacy", !left.allSatisfy(queued.contains) {
      problems.append("\(label): \(left) not all queued")
    }
    switch driver.name {
    case "never":
      if driver.records.contains(where: { $0.successes > 0 }) {
        problems.append("\(label): something was displayed")
      }
      if left.count != driver.records.count { problems.append("\(label): not everything left") }
    case "revenuecat-manual":
      // Unknown reasons have no StoreMessageType: never shown. Everything else is.
      let known = left.filter { driver.issued($0).reason.isKnown }
      if !known.isEmpty { problems.append("\(label): \(known) of known reasons never displayed") }
    case "revenuecat-manual-legacy":
      // No type for unknown reasons or (before 5.6.0) win-back: never shown, dropped by the call.
      let typed = left.filter {
        PolicyConfiguration.revenueCatLegacyTypes.contains(driver.issued($0).reason)
      }
      if !typed.isEmpty { problems.append("\(label): \(typed) of known types never displayed") }
    default:
      if !left.isEmpty { problems.append("\(label): \(left) never displayed") }
    }
    return problems
  }

  /// The same events at the same times into a new coordinator: the same answers.
  static func replayDifference(_ driver: PolicyDriver) -> String? {
    var replay = Coordinator(configuration: driver.configuration)
    var actions = PolicyActions()
    for (index, step) in driver.log.enumerated() {
      replay.handle(step.event, at: step.time, into: &actions)
      if Answer(actions) != step.answer {
        return "seed \(driver.seed) \(driver.name): the replay differs at event \(index)"
      }
    }
    return nil
  }
}
