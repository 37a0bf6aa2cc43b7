import MessageDeferral
import Testing

/// The policy key `urgent_consent` read from policy objects: partial objects over the
/// preset's rule (what a sweep writes), `null`, and every mistake reported with its path.
@Suite("urgent_consent key")
struct UrgentConsentCodingTests {
  func read(_ members: [(String, ConfigValue)]) throws -> PolicyConfiguration {
    try PolicyCatalog.definition(from: policyObject("custom", members), at: "$").get()
      .configuration
  }

  func urgent(_ members: [(String, ConfigValue)]) -> ConfigValue {
    .object(members.map { ConfigValue.Member(key: $0.0, value: $0.1) })
  }

  @Test func aPartialObjectKeepsThePresetsOtherValues() throws {
    let configuration = try read([
      ("preset", .string("deadline-aware")),
      ("urgent_consent", urgent([("return_factor", .number(5))])),
    ])
    var expected = try #require(PolicyCatalog.Preset.deadlineAware.configuration.urgentConsent)
    expected.returnFactor = 5
    #expect(configuration.urgentConsent == expected)
  }

  @Test func withoutAPresetMissingKeysTakeTheDefaults() throws {
    let configuration = try read([
      ("urgent_consent", urgent([("near_deadline", .string("1d")), ("spares", .array([]))]))
    ])
    var expected = UrgentConsent.defaults
    expected.nearDeadline = 86400
    expected.spares = []
    #expect(configuration.urgentConsent == expected)
    #expect(try read([]).urgentConsent == nil)
  }

  @Test func nullTurnsTheRuleOff() throws {
    let configuration = try read([
      ("preset", .string("deadline-aware")), ("urgent_consent", .null),
    ])
    #expect(configuration.urgentConsent == nil)
  }

  @Test func everyMistakeIsReportedWithItsPath() {
    let value = policyObject(
      "custom",
      [
        (
          "urgent_consent",
          urgent([
            ("near_deadline", .string("-1d")), ("return_factor", .string("3")),
            ("remembered_opens", .number(1)), ("spares", .array([.string("onboardin")])),
            ("risk", .number(0.1)),
          ])
        )
      ])
    let paths = issues(value).map(\.path)
    #expect(
      paths == [
        "$.policies[0].urgent_consent.risk",
        "$.policies[0].urgent_consent.near_deadline",
        "$.policies[0].urgent_consent.return_factor",
        "$.policies[0].urgent_consent.remembered_opens",
        "$.policies[0].urgent_consent.spares[0]",
      ])
    #expect(issues(policyObject("custom", [("urgent_consent", .number(3))])).count == 1)
  }

  /// `minimum_opens` above `remembered_opens` would keep every consent urgent forever.
  @Test func minimumOpensMayNotExceedRememberedOpens() {
    let value = policyObject(
      "custom",
      [
        ("preset", .string("deadline-aware")),
        (
          "urgent_consent",
          urgent([("remembered_opens", .number(3)), ("minimum_opens", .number(4))])
        ),
      ])
    #expect(issues(value).map(\.path) == ["$.policies[0].urgent_consent.minimum_opens"])
  }
}

/// The member `value` of `urgent_consent` (``ConsentValue``): partial objects, `null`, and
/// every mistake with its path.
@Suite("urgent_consent.value key")
struct ConsentValueCodingTests {
  func read(_ members: [(String, ConfigValue)]) throws -> PolicyConfiguration {
    try PolicyCatalog.definition(from: policyObject("custom", members), at: "$").get()
      .configuration
  }

  func object(_ members: [(String, ConfigValue)]) -> ConfigValue {
    .object(members.map { ConfigValue.Member(key: $0.0, value: $0.1) })
  }

  @Test func aPartialObjectKeepsThePresetsOtherAmounts() throws {
    let value = object([
      ("renewal", .number(50)), ("costs", object([("immersive", .number(10))])),
    ])
    let configuration = try read([
      ("preset", .string("deadline-aware-value")),
      ("urgent_consent", object([("value", value)])),
    ])
    var expected = ConsentValue.defaults
    expected.renewal = 50
    expected.costs[ScreenKind.immersive.index] = 10
    #expect(configuration.urgentConsent?.value == expected)
    #expect(expected.cost(over: .onboarding) == 1.8 && expected.cost(over: .home) == 0)
    #expect(configuration.urgentConsent?.spares == [])
  }

  @Test func overDeadlineAwareTheDefaultsFillIn() throws {
    let configuration = try read([
      ("preset", .string("deadline-aware")),
      ("urgent_consent", object([("value", object([("fresh_no_return", .number(0.3))]))])),
    ])
    var expected = ConsentValue.defaults
    expected.freshNoReturn = 0.3
    #expect(configuration.urgentConsent?.value == expected)
    #expect(PolicyCatalog.Preset.deadlineAware.configuration.urgentConsent?.value == nil)
  }

  @Test func nullTurnsTheTestOff() throws {
    let configuration = try read([
      ("preset", .string("deadline-aware-value")),
      ("urgent_consent", object([("value", .null)])),
    ])
    #expect(configuration.urgentConsent?.value == nil)
    #expect(configuration.urgentConsent?.returnFactor == 3)
  }

  @Test func everyMistakeIsReportedWithItsPath() {
    let value = object([
      ("renewal", .number(-1)), ("costs", object([("moon", .number(1)), ("home", .string("1"))])),
      ("fresh_no_return", .number(2)), ("worth", .number(1)),
    ])
    let paths = issues(policyObject("custom", [("urgent_consent", object([("value", value)]))]))
      .map(\.path)
    let base = "$.policies[0].urgent_consent.value"
    #expect(
      paths == [
        "\(base).worth", "\(base).renewal", "\(base).costs.moon", "\(base).costs.home",
        "\(base).fresh_no_return",
      ])
  }

  /// What `deferral-sim policies --json` writes reads back as the same policy.
  @Test func thePresetRoundTrips() throws {
    let preset = PolicyCatalog.Preset.deadlineAwareValue.configuration
    let members = preset.configValue.objectMembers.map { ($0.key, $0.value) }
    #expect(try read(members) == preset)
  }
}
