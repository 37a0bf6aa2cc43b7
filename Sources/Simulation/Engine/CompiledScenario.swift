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
  /// An existing user's first open: the stationary forward-recurrence time of the gap of the
  /// phase existing users start in (``gap`` without phases).
  let firstOpen: ForwardRecurrence
  /// Whether the scenario has `lifecycle` (without, sessions are not counted and nothing of
  /// this block is read).
  let hasPhases: Bool
  /// Each phase's `from_session`, in order. A user's phase number is how many of these their
  /// session index has reached (0: before the first phase).
  let phaseFrom: ContiguousArray<Int32>
  /// Per phase number and screen, `phaseRow[phase × screens + screen]`: the transitions row
  /// used (the phase's table for the screen, else the screen's own).
  let phaseRow: ContiguousArray<Int32>
  /// Per phase number: its `returning_mix` (the scenario's own ``returningTable`` where the
  /// phase sets none) and its gap.
  let phaseReturningTable: [AliasTable?]
  let phaseReturningTargets: [ContiguousArray<Int32>]
  let phaseGap: [Sampler]
  /// The session index an existing user's first session of the horizon takes: their phase's
  /// `from_session` (1 without phases).
  let existingFirstSession: Int32
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
    // The rows: every screen's own table, then the `transitions_after` tables, then the
    // phases' tables in phase and file order.
    let screenCount = scenario.screens.count
    let contextTables = scenario.screens.flatMap { $0.transitionsAfter.map(\.transitions) }
    let rows =
      scenario.screens.map(\.transitions) + contextTables
      + scenario.phases.flatMap { $0.transitions.map(\.transitions) }
    var rowsByPhase = ContiguousArray((0..<screenCount).map { Int32($0) })
    var nextRow = screenCount + contextTables.count
    for phase in scenario.phases {
      var row = ContiguousArray((0..<screenCount).map { Int32($0) })
      for override in phase.transitions {
        row[override.screen] = Int32(nextRow)
        nextRow += 1
      }
      rowsByPhase += row
    }
    hasPhases = !scenario.phases.isEmpty
    phaseRow = hasPhases ? rowsByPhase : []
    phaseFrom = ContiguousArray(scenario.phases.map { Int32($0.fromSession) })
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
    let baseGap = Sampler(scenario.sessions.gap)
    gap = baseGap
    let existingPhase =
      scenario.phases.indices.contains(scenario.existingUsersPhase)
      ? scenario.phases[scenario.existingUsersPhase] : nil
    firstOpen = ForwardRecurrence(existingPhase?.gap ?? scenario.sessions.gap)
    existingFirstSession = Int32(existingPhase?.fromSession ?? 1)
    phaseGap =
      hasPhases
      ? [baseGap] + scenario.phases.map { phase in phase.gap.map { Sampler($0) } ?? baseGap } : []
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
    let base = (returningTable, returningTargets)
    let phaseEntries =
      hasPhases
      ? [base]
        + scenario.phases.map { phase in
          phase.returningMix.isEmpty
            ? base
            : (
              AliasTable(weights: phase.returningMix.map(\.probability)),
              ContiguousArray(phase.returningMix.map { Int32($0.screen) })
            )
        } : []
    phaseReturningTable = phaseEntries.map { $0.0 }
    phaseReturningTargets = phaseEntries.map { $0.1 }
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
  /// session (``noScreen``: none): its `transitions_after` table for `previous`, else `row`
  /// (its own, or its phase's).
  @inline(__always)
  func row(_ screen: Int, after previous: Int, otherwise row: Int) -> Int {
    guard previous >= 0 else { return row }
    for index in Int(contextStart[screen])..<Int(contextStart[screen + 1])
    where contextPrevious[index] == Int32(previous) {
      return Int(contextRow[index])
    }
    return row
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
