import MessageDeferral

extension UserSimulator {
  /// Handles one event; returns whether it was live (stale events are skipped).
  mutating func handle(_ event: _Event, tally: inout Tally) -> Bool {
    switch event.kind {
    case .open:
      guard !life.churned else { return false }
      open(tally: &tally)
    case .sceneActive:
      guard event.epoch == life.foregroundEpoch, life.inForeground else { return false }
      life.sceneActive = true
      trace(.sceneActivated, message: -1)
      tell(.sceneActivated, tally: &tally)
    case .screenEnd:
      guard event.epoch == life.screenEpoch, life.inForeground, !life.sheetShowing else {
        return false
      }
      leaveScreen(tally: &tally)
    case .fetch:
      guard event.epoch == life.foregroundEpoch, life.inForeground else { return false }
      deliverHeldMessages(tally: &tally)
    case .issue:
      let index = Int(event.index)
      tally.issued[messages[index].reason.laneIndex] += 1
      trace(.issued, message: index)
      if life.processAlive, life.inForeground { deliver(index, tally: &tally) }
    case .expire:
      let index = Int(event.index)
      guard messages[index].state == .pending else { return false }
      resolve(index, as: .expired)
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
      guard event.epoch == life.timerEpoch else { return false }
      tell(.timerFired, tally: &tally)
    }
    return true
  }

  // MARK: Sessions

  mutating func open(tally: inout Tally) {
    life.inForeground = true
    life.foregroundEpoch &+= 1
    life.foregroundSince = life.now
    let epoch = life.foregroundEpoch
    let coldLaunch = !life.processAlive
    if coldLaunch {
      life.processAlive = true
      startProcess()
      trace(.coldLaunch, message: -1)
      tell(.processLaunched, tally: &tally)
      show(world.scenario.entries.coldLaunch, tally: &tally)
    } else {
      trace(.warmResume, message: -1)
      life.screenSince = life.now
      // The user is back on the screen they left, with a fresh dwell.
      startDwell()
    }
    queue.push(
      time: life.now + world.activationDelay.draw(&scene),
      payload: _Event(kind: .sceneActive, epoch: epoch))
    if coldLaunch || resumeFetches {
      queue.push(
        time: life.now + world.fetchDelay.draw(&scene), payload: _Event(kind: .fetch, epoch: epoch))
    }
  }

  /// Whether StoreKit fetches at this warm resume (``DeliveryMode``).
  var resumeFetches: Bool {
    mutating get {
      switch world.scenario.sessions.delivery {
      case .launch: false
      case .launchAndResume: hasUndelivered
      case .everyForeground: true
      }
    }
  }

  /// The app goes to the background: the session ends; the process may be terminated.
  mutating func goToBackground(tally: inout Tally) {
    creditScreenTime(tally: &tally)
    tally.simulatedSeconds += Int64((life.now - life.foregroundSince).rounded())
    life.inForeground = false
    life.sceneActive = false
    life.foregroundEpoch &+= 1
    life.screenEpoch &+= 1
    life.screenEndsAt = .infinity
    trace(.background, message: -1)
    tell(.sceneDeactivated, tally: &tally)
    let leftDuringOnboarding = life.onboardingRunActive
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
      life.processAlive = false
      // An onboarding run is abandoned; it restarts at launch.
      if life.onboardingRunActive { life.onboardingRunActive = false }
      trace(.terminated, message: -1)
      tell(.processTerminated, tally: &tally)
    }
    if leftDuringOnboarding,
      journey.bernoulli(world.scenario.onboarding.neverReturnAfterLeavingProbability)
    {
      life.churned = true
      trace(.churned, message: -1)
      return
    }
    let away = gap.isNaN ? world.gap.draw(&journey) : gap
    queue.push(time: life.now + away, payload: _Event(kind: .open))
  }

  // MARK: Screens

  /// Shows screen `index`: a visit, onboarding bookkeeping, the policy told, a dwell drawn.
  mutating func show(_ index: Int, tally: inout Tally) {
    let kind = world.screenKinds[index]
    let previousKind = life.currentScreen >= 0 ? world.screenKinds[life.currentScreen] : nil
    creditScreenTime(tally: &tally)
    life.screenSince = life.now
    life.currentScreen = index
    life.visitInterrupted = false
    tally.screenVisits[index] += 1
    if kind == .onboarding {
      if !life.onboardingRunActive {
        life.onboardingRunActive = true
        life.onboardingRunInterrupted = false
        tally.onboardingRunsStarted += 1
        if !life.startedOnboarding, life.profile.isNew {
          life.startedOnboarding = true
          tally.newUsersOnboarding += 1
        }
      }
    } else if life.onboardingRunActive, previousKind == .onboarding {
      life.onboardingRunActive = false
      tally.onboardingRunsCompleted += 1
      if !life.completedOnboarding {
        life.completedOnboarding = true
        if life.profile.isNew { tally.newUsersCompleted += 1 }
      }
    }
    trace(.screenAppeared, message: -1)
    startDwell()
    tell(.screenAppeared(kind), tally: &tally)
  }

  /// Adds the time since ``_Life/screenSince`` to the current screen, and stops counting.
  mutating func creditScreenTime(tally: inout Tally) {
    guard !life.screenSince.isNaN, life.currentScreen >= 0 else { return }
    tally.screenMilliseconds[life.currentScreen] += Int64(
      ((life.now - life.screenSince) * 1000).rounded())
    life.screenSince = .nan
  }

  /// Draws the dwell on the current screen and schedules its end (paused while a sheet shows).
  mutating func startDwell() {
    let dwell = world.dwell[life.currentScreen].draw(&journey)
    life.screenEpoch &+= 1
    if life.sheetShowing {
      life.pausedRemaining = dwell
      life.screenEndsAt = .infinity
    } else {
      life.screenEndsAt = life.now + dwell
      queue.push(
        time: life.screenEndsAt, payload: _Event(kind: .screenEnd, epoch: life.screenEpoch))
    }
  }

  /// The dwell ended: where next (the entries after the splash, else the screen's transitions).
  mutating func leaveScreen(tally: inout Tally) {
    guard let table = world.transitionPointers[life.currentScreen] else {
      // The launch screen has no transitions: the entries decide what follows it.
      let entries = world.scenario.entries
      show(life.completedOnboarding ? entries.returning : entries.newUser, tally: &tally)
      return
    }
    let choice = AliasTable.draw(&journey, from: table)
    let target = world.transitionTargetIndex[
      Int(world.transitionOffset[life.currentScreen]) + choice]
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
    // Most fetches find nothing: known without a scan.
    guard again ? hasArrivedPending : hasUndelivered else { return }
    for index in messages.indices
    where messages[index].state == .pending && messages[index].issuedAt <= life.now
      && (again || messages[index].deliveredInProcess != life.process)
    {
      deliver(index, tally: &tally)
    }
  }

  mutating func deliver(_ index: Int, tally: inout Tally) {
    precondition(!inTrunk, "A shared trunk must fork before a delivery (deliversMessage)")
    guard messages[index].state == .pending else { return }
    markDelivered(index)
    if messages[index].deliveredAt.isNaN { messages[index].deliveredAt = life.now }
    let record = messages[index]
    trace(.delivered, message: index)
    let message = Message(
      id: MessageID(index), reason: record.reason, firstIssuedAt: record.issuedAt,
      deliveredAt: life.now, deadline: record.deadline.isFinite ? record.deadline : nil)
    tell(.delivered(message), tally: &tally)
  }
}
