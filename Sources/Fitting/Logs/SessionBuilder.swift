import MessageDeferral
import Simulation

/// One user's place in the log while it streams past.
struct _UserState {
  var firstSeen: Double
  var lastTime: Double
  var lastLine = 0
  var sessionOpen = false
  var session: String?
  var sessionCount = 0
  var screen = noScreen
  var screenSince = 0.0
  var lastActivity = 0.0
  var previousSessionEnd = 0.0
  var screensInSession = 0
  var path: [Int] = []
  var sessionStart = 0.0
  /// The session's first and last screens other than the splash (``noScreen``: none yet), and
  /// the previous session's last.
  var firstShown = noScreen
  var lastShown = noScreen
  var previousLastShown = noScreen
  var sawCheckout = false
  /// Whether the user had completed onboarding when the current session began.
  var onboardedAtOpen = false
  /// The name of the session's last event when it is not a screen view (else `nil`).
  var lastOtherName: String?
  /// The current screen's place in the session (the splash not counted).
  var position = 0
  /// The screen shown before the current one in this session (the splash not counted).
  var previousInSession = noScreen
  /// Decided at the first screen after the splash (`starts_onboarding`).
  var startedOnboarding: Bool?
  var firstOpenSeen = false
  var onboardingActive = false
  var completedOnboarding = false
  var leftOnboardingAt: Double?
  var subscriber: Bool?
}

/// Cuts each user's events into sessions and turns them into ``FitObservations``: dwells
/// (complete when the next screen or a session-end event follows, right-censored at the
/// session's last event otherwise), transitions, gaps, entries, onboarding leaves.
///
/// A user's events must come in time order (users may interleave): `fit` streams and does not
/// sort. Memory: one small state per user, never per row.
struct _SessionBuilder {
  let map: FitMap
  let kinds: [ScreenKind]
  let launch: Int?
  let names: [String]
  /// Seconds added to a time to read its hour of day (the map's `utc_offset`).
  let hourOffset: Double
  /// Whether splash screen views are left out (the predictive check of a log without a splash:
  /// the fitted scenario's splash is one `fit` added).
  var dropsLaunchViews = false
  var users: [String: _UserState] = [:]
  var observations: FitObservations

  init(map: FitMap) {
    self.map = map
    kinds = map.screens.map(\.kind)
    names = map.screens.map(\.name)
    launch = kinds.firstIndex(of: .launch)
    hourOffset = map.utcOffset
    observations = FitObservations(screenCount: kinds.count)
    observations.resolution = map.timestampResolution
  }

  /// Adds one event; `file` and `line` name it in errors.
  mutating func add(_ event: _LogEvent, file: String, line: Int) throws(FitInputError) {
    observations.rows += 1
    if event.time != event.time.rounded(.down) { observations.wholeSecondTimes = false }
    observations.firstTime = min(observations.firstTime, event.time)
    observations.lastTime = max(observations.lastTime, event.time)
    var state = users[event.user] ?? _UserState(firstSeen: event.time, lastTime: event.time)
    if event.time < state.lastTime {
      throw FitInputError(
        file: file, line: line,
        message: "user '\(event.user)' goes back in time (this event is "
          + "\(state.lastTime - event.time) s before the user's previous one, line "
          + "\(state.lastLine)); fit streams and does not sort: sort the log by user, then "
          + "timestamp (for example `sort -t, -k1,1 -k2,2n` after the header)")
    }
    if let subscriber = event.subscriber { state.subscriber = subscriber }
    if event.session != nil { observations.namedSessions = true }
    if event.kind == .sessionEnd { observations.markedSessionEnds = true }
    if state.sessionOpen {
      let boundary =
        event.session.map { $0 != state.session }
        ?? (event.time - state.lastActivity > map.sessionTimeout)
      // A splash mid-session is a relaunch: a new session.
      if boundary || (event.kind == .screenView && event.screen == launch) {
        close(&state, at: state.lastActivity, exact: false)
      }
    }
    if dropsLaunchViews, event.kind == .screenView, event.screen == launch {
      state.lastTime = event.time
      state.lastLine = line
      users[event.user] = state
      return
    }
    switch event.kind {
    case .screenView:
      if !state.sessionOpen { open(&state, event) }
      show(&state, event)
      state.lastActivity = event.time
      state.lastOtherName = nil
    case .sessionEnd:
      if state.sessionOpen {
        state.lastActivity = event.time
        close(&state, at: event.time, exact: true)
      }
    case .firstOpen:
      state.firstOpenSeen = true
    case .other:
      if state.sessionOpen {
        state.lastActivity = event.time
        observations.activityAfterScreens = true
        state.lastOtherName = event.name
      }
    }
    state.lastTime = event.time
    state.lastLine = line
    users[event.user] = state
  }

  mutating func open(_ state: inout _UserState, _ event: _LogEvent) {
    state.sessionCount += 1
    if state.sessionCount > 1 {
      if let left = state.leftOnboardingAt {
        observations.onboardingLeaves.add((true, left))
        state.leftOnboardingAt = nil
      } else {
        let gap = event.time - state.previousSessionEnd
        let sample = DurationSample(
          seconds: max(0, gap), censored: false, resolution: observations.resolution)
        observations.gaps.add(sample)
        observations.gapStarts.add(state.previousSessionEnd)
        // The gap follows the previous session: its class.
        observations.phaseGaps[phaseClass(state, session: state.sessionCount - 1)].add(
          FitObservations.PhaseGap(sample: sample, start: state.previousSessionEnd))
        observations.journeys.gapMinutes[Int(max(0, gap) / 60), default: 0] += 1
      }
      if event.screen == launch {
        observations.coldLaunches += 1
      } else {
        observations.warmResumes += 1
      }
    }
    if event.screen == launch { state.onboardingActive = false }  // a cold launch restarts it
    if event.screen != launch, state.completedOnboarding {
      observations.firstScreenReturning[event.screen] += 1
    }
    state.sessionOpen = true
    state.session = event.session
    state.screen = noScreen
    state.screensInSession = 0
    state.sessionStart = event.time
    state.position = 0
    state.previousInSession = noScreen
    state.onboardedAtOpen = state.completedOnboarding
    state.firstShown = noScreen
    state.lastShown = noScreen
    state.sawCheckout = false
    let day = (event.time + hourOffset).truncatingRemainder(dividingBy: 86_400)
    observations.journeys.startHours[min(23, max(0, Int((day < 0 ? day + 86_400 : day) / 3600)))] +=
      1
    // Epoch time 0 was a Thursday: 3 days after a Monday 00:00.
    let week = (event.time + hourOffset + 3 * 86_400).truncatingRemainder(dividingBy: 604_800)
    observations.startsByWeekHour[
      min(167, max(0, Int((week < 0 ? week + 604_800 : week) / 3600)))] += 1
    state.path.removeAll(keepingCapacity: true)
  }

  mutating func show(_ state: inout _UserState, _ event: _LogEvent) {
    let next = event.screen
    if state.screen >= 0 {
      observations.addDwell(state.screen, event.time - state.screenSince, censored: false)
      if state.screen != launch {
        observations.positionExits[state.screen][state.position - 1] += 1
      }
      if state.screen == launch {
        if state.completedOnboarding {
          observations.afterLaunchReturning[next] += 1
          observations.phaseEntries[phaseClass(state)][next] += 1
        } else {
          observations.afterLaunchNew[next] += 1
        }
      } else {
        observations.transitions[state.screen][next] += 1
        countPhase(state, next: next)
        countSecondOrder(state, next: next)
      }
    }
    if state.screen >= 0, state.screen != launch {
      state.previousInSession = state.screen
    }
    if next != launch, state.startedOnboarding == nil {
      state.startedOnboarding = kinds[next] == .onboarding
      if kinds[next] != .onboarding { state.completedOnboarding = true }
    }
    if kinds[next] == .onboarding {
      state.onboardingActive = true
    } else if next != launch, state.onboardingActive {
      state.onboardingActive = false
      state.completedOnboarding = true
    }
    if next != launch {
      state.position = min(state.position + 1, FitObservations.positionCap)
      if state.firstShown == noScreen {
        state.firstShown = next
        observations.journeys.firstScreens[names[next], default: 0] += 1
        if state.sessionCount > 1 {
          observations.journeys.laterSessions += 1
          if next == state.previousLastShown { observations.journeys.openedOnLastScreen += 1 }
          if state.onboardedAtOpen, state.previousLastShown != noScreen {
            observations.resumePairs[state.previousLastShown][next] += 1
          }
        }
      }
      state.lastShown = next
      if kinds[next] == .checkout { state.sawCheckout = true }
    }
    state.screen = next
    state.screenSince = event.time
    state.screensInSession += 1
    observations.screenViews += 1
    if state.path.count < JourneyStats.pathLength {
      state.path.append(next)
    } else if state.path.count == JourneyStats.pathLength {
      state.path.append(-1)
    }
  }

  /// The lifecycle class (``FitObservations/phaseClasses``) of the user's session `session`
  /// (1: the first; by default the current one): by its index for a user known to be new (the
  /// map's `new_users` rule, as far as the log has shown it), else the last.
  func phaseClass(_ state: _UserState, session: Int? = nil) -> Int {
    let last = FitObservations.phaseClasses - 1
    let isNew =
      map.newUsers == .firstOpen ? state.firstOpenSeen : (state.startedOnboarding ?? false)
    return isNew ? min((session ?? state.sessionCount) - 1, last) : last
  }

  /// Counts the current screen's exit to `next` under the session's class
  /// (``FitObservations/phaseTransitions``).
  mutating func countPhase(_ state: _UserState, next: Int) {
    let key = ScreenTriple(previous: phaseClass(state), screen: state.screen, next: next)
    observations.phaseTransitions[key, default: 0] += 1
  }

  /// Counts the current screen's exit to `next` (`kinds.count`: the background) under the
  /// screen before it (``FitObservations/secondOrder``), when there is one.
  mutating func countSecondOrder(_ state: _UserState, next: Int) {
    guard state.previousInSession >= 0 else { return }
    let triple = ScreenTriple(previous: state.previousInSession, screen: state.screen, next: next)
    observations.secondOrder[triple, default: 0] += 1
    let place = ScreenTriple(
      previous: state.previousInSession, screen: state.screen, next: state.position)
    let leaves = next == kinds.count ? 1 : 0
    let counted = observations.secondOrderPlaces[place] ?? (0, 0)
    observations.secondOrderPlaces[place] = (counted.exits + 1, counted.leaves + leaves)
  }

  /// Ends the session at `end`: exactly (a session-end event: the last dwell is complete) or
  /// not (the last dwell is censored at the session's last event).
  mutating func close(_ state: inout _UserState, at end: Double, exact: Bool) {
    if !exact, let name = state.lastOtherName, observations.endingEvents.count < 50 {
      observations.endingEvents[name, default: 0] += 1
    } else if !exact, let name = state.lastOtherName, observations.endingEvents[name] != nil {
      observations.endingEvents[name]! += 1
    }
    state.lastOtherName = nil
    if state.screen >= 0 {
      observations.addDwell(state.screen, end - state.screenSince, censored: !exact)
      if state.screen != launch {
        observations.transitions[state.screen][kinds.count] += 1
        countPhase(state, next: kinds.count)
        observations.positionExits[state.screen][state.position - 1] += 1
        observations.positionLeaves[state.screen][state.position - 1] += 1
        countSecondOrder(state, next: kinds.count)
      }
    }
    if state.onboardingActive { state.leftOnboardingAt = end }
    observations.journeys.screensPerSession[state.screensInSession, default: 0] += 1
    observations.journeys.countPath(state.path)
    if !state.path.isEmpty {
      let path = state.path.prefix(3).map { $0 >= 0 ? names[$0] : "…" }.joined(separator: " → ")
      observations.journeys.countThreeScreenPath(path)
      observations.journeys.countPhasePath(path, phase: phaseClass(state))
    }
    observations.journeys.sessionSeconds[Int(max(0, end - state.sessionStart)), default: 0] += 1
    if state.sawCheckout { observations.journeys.checkoutSessions += 1 }
    if state.lastShown != noScreen { state.previousLastShown = state.lastShown }
    state.sessionOpen = false
    state.screen = noScreen
    state.previousSessionEnd = end
  }

  /// Closes every user's last session at the end of the log; `windowEnd` censors the last gap;
  /// new users' first events are counted by month from `windowStart`.
  mutating func finish(windowStart: Double, windowEnd: Double) -> FitObservations {
    for key in users.keys.sorted() {
      var state = users[key]!
      if state.sessionOpen { close(&state, at: state.lastActivity, exact: false) }
      guard state.sessionCount > 0 else { continue }
      if let left = state.leftOnboardingAt {
        observations.onboardingLeaves.add((false, left))
      } else if windowEnd > state.previousSessionEnd {
        let sample = DurationSample(
          seconds: windowEnd - state.previousSessionEnd, censored: true,
          resolution: observations.resolution)
        observations.gaps.add(sample)
        observations.gapStarts.add(state.previousSessionEnd)
        observations.phaseGaps[phaseClass(state)].add(
          FitObservations.PhaseGap(sample: sample, start: state.previousSessionEnd))
      }
      observations.users += 1
      observations.journeys.users += 1
      observations.journeys.sessionsPerUser[state.sessionCount, default: 0] += 1
      let isNew =
        map.newUsers == .firstOpen ? state.firstOpenSeen : (state.startedOnboarding ?? false)
      if isNew {
        observations.newUsers += 1
        if state.startedOnboarding == true { observations.newUsersOnboarding += 1 }
        observations.newUserArrivals.add(state.firstSeen)
        let month = Int(max(0, state.firstSeen - windowStart) / JourneyStats.monthLength)
        observations.journeys.arrivalMonths[month, default: 0] += 1
        _RhythmEstimate.addExposure(
          &observations.newUserExposure, from: state.firstSeen, to: windowEnd, offset: hourOffset)
        let seen = observations.newUserFirstSeen
        observations.newUserFirstSeen =
          min(
            seen?.lowerBound ?? state.firstSeen, state.firstSeen)...max(
            seen?.upperBound ?? state.firstSeen, state.firstSeen)
      }
      if let subscriber = state.subscriber {
        if isNew {
          observations.newSubscribers.known += 1
          if subscriber { observations.newSubscribers.yes += 1 }
        } else {
          observations.existingSubscribers.known += 1
          if subscriber { observations.existingSubscribers.yes += 1 }
        }
      }
    }
    users.removeAll()
    return observations
  }
}
