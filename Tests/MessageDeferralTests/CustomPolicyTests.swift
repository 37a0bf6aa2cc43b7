import MessageDeferral
import Testing

/// Custom policies read from policy objects, and the keys no preset uses, run end to end.
@Suite("Custom policies")
struct CustomPolicyTests {
  /// Reads a policy object; fails the test on any issue.
  func read(_ members: [(String, ConfigValue)]) throws -> Harness {
    let policy = try PolicyCatalog.definition(from: policyObject("custom", members), at: "$").get()
    return Harness(policy.configuration)
  }

  @Test func aPresetWithABillingCeilingForcesBillingToo() throws {
    var policy = try read([
      ("preset", .string("screen-gate-ceiling")),
      ("ceilings", .object([.init(key: "billing_issue", value: .string("6h"))])),
    ])
    policy.startSession(at: 0, on: .immersive)
    #expect(policy.deliver(message(1, .billingIssue), at: 10) == Answer(wakeAt: 10 + 6 * hour))
    #expect(
      policy.deliver(message(2, .priceIncreaseConsent), at: 20) == Answer(wakeAt: 10 + 6 * hour))
    #expect(
      policy.timer(at: 10 + 6 * hour) == Answer(shown: [1], forced: [1], wakeAt: 20 + 12 * hour))
  }

  /// An unknown reason falls back to the generic ceiling.
  @Test func anUnknownReasonUsesTheGenericCeiling() throws {
    var policy = try read([
      ("preset", .string("screen-gate")),
      ("ceilings", .object([.init(key: "generic", value: .string("1h"))])),
    ])
    policy.startSession(at: 0, on: .onboarding)
    #expect(policy.deliver(message(1, .unknown(rawValue: 8)), at: 0) == Answer(wakeAt: hour))
    #expect(policy.timer(at: hour) == Answer(shown: [1], forced: [1]))
  }

  /// `priority`: consent lane, billing lane, then the rest; FIFO within each; a failure with
  /// `append_to_back` goes to the back of its own lane.
  @Test func priorityLanes() throws {
    var policy = try read([
      ("triggers", .array([.string("checkpoint")])), ("checkpoints", .array([.string("home")])),
      ("ordering", .string("priority")), ("on_failure", .string("append_to_back")),
    ])
    policy.startSession(at: 0, on: .onboarding)
    let arrivals: [(MessageID, Reason)] = [
      (1, .generic), (2, .billingIssue), (3, .priceIncreaseConsent), (4, .winBackOffer),
      (5, .priceIncreaseConsent), (6, .billingIssue),
    ]
    for (id, reason) in arrivals { policy.deliver(message(id, reason), at: Double(id)) }
    #expect(policy.pendingIDs == [3, 5, 2, 6, 1, 4])
    #expect(policy.screen(.home, at: 10) == Answer(shown: [3, 5, 2, 6, 1, 4]))
    policy.fail(3, at: 10)
    policy.fail(2, at: 10)
    for id: MessageID in [5, 6, 1, 4] { policy.succeed(id, at: 10) }
    #expect(policy.pendingIDs == [3, 2])
  }

  /// A per-reason exception to the gate: billing may show on settings-like screens only, here
  /// over a checkout the switch otherwise closes.
  @Test func gateOverrides() throws {
    var policy = try read([
      ("preset", .string("screen-gate")),
      (
        "gate_overrides",
        .array([
          .object([
            .init(key: "reason", value: .string("billing_issue")),
            .init(key: "kind", value: .string("checkout")),
            .init(key: "allowed", value: .bool(true)),
          ]),
          .object([
            .init(key: "reason", value: .string("generic")),
            .init(key: "kind", value: .string("home")), .init(key: "allowed", value: .bool(false)),
          ]),
        ])
      ),
    ])
    policy.startSession(at: 0, on: .checkout)
    #expect(policy.deliver(message(1, .billingIssue), at: 10) == Answer(shown: [1]))
    #expect(policy.deliver(message(2, .generic), at: 11) == .nothing)
    // Home opens the switch, but not for generic messages.
    #expect(policy.screen(.home, at: 20) == .nothing)
    #expect(policy.screen(.settings, at: 30) == Answer(shown: [2]))
  }

  /// Adapty's `showStoreMessages(for:)`: only the listed types; the others stay pending.
  @Test func aReasonFilterAtTheCheckpoint() throws {
    var policy = try read([
      ("preset", .string("adapty-manual")),
      ("reason_filter", .array([.string("billing_issue"), .string("price_increase_consent")])),
    ])
    policy.startSession(at: 0, on: .onboarding)
    policy.deliver(message(1, .generic), at: 1)
    policy.deliver(message(2, .billingIssue), at: 2)
    policy.deliver(message(3, .priceIncreaseConsent), at: 3)
    #expect(policy.screen(.home, at: 10) == Answer(shown: [2]))
    #expect(policy.succeed(2, at: 10) == Answer(shown: [3]))
    #expect(policy.succeed(3, at: 10) == .nothing)
    #expect(policy.pendingIDs == [1])
  }

  /// `sheets_per_break` over a preset that shows everything at once.
  @Test func sheetsPerBreakOverStoreKitAuto() throws {
    var policy = try read([("preset", .string("storekit-auto")), ("sheets_per_break", .number(2))])
    policy.launch(at: 0)
    for id in MessageID(1)...5 { policy.deliver(message(id, .generic), at: 0.1) }
    #expect(policy.activate(at: 0.5) == Answer(shown: [1, 2]))
    for id: MessageID in [1, 2] { policy.succeed(id, at: 0.5) }
    #expect(policy.screen(.content, at: 1) == .nothing)  // not a trigger of this policy
    policy.deactivate(at: 2)
    #expect(policy.activate(at: 3) == Answer(shown: [3, 4]))
  }
}
