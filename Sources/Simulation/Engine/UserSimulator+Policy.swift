import MessageDeferral

extension UserSimulator {
  /// Tells the policy about `event` and carries out its answer: display attempts (whose
  /// results come back through the event queue, at the same time, after what is already
  /// queued for it) and its timer.
  mutating func tell(_ event: PolicyEvent, tally: inout Tally) {
    if inTrunk {
      // No policy can act before a delivery: each lane hears this when the trunk forks, and
      // the timer is cancelled as by any answer that asks for none.
      logForLanes(event)
      world.timerEpoch &+= 1
      return
    }
    if grouped {
      tellGroup(event, tally: &tally)
      return
    }
    if lane.listenerDelay != nil, routeBeforeListener(event, tally: &tally) { return }
    lane.coordinator.handle(event, at: world.now, into: &actions)
    traceDecision()
    for request in actions.displays {
      attemptDisplay(request, tally: &tally)
    }
    if let wake = actions.wakeAt {
      world.timerEpoch &+= 1
      world.queue.push(
        time: max(wake, world.now), payload: _Event(kind: .policyTimer, epoch: world.timerEpoch))
    } else {
      world.timerEpoch &+= 1  // cancels any earlier timer
    }
  }

  /// With a listener that attaches late (``PolicyConfiguration/listenerDelay``): a cold launch
  /// draws when it exists; a message delivered before then, and the results of its displays,
  /// go to StoreKit's own handling (`storekit-auto`) instead of the policy; the launch,
  /// termination and scene changes go to both. Returns whether the policy must not see it.
  mutating func routeBeforeListener(_ event: PolicyEvent, tally: inout Tally) -> Bool {
    guard let delay = lane.listenerDelay else { return false }
    let (toStoreKit, policySkips) = lane.route(
      event, at: world.now, delay: delay, stream: &policyStream)
    guard toStoreKit else { return false }
    // StoreKit's default asks for no timer; the policy's timer is left as it is.
    lane.storeKitDefault.handle(event, at: world.now, into: &actions)
    if Sink.recordsSteps, case .delivered = event {
      sink.step(
        TraceStep(
          time: world.now, screen: world.currentScreen, what: .policy, message: -1, reason: nil,
          decision: TraceDecision(
            .storeKit(
              displays: !actions.displays.isEmpty, listenerReadyAt: lane.listenerReadyAt))))
    }
    for request in actions.displays {
      attemptDisplay(request, tally: &tally)
    }
    return policySkips
  }

  /// One display attempt: fails without an active scene, or with the scenario's failure
  /// probability; a successful display of a message still pending puts a sheet up.
  mutating func attemptDisplay(_ request: DisplayRequest, tally: inout Tally) {
    let index = Int(request.message.id)
    world.messages[index].attempts += 1
    tally.displayAttempts += 1
    var code: UInt8 = 0
    if !(world.inForeground && world.sceneActive) {
      code = 1
    } else if streams.scene.bernoulli(compiled.scenario.scene.displayFailureProbability) {
      code = 2
    }
    if code != 0 {
      tally.displayFailures += 1
      trace(code == 1 ? .displayFailedNoScene : .displayFailed, message: index)
    } else if world.messages[index].state == .pending {
      display(index, forced: request.forced, tally: &tally)
    } else {
      // StoreKit shows nothing for a message already shown or expired.
      trace(.displayNoOp, message: index)
    }
    world.queue.push(
      time: world.now, payload: _Event(kind: .displayResult, code: code, index: Int32(index)))
  }

  /// A message is shown: its latency, the screen under it, an interruption if that screen is
  /// of an interruptible kind, and a sheet.
  mutating func display(_ index: Int, forced: Bool, tally: inout Tally) {
    resolve(index, as: .displayed)
    world.messages[index].displayedAt = world.now
    world.messages[index].forced = forced
    world.messages[index].screen = Int32(world.currentScreen)
    let record = world.messages[index]
    let lane = record.reason.laneIndex
    let latency = world.now - record.issuedAt
    tally.displayed[lane] += 1
    recordDuration(latency, histogram: 0, lane: lane, tally: &tally)
    tally.latencySumMilliseconds[lane] += Int64((latency * 1000).rounded())
    // A policy can only show what StoreKit delivered, so deliveredAt is set.
    assert(!record.deliveredAt.isNaN, "displayed a message never delivered")
    recordDuration(world.now - record.deliveredAt, histogram: 1, lane: lane, tally: &tally)
    if forced { tally.fallbackFired += 1 }
    tally.sheets += 1
    trace(forced ? .displayedForced : .displayed, message: index)

    let kind = compiled.screenKinds[world.currentScreen]
    if kind.isInterruptible, !world.visitInterrupted {
      world.visitInterrupted = true
      tally.screenInterrupted[world.currentScreen] += 1
    }
    if kind == .onboarding, world.onboardingRunActive {
      if !world.onboardingRunInterrupted {
        world.onboardingRunInterrupted = true
        tally.onboardingRunsInterrupted += 1
      }
      if streams.journey.bernoulli(compiled.scenario.onboarding.quitAfterSheetProbability) {
        world.quitAfterSheets = true
      }
    }
    world.sheetsWaiting += 1
    if !world.sheetShowing { startSheet() }
  }

  /// Puts the next waiting sheet up, pausing the screen under it.
  mutating func startSheet() {
    world.sheetsWaiting -= 1
    if !world.sheetShowing {
      world.sheetShowing = true
      world.sheetsThisBreak = 0
      if world.screenEndsAt.isFinite {
        world.pausedRemaining = max(0, world.screenEndsAt - world.now)
        world.screenEndsAt = .infinity
        world.screenEpoch &+= 1
      }
    }
    world.sheetsThisBreak += 1
    world.queue.push(
      time: world.now + compiled.sheetDwell.draw(&streams.sheet), payload: _Event(kind: .sheetEnd))
  }

  /// A sheet is dismissed: the next one, or the screen resumes (or the user quits).
  mutating func endSheet(tally: inout Tally) {
    if world.sheetsWaiting > 0 {
      startSheet()
      return
    }
    world.sheetShowing = false
    tally.breaks += 1
    tally.sheetsInBreaks += world.sheetsThisBreak
    tally.maxSheetsPerBreak = max(tally.maxSheetsPerBreak, world.sheetsThisBreak)
    trace(.sheetsDismissed, message: -1)
    if world.quitAfterSheets {
      world.quitAfterSheets = false
      trace(.quitAfterSheet, message: -1)
      goToBackground(tally: &tally)
      return
    }
    if world.inForeground, !world.pausedRemaining.isNaN {
      world.screenEpoch &+= 1
      world.screenEndsAt = world.now + world.pausedRemaining
      world.pausedRemaining = .nan
      world.queue.push(
        time: world.screenEndsAt, payload: _Event(kind: .screenEnd, epoch: world.screenEpoch))
    }
  }

  /// At the horizon: what each message became, deadline misses, time in the app.
  mutating func finish(tally: inout Tally) {
    if world.inForeground {
      tally.simulatedSeconds += Int64((world.now - world.foregroundSince).rounded())
    }
    let horizon = compiled.scenario.horizon
    for record in world.messages {
      let lane = record.reason.laneIndex
      switch record.state {
      case .pending: tally.pending[lane] += 1
      case .expired: tally.expired[lane] += 1
      case .displayed: break
      }
      if record.reason == .priceIncreaseConsent, record.deadline <= horizon {
        tally.consentDeadlinesDue += 1
        let shownInTime = record.state == .displayed && record.displayedAt <= record.deadline
        let resolved = record.state == .expired && record.expiresAt <= record.deadline
        if !shownInTime, !resolved { tally.consentDeadlineMisses += 1 }
      }
    }
  }
}
