import MessageDeferral
import Testing

@testable import deferral_conformance

/// "The simulated policy is the shipped policy", fast tier: a few hundred simulated lives per
/// policy replayed through the shipped controller on the shim (scripted clock, scenes,
/// StoreKit deliveries and failures). The full 10,000 lives per policy run in a release build
/// (`.build/release/deferral-conformance`, a CI step).
@Suite("Conformance: simulated lives replayed through the shipped controller", .serialized)
struct ConformanceTests {
  static let lives = 200

  @Test("every display decision and its time match", arguments: Conformance.policies.map(\.name))
  @MainActor
  func replayMatches(policyName: String) async {
    let policy = Conformance.policies.first { $0.name == policyName }!
    let summary = await Conformance.check(policy, lives: Self.lives)
    #expect(summary.lives == Self.lives)
    #expect(summary.mismatches == 0, "\(summary.line)")
    // The replay compared something: deliveries, and (but for `never`) display decisions.
    #expect(summary.deliveries > Self.lives, "\(summary.line)")
    #expect(policyName == "never" || summary.decisions > Self.lives / 2, "\(summary.line)")
  }

  /// A broken adapter rule is caught: each fault makes some replayed lives differ (under a
  /// policy the rule matters to: the late listener to the SDK presets, the scene's activation
  /// to a policy that shows on delivery and retries when the scene becomes active).
  @Test(
    "a broken adapter rule makes lives differ",
    arguments: [
      (ReplayFault.listenerAtLaunch, "adapty-manual"), (.sceneActiveAtOpen, "storekit-auto"),
    ])
  @MainActor
  func brokenRuleIsCaught(fault: ReplayFault, policyName: String) async {
    let policy = Conformance.policies.first { $0.name == policyName }!
    let summary = await Conformance.check(policy, lives: Self.lives, fault: fault)
    #expect(summary.mismatches > 0, "\(fault): \(summary.line)")
  }
}
