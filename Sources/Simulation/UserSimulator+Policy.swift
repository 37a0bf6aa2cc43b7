import MessageDeferral

extension UserSimulator {
  /// Tells the policy about `event` and carries out its answer: display attempts (whose
  /// results come back through the event queue, at the same time, after what is already
  /// queued for it) and its timer.
  mutating func tell(_ event: PolicyEvent, tally: inout Tally) {
    if listenerDelay != nil, routeBeforeListener(event, tally: &tally) { return }
    coordinator.handle(event, at: now, into: &actions)
    traceDecision()
    for request in actions.displays {
      attemptDisplay(request, tally: &tally)
    }
    if let wake = actions.wakeAt {
      timerEpoch &+= 1
      queue.push(time: max(wake, now), payload: _Event(kind: .policyTimer, epoch: timerEpoch))
    } else {
      timerEpoch &+= 1  // cancels any earlier timer
    }
  }

  /// With a listener that attaches late (``PolicyConfiguration/listenerDelay``): a cold launch
  /// draws when it exists; a message delivered before then, and the results of its displays,
  /// go to StoreKit's own handling (`storekit-auto`) instead of the policy; the launch,
  /// termination and scene changes go to both. Returns whether the policy must not see it.
  mutating func routeBeforeListener(_ event: PolicyEvent, tally: inout Tally) -> Bool {
    let toStoreKit: Bool
    var policySkips = false
    switch event {
    case .processLaunched:
      listenerReadyAt = now + (listenerDelay?.draw(&policyStream) ?? 0)
      toStoreKit = true
    case .processTerminated, .sceneActivated, .sceneDeactivated:
      toStoreKit = true
    case .delivered:
      toStoreKit = now < listenerReadyAt
      policySkips = toStoreKit
    case .displaySucceeded(let id), .displayFailed(let id, _):
      toStoreKit = storeKitDefault.isAwaitingResult(id)
      policySkips = toStoreKit
    case .screenAppeared, .timerFired:
      toStoreKit = false
    }
    guard toStoreKit else { return false }
    // StoreKit's default asks for no timer; the policy's timer is left as it is.
    storeKitDefault.handle(event, at: now, into: &actions)
    if Sink.recordsSteps, case .delivered = event {
      sink.step(
        TraceStep(
          time: now, screen: currentScreen, what: .policy, message: -1, reason: nil,
          decision: actions.displays.isEmpty ? "StoreKit holds it" : "StoreKit displays it",
          why: "no listener until \(TraceFormat.clock(listenerReadyAt))"))
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
    if !(inForeground && sceneActive) {
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
    queue.push(time: now, payload: _Event(kind: .displayResult, code: code, index: Int32(index)))
  }

  /// A message is shown: its latency, the screen under it, an interruption if that screen is
  /// of an interruptible kind, and a sheet.
  mutating func display(_ index: Int, forced: Bool, tally: inout Tally) {
    messages[index].state = .displayed
    messages[index].displayedAt = now
    messages[index].forced = forced
    messages[index].screen = Int32(currentScreen)
    let record = messages[index]
    let lane = record.reason.laneIndex
    let latency = now - record.issuedAt
    tally.displayed[lane] += 1
    tally.latency[lane].record(latency)
    tally.latencySumMilliseconds[lane] += Int64((latency * 1000).rounded())
    // A policy can only show what StoreKit delivered, so deliveredAt is set.
    assert(!record.deliveredAt.isNaN, "displayed a message never delivered")
    tally.hold[lane].record(now - record.deliveredAt)
    if forced { tally.fallbackFired += 1 }
    tally.sheets += 1
    trace(forced ? .displayedForced : .displayed, message: index)

    let kind = world.screenKinds[currentScreen]
    if kind.isInterruptible, !visitInterrupted {
      visitInterrupted = true
      tally.screenInterrupted[currentScreen] += 1
    }
    if kind == .onboarding, onboardingRunActive {
      if !onboardingRunInterrupted {
        onboardingRunInterrupted = true
        tally.onboardingRunsInterrupted += 1
      }
      if journey.bernoulli(world.scenario.onboarding.quitAfterSheetProbability) {
        quitAfterSheets = true
      }
    }
    sheetsWaiting += 1
    if !sheetShowing { startSheet() }
  }

  /// Puts the next waiting sheet up, pausing the screen under it.
  mutating func startSheet() {
    sheetsWaiting -= 1
    if !sheetShowing {
      sheetShowing = true
      sheetsThisBreak = 0
      if screenEndsAt.isFinite {
        pausedRemaining = max(0, screenEndsAt - now)
        screenEndsAt = .infinity
        screenEpoch &+= 1
      }
    }
    sheetsThisBreak += 1
    queue.push(time: now + world.sheetDwell.draw(&sheet), payload: _Event(kind: .sheetEnd))
  }

  /// A sheet is dismissed: the next one, or the screen resumes (or the user quits).
  mutating func endSheet(tally: inout Tally) {
    if sheetsWaiting > 0 {
      startSheet()
      return
    }
    sheetShowing = false
    tally.breaks += 1
    tally.sheetsInBreaks += sheetsThisBreak
    tally.maxSheetsPerBreak = max(tally.maxSheetsPerBreak, sheetsThisBreak)
    trace(.sheetsDismissed, message: -1)
    if quitAfterSheets {
      quitAfterSheets = false
      trace(.quitAfterSheet, message: -1)
      goToBackground(tally: &tally)
      return
    }
    if inForeground, !pausedRemaining.isNaN {
      screenEpoch &+= 1
      screenEndsAt = now + pausedRemaining
      pausedRemaining = .nan
      queue.push(time: screenEndsAt, payload: _Event(kind: .screenEnd, epoch: screenEpoch))
    }
  }

  /// At the horizon: what each message became, deadline misses, time in the app.
  mutating func finish(tally: inout Tally) {
    if inForeground { tally.simulatedSeconds += Int64((now - foregroundSince).rounded()) }
    let horizon = world.scenario.horizon
    for (index, record) in messages.enumerated() {
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
      if Sink.recordsOutcomes {
        sink.outcome(
          MessageOutcome(
            message: index, reason: record.reason, issuedAt: record.issuedAt,
            deliveredAt: record.deliveredAt.isNaN ? nil : record.deliveredAt,
            displayedAt: record.state == .displayed ? record.displayedAt : nil,
            screen: record.screen >= 0 ? Int(record.screen) : nil, forced: record.forced,
            attempts: Int(record.attempts),
            outcome: record.state == .displayed
              ? "displayed" : record.state == .expired ? "expired" : "pending"),
          policy: policyIndex, replication: replication, user: user)
      }
    }
  }
}
