import CGSL
import MessageDeferral

/// The screen index that means "no screen": before a session's first screen, the background
/// as a transition target, a message not shown over any screen. A constant, not an optional,
/// so the engine's per-user state stays plain integers on the hot path.
public let noScreen = -1

/// A scenario prepared for drawing: samplers and alias tables, read-only once built. A run
/// builds one per worker (see ``Engine``), so that no reference count is shared by threads.
public struct CompiledScenario: Sendable {
  public let scenario: Scenario
  let dwell: [Sampler]
  /// Per transitions row: the alias table over its transitions (`nil` for a screen with none).
  /// Rows are the screens, by index, then each screen's `transitions_after` tables in screen
  /// and file order (``row(_:after:)``). Kept alive here; the per-event path reads
  /// ``transitionPointers`` instead.
  let transitionTables: [AliasTable?]
  /// Per row: the GSL table of ``transitionTables`` (nil for none), as a raw pointer so a
  /// screen change touches no reference count (a retain per screen change costs, and one
  /// shared by threads would bounce between cores). `nonisolated(unsafe)`: the tables are
  /// written once, by GSL's preprocessing, and only read afterwards (`gsl_ran_discrete` takes
  /// them `const`).
  nonisolated(unsafe) let transitionPointers: ContiguousArray<UnsafePointer<gsl_ran_discrete_t>?>
  /// Per row: the first index of its transitions in ``transitionTargetIndex``.
  let transitionOffset: ContiguousArray<Int32>
  /// Every row's transition targets, flattened: a screen index, or ``noScreen`` for
  /// background.
  let transitionTargetIndex: ContiguousArray<Int32>
  /// Whether any screen has `transitions_after` (without, the row is the screen: no lookup).
  let hasContexts: Bool
  /// Per screen, its tables' range in ``contextPrevious`` and ``contextRow``
  /// (`contextStart[s] ..< contextStart[s + 1]`; empty without `transitions_after`).
  let contextStart: ContiguousArray<Int32>
  let contextPrevious: ContiguousArray<Int32>
  let contextRow: ContiguousArray<Int32>
  let gap: Sampler
  /// An existing user's first open: the stationary forward-recurrence time of ``gap``.
  let firstOpen: ForwardRecurrence
  /// `sessions.daily_rhythm`, compiled (`nil`: gaps run on the real clock).
  let rhythm: RhythmClock?
  /// How long a suspended process survives (`nil`: a constant termination probability).
  let backgroundSurvival: Sampler?
  let fetchDelay: Sampler
  let activationDelay: Sampler
  let sheetDwell: Sampler
  let consentDeadline: Sampler?
  let consentExpiry: Sampler?
  let recurringExpiry: [Sampler?]
  let campaignExpiry: [Sampler?]
  /// Exponential gaps between issuances of each recurring process (a Poisson process).
  let recurringGap: [Sampler]
  /// Each screen's kind, by index (read on every screen change).
  let screenKinds: ContiguousArray<ScreenKind>
  /// What users do with a sheet; `nil`: no response is drawn (every consent shown counts).
  let responses: ResponseModel?
  /// `sessions.leave_odds_by_position` (empty: none), and per screen its background
  /// probability and an alias table over its other transitions (``stayTargets``), used only
  /// with odds; per row, as ``transitionTables``.
  let leaveOdds: ContiguousArray<Double>
  let backgroundProbability: ContiguousArray<Double>
  let stayTables: [AliasTable?]
  let stayTargets: [ContiguousArray<Int32>]
  /// `entries.returning_mix` as an alias table over ``returningTargets`` (`nil` without one).
  let returningTable: AliasTable?
  let returningTargets: ContiguousArray<Int32>
  /// `population.install_window.weights` as cumulative shares, the last exactly 1 (empty:
  /// installs uniform over the window).
  let installParts: ContiguousArray<Double>
  /// Each part's active time on ``rhythm``'s clock (its length without one).
  let installPartActive: ContiguousArray<Double>

  public init(_ scenario: Scenario) {
    self.scenario = scenario
    dwell = scenario.screens.map { Sampler($0.dwell) }
    // The rows: every screen's own table, then the `transitions_after` tables.
    let rows =
      scenario.screens.map(\.transitions)
      + scenario.screens.flatMap { $0.transitionsAfter.map(\.transitions) }
    var starts = ContiguousArray<Int32>()
    var previous = ContiguousArray<Int32>()
    var contextRows = ContiguousArray<Int32>()
    for screen in scenario.screens {
      starts.append(Int32(previous.count))
      for context in screen.transitionsAfter {
        previous.append(Int32(context.previous))
        contextRows.append(Int32(scenario.screens.count + contextRows.count))
      }
    }
    starts.append(Int32(previous.count))
    hasContexts = !previous.isEmpty
    contextStart = hasContexts ? starts : []
    contextPrevious = previous
    contextRow = contextRows
    transitionTables = rows.map { row in
      row.isEmpty ? nil : AliasTable(weights: row.map(\.probability))
    }
    transitionPointers = ContiguousArray(transitionTables.map { $0?.unsafeTable })
    var offsets = ContiguousArray<Int32>()
    var targets = ContiguousArray<Int32>()
    for row in rows {
      offsets.append(Int32(targets.count))
      for transition in row {
        switch transition.target {
        case .background: targets.append(Int32(noScreen))
        case .screen(let index): targets.append(Int32(index))
        }
      }
    }
    transitionOffset = offsets
    transitionTargetIndex = targets
    gap = Sampler(scenario.sessions.gap)
    firstOpen = ForwardRecurrence(scenario.sessions.gap)
    rhythm = scenario.sessions.dailyRhythm.map(RhythmClock.init)
    backgroundSurvival = scenario.sessions.backgroundSurvival.map { Sampler($0) }
    fetchDelay = Sampler(scenario.sessions.fetchDelay)
    activationDelay = Sampler(scenario.scene.activationDelay)
    sheetDwell = Sampler(scenario.sheetDwell)
    consentDeadline = scenario.messages.consent.map { Sampler($0.deadline) }
    consentExpiry = scenario.messages.consent?.expiry.map { Sampler($0) }
    recurringExpiry = scenario.messages.recurring.map { $0.expiry.map { Sampler($0) } }
    campaignExpiry = scenario.messages.campaigns.map { $0.expiry.map { Sampler($0) } }
    screenKinds = ContiguousArray(scenario.screens.map(\.kind))
    responses = scenario.responses
    leaveOdds = ContiguousArray(scenario.sessions.leaveOddsByPosition)
    backgroundProbability = ContiguousArray(
      rows.map { row in
        row.filter { $0.target == .background }.reduce(0) { $0 + $1.probability }
      })
    let odds = !scenario.sessions.leaveOddsByPosition.isEmpty
    stayTables = rows.map { row in
      let stays = row.filter { $0.target != .background }
      guard odds, stays.reduce(0, { $0 + $1.probability }) > 0 else { return nil }
      return AliasTable(weights: stays.map(\.probability))
    }
    stayTargets = rows.map { row in
      ContiguousArray(
        row.compactMap { transition -> Int32? in
          if case .screen(let index) = transition.target { return Int32(index) }
          return nil
        })
    }
    let mix = scenario.entries.returningMix
    returningTable = mix.isEmpty ? nil : AliasTable(weights: mix.map(\.probability))
    returningTargets = ContiguousArray(mix.map { Int32($0.screen) })
    recurringGap = scenario.messages.recurring.map { Sampler(.exponential(mean: $0.meanInterval)) }
    // With a daily rhythm a part's share is its weight times its active time (arrivals follow
    // both the trend and the rhythm), and within a part installs are uniform on that clock.
    let window = scenario.population.installWindow
    let partWidth =
      (window.upperBound - window.lowerBound)
      / Double(max(1, scenario.population.installWeights.count))
    let clock = rhythm
    let partActive = scenario.population.installWeights.indices.map { index -> Double in
      guard let clock else { return partWidth }
      let start = window.lowerBound + Double(index) * partWidth
      return clock.activeTime(from: start, to: start + partWidth)
    }
    let weights = zip(scenario.population.installWeights, partActive).map { $0 * $1 }
    let total = weights.reduce(0, +)
    var running = 0.0
    installPartActive = ContiguousArray(partActive)
    installParts = ContiguousArray(
      weights.indices.map { index in
        running += weights[index]
        return index == weights.count - 1 ? 1 : running / total
      })
  }

  /// The transitions row used on `screen` when `previous` was shown just before it in the
  /// session (``noScreen``: none): its `transitions_after` table for `previous`, else its own.
  @inline(__always)
  func row(_ screen: Int, after previous: Int) -> Int {
    guard previous >= 0 else { return screen }
    for index in Int(contextStart[screen])..<Int(contextStart[screen + 1])
    where contextPrevious[index] == Int32(previous) {
      return Int(contextRow[index])
    }
    return screen
  }

  /// The install time at `u` in [0, 1) when the window is cut into weighted parts: the
  /// inverse of the piecewise-linear distribution function (one uniform, as the plain
  /// window takes): the first part whose cumulative share exceeds `u`, then linearly within
  /// it (on the rhythm's active clock when there is one). A part of weight 0 is never chosen.
  func installTime(at u: Double) -> Double {
    let window = scenario.population.installWindow
    var low = 0
    var high = installParts.count - 1
    while low < high {
      let middle = (low + high) / 2
      if installParts[middle] > u { high = middle } else { low = middle + 1 }
    }
    let before = low == 0 ? 0 : installParts[low - 1]
    let within = (u - before) / (installParts[low] - before)
    let width = (window.upperBound - window.lowerBound) / Double(installParts.count)
    let partStart = window.lowerBound + Double(low) * width
    guard let rhythm else {
      return min(partStart + within * width, window.upperBound.nextDown)
    }
    return min(
      rhythm.time(after: within * installPartActive[low], from: partStart),
      window.upperBound.nextDown)
  }
}
