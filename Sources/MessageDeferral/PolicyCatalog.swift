/// A policy with the name it is reported under.
public struct NamedPolicy: Equatable, Sendable {
  public var name: String
  public var configuration: PolicyConfiguration
  public init(name: String, configuration: PolicyConfiguration) {
    self.name = name
    self.configuration = configuration
  }
}

/// The built-in presets and the reading of policy definitions from scenario files.
public enum PolicyCatalog {
  /// A preset, declared once: everything the tool says or draws about it comes from here.
  ///
  /// The catalog below is the one list of presets: scenario files (`"policies": "all"`), the
  /// schema's enumeration, the fuzz dictionary, the README's policy table and the report's
  /// palette are derived from it or checked against it by tests (`PolicyCatalogTests`,
  /// `SchemaAgreementTests`, `PolicyKeysDocumentedTests`, `ChartPaletteTests`), so adding a
  /// preset is its configuration and its entry here.
  public struct Preset: Sendable {
    /// The name scenario files and reports use.
    public var name: String
    /// One line, for `deferral-sim policies`.
    public var summary: String
    /// What it reproduces, rule by rule (Markdown): the README's policy table row.
    public var doc: String
    public var configuration: PolicyConfiguration
    /// Its colour and marker in every chart.
    public var chart: ChartStyle
    /// What an app does to run it.
    public var shipping: Shipping

    public init(
      name: String, summary: String, configuration: PolicyConfiguration, doc: String,
      chart: ChartStyle, shipping: Shipping
    ) {
      self.name = name
      self.summary = summary
      self.doc = doc
      self.configuration = configuration
      self.chart = chart
      self.shipping = shipping
    }
  }

  /// A preset's style in charts: an index into the report palette's colours and one into its
  /// variants (marker shape and line dash). No two presets share both (`ChartPaletteTests`).
  public struct ChartStyle: Sendable, Hashable {
    public var colour: Int
    public var variant: Int
    public init(colour: Int, variant: Int) {
      self.colour = colour
      self.variant = variant
    }
  }

  /// What an app does to run a policy.
  public enum Shipping: Sendable, Hashable {
    /// Nothing to change: the behaviour an app has without code (StoreKit's default).
    case asIs(String)
    /// A mode of an SDK the app may already use, and where to call it.
    case sdkMode(String)
    /// This project's `MessageDeferralStoreKit` library with the policy file
    /// (`deferral-sim export-policy NAME`).
    case library

    /// One line for tables and the terminal.
    public var summary: String {
      switch self {
      case .asIs(let text), .sdkMode(let text): text
      case .library:
        "this project's MessageDeferralStoreKit library with the exported policy file "
          + "(deferral-sim export-policy)"
      }
    }
  }

  /// The word a scenario's `policies` uses for every preset: `"policies": "all"`, or `"all"`
  /// as one entry of the array (every preset the array does not name itself). No custom
  /// policy may take this name.
  public static let allPresets = "all"

  /// The presets, in the README's order (the systems modelled, then ours), each older SDK
  /// release or weaker assumption after the preset it varies.
  public static let presets: [Preset] = [
    Preset(
      name: "storekit-auto",
      summary: "StoreKit's default: shown on delivery over whatever screen, once a scene is active",
      configuration: .storeKitAuto,
      doc:
        "StoreKit's default: shown as soon as delivered and a scene is active, over "
        + "whatever screen",
      chart: ChartStyle(colour: 1, variant: 0),
      shipping: .asIs("nothing to do: StoreKit shows every message on delivery")),
    Preset(
      name: "screen-gate",
      summary: "The article's StoreMessageCoordinator as written: per-screen canPresent table",
      configuration: .screenGate,
      doc:
        "the article's `StoreMessageCoordinator` as written: a per-screen `canPresent` "
        + "table, consent and billing inserted at index 0, a failed display appended at "
        + "the back, no retry on scene activation",
      chart: ChartStyle(colour: 2, variant: 0),
      shipping: .library),
    Preset(
      name: "screen-gate-ceiling",
      summary: "screen-gate plus a 12 h consent ceiling timed from in-process arrival",
      configuration: .screenGateCeiling,
      doc:
        "the same plus a 12 h consent ceiling timed from arrival in the process "
        + "(restarts after a relaunch)",
      chart: ChartStyle(colour: 2, variant: 1),
      shipping: .library),
    Preset(
      name: "adapty-manual",
      summary: "Adapty storeMessagesHandling .manual: one by one at home, de-duplicated",
      configuration: .adaptyManual,
      doc:
        "Adapty `.manual`: de-duplicated, shown one by one at `home`, an unavailable "
        + "scene ends the batch, a concurrent call is refused",
      chart: ChartStyle(colour: 3, variant: 0),
      shipping: .sdkMode(
        "Adapty with storeMessagesHandling .manual: call Adapty.showStoreMessages(for: nil) "
          + "each time home appears")),
    Preset(
      name: "revenuecat-manual",
      summary: "RevenueCat 5.6+ manual: all at home, shown ones removed, failed ones kept",
      configuration: .revenueCatManual,
      doc:
        "RevenueCat `showStoreMessagesAutomatically: false`, purchases-ios 5.6.0 and "
        + "later: all shown at `home`, a shown message removed (every copy), a failed or "
        + "filtered one kept, unknown reasons never shown",
      chart: ChartStyle(colour: 4, variant: 0),
      shipping: .sdkMode(
        "RevenueCat 5.6+ with showStoreMessagesAutomatically false: call "
          + "Purchases.shared.showStoreMessages(for: Set(StoreMessageType.allCases)) each time "
          + "home appears")),
    Preset(
      name: "revenuecat-manual-legacy",
      summary: "RevenueCat 4.27-5.5 manual: all at home, then removeAll(); no win-back type",
      configuration: .revenueCatManualLegacy,
      doc:
        "the same before 5.6.0 (4.27.0–5.5.x): the list emptied after every call "
        + "(failed and filtered ones lost), no win-back type",
      chart: ChartStyle(colour: 4, variant: 1),
      shipping: .sdkMode(
        "RevenueCat 4.27-5.5 with showStoreMessagesAutomatically false: call "
          + "Purchases.shared.showStoreMessages(for:) each time home appears")),
    Preset(
      name: "openiap",
      summary:
        "OpenIAP: one at a time on delivery, retry 0.5 s doubling to 2 s; only with a "
        + "billing-issue listener registered, else as storekit-auto",
      configuration: .openIAP,
      doc:
        "OpenIAP / react-native-iap: one message at a time on delivery, retry with "
        + "backoff 0.5 s doubling to 2 s. **Only when the app registered a billing-issue "
        + "listener** (`subscriptionBillingIssueListener`) after `initConnection`; "
        + "otherwise OpenIAP never listens and the app behaves as `storekit-auto`",
      chart: ChartStyle(colour: 0, variant: 0),
      shipping: .sdkMode(
        "OpenIAP / react-native-iap: register subscriptionBillingIssueListener after "
          + "initConnection")),
    Preset(
      name: "never",
      summary: "A listener that never displays: the worst case for consent",
      configuration: .never,
      doc:
        "a listener that never displays (OpenIAP 2.1.0 to 2.2.x did this)",
      chart: ChartStyle(colour: 6, variant: 0),
      shipping: .library),
    Preset(
      name: "deadline-aware",
      summary: "Ours: calm screens; an urgent consent (deadline near, user may not return) at once",
      configuration: .deadlineAware,
      doc:
        "ours: `deadline-aware-v1`'s calm screens, plus a rule for consent when the "
        + "renewal is at stake. A consent is *urgent* on a fresh install (fewer than two "
        + "opens remembered: nothing says the user comes back), two days before its "
        + "deadline, or once the time left is under 3 times the longest gap between the "
        + "user's last 8 opens (the app records its own opens and keeps them across "
        + "relaunches). An urgent consent takes the first moment that is not onboarding, "
        + "a paywall or checkout (its delivery, the splash, a match, a scene activation): "
        + "the moments StoreKit's default uses, so it loses no renewal the default keeps "
        + "except one only a sheet over onboarding could keep. A user who opens the app "
        + "every few hours is held for a calm screen as before; other reasons keep v1's "
        + "rules. Knobs: `urgent_consent` in [`scenarios/README.md`](scenarios/README.md)",
      chart: ChartStyle(colour: 5, variant: 0),
      shipping: .library),
    Preset(
      name: "deadline-aware-value",
      summary: "deadline-aware weighing the expected lost renewal against the screen's cost",
      configuration: .deadlineAwareValue,
      doc:
        "ours, value-aware: `deadline-aware` where a consent stops waiting once the "
        + "expected loss of waiting exceeds the cost of a sheet over the current screen: "
        + "P(no later open before the deadline) × what a renewal is worth against the "
        + "screen's cost, both from the scenario's `value` section unless the policy sets "
        + "its own (default scenario: a renewal 25 USD against onboarding 1.8, paywall "
        + "0.6, checkout 6, immersive 0; the splash and calm screens 0; without a `value` "
        + "section, immersive 3). P is the app's own estimate from its record of the user's last 8 "
        + "opens: the smoothed share of remembered gaps longer than the time left, 1 "
        + "within two days of the deadline, 0.1 on a fresh install (the share of new "
        + "installs who leave onboarding for good). So it interrupts a fresh install's "
        + "onboarding (0.1 × 25 > 1.8) to keep the renewal that `deadline-aware` gives "
        + "up. Knobs: `urgent_consent.value` in "
        + "[`scenarios/README.md`](scenarios/README.md)",
      chart: ChartStyle(colour: 5, variant: 2),
      shipping: .library),
    Preset(
      name: "deadline-aware-v1",
      summary: "Ours, first version: natural breaks, one sheet per break, persisted ceilings",
      configuration: .deadlineAwareV1,
      doc:
        "ours, first version (kept for comparison): natural breaks only, one sheet per "
        + "break, most urgent first, ceilings persisted across relaunches, a screen "
        + "boundary before mid-screen forcing; it lost renewals `storekit-auto` keeps "
        + "(issue #21)",
      chart: ChartStyle(colour: 5, variant: 1),
      shipping: .library),
    Preset(
      name: "deadline-blind",
      summary: "deadline-aware without the renewal date: ceilings alone force consent",
      configuration: .deadlineBlind,
      doc:
        "`deadline-aware` without the consent deadline (StoreKit's message carries "
        + "none): ceilings alone force consent, and no `urgent_consent` (it times urgency "
        + "from the deadline)",
      chart: ChartStyle(colour: 1, variant: 1),
      shipping: .library),
  ]

  /// The README's policy table: a header and one row per preset, in catalog order, from each
  /// preset's ``Preset/doc`` (`deferral-sim policies --markdown`; a test keeps the README's
  /// copy equal to it).
  public static var markdownTable: String {
    (["| name | what it reproduces |", "| --- | --- |"]
      + presets.map { "| `\($0.name)` | \($0.doc) |" }).joined(separator: "\n")
  }

  /// The preset names, in order.
  public static let presetNames = presets.map(\.name)

  /// The preset with this name.
  public static func preset(named name: String) -> Preset? {
    presets.first { $0.name == name }
  }

  /// Reads one entry of a scenario's `policies` array: a preset name (a string), or an object
  /// defining a custom policy: `name` (required), `preset` (optional: the preset it starts
  /// from; otherwise every key starts from ``PolicyConfiguration``'s defaults), then any keys
  /// of ``PolicyConfiguration/keys`` as overrides.
  ///
  /// Returns every problem found, each with its JSON path under `path`.
  public static func definition(
    from value: ConfigValue, at path: String
  )
    -> Result<NamedPolicy, ConfigIssues>
  {
    var suggestionBudget = defaultSuggestionBudget
    return definition(from: value, at: path, suggestionBudget: &suggestionBudget)
  }

  /// The spelling comparisons ``definition(from:at:)`` may spend on "did you mean" suggestions.
  public static let defaultSuggestionBudget = 20_000

  /// Reads one policy entry as ``definition(from:at:)`` does, spending `suggestionBudget` on
  /// "did you mean" suggestions for unknown names.
  ///
  /// Each suggestion costs one unit per candidate name compared; once the budget is spent, and
  /// for names longer than 64 bytes (no typo), messages list the valid names instead. A reader
  /// of many definitions (a scenario file) passes one budget to all of them, so the work on
  /// hostile input stays linear in its size.
  public static func definition(
    from value: ConfigValue, at path: String, suggestionBudget: inout Int
  )
    -> Result<NamedPolicy, ConfigIssues>
  {
    var reader = _ConfigReader(issues: [], suggestionBudget: suggestionBudget)
    defer { suggestionBudget = reader.suggestionBudget }
    switch value {
    case .string(let name):
      if let preset = preset(named: name) {
        return .success(NamedPolicy(name: name, configuration: preset.configuration))
      }
      reader.unknownName(name, at: path, what: "policy", valid: presetNames)
      return .failure(ConfigIssues(reader.issues))
    case .object(let members):
      var configuration = PolicyConfiguration()
      var name: String?
      if let nameValue = value["name"] {
        if let text = reader.string(nameValue, at: "\(path).name") {
          if !NameRule.isValid(text) {
            let shown = text.count > 40 ? String(text.prefix(40)) + "..." : text
            reader.issue(
              at: "\(path).name",
              "invalid policy name \(String(reflecting: shown)); "
                + NameRule.fix(example: "my-policy"))
          } else if text == allPresets {
            reader.issue(
              at: "\(path).name",
              "'\(text)' stands for every preset in a scenario's policies; give the custom "
                + "policy another name")
          } else if preset(named: text) != nil {
            reader.issue(
              at: "\(path).name",
              "'\(text)' is a preset's name; give the custom policy its own name")
          } else {
            name = text
          }
        }
      } else {
        reader.issue(at: path, "missing key 'name'; a custom policy needs a name")
      }
      if let presetValue = value["preset"],
        let presetName = reader.string(presetValue, at: "\(path).preset")
      {
        if let base = preset(named: presetName) {
          configuration = base.configuration
        } else {
          reader.unknownName(presetName, at: "\(path).preset", what: "preset", valid: presetNames)
        }
      }
      configuration.apply(members, at: path, reader: &reader)
      if reader.issues.isEmpty, let name {
        return .success(NamedPolicy(name: name, configuration: configuration))
      }
      return .failure(ConfigIssues(reader.issues))
    default:
      reader.issue(
        at: path,
        "must be a preset name (\(presetNames.joined(separator: ", "))) or an object defining a "
          + "policy, not \(value.typeName)")
      return .failure(ConfigIssues(reader.issues))
    }
  }
}
