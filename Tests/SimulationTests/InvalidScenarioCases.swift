import Testing

/// One invalid document: edits to ``ScenarioTemplates/minimal`` and the problem expected.
struct InvalidScenarioCase: Sendable, CustomTestStringConvertible {
  /// Whether the JSON Schema can see the problem too.
  enum SchemaVerdict: Sendable {
    /// Structural: the schema rejects the document as the decoder does.
    case rejects
    /// Only the decoder can see it (graph checks, cross-field checks, repeated keys, "0s"
    /// where a positive duration is needed); the schema accepts the document.
    case decoderOnly
    /// Not JSON at all: there is nothing for a schema to validate.
    case notJSON
  }

  var label: String
  var edits: [(String, String)]
  /// The JSON path of the expected problem ("" for a syntax error).
  var path: String
  /// A fragment of its message.
  var fragment: String
  var schema: SchemaVerdict

  var testDescription: String { label }
  var document: String { ScenarioTemplates.minimal(replacing: edits) }

  init(
    _ label: String, _ edits: [(String, String)], _ path: String, _ fragment: String,
    _ schema: SchemaVerdict
  ) {
    self.label = label
    self.edits = edits
    self.path = path
    self.fragment = fragment
    self.schema = schema
  }

  // Fragments of the template, named for readability.
  static let horizon = "\"horizon\": \"30d\","
  static let schemaVersion = "\"schema\": 1,"
  static let homeTransitions = "\"transitions\": {\"player\": 0.5, \"background\": 0.5}"
  static let playerTransitions = "\"transitions\": {\"home\": 0.6, \"background\": 0.4}"
  static let introTransitions = "\"transitions\": {\"home\": 0.9, \"background\": 0.1}"
  static let splash =
    "{\"name\": \"splash\", \"kind\": \"launch\", \"dwell\": {\"fixed\": {\"value\": 1.5}}}"
  static let policies = "[\"storekit-auto\", \"deadline-aware\"]"
  static let unknownReasons = "[{\"raw_value\": 7, \"mean_interval\": \"365d\"}]"
  static let entries =
    "\"entries\": {\"cold_launch\": \"splash\", \"new_user\": \"intro\", \"returning\": \"home\"}"

  /// One case per error class the issue names, and a few more.
  static let all: [InvalidScenarioCase] = [
    // Malformed JSON.
    .init(
      "malformed JSON", [(schemaVersion, "\"schema\": 1,,")], "", "expected a key in double quotes",
      .notJSON),
    // Wrong types.
    .init(
      "wrong type: string for a number", [(horizon, horizon + " \"users\": \"many\",")], "$.users",
      "must be a whole number, got a string", .rejects),
    .init(
      "wrong type: array for an object", [(entries, "\"entries\": [\"splash\"]")], "$.entries",
      "must be an object", .rejects),
    .init(
      "wrong type: string for a probability",
      [("\"audience_share\": 0.8", "\"audience_share\": \"80%\"")],
      "$.messages.price_increase_consent.audience_share", "must be a probability", .rejects),
    .init(
      "wrong type: string for a transition probability",
      [(homeTransitions, "\"transitions\": {\"player\": \"half\", \"background\": 0.5}")],
      "$.screens[2].transitions.player", "must be a probability", .rejects),
    // Missing and unknown keys.
    .init(
      "missing key",
      [
        (
          "\"sheet_dwell\": {\"empirical\": {\"values\": [\"3s\", \"6s\", \"12s\"], \"weights\": [1, 2, 1]}},",
          ""
        )
      ],
      "$", "missing key 'sheet_dwell'; add \"sheet_dwell\":", .rejects),
    .init(
      "missing transitions on a screen other than the launch screen",
      [(playerTransitions, "\"note\": 1")], "$.screens[3]", "missing key 'transitions'", .rejects),
    .init(
      "missing raw_value", [(unknownReasons, "[{\"mean_interval\": \"365d\"}]")],
      "$.messages.unknown[0]", "missing key 'raw_value'", .rejects),
    .init(
      "unknown key with a suggestion",
      [("\"dwell\": {\"lognormal\"", "\"dwel\": {\"lognormal\"")], "$.screens[1].dwel",
      "unknown key 'dwel'; did you mean 'dwell'?", .rejects),
    .init(
      "unknown key without a suggestion",
      [(schemaVersion, schemaVersion + " \"colour\": \"blue\",")],
      "$.colour", "unknown key 'colour'; valid keys: $schema, schema, name", .rejects),
    .init(
      "unknown message reason", [("\"billing_issue\":", "\"biling_issue\":")],
      "$.messages.biling_issue", "did you mean 'billing_issue'?", .rejects),
    .init(
      "repeated key", [(schemaVersion, schemaVersion + " \"schema\": 1,")], "$.schema",
      "duplicate key 'schema'", .decoderOnly),
    // Scales, sigma, probabilities.
    .init(
      "non-positive scale: zero mean", [("{\"mean\": \"8h\"}", "{\"mean\": \"0s\"}")],
      "$.sessions.gap.exponential.mean", "must be > 0, got \"0s\"", .decoderOnly),
    .init(
      "non-positive scale: negative number", [("\"scale\": \"3m\"", "\"scale\": -3")],
      "$.screens[3].dwell.gamma.scale", "must not be negative, got -3", .rejects),
    .init(
      "non-positive shape", [("\"shape\": 2", "\"shape\": 0")], "$.screens[3].dwell.gamma.shape",
      "must be > 0, got 0; give a positive shape", .rejects),
    .init(
      "negative sigma", [("\"sigma\": 0.8", "\"sigma\": -1")],
      "$.screens[1].dwell.lognormal.sigma",
      "must be > 0, got -1; give a positive sigma such as 0.8",
      .rejects),
    .init(
      "zero sigma", [("\"sigma\": 0.8", "\"sigma\": 0")], "$.screens[1].dwell.lognormal.sigma",
      "must be > 0, got 0", .rejects),
    .init(
      "probability above 1",
      [
        (
          "\"background_termination_probability\": 0.5",
          "\"background_termination_probability\": 1.5"
        )
      ],
      "$.sessions.background_termination_probability", "must be between 0 and 1, got 1.5", .rejects),
    .init(
      "probability below 0",
      [("\"display_failure_probability\": 0.01", "\"display_failure_probability\": -0.1")],
      "$.scene.display_failure_probability", "must be between 0 and 1, got -0.1", .rejects),
    // The screen graph.
    .init(
      "transitions not summing to 1",
      [(homeTransitions, "\"transitions\": {\"player\": 0.4, \"background\": 0.5}")],
      "$.screens[2].transitions", "sum to 0.9, not 1; add 0.1", .decoderOnly),
    .init(
      "no transitions", [(homeTransitions, "\"transitions\": {}")], "$.screens[2].transitions",
      "must list at least one transition", .rejects),
    .init(
      "transition to an unknown screen",
      [(homeTransitions, "\"transitions\": {\"playr\": 0.5, \"background\": 0.5}")],
      "$.screens[2].transitions.playr", "unknown screen 'playr'; did you mean 'player'?",
      .decoderOnly),
    .init(
      "transition to the launch screen",
      [(homeTransitions, "\"transitions\": {\"player\": 0.5, \"splash\": 0.5}")],
      "$.screens[2].transitions.splash", "cannot lead to the launch screen", .decoderOnly),
    .init(
      "launch screen with transitions",
      [(splash, String(splash.dropLast()) + ", \"transitions\": {\"home\": 1}}")],
      "$.screens[0].transitions",
      "the launch screen has no transitions of its own", .rejects),
    .init(
      "screen unreachable from the entries",
      [
        (
          splash,
          splash
            + ", {\"name\": \"settings\", \"kind\": \"settings\", \"dwell\": {\"fixed\": \"9s\"}, "
            + "\"transitions\": {\"home\": 1}}"
        )
      ], "$.screens[1]", "screen 'settings' can never be shown", .decoderOnly),
    .init(
      "background unreachable", [(playerTransitions, "\"transitions\": {\"player\": 1}")],
      "$.screens[3].transitions", "from screen 'player' the app can never go to the background",
      .decoderOnly),
    .init(
      "onboarding with no path to completion",
      [(introTransitions, "\"transitions\": {\"intro\": 0.9, \"background\": 0.1}")],
      "$.entries.new_user", "onboarding can never be completed", .decoderOnly),
    .init(
      "cold launch entry not a launch screen",
      [("\"cold_launch\": \"splash\"", "\"cold_launch\": \"home\"")],
      "$.entries.cold_launch", "must name the splash screen (kind launch)", .decoderOnly),
    .init(
      "new-user entry not an onboarding screen",
      [("\"new_user\": \"intro\"", "\"new_user\": \"home\"")],
      "$.entries.new_user", "must name the first onboarding screen", .decoderOnly),
    .init(
      "entry naming an unknown screen", [("\"returning\": \"home\"", "\"returning\": \"hom\"")],
      "$.entries.returning", "unknown screen 'hom'; did you mean 'home'?", .decoderOnly),
    // Names.
    .init(
      "unknown distribution", [("{\"gamma\":", "{\"gama\":")], "$.screens[3].dwell.gama",
      "unknown distribution 'gama'; did you mean 'gamma'? valid: fixed, exponential, lognormal",
      .rejects),
    .init(
      "distribution naming two kinds",
      [("{\"fixed\": \"1s\"}", "{\"fixed\": \"1s\", \"exponential\": {\"mean\": \"1s\"}}")],
      "$.sessions.fetch_delay", "names exactly one kind, got 2 keys", .rejects),
    .init(
      "bare duration where a distribution is needed",
      [("\"fetch_delay\": {\"fixed\": \"1s\"}", "\"fetch_delay\": \"1s\"")],
      "$.sessions.fetch_delay",
      "for a constant write {\"fixed\": \"1s\"}", .rejects),
    .init(
      "unknown policy", [(policies, "[\"storekit-auto\", \"deadline-awar\"]")], "$.policies[1]",
      "deadline-aware", .rejects),
    .init(
      "no policies", [(policies, "[]")], "$.policies",
      "or a non-empty array of policies, got an empty one",
      .rejects),
    .init(
      "unknown screen kind", [("\"kind\": \"immersive\"", "\"kind\": \"immersiv\"")],
      "$.screens[3].kind", "unknown screen kind 'immersiv'; did you mean 'immersive'?", .rejects),
    .init(
      "unknown delivery mode", [("\"delivery\": \"launch\"", "\"delivery\": \"lunch\"")],
      "$.sessions.delivery", "did you mean 'launch'?", .rejects),
    .init(
      "termination given twice",
      [
        (
          "\"background_termination_probability\": 0.5,",
          "\"background_termination_probability\": 0.5, \"background_survival\": \"4h\","
        )
      ],
      "$.sessions.background_survival", "not both; remove one", .rejects),
    .init(
      "new_user left out while users onboard",
      [("\"new_user\": \"intro\", ", "")], "$.entries", "missing key 'new_user'",
      .decoderOnly),
    .init(
      "campaign for consent",
      [
        (
          "\"billing_issue\": {",
          "\"campaigns\": [{\"reason\": \"price_increase_consent\", "
            + "\"start\": \"1d\"}], \"billing_issue\": {"
        )
      ],
      "$.messages.campaigns[0].reason", "unknown campaign reason", .rejects),
    .init(
      "campaign after the horizon",
      [
        (
          "\"billing_issue\": {",
          "\"campaigns\": [{\"reason\": \"generic\", "
            + "\"start\": \"40d\"}], \"billing_issue\": {"
        )
      ],
      "$.messages.campaigns[0].start", "must be before the horizon", .decoderOnly),
    .init(
      "termination missing", [("\"background_termination_probability\": 0.5,", "")],
      "$.sessions", "missing key 'background_survival'", .rejects),
    .init(
      "unknown audience",
      [("\"billing_issue\": {", "\"billing_issue\": {\"audience\": \"everyone\", ")],
      "$.messages.billing_issue.audience", "unknown audience 'everyone'", .rejects),
    .init(
      "baseline not among the policies",
      [(schemaVersion, schemaVersion + " \"baseline\": \"never\",")],
      "$.baseline", "'never' is not one of the policies", .decoderOnly),
    .init(
      "invalid scenario name", [("\"name\": \"tiny\"", "\"name\": \"my app\"")], "$.name",
      "invalid name \"my app\"", .rejects),
    .init(
      "unsupported format version", [(schemaVersion, "\"schema\": 2,")], "$.schema",
      "unsupported format version 2", .rejects),
    // Duplicates.
    .init(
      "duplicate screen names", [("\"name\": \"player\"", "\"name\": \"home\"")],
      "$.screens[3].name",
      "duplicate screen name 'home' (also $.screens[2])", .decoderOnly),
    .init(
      "screen named background", [("\"name\": \"player\"", "\"name\": \"background\"")],
      "$.screens[3].name", "'background' is reserved", .decoderOnly),
    .init(
      "duplicate policy names",
      [(policies, "[\"storekit-auto\", \"deadline-aware\", \"storekit-auto\"]")],
      "$.policies[2]", "duplicate policy name 'storekit-auto' (also $.policies[0])", .rejects),
    .init(
      "duplicate unknown raw values",
      [
        (
          unknownReasons,
          "[{\"raw_value\": 7, \"mean_interval\": \"365d\"}, {\"raw_value\": 7, \"mean_interval\": \"9d\"}]"
        )
      ],
      "$.messages.unknown[1].raw_value", "duplicate raw value 7", .decoderOnly),
    // Bounds.
    .init(
      "users above the bound", [(horizon, horizon + " \"users\": 20000000,")], "$.users",
      "must be between 1 and 10000000, got 20000000", .rejects),
    .init(
      "users zero", [(horizon, horizon + " \"users\": 0,")], "$.users",
      "must be between 1 and 10000000, got 0", .rejects),
    .init(
      "users fractional", [(horizon, horizon + " \"users\": 1.5,")], "$.users",
      "must be a whole number, got 1.5", .rejects),
    .init(
      "replications below the bound", [(horizon, horizon + " \"replications\": 1,")],
      "$.replications",
      "must be between 2 and 10000, got 1", .rejects),
    .init(
      "replications above the bound", [(horizon, horizon + " \"replications\": 10001,")],
      "$.replications", "must be between 2 and 10000, got 10001", .rejects),
    .init(
      "horizon beyond 3650 days", [(horizon, "\"horizon\": \"4000d\",")], "$.horizon",
      "must be at most 3650d (10 years)", .decoderOnly),
    .init(
      "horizon beyond 3650 days, in seconds", [(horizon, "\"horizon\": 400000000,")], "$.horizon",
      "must be at most 3650d", .rejects),
    .init(
      "zero horizon", [(horizon, "\"horizon\": \"0s\",")], "$.horizon", "must be > 0", .decoderOnly),
    .init(
      "seed beyond 2^64-1", [(horizon, horizon + " \"seed\": 18446744073709551616,")], "$.seed",
      "invalid seed 18446744073709551616", .rejects),
    .init(
      "negative seed", [(horizon, horizon + " \"seed\": -1,")], "$.seed", "invalid seed -1",
      .rejects),
    .init(
      "seed string with letters", [(horizon, horizon + " \"seed\": \"12ab\",")], "$.seed",
      "invalid seed \"12ab\"", .rejects),
    // Durations.
    .init(
      "duration without a unit", [("\"campaign_start\": \"3d\"", "\"campaign_start\": \"3\"")],
      "$.messages.price_increase_consent.campaign_start", "missing unit in \"3\"", .rejects),
    .init(
      "duration with an unknown unit",
      [("\"campaign_start\": \"3d\"", "\"campaign_start\": \"3days\"")],
      "$.messages.price_increase_consent.campaign_start",
      "unknown unit 'days' in \"3days\"; write \"3d\"",
      .rejects),
    .init(
      "negative duration string", [("\"rollout_window\": \"2d\"", "\"rollout_window\": \"-2d\"")],
      "$.messages.price_increase_consent.rollout_window", "is negative", .rejects),
    .init(
      "negative duration number", [("\"rollout_window\": \"2d\"", "\"rollout_window\": -5")],
      "$.messages.price_increase_consent.rollout_window", "must not be negative, got -5", .rejects),
    .init(
      "uniform with low above high",
      [("{\"low\": \"5s\", \"high\": \"60s\"}", "{\"low\": \"60s\", \"high\": \"5s\"}")],
      "$.screens[2].dwell.uniform.high", "must be greater than low (1m); swap them", .decoderOnly),
    .init(
      "empirical lengths differ", [("\"weights\": [1, 2, 1]", "\"weights\": [1, 2]")],
      "$.sheet_dwell.empirical.weights", "has 2 weights for 3 values", .decoderOnly),
    .init(
      "empirical weights summing to 0", [("\"weights\": [1, 2, 1]", "\"weights\": [0, 0, 0]")],
      "$.sheet_dwell.empirical.weights", "weights sum to 0", .decoderOnly),
    .init(
      "empirical negative weight", [("\"weights\": [1, 2, 1]", "\"weights\": [1, -2, 1]")],
      "$.sheet_dwell.empirical.weights[1]", "must be a number ≥ 0, got -2", .rejects),
    // Cross-field checks.
    .init(
      "install window ending after the horizon", [("\"end\": \"25d\"", "\"end\": \"40d\"")],
      "$.population.install_window.end", "must not be after the horizon (30d)", .decoderOnly),
    .init(
      "install window ending before it starts", [("\"start\": \"0s\"", "\"start\": \"26d\"")],
      "$.population.install_window.end", "must be after start (26d)", .decoderOnly),
    .init(
      "install weights not an array", [("\"end\": \"25d\"", "\"end\": \"25d\", \"weights\": 2")],
      "$.population.install_window.weights", "must be a non-empty array", .rejects),
    .init(
      "install weight negative",
      [("\"end\": \"25d\"", "\"end\": \"25d\", \"weights\": [1, -2]")],
      "$.population.install_window.weights[1]", "must be a non-negative number", .rejects),
    .init(
      "install weights all zero", [("\"end\": \"25d\"", "\"end\": \"25d\", \"weights\": [0, 0]")],
      "$.population.install_window.weights", "at least one part above 0", .decoderOnly),
    .init(
      "onboarding share above 1",
      [
        (
          "\"returning_subscriber_share\": 0.1",
          "\"returning_subscriber_share\": 0.1, \"onboarding_share\": 1.5"
        )
      ],
      "$.population.onboarding_share", "must be between 0 and 1, got 1.5", .rejects),
    .init(
      "campaign starting after the horizon",
      [("\"campaign_start\": \"3d\"", "\"campaign_start\": \"31d\"")],
      "$.messages.price_increase_consent.campaign_start", "must be before the horizon (30d)",
      .decoderOnly),
    // sessions.daily_rhythm and a campaign's local time.
    .init(
      "daily rhythm with 3 hours", [(fetchDelay, rhythm("[1, 2, 3]"))],
      "$.sessions.daily_rhythm.hours", "must be an array of 24 relative weights", .rejects),
    .init(
      "daily rhythm with a negative hour", [(fetchDelay, rhythm("[-1, " + ones(23) + "]"))],
      "$.sessions.daily_rhythm.hours[0]", "must be a non-negative number", .rejects),
    .init(
      "daily rhythm of zeros",
      [
        (
          fetchDelay,
          rhythm("[" + [String](repeating: "0", count: 24).joined(separator: ", ") + "]")
        )
      ],
      "$.sessions.daily_rhythm.hours", "must not be all 0", .decoderOnly),
    .init(
      "daily rhythm with a bad offset",
      [(fetchDelay, rhythm("[" + ones(24) + "]", extra: ", \"utc_offset\": \"2h\""))],
      "$.sessions.daily_rhythm.utc_offset", "offset from UTC", .rejects),
    .init(
      "daily rhythm with a bad time zero",
      [(fetchDelay, rhythm("[" + ones(24) + "]", extra: ", \"time_zero\": \"Monday 00:00\""))],
      "$.sessions.daily_rhythm.time_zero", "weekday and UTC time of day", .rejects),
    .init(
      "campaign with a bad local time",
      [
        (
          "\"messages\": {",
          "\"messages\": {\"campaigns\": [{\"reason\": \"generic\", \"start\": \"1d\", "
            + "\"local_time\": \"25:00\"}], "
        )
      ], "$.messages.campaigns[0].local_time", "local time of day", .rejects),
  ]

  static let fetchDelay = "\"fetch_delay\": {\"fixed\": \"1s\"}"
  static func ones(_ count: Int) -> String {
    [String](repeating: "1", count: count).joined(separator: ", ")
  }
  static func rhythm(_ hours: String, extra: String = "") -> String {
    fetchDelay + ", \"daily_rhythm\": {\"hours\": " + hours + extra + "}"
  }
}
