import MessageDeferral
import TestSupport
import Testing

/// A policy object: `name`, then the given members.
func policyObject(_ name: String, _ members: [(String, ConfigValue)]) -> ConfigValue {
  .object(
    [ConfigValue.Member(key: "name", value: .string(name))]
      + members.map { ConfigValue.Member(key: $0.0, value: $0.1) })
}

/// The problems reading `value` reports, or `[]` when it reads.
func issues(_ value: ConfigValue, at path: String = "$.policies[0]") -> [ConfigIssue] {
  switch PolicyCatalog.definition(from: value, at: path) {
  case .success: []
  case .failure(let failure): failure.issues
  }
}

@Suite("Policy catalog and policy files")
struct PolicyCatalogTests {
  /// The eight of the design come in its order (a preset added later may stand anywhere), each
  /// older SDK release, earlier version of ours or weaker assumption after the preset it
  /// varies, and the systems modelled before ours.
  @Test func presetsAreTheDesignsInOrderWithTheirVariants() {
    let names = PolicyCatalog.presetNames
    let design = [
      "storekit-auto", "screen-gate", "screen-gate-ceiling", "adapty-manual", "revenuecat-manual",
      "openiap", "never", "deadline-aware",
    ]
    #expect(names.filter(design.contains) == design)
    let variants = [
      ("screen-gate-ceiling", "screen-gate"), ("revenuecat-manual-legacy", "revenuecat-manual"),
      ("deadline-aware-value", "deadline-aware"), ("deadline-aware-v1", "deadline-aware"),
      ("deadline-blind", "deadline-aware"),
    ]
    for (variant, base) in variants {
      let at = names.firstIndex(of: variant)
      let baseAt = names.firstIndex(of: base)
      #expect(at != nil && baseAt != nil && at! > baseAt!, "\(variant) after \(base)")
    }
    #expect(
      PolicyCatalog.presets.map(\.name)
        == (PolicyCatalog.modelledPresets + PolicyCatalog.ourPresets).map(\.name))
    #expect(Set(names).count == names.count, "preset names are unique")
  }

  @Test(arguments: PolicyCatalog.presetNames)
  func aPresetNameReadsAsThePreset(name: String) throws {
    let policy = try PolicyCatalog.definition(from: .string(name), at: "$.policies[0]").get()
    #expect(policy.name == name)
    #expect(policy.configuration == PolicyCatalog.preset(named: name)?.configuration)
  }

  /// Every preset written out with `configValue` and read back as a custom policy (from the
  /// defaults, no `preset` key) is the same configuration.
  @Test(arguments: PolicyCatalog.presetNames)
  func everyPresetRoundTrips(name: String) throws {
    let preset = try #require(PolicyCatalog.preset(named: name))
    let value = policyObject(
      "copy-of-\(name)", preset.configuration.configValue.objectMembers.map { ($0.key, $0.value) })
    let policy = try PolicyCatalog.definition(from: value, at: "$.policies[0]").get()
    #expect(policy.name == "copy-of-\(name)")
    #expect(policy.configuration == preset.configuration)
  }

  @Test func configValueWritesEveryKeyInOrder() {
    for preset in PolicyCatalog.presets {
      #expect(
        preset.configuration.configValue.objectMembers.map(\.key) == PolicyConfiguration.keys,
        "\(preset.name)")
    }
  }

  /// A configuration using every feature at once round-trips too.
  @Test func aFullyLoadedConfigurationRoundTrips() throws {
    var configuration = PolicyConfiguration(
      gate: PolicyConfiguration.gateTable(
        [.home: .open, .immersive: .unchanged], otherwise: .closed),
      gateAtLaunch: false,
      gateOverrides: [
        GateOverride(reason: .billingIssue, kind: .settings, allowed: true),
        GateOverride(reason: .unknown(rawValue: 12), kind: .home, allowed: false),
      ],
      triggers: [.delivery, .checkpoint, .screenAppearance],
      checkpoints: [
        Checkpoint(.home, reasons: [.generic, .unknown(rawValue: 3)]), Checkpoint(.settings),
      ],
      reasonFilter: [.billingIssue, .unknown(rawValue: 3)], ordering: .priority,
      requiresActiveScene: false, sequentialBatch: true, refusesConcurrentShow: true,
      onFailure: .appendToBack, stopsBatchWithoutScene: true, removesDisplayed: false,
      removesEveryCopy: true, clearsAfterCall: true, displaysOneAtATime: true,
      retriesOnSceneActivation: true, retryBackoff: Backoff(initial: 0.25, maximum: 90),
      ceilings: [.generic: 1.5 * hour, .unknown(rawValue: 3): 45, .winBackOffer: 3 * day],
      ceilingClock: .firstDelivery, forcing: .boundaryFirst(grace: 0), deadlineMargin: 0,
      knowsDeadlines: false, deduplicates: true, showsUnknownReasons: false, sheetsPerBreak: 3,
      listenerDelay: .uniform(low: 0.25, high: 3))
    let otherDelays: [ListenerDelay] = [.exponential(mean: 2), .lognormal(median: 0.5, sigma: 1)]
    for round in 0..<3 {
      let value = policyObject(
        "full", configuration.configValue.objectMembers.map { ($0.key, $0.value) })
      let policy = try PolicyCatalog.definition(from: value, at: "$").get()
      #expect(policy.configuration == configuration)
      // And once more with the opposite choices where there are two.
      configuration.triggers = []
      configuration.reasonFilter = nil
      configuration.retryBackoff = nil
      configuration.forcing = .immediate
      configuration.deadlineMargin = nil
      configuration.sheetsPerBreak = nil
      configuration.ceilings = [:]
      configuration.checkpoints = [Checkpoint(.content, reasons: [])]
      configuration.listenerDelay = otherDelays[min(round, 1)]
    }
  }

  @Test func aPresetWithOverrides() throws {
    let value = policyObject(
      "gate-with-ceilings",
      [
        ("preset", .string("screen-gate")),
        (
          "ceilings",
          .object([
            .init(key: "price_increase_consent", value: .string("6h")),
            .init(key: "billing_issue", value: .number(1800)),
          ])
        ),
        ("sheets_per_break", .number(2)),
        ("gate", .object([.init(key: "content", value: .string("open"))])),
      ])
    let policy = try PolicyCatalog.definition(from: value, at: "$.policies[1]").get()
    var expected = PolicyCatalog.Preset.screenGate.configuration
    expected.ceilings = [.priceIncreaseConsent: 6 * hour, .billingIssue: 1800]
    expected.sheetsPerBreak = 2
    expected.gate[ScreenKind.content.index] = .open
    #expect(policy.name == "gate-with-ceilings")
    #expect(policy.configuration == expected)
  }

  /// Overriding a preset's ceilings merges; `null` removes one.
  @Test func ceilingsMergeOverThePresetAndNullRemoves() throws {
    let value = policyObject(
      "shorter",
      [
        ("preset", .string("deadline-aware")),
        (
          "ceilings",
          .object([
            .init(key: "generic", value: .null),
            .init(key: "billing_issue", value: .string("12h")),
          ])
        ),
      ])
    let policy = try PolicyCatalog.definition(from: value, at: "$").get()
    #expect(
      policy.configuration.ceilings == [
        .priceIncreaseConsent: day, .billingIssue: 12 * hour, .winBackOffer: 7 * day,
      ])
  }

  @Test func anUnknownKeyNamesItsPathAndTheClosestKey() {
    let found = issues(
      policyObject("mine", [("ceiling", .object([])), ("sheets_per_brake", .number(1))]))
    #expect(found.map(\.path) == ["$.policies[0].ceiling", "$.policies[0].sheets_per_brake"])
    #expect(found.first?.message.contains("did you mean 'ceilings'?") == true)
    #expect(found.last?.message.contains("did you mean 'sheets_per_break'?") == true)
  }

  @Test func anUnknownNestedKeyNamesItsPath() {
    let found = issues(
      policyObject(
        "mine",
        [
          (
            "retry_backoff",
            .object([
              .init(key: "initial", value: .string("1s")),
              .init(key: "maximun", value: .string("2s")),
            ])
          )
        ]))
    #expect(
      found.contains {
        $0.path == "$.policies[0].retry_backoff.maximun" && $0.message.contains("'maximum'")
      })
  }

  @Test func anUnknownPresetNameListsTheValidOnes() {
    for value in [
      ConfigValue.string("zzzzzz"), policyObject("mine", [("preset", .string("zzzzzz"))]),
    ] {
      let found = issues(value)
      #expect(found.count == 1)
      for name in PolicyCatalog.presetNames {
        #expect(found.first?.message.contains(name) == true, "\(name) missing from \(found)")
      }
    }
    #expect(
      issues(.string("screen-gat")).first?.message.contains("did you mean 'screen-gate'?") == true)
    #expect(
      issues(policyObject("mine", [("preset", .string("screen-gat"))])).first?.path
        == "$.policies[0].preset")
  }

  @Test(arguments: [ConfigValue.number(0), .number(1001), .number(1.5), .string("2"), .bool(true)])
  func sheetsPerBreakOutOfRange(value: ConfigValue) {
    let found = issues(policyObject("mine", [("sheets_per_break", value)]))
    #expect(found.count == 1)
    #expect(found.first?.path == "$.policies[0].sheets_per_break")
    #expect(found.first?.message.contains("whole number from 1 to 1000") == true)
  }

  @Test(arguments: [
    (ConfigValue.string("12x"), "unknown unit 'x'"),
    (.string("12 hours"), "unexpected space"),
    (.string("h"), "is not a duration"),
    (.string("-5h"), "is negative"),
    (.string("1e3s"), "unknown unit 'e3s'"),
    (.string("0s"), "must be positive"),
    (.number(-1), "must be positive"),
    (.bool(false), "must be a duration"),
  ])
  func aBadDurationSaysWhereAndWhy(value: ConfigValue, message: String) {
    let found = issues(
      policyObject("mine", [("ceilings", .object([.init(key: "generic", value: value)]))]))
    #expect(found.count == 1)
    #expect(found.first?.path == "$.policies[0].ceilings.generic")
    #expect(found.first?.message.contains(message) == true, "\(found)")
  }

  @Test func aBackoffMaximumShorterThanItsInitial() {
    let found = issues(
      policyObject(
        "mine",
        [
          (
            "retry_backoff",
            .object([
              .init(key: "initial", value: .string("2s")),
              .init(key: "maximum", value: .string("1s")),
            ])
          )
        ]))
    #expect(found.map(\.path) == ["$.policies[0].retry_backoff.maximum"])
  }

  @Test func badNamesAndShapes() {
    #expect(issues(.object([])).first?.message.contains("missing key 'name'") == true)
    #expect(issues(policyObject("never", [])).first?.message.contains("is a preset's name") == true)
    #expect(issues(policyObject("my policy", [])).first?.path == "$.policies[0].name")
    #expect(issues(policyObject("", [])).count == 1)
    #expect(issues(.number(3)).first?.message.contains("must be a preset name") == true)
    #expect(
      issues(policyObject("mine", [("ordering", .string("fifo"))])).first?.message.contains(
        "arrival") == true)
    #expect(
      issues(policyObject("mine", [("triggers", .array([.string("dellivery")]))])).first?.path
        == "$.policies[0].triggers[0]")
    #expect(
      issues(policyObject("mine", [("forcing", .string("later"))])).first?.path
        == "$.policies[0].forcing")
    #expect(
      issues(
        policyObject("mine", [("gate", .object([.init(key: "homee", value: .string("open"))]))])
      ).first?.message.contains("'home'") == true)
  }

  /// Every problem is reported at once, not just the first.
  @Test func allProblemsAtOnce() {
    let found = issues(
      policyObject(
        "mine",
        [
          ("ordering", .string("fifo")), ("deduplicates", .string("yes")),
          ("ceilings", .object([.init(key: "genric", value: .string("1h"))])),
          ("sheets_per_break", .number(0)),
        ]))
    #expect(
      found.map(\.path) == [
        "$.policies[0].ordering", "$.policies[0].deduplicates", "$.policies[0].ceilings.genric",
        "$.policies[0].sheets_per_break",
      ])
  }

  /// A minimal custom policy starts from the defaults: shown on delivery, over any screen.
  @Test func aMinimalCustomPolicyStartsFromTheDefaults() throws {
    let policy = try PolicyCatalog.definition(from: policyObject("plain", []), at: "$").get()
    #expect(policy.configuration == PolicyConfiguration())
  }
}

@Suite("Duration text round trip")
struct DurationRoundTripTests {
  @Test(arguments: [("9ms", 0.009), ("7ms", 0.007), ("1100ms", 1.1)])
  func millisecondsReadExactly(text: String, seconds: Double) throws {
    #expect(try DurationText.seconds(in: text) == seconds)
  }

  /// Whatever `format` writes reads back as the same number of seconds. (Found by this test:
  /// 0.009 s was written "9ms" and read back as 9 × 0.001 = 0.009000000000000001.)
  @Test func writtenDurationsReadBack() {
    var rng = SplitMix64(seed: 1)
    var values: [Double] =
      (0...5000).map { Double($0) / 1000 } + (0...2000).map { Double($0) * 0.1 }
    for _ in 0..<5000 { values.append(rng.uniform(0..<1e7)) }
    for _ in 0..<2000 {
      values.append(Double(rng.below(1_000_000)) * [0.001, 1, 60, 3600][rng.below(4)])
    }
    for seconds in values where seconds >= 1e-4 {
      let text = DurationText.format(seconds)
      let back = try? DurationText.seconds(in: text)
      if back != seconds {
        Issue.record("\(seconds) s is written \(text), read back as \(back as Any)")
        return
      }
    }
  }
}
