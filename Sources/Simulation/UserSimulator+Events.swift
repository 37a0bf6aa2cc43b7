import MessageDeferral

extension UserSimulator {
  /// Handles one event; returns whether it was live (stale events are skipped).
  mutating func handle(_ event: _Event, tally: inout Tally) -> Bool {
    switch event.kind {
    case .open:
      guard !churned else { return false }
      open(tally: &tally)
    case .sceneActive:
      guard event.epoch == foregroundEpoch, inForeground else { return false }
      sceneActive = true
      trace(.sceneActivated, message: -1)
      tell(.sceneActivated, tally: &tally)
    case .screenEnd:
      guard event.epoch == screenEpoch, inForeground, !sheetShowing else { return false }
      leaveScreen(tally: &tally)
    case .fetch:
      guard event.epoch == foregroundEpoch, inForeground else { return false }
      deliverHeldMessages(tally: &tally)
    case .issue:
      let index = Int(event.index)
      tally.issued[messages[index].reason.laneIndex] += 1
      trace(.issued, message: index)
      if processAlive, inForeground { deliver(index, tally: &tally) }
    case .expire:
      let index = Int(event.index)
      guard messages[index].state == .pending else { return false }
      messages[index].state = .expired
      trace(.expired, message: index)
    case .displayResult:
      let id = MessageID(event.index)
      switch event.code {
      case 0: tell(.displaySucceeded(id), tally: &tally)
      case 1: tell(.displayFailed(id, .noActiveScene), tally: &tally)
      default: tell(.displayFailed(id, .presentationFailed), tally: &tally)
      }
    case .sheetEnd:
      endSheet(tally: &tally)
    case .policyTimer:
      guard event.epoch == timerEpoch else { return false }
      tell(.timerFired, tally: &tally)
    }
    return true
  }

  // MARK: Sessions

  mutating func open(tally: inout Tally) {
    inForeground = true
    foregroundEpoch &+= 1
    foregroundSince = now
    let epoch = foregroundEpoch
    let coldLaunch = !processAlive
    if coldLaunch {
      processAlive = true
      for index in messages.indices { messages[index].deliveredInProcess = false }
      trace(.coldLaunch, message: -1)
      tell(.processLaunched, tally: &tally)
      show(world.scenario.entries.coldLaunch, tally: &tally)
    } else {
      trace(.warmResume, message: -1)
      screenSince = now
      // The user is back on the screen they left, with a fresh dwell.
      startDwell()
    }
    queue.push(
      time: now + world.activationDelay.draw(&scene),
      payload: _Event(kind: .sceneActive, epoch: epoch))
    if coldLaunch || resumeFetches {
      queue.push(
        time: now + world.fetchDelay.draw(&scene), payload: _Event(kind: .fetch, epoch: epoch))
    }
  }

  /// Whether StoreKit fetches at this warm resume (``DeliveryMode``).
  var resumeFetches: Bool {
    switch world.scenario.sessions.delivery {
    case .launch: false
    case .launchAndResume: hasUndelivered
    case .everyForeground: true
    }
  }

  /// Whether a message issued while the app was away still waits for this process.
  var hasUndelivered: Bool {
    messages.contains { $0.state == .pending && !$0.deliveredInProcess && $0.issuedAt <= now }
  }

  /// The app goes to the background: the session ends; the process may be terminated.
  mutating func goToBackground(tally: inout Tally) {
    creditScreenTime(tally: &tally)
    tally.simulatedSeconds += Int64((now - foregroundSince).rounded())
    inForeground = false
    sceneActive = false
    foregroundEpoch &+= 1
    screenEpoch &+= 1
    screenEndsAt = .infinity
    trace(.background, message: -1)
    tell(.sceneDeactivated, tally: &tally)
    let leftDuringOnboarding = onboardingRunActive
    // With a survival distribution the gap is drawn first: the process dies iff it survives
    // less than the gap. A suspended app runs no code, so it is marked terminated now (what
    // the policy and the trace see is the same as at the moment iOS reclaims it).
    let gap: Double
    let terminated: Bool
    if let survival = world.backgroundSurvival {
      gap = world.gap.draw(&journey)
      terminated = survival.draw(&journey) <= gap
    } else {
      gap = .nan
      terminated = journey.bernoulli(world.scenario.sessions.backgroundTerminationProbability)
    }
    if terminated {
      processAlive = false
      if onboardingRunActive { onboardingRunActive = false }  // abandoned; restarts at launch
      trace(.terminated, message: -1)
      tell(.processTerminated, tally: &tally)
    }
    if leftDuringOnboarding,
      journey.bernoulli(world.scenario.onboarding.neverReturnAfterLeavingProbability)
    {
      churned = true
      trace(.churned, message: -1)
      return
    }
    let away = gap.isNaN ? world.gap.draw(&journey) : gap
    queue.push(time: now + away, payload: _Event(kind: .open))
  }

  // MARK: Screens

  /// Shows screen `index`: a visit, onboarding bookkeeping, the policy told, a dwell drawn.
  mutating func show(_ index: Int, tally: inout Tally) {
    let kind = world.screenKinds[index]
    let previousKind = currentScreen >= 0 ? world.screenKinds[currentScreen] : nil
    creditScreenTime(tally: &tally)
    screenSince = now
    currentScreen = index
    visitInterrupted = false
    tally.screenVisits[index] += 1
    if kind == .onboarding {
      if !onboardingRunActive {
        onboardingRunActive = true
        onboardingRunInterrupted = false
        tally.onboardingRunsStarted += 1
        if !startedOnboarding, profile.isNew {
          startedOnboarding = true
          tally.newUsersOnboarding += 1
        }
      }
    } else if onboardingRunActive, previousKind == .onboarding {
      onboardingRunActive = false
      tally.onboardingRunsCompleted += 1
      if !completedOnboarding {
        completedOnboarding = true
        if profile.isNew { tally.newUsersCompleted += 1 }
      }
    }
    trace(.screenAppeared, message: -1)
    startDwell()
    tell(.screenAppeared(kind), tally: &tally)
  }

  /// Adds the time since ``screenSince`` to the current screen, and stops counting.
  mutating func creditScreenTime(tally: inout Tally) {
    guard !screenSince.isNaN, currentScreen >= 0 else { return }
    tally.screenMilliseconds[currentScreen] += Int64(((now - screenSince) * 1000).rounded())
    screenSince = .nan
  }

  /// Draws the dwell on the current screen and schedules its end (paused while a sheet shows).
  mutating func startDwell() {
    let dwell = world.dwell[currentScreen].draw(&journey)
    screenEpoch &+= 1
    if sheetShowing {
      pausedRemaining = dwell
      screenEndsAt = .infinity
    } else {
      screenEndsAt = now + dwell
      queue.push(time: screenEndsAt, payload: _Event(kind: .screenEnd, epoch: screenEpoch))
    }
  }

  /// The dwell ended: where next (the entries after the splash, else the screen's transitions).
  mutating func leaveScreen(tally: inout Tally) {
    guard let table = world.transitionPointers[currentScreen] else {
      // The launch screen has no transitions: the entries decide what follows it.
      let entries = world.scenario.entries
      show(completedOnboarding ? entries.returning : entries.newUser, tally: &tally)
      return
    }
    let choice = AliasTable.draw(&journey, from: table)
    let target = world.transitionTargetIndex[Int(world.transitionOffset[currentScreen]) + choice]
    if target < 0 {
      goToBackground(tally: &tally)
    } else {
      show(Int(target), tally: &tally)
    }
  }

  // MARK: Delivery

  /// StoreKit delivers what it holds: every pending message not yet delivered to this process
  /// (with `every_foreground` delivery: every pending message).
  mutating func deliverHeldMessages(tally: inout Tally) {
    let again = world.scenario.sessions.delivery == .everyForeground
    for index in messages.indices
    where messages[index].state == .pending && messages[index].issuedAt <= now
      && (again || !messages[index].deliveredInProcess)
    {
      deliver(index, tally: &tally)
    }
  }

  mutating func deliver(_ index: Int, tally: inout Tally) {
    guard messages[index].state == .pending else { return }
    messages[index].deliveredInProcess = true
    if messages[index].deliveredAt.isNaN { messages[index].deliveredAt = now }
    let record = messages[index]
    trace(.delivered, message: index)
    let message = Message(
      id: MessageID(index), reason: record.reason, firstIssuedAt: record.issuedAt,
      deliveredAt: now, deadline: record.deadline.isFinite ? record.deadline : nil)
    tell(.delivered(message), tally: &tally)
  }
}
