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
      life.timerEpoch &+= 1
      return
    }
    if grouped {
      tellGroup(event, tally: &tally)
      return
    }
    if lane.listenerDelay != nil, routeBeforeListener(event, tally: &tally) { return }
    lane.coordinator.handle(event, at: life.now, into: &actions)
    traceDecision()
    for request in actions.displays {
      attemptDisplay(request, tally: &tally)
    }
    if let wake = actions.wakeAt {
      life.timerEpoch &+= 1
      queue.push(
        time: max(wake, life.now), payload: _Event(kind: .policyTimer, epoch: life.timerEpoch))
    } else {
      life.timerEpoch &+= 1  // cancels any earlier timer
    }
  }

  /// With a listener that attaches late (``PolicyConfiguration/listenerDelay``): a cold launch
  /// draws when it exists; a message delivered before then, and the results of its displays,
  /// go to StoreKit's own handling (`storekit-auto`) instead of the policy; the launch,
  /// termination and scene changes go to both. Returns whether the policy must not see it.
  mutating func routeBeforeListener(_ event: PolicyEvent, tally: inout Tally) -> Bool {
    guard let delay = lane.listenerDelay else { return false }
    let (toStoreKit, policySkips) = lane.route(
      event, at: life.now, delay: delay, stream: &policyStream)
    guard toStoreKit else { return false }
    // StoreKit's default asks for no timer; the policy's timer is left as it is.
    lane.storeKitDefault.handle(event, at: life.now, into: &actions)
    if Sink.recordsSteps, case .delivered = event {
      sink.step(
        TraceStep(
          time: life.now, screen: life.currentScreen, what: .policy, message: -1, reason: nil,
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
    messages[index].attempts += 1
    tally.displayAttempts += 1
    var code: UInt8 = 0
    if !(life.inForeground && life.sceneActive) {
      code = 1
    } else if scene.bernoulli(world.scenario.scene.displayFailureProbability) {
      code = 2
    }
    if code != 0 {
      tally.displayFailures += 1
      trace(code == 1 ? .displayFailedNoScene : .displayFailed, message: index)
    } else if messages[index].state == .pending {
      display(index, forced: request.forced, tally: &tally)
    } else {
      // StoreKit shows nothing for a message already shown or expired.
      trace(.displayNoOp, message: index)
    }
    queue.push(
      time: life.now, payload: _Event(kind: .displayResult, code: code, index: Int32(index)))
  }

  /// A message is shown: its latency, the screen under it, an interruption if that screen is
  /// of an interruptible kind, and a sheet.
  mutating func display(_ index: Int, forced: Bool, tally: inout Tally) {
    resolve(index, as: .displayed)
    messages[index].displayedAt = life.now
    messages[index].forced = forced
    messages[index].screen = Int32(life.currentScreen)
    let record = messages[index]
    let lane = record.reason.laneIndex
    let latency = life.now - record.issuedAt
    tally.displayed[lane] += 1
    recordDuration(latency, histogram: 0, lane: lane, tally: &tally)
    tally.latencySumMilliseconds[lane] += Int64((latency * 1000).rounded())
    // A policy can only show what StoreKit delivered, so deliveredAt is set.
    assert(!record.deliveredAt.isNaN, "displayed a message never delivered")
    recordDuration(life.now - record.deliveredAt, histogram: 1, lane: lane, tally: &tally)
    if forced { tally.fallbackFired += 1 }
    tally.sheets += 1
    trace(forced ? .displayedForced : .displayed, message: index)

    let kind = world.screenKinds[life.currentScreen]
    if kind.isInterruptible, !life.visitInterrupted {
      life.visitInterrupted = true
      tally.screenInterrupted[life.currentScreen] += 1
    }
    if kind == .onboarding, life.onboardingRunActive {
      if !life.onboardingRunInterrupted {
        life.onboardingRunInterrupted = true
        tally.onboardingRunsInterrupted += 1
      }
      if journey.bernoulli(world.scenario.onboarding.quitAfterSheetProbability) {
        life.quitAfterSheets = true
      }
    }
    life.sheetsWaiting += 1
    if !life.sheetShowing { startSheet() }
  }

  /// Puts the next waiting sheet up, pausing the screen under it.
  mutating func startSheet() {
    life.sheetsWaiting -= 1
    if !life.sheetShowing {
      life.sheetShowing = true
      life.sheetsThisBreak = 0
      if life.screenEndsAt.isFinite {
        life.pausedRemaining = max(0, life.screenEndsAt - life.now)
        life.screenEndsAt = .infinity
        life.screenEpoch &+= 1
      }
    }
    life.sheetsThisBreak += 1
    queue.push(time: life.now + world.sheetDwell.draw(&sheet), payload: _Event(kind: .sheetEnd))
  }

  /// A sheet is dismissed: the next one, or the screen resumes (or the user quits).
  mutating func endSheet(tally: inout Tally) {
    if life.sheetsWaiting > 0 {
      startSheet()
      return
    }
    life.sheetShowing = false
    tally.breaks += 1
    tally.sheetsInBreaks += life.sheetsThisBreak
    tally.maxSheetsPerBreak = max(tally.maxSheetsPerBreak, life.sheetsThisBreak)
    trace(.sheetsDismissed, message: -1)
    if life.quitAfterSheets {
      life.quitAfterSheets = false
      trace(.quitAfterSheet, message: -1)
      goToBackground(tally: &tally)
      return
    }
    if life.inForeground, !life.pausedRemaining.isNaN {
      life.screenEpoch &+= 1
      life.screenEndsAt = life.now + life.pausedRemaining
      life.pausedRemaining = .nan
      queue.push(
        time: life.screenEndsAt, payload: _Event(kind: .screenEnd, epoch: life.screenEpoch))
    }
  }

  /// At the horizon: what each message became, deadline misses, time in the app.
  mutating func finish(tally: inout Tally) {
    if life.inForeground {
      tally.simulatedSeconds += Int64((life.now - life.foregroundSince).rounded())
    }
    let horizon = world.scenario.horizon
    for record in messages {
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
