import Foundation
// A scripted day of one user of a meditation app, on the StoreKit shim, with the policy file
// `deferral-sim export-policy` wrote: what the shipped controller decides, line by line.
//
//   deferral-sim export-policy deadline-aware-value -o /tmp/recommended-policy.json
//   swift run ship-it-example /tmp/recommended-policy.json [--log /tmp/day.jsonl]
//
// --log writes what the app would send its analytics (screen views and one record per display
// attempt) as JSON lines in the generic schema `deferral-sim fit` reads, with fit-map.json.
//
// Without an argument it reads Examples/ship-it/recommended-policy.json.
import MessageDeferral
import MessageDeferralStoreKit
import StoreKitShim

@MainActor
func playDay(policyFile: String, logFile: String?) async -> Int32 {
  let store = ShimAppStore()
  return await ShimStoreKit.$appStore.withValue(store) {
    let policy = ShippedPolicy.load(path: policyFile)
    if let reason = policy.fallbackReason {
      print("policy file not used, StoreKit's default instead: \(reason)")
      return 1
    }
    print("policy \(policy.name) from \(policyFile)")
    if let provenance = policy.provenance {
      print(
        "  written by deferral-sim \(provenance.toolVersion) for scenario "
          + "\(provenance.scenario ?? "none"), seed \(provenance.seed ?? "none")")
    }
    // The day is 2026-01-01 (UTC), from 07:30; times are printed as the clock of that day.
    let day = 1_767_225_600.0
    let clock = ManualDeferralClock(now: day + 7.5 * 3_600)
    var logLines: [String] = []
    let controller = MessageDeferralController(
      policy: policy, storage: InMemoryDeferralStorage(), clock: clock)
    controller.log = { record in
      // What the app would send its analytics: screen views and message records.
      logLines.append(record.jsonLine(user: "example-user"))
      guard record.reason != nil else { return }
      var line = "  \(clockText(record.time))  \(record.event.rawValue)"
      line += " \(record.reason!.name) over \(record.screen ?? "no screen")"
      line += String(format: " after %.0f s", record.waitedSeconds ?? 0)
      if record.forced { line += " (forced)" }
      if let failure = record.failure { line += " [\(failure.rawValue)]" }
      print(line)
    }
    let scene = UIWindowScene(activationState: .foregroundInactive)
    var failures = 1
    scene.displayHandler = { _ in
      // The first attempt fails, as on an iPad with a second window in transition.
      if failures > 0 {
        failures -= 1
        throw ShimDisplayError.presentationFailed
      }
    }
    // The renewal the price increase applies to is in 5 days.
    controller.renewalDate = clock.now + 5 * 86_400

    @MainActor func at(_ hours: Double, _ say: String, _ action: @MainActor () -> Void) {
      clock.advance(to: day + hours * 3_600)
      print("\(clockText(clock.now))  \(say)")
      action()
    }
    @MainActor func deliver(_ hours: Double, _ reason: StoreKitMessage.Reason, _ id: Int) async {
      clock.advance(to: day + hours * 3_600)
      print(
        "\(clockText(clock.now))  StoreKit delivers \(id == 1 ? "a price-increase consent" : "a message")"
      )
      await store.send(StoreKitMessage(reason: reason, shimIdentity: id))
    }

    at(7.5, "launch: splash") { controller.screenAppeared(.launch, name: "splash") }
    at(7.5002, "scene active") {
      scene.activationState = .foregroundActive
      controller.sceneDidBecomeActive(scene)
    }
    controller.start()
    while !store.hasListener { await Task.yield() }
    at(7.5008, "screen: player (immersive)") {
      controller.screenAppeared(.immersive, name: "player")
    }
    await deliver(7.5010, .priceIncreaseConsent, 1)
    at(7.75, "screen: home") { controller.screenAppeared(.home, name: "home") }
    at(7.76, "screen: journal") { controller.screenAppeared(.content, name: "journal") }
    at(7.8, "background") {
      scene.activationState = .background
      controller.sceneDidEnterBackground()
    }
    at(21, "resume on journal; scene active") {
      scene.activationState = .foregroundActive
      controller.sceneDidBecomeActive(scene)
    }
    at(21.01, "screen: paywall") { controller.screenAppeared(.paywall, name: "paywall") }
    await deliver(21.011, .billingIssue, 2)
    at(21.05, "screen: checkout") { controller.screenAppeared(.checkout, name: "checkout") }
    at(21.07, "screen: home") { controller.screenAppeared(.home, name: "home") }
    at(21.1, "background") {
      scene.activationState = .background
      controller.sceneDidEnterBackground()
    }
    clock.advance(to: day + 24 * 3_600)
    store.endListening()
    print("end of day: \(controller.pendingCount) message(s) still held")
    if let logFile {
      let text = logLines.joined(separator: "\n") + "\n"
      guard FileManager.default.createFile(atPath: logFile, contents: Data(text.utf8)) else {
        print("cannot write \(logFile)")
        return 1
      }
      print("wrote \(logLines.count) log records to \(logFile) (the generic schema fit reads)")
    }
    return 0
  }
}

func clockText(_ seconds: Double) -> String {
  let total = Int(seconds.rounded())
  return String(format: "%02d:%02d:%02d", total / 3_600 % 24, total / 60 % 60, total % 60)
}

#if canImport(Glibc)
  import Glibc
#else
  import Darwin
#endif

// ship-it-example [POLICY_FILE] [--log FILE]
var arguments = Array(CommandLine.arguments.dropFirst())
var logFile: String?
if let index = arguments.firstIndex(of: "--log") {
  guard index + 1 < arguments.count else {
    print("usage: ship-it-example [POLICY_FILE] [--log FILE]")
    exit(2)
  }
  logFile = arguments[index + 1]
  arguments.removeSubrange(index...(index + 1))
}
let path =
  arguments.first
  ?? URL(fileURLWithPath: #filePath).deletingLastPathComponent()
  .appendingPathComponent("recommended-policy.json").path
exit(await playDay(policyFile: path, logFile: logFile))
