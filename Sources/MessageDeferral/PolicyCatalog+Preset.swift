extension PolicyCatalog {
  /// A preset, declared once: everything the tool says or draws about it comes from here.
  ///
  /// Each preset is one static declaration, in `PolicyCatalog+ModelledPresets.swift` (the
  /// systems modelled) or `PolicyCatalog+OurPresets.swift` (this project's), listed in its
  /// file's array; ``PolicyCatalog/presets`` joins the two. Scenario files
  /// (`"policies": "all"`), the schema's enumerations, the fuzz dictionary, the README's policy
  /// table (with the keys each preset sets) and the report's palette are derived from it or
  /// checked against it by tests (`PresetDeclarationTests`, `SchemaAgreementTests`,
  /// `ChartPaletteTests`), so adding a preset is its declaration, its line in the array, and
  /// `bash scripts/sync-presets.sh`.
  public struct Preset: Sendable {
    /// The name scenario files and reports use.
    public var name: String
    /// One line, for `deferral-sim policies`.
    public var summary: String
    /// What it reproduces, rule by rule (Markdown): the README's policy table row.
    public var doc: String
    /// Its colour and marker in every chart.
    public var chart: ChartStyle
    /// What an app does to run it.
    public var shipping: Shipping
    /// The policy itself.
    public var configuration: PolicyConfiguration

    public init(
      name: String, summary: String, doc: String, chart: ChartStyle, shipping: Shipping,
      configuration: PolicyConfiguration
    ) {
      self.name = name
      self.summary = summary
      self.doc = doc
      self.chart = chart
      self.shipping = shipping
      self.configuration = configuration
    }

    /// The policy keys whose value differs from ``PolicyConfiguration``'s default, in
    /// ``PolicyConfiguration/keys`` order: what a custom policy would have to set to be this
    /// preset.
    public var keysSet: [String] {
      let defaults = PolicyConfiguration().configValue
      let mine = configuration.configValue
      return PolicyConfiguration.keys.filter { mine[$0] != defaults[$0] }
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
}
