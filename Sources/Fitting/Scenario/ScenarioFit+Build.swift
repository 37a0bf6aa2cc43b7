import MessageDeferral
import Simulation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension ScenarioFit {
  /// The scenario and its evidence from one pass's observations.
  static func build(
    _ observations: FitObservations, map: FitMap, files: [String]
  ) throws(FitInputError) -> FitResult {
    var draft = _ScenarioDraft(observations: observations, map: map)
    draft.fitScreens()
    draft.fitTransitions()
    draft.fitRhythm()
    draft.fitPopulation()
    draft.warnAboutDetails()
    let json = draft.json()
    let scenario: Scenario
    do {
      scenario = try ScenarioLoader.load(json: Array(json.utf8), file: "<fitted scenario>")
    } catch {
      throw FitInputError(
        file: files.joined(separator: ", "),
        message: "the fitted scenario does not validate (\(error.description)); the log does "
          + "not show what the map says (for example no user ever leaves the onboarding screens "
          + "for another kind): check the map's kinds and onboarding order; if they are right, "
          + "please report it with the map")
    }
    return FitResult(
      scenarioJSON: json, scenario: scenario, observations: observations,
      screens: draft.summaries.map { ($0.summary, map.screens[$0.index].kind) }, gap: draft.gap,
      transitions: draft.transitionRows, estimates: draft.estimates, defaults: draft.defaults,
      warnings: draft.warnings, files: files, mapScreenNames: map.screens.map(\.name),
      windowStart: draft.windowStart,
      windowEnd: draft.windowEnd)
  }
}

/// The scenario being assembled, section by section.
struct _ScenarioDraft {
  let observations: FitObservations
  let map: FitMap
  let defaultScenario = ScenarioLoader.embeddedDefault()
  let windowStart: Double
  let windowEnd: Double
  let horizon: Double
  var summaries: [(index: Int, summary: DurationFitSummary)] = []
  var gap: DurationFitSummary
  /// The durations ``gap`` was fitted on (real time, or active time after ``fitRhythm()``),
  /// for the churn fit that refits it.
  var gapSamples: [DurationSample]
  var screenLines: [String] = []
  var transitionRows: [FittedTransition] = []
  var estimates: [(name: String, value: String, basis: String)] = []
  var defaults: [String] = []
  var warnings: [String] = []
  var seen: [Int] = []
  var launchName = ""
  var newUserName = ""
  /// The log shows no onboarding screen: new users (if any) do not onboard
  /// (`population.onboarding_share` 0) and no onboarding screen is invented for them.
  var logShowsNoOnboarding = false
  var returningName = ""
  /// The cold-launch entry mix of onboarded users (``entryMix(among:)``); empty: one screen.
  var returningMix: [(screen: Int, probability: Double)] = []
  /// The fitted chance of leaving by screen position, when it beats a constant one by AIC.
  var positionOdds: _PositionOdds?
  /// `transitions_after` tables by screen (``selectMemory(included:pooled:)``).
  var memory: [Int: [_MemoryTable]] = [:]
  /// Lifecycle phase tables by screen, and of the entry after the splash
  /// (``selectPhases(included:pooled:)``), and the `lifecycle` line they make.
  var phaseTables: [Int: [_PhaseTable]] = [:]
  var phaseEntryTables: [_PhaseTable] = []
  /// Each class's own gap (``selectPhaseGaps(churn:)``), by class.
  var phaseGaps: [Int: FittedDuration] = [:]
  /// The screens kept and the transitions pooled (``fitTransitions()``), for the phases'
  /// tables written last.
  var keptScreens: (included: Set<Int>, pooled: Set<[Int]>) = ([], [])
  /// The daily rhythm's clock when one was fitted (gaps are then lengths of active time).
  var rhythmClock: RhythmClock?
  var population = ""
  var sessionsLines: [String] = []
  /// `"daily_rhythm": {...}` when the log's starts reject a flat rhythm (``fitRhythm()``).
  var rhythmLine: String?
  var onboardingLine = ""

  init(observations: FitObservations, map: FitMap) {
    self.observations = observations
    self.map = map
    windowStart = map.windowStart ?? observations.firstTime
    windowEnd = max(map.windowEnd ?? observations.lastTime, windowStart + 3600)
    horizon = min(windowEnd - windowStart, ScenarioLoader.maximumHorizon)
    gapSamples = observations.gaps.items
    gap = ScenarioFit.summarize(
      "gap between sessions", observations.gaps,
      complete: observations.gaps.items.filter { !$0.censored }.count,
      censored: observations.gaps.items.filter(\.censored).count)
  }

  /// Five significant digits, as JSON.
  static func number(_ value: Double) -> String {
    guard value.isFinite, value != 0 else { return "0" }
    let digits = 4 - Int(floor(log10(abs(value))))
    let scale = pow(10, Double(digits))
    let rounded = (value * scale).rounded() / scale
    return rounded == rounded.rounded() && abs(rounded) < 1e15
      ? String(Int64(rounded)) : "\(rounded)"
  }

  /// A duration in the largest unit it reaches, to five significant digits: `"7.0161h"`.
  static func duration(_ seconds: Double) -> String { "\"\(durationText(seconds))\"" }

  /// The same without quotes.
  static func durationText(_ seconds: Double) -> String {
    let units: [(String, Double)] = [("d", 86_400), ("h", 3600), ("m", 60), ("s", 1)]
    for (name, length) in units where seconds >= length {
      return number(seconds / length) + name
    }
    return number(seconds * 1000) + "ms"
  }

  /// A distribution as a scenario file writes it.
  static func json(_ spec: DistributionSpec) -> String {
    switch spec {
    case .fixed(let value): "{\"fixed\": \(duration(value))}"
    case .exponential(let mean): "{\"exponential\": {\"mean\": \(duration(mean))}}"
    case .lognormal(let median, let sigma):
      "{\"lognormal\": {\"median\": \(duration(median)), \"sigma\": \(number(sigma))}}"
    case .gamma(let shape, let scale):
      "{\"gamma\": {\"shape\": \(number(shape)), \"scale\": \(duration(scale))}}"
    case .weibull(let shape, let scale):
      "{\"weibull\": {\"shape\": \(number(shape)), \"scale\": \(duration(scale))}}"
    case .uniform(let low, let high):
      "{\"uniform\": {\"low\": \(duration(low)), \"high\": \(duration(high))}}"
    case .empirical: "{\"fixed\": \"1s\"}"
    }
  }

  static func quoted(_ text: String) -> String { ConfigValue.string(text).jsonText() }

  /// Warnings where the map left a default the log could have decided: whole-second
  /// timestamps without a `timestamp_resolution`, CSV columns no field reads.
  mutating func warnAboutDetails() {
    if observations.wholeSecondTimes, map.timestampResolution == 0, observations.rows >= 2 {
      warnings.append(
        "every timestamp is a whole second, but the map gives no timestamp_resolution: "
          + "durations were read as exact (\(observations.zeroDwells) complete dwells of 0 s read "
          + "as 0.5 ms); add \"timestamp_resolution\": \"1s\" to the map to fit them as "
          + "interval-censored")
    }
    let sessions = observations.journeys.sessions
    if let (name, count) = observations.endingEvents.max(by: {
      $0.value != $1.value ? $0.value < $1.value : $0.key > $1.key
    }), sessions >= 10, Double(count) >= ScenarioFit.endingEventShare * Double(sessions) {
      warnings.append(
        "\(count) of \(sessions) sessions end on '\(name)', not a screen view: their last "
          + "dwells were read as censored there (at least that long); if the app logs '\(name)' "
          + "when it goes to the background, add it to the map's session_end_events and those "
          + "dwells are complete")
    }
    if !observations.unreadColumns.isEmpty {
      let names = observations.unreadColumns.prefix(6).map { "'\($0)'" }.joined(separator: ", ")
      warnings.append(
        "the log's columns \(names) are not read; if one names sessions or another field, map it "
          + "in the map's \"columns\" (for example {\"session\": \"visit_id\"})")
    }
  }

  /// Fits every screen the log shows; picks or makes the splash and the first onboarding screen.
  mutating func fitScreens() {
    let screens = map.screens
    seen = screens.indices.filter {
      observations.completeDwells[$0] + observations.censoredDwells[$0] > 0
    }
    for index in seen {
      let summary = ScenarioFit.summarize(
        screens[index].name, observations.dwell[index],
        complete: observations.completeDwells[index], censored: observations.censoredDwells[index])
      summaries.append((index, summary))
      if summary.usedDefault {
        warnings.append(
          "screen '\(screens[index].name)': no complete dwell (every visit ended its session "
            + "unseen); its dwell is the default lognormal, median 10 s, sigma 0.8")
      } else if summary.complete < ScenarioFit.thinScreen {
        warnings.append(
          "screen '\(screens[index].name)': only \(summary.complete) complete dwells (under "
            + "\(ScenarioFit.thinScreen)); its fit is rough, its family choice unreliable")
      }
    }
    let names = Set(screens.map(\.name))
    func fresh(_ base: String) -> String {
      var name = base
      var suffix = 2
      while names.contains(name) {
        name = "\(base)-\(suffix)"
        suffix += 1
      }
      return name
    }
    if let launch = seen.first(where: { screens[$0].kind == .launch }) {
      launchName = screens[launch].name
    } else {
      launchName = fresh("splash")
      screenLines.append(
        "    {\"name\": \(Self.quoted(launchName)), \"kind\": \"launch\", \"dwell\": "
          + "{\"uniform\": {\"low\": \"800ms\", \"high\": \"2.5s\"}}}")
      defaults.append(
        "the splash screen '\(launchName)' and its dwell (uniform 0.8 s to 2.5 s): the log has "
          + "no screen of kind launch")
    }
    let onboarding = map.onboarding.compactMap { map.screenIndex[$0] }.filter(seen.contains)
    if let first = onboarding.first {
      newUserName = screens[first].name
    } else if seen.contains(where: { screens[$0].kind == .onboarding }) {
      newUserName = fresh("onboarding")
      defaults.append(
        "an onboarding screen '\(newUserName)' (1 s, then on): the map's onboarding order names "
          + "no screen the log shows")
    } else {
      // New users open where returning ones do (`onboarding_share` 0, `entries.new_user` left
      // out): nothing is invented for them to walk through.
      logShowsNoOnboarding = true
    }
  }
}
