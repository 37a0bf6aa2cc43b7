import MessageDeferral

extension UserSimulator {
  /// Handles one event; returns whether it was live (stale events are skipped).
  mutating func handle<H: _Hearing>(_ event: _Event, tally: inout Tally, _: H.Type) -> Bool {
    switch event.kind {
    case .open:
      guard !world.churned else { return false }
      open(tally: &tally, H.self)
    case .sceneActive:
      guard event.epoch == world.foregroundEpoch, world.inForeground else { return false }
      world.sceneActive = true
      trace(.sceneActivated, message: -1, H.self)
      tell(.sceneActivated, tally: &tally, H.self)
    case .screenEnd:
      guard event.epoch == world.screenEpoch, world.inForeground, !world.sheetShowing else {
        return false
      }
      leaveScreen(tally: &tally, H.self)
    case .fetch:
      guard event.epoch == world.foregroundEpoch, world.inForeground else { return false }
      if deliversMessage(event) { deliverHeldMessages(tally: &tally, H.self) }
    case .issue:
      let index = Int(event.index)
      tally.issued[world.messages[index].reason.laneIndex] += 1
      trace(.issued, message: index, H.self)
      if deliversMessage(event) { deliver(index, tally: &tally, H.self) }
    case .expire:
      let index = Int(event.index)
      guard world.messages[index].state == .pending else { return false }
      resolve(index, as: .expired)
      trace(.expired, message: index, H.self)
    case .displayResult:
      tell(event.result.event(for: MessageID(event.index)), tally: &tally, H.self)
    case .sheetEnd:
      endSheet(tally: &tally, H.self)
    case .policyTimer:
      return H.timerFired(event, in: &self, tally: &tally)
    }
    return true
  }

  // MARK: Sessions

  mutating func open<H: _Hearing>(tally: inout Tally, _: H.Type) {
    world.inForeground = true
    world.foregroundEpoch &+= 1
    world.foregroundSince = world.now
    let epoch = world.foregroundEpoch
    let coldLaunch = !world.processAlive
    if compiled.hasPhases {
      world.sessionIndex &+= 1
      let from = compiled.phaseFrom
      while world.phase < from.count, from[world.phase] <= world.sessionIndex { world.phase += 1 }
    }
    if coldLaunch {
      world.sessionPosition = 0
      world.processAlive = true
      startProcess()
      trace(.coldLaunch, message: -1, H.self)
      tell(.processLaunched, tally: &tally, H.self)
      show(compiled.scenario.entries.coldLaunch, tally: &tally, H.self)
    } else {
      trace(.warmResume, message: -1, H.self)
      world.sessionPosition = 1
      world.previousScreen = noScreen
      world.screenSince = world.now
      // The user is back on the screen they left, with a fresh dwell.
      startDwell()
    }
    world.queue.push(
      time: world.now + compiled.activationDelay.draw(&streams.scene, at: world.now),
      payload: _Event(kind: .sceneActive, epoch: epoch))
    if coldLaunch || resumeFetches {
      world.queue.push(
        time: world.now + compiled.fetchDelay.draw(&streams.scene, at: world.now),
        payload: _Event(kind: .fetch, epoch: epoch))
    }
  }

  /// Whether StoreKit fetches at this warm resume (``DeliveryMode``).
  var resumeFetches: Bool {
    mutating get {
      switch compiled.scenario.sessions.delivery {
      case .launch: false
      case .launchAndResume: hasUndelivered
      case .everyForeground: true
      }
    }
  }

  /// The app goes to the background: the session ends; the process may be terminated.
  mutating func goToBackground<H: _Hearing>(tally: inout Tally, _: H.Type) {
    creditScreenTime(tally: &tally)
    tally.simulatedSeconds += Int64((world.now - world.foregroundSince).rounded())
    world.inForeground = false
    world.sceneActive = false
    world.foregroundEpoch &+= 1
    world.screenEpoch &+= 1
    world.screenEndsAt = .infinity
    trace(.background, message: -1, H.self)
    tell(.sceneDeactivated, tally: &tally, H.self)
    let leftDuringOnboarding = world.onboardingRunActive
    // With a survival distribution the gap is drawn first: the process dies iff it survives
    // less than the gap. A suspended app runs no code, so it is marked terminated now (what
    // the policy and the trace see is the same as at the moment iOS reclaims it).
    let gap: Double
    let terminated: Bool
    if let survival = compiled.backgroundSurvival {
      gap = realGap(drawGap())
      terminated = survival.draw(&streams.journey, at: world.now) <= gap
    } else {
      gap = .nan
      terminated = streams.journey.bernoulli(
        compiled.scenario.sessions.backgroundTerminationProbability)
    }
    if terminated {
      world.processAlive = false
      // An onboarding run is abandoned; it restarts at launch.
      if world.onboardingRunActive { world.onboardingRunActive = false }
      trace(.terminated, message: -1, H.self)
      tell(.processTerminated, tally: &tally, H.self)
    }
    if leftDuringOnboarding,
      streams.journey.bernoulli(compiled.scenario.onboarding.neverReturnAfterLeavingProbability)
    {
      world.churned = true
      trace(.churned, message: -1, H.self)
      return
    }
    // Leaving for good (`sessions.churn_probability`): a draw only with the key, so other
    // scenarios draw as before.
    let churn = compiled.scenario.sessions.churnProbability
    if churn > 0, streams.journey.bernoulli(churn) {
      world.churned = true
      trace(.churned, message: -1, H.self)
      return
    }
    let away = gap.isNaN ? realGap(drawGap()) : gap
    world.queue.push(time: world.now + away, payload: _Event(kind: .open))
  }

  /// A gap from `sessions.gap`, or the current phase's.
  @inline(__always)
  mutating func drawGap() -> Double {
    guard compiled.hasPhases else { return compiled.gap.draw(&streams.journey, at: world.now) }
    return compiled.phaseGap[world.phase].draw(&streams.journey, at: world.now)
  }

  /// The time away from now for a gap drawn from `sessions.gap`: the gap itself, or with a
  /// daily rhythm the real time the rhythm's active clock takes to cover it
  /// (``RhythmClock/time(after:from:)``).
  @inline(__always)
  func realGap(_ drawn: Double) -> Double {
    guard let rhythm = compiled.rhythm else { return drawn }
    return rhythm.time(after: drawn, from: world.now) - world.now
  }

  // MARK: Screens

  /// Shows screen `index`: a visit, onboarding bookkeeping, the policy told, a dwell drawn.
  mutating func show<H: _Hearing>(_ index: Int, tally: inout Tally, _: H.Type) {
    let kind = compiled.screenKinds[index]
    let previousKind = world.currentScreen >= 0 ? compiled.screenKinds[world.currentScreen] : nil
    creditScreenTime(tally: &tally)
    world.screenSince = world.now
    // At a cold launch the position is 0 until the first screen after the splash. Tracked
    // only when a `transitions_after` table reads it.
    if compiled.hasContexts {
      world.previousScreen =
        world.sessionPosition > 0 && previousKind != .launch ? world.currentScreen : noScreen
    }
    world.currentScreen = index
    if kind != .launch { world.sessionPosition += 1 }
    world.visitInterrupted = false
    tally.screenVisits[index] += 1
    if kind == .onboarding {
      if !world.onboardingRunActive {
        world.onboardingRunActive = true
        world.onboardingRunInterrupted = false
        tally.onboardingRunsStarted += 1
        if !world.startedOnboarding, world.profile.isNew {
          world.startedOnboarding = true
          tally.newUsersOnboarding += 1
        }
      }
    } else if world.onboardingRunActive, previousKind == .onboarding {
      world.onboardingRunActive = false
      tally.onboardingRunsCompleted += 1
      if !world.completedOnboarding {
        world.completedOnboarding = true
        if world.profile.isNew { tally.newUsersCompleted += 1 }
      }
    }
    trace(.screenAppeared, message: -1, H.self)
    startDwell()
    tell(.screenAppeared(kind), tally: &tally, H.self)
  }

  /// Adds the time since ``_World/screenSince`` to the current screen, and stops counting.
  mutating func creditScreenTime(tally: inout Tally) {
    guard !world.screenSince.isNaN, world.currentScreen >= 0 else { return }
    tally.screenMilliseconds[world.currentScreen] += Int64(
      ((world.now - world.screenSince) * 1000).rounded())
    world.screenSince = .nan
  }

  /// Draws the dwell on the current screen and schedules its end (paused while a sheet shows).
  mutating func startDwell() {
    let dwell = compiled.dwell[world.currentScreen].draw(&streams.journey, at: world.now)
    world.screenEpoch &+= 1
    if world.sheetShowing {
      world.pausedRemaining = dwell
      world.screenEndsAt = .infinity
    } else {
      world.screenEndsAt = world.now + dwell
      world.queue.push(
        time: world.screenEndsAt, payload: _Event(kind: .screenEnd, epoch: world.screenEpoch))
    }
  }

  /// The dwell ended: where next (the entries after the splash, else the screen's transitions).
  mutating func leaveScreen<H: _Hearing>(tally: inout Tally, _: H.Type) {
    var row = world.currentScreen
    if compiled.hasPhases {
      row = Int(compiled.phaseRow[world.phase * compiled.screenKinds.count + row])
    }
    if compiled.hasContexts {
      row = compiled.row(world.currentScreen, after: world.previousScreen, otherwise: row)
    }
    guard let table = compiled.transitionPointers[row] else {
      // The launch screen has no transitions: the entries decide what follows it (a draw only
      // with a returning mix, so a scenario without one draws what it always drew).
      let entries = compiled.scenario.entries
      var next = world.completedOnboarding ? entries.returning : entries.newUser
      if world.completedOnboarding {
        if compiled.hasPhases {
          if let mix = compiled.phaseReturningTable[world.phase] {
            next = Int(compiled.phaseReturningTargets[world.phase][mix.draw(&streams.journey)])
          }
        } else if let mix = compiled.returningTable {
          next = Int(compiled.returningTargets[mix.draw(&streams.journey)])
        }
      }
      show(next, tally: &tally, H.self)
      return
    }
    if !compiled.leaveOdds.isEmpty {
      let background = compiled.backgroundProbability[row]
      if background > 0, background < 1, let stay = compiled.stayTables[row] {
        leaveWithPositionOdds(background, stay, targets: row, tally: &tally, H.self)
        return
      }
    }
    let choice = AliasTable.draw(&streams.journey, from: table)
    let target = compiled.transitionTargetIndex[Int(compiled.transitionOffset[row]) + choice]
    if target < 0 {
      goToBackground(tally: &tally, H.self)
    } else {
      show(Int(target), tally: &tally, H.self)
    }
  }

  /// Leaves the current screen under `leave_odds_by_position`: to the background with the
  /// screen's probability `p` at odds times the position's factor *r*, *r p* / (1 − *p* + *r p*);
  /// else to one of its other transitions in proportion to their probabilities (those of
  /// transitions row `row`).
  mutating func leaveWithPositionOdds<H: _Hearing>(
    _ p: Double, _ stay: AliasTable, targets row: Int, tally: inout Tally, _: H.Type
  ) {
    let odds = compiled.leaveOdds
    let factor = odds[min(max(world.sessionPosition, 1), odds.count) - 1]
    let leave = factor * p / (1 - p + factor * p)
    if streams.journey.bernoulli(leave) {
      goToBackground(tally: &tally, H.self)
    } else {
      let next = compiled.stayTargets[row][stay.draw(&streams.journey)]
      show(Int(next), tally: &tally, H.self)
    }
  }

  // MARK: Delivery

  /// StoreKit delivers what it holds: every pending message not yet delivered to this process
  /// (with `every_foreground` delivery: every pending message). Called only when
  /// ``deliversMessage(_:)`` says the fetch delivers something (most find nothing: known
  /// without a scan).
  mutating func deliverHeldMessages<H: _Hearing>(tally: inout Tally, _: H.Type) {
    let again = compiled.scenario.sessions.delivery == .everyForeground
    for index in world.messages.indices
    where world.messages[index].state == .pending && world.messages[index].issuedAt <= world.now
      && (again || world.messages[index].deliveredInProcess != world.process)
    {
      deliver(index, tally: &tally, H.self)
    }
  }

  /// Whether handling `event` now delivers a message to the app: the world's one delivery
  /// rule. ``handle(_:tally:)`` delivers (an issue in the foreground, a fetch that finds
  /// something) exactly when this holds, so a strategy that must stop before the first
  /// delivery (the shared trunk) asks this and mirrors nothing. An event of a new kind that
  /// delivers must say so here.
  mutating func deliversMessage(_ event: _Event) -> Bool {
    switch event.kind {
    case .issue:
      return world.processAlive && world.inForeground
        && world.messages[Int(event.index)].state == .pending
    case .fetch:
      guard event.epoch == world.foregroundEpoch, world.inForeground else { return false }
      return compiled.scenario.sessions.delivery == .everyForeground
        ? hasArrivedPending : hasUndelivered
    default:
      return false
    }
  }

  mutating func deliver<H: _Hearing>(_ index: Int, tally: inout Tally, _: H.Type) {
    guard world.messages[index].state == .pending else { return }
    markDelivered(index)
    if world.messages[index].deliveredAt.isNaN { world.messages[index].deliveredAt = world.now }
    let record = world.messages[index]
    trace(.delivered, message: index, H.self)
    let message = Message(
      id: MessageID(index), reason: record.reason, firstIssuedAt: record.issuedAt,
      deliveredAt: world.now, deadline: record.deadline.isFinite ? record.deadline : nil)
    tell(.delivered(message), tally: &tally, H.self)
  }
}
