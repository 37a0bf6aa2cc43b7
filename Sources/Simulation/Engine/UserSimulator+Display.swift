import MessageDeferral

/// Display attempts and sheets: what StoreKit does with a policy's display request, what a
/// sheet shown does to the screen under it and to onboarding.
extension UserSimulator {
  /// One display attempt: fails without an active scene, or with the scenario's failure
  /// probability; a successful display of a message still pending puts a sheet up.
  mutating func attemptDisplay<H: _Hearing>(
    _ request: DisplayRequest, tally: inout Tally, _: H.Type
  ) {
    let index = Int(request.message.id)
    world.messages[index].attempts += 1
    tally.displayAttempts += 1
    let result: _Event.DisplayResult
    if !(world.inForeground && world.sceneActive) {
      result = .noActiveScene
    } else if streams.scene.bernoulli(compiled.scenario.scene.displayFailureProbability) {
      result = .presentationFailed
    } else {
      result = .succeeded
    }
    if result != .succeeded {
      tally.displayFailures += 1
      trace(
        result == .noActiveScene ? .displayFailedNoScene : .displayFailed, message: index, H.self)
    } else if world.messages[index].state == .pending {
      display(index, forced: request.forced, tally: &tally, H.self)
    } else {
      // StoreKit shows nothing for a message already shown or expired.
      trace(.displayNoOp, message: index, H.self)
    }
    world.queue.push(
      time: world.now, payload: _Event(kind: .displayResult, result: result, index: Int32(index)))
  }

  /// A message is shown: its latency, the screen under it, an interruption if that screen is
  /// of an interruptible kind, and a sheet.
  mutating func display<H: _Hearing>(_ index: Int, forced: Bool, tally: inout Tally, _: H.Type) {
    resolve(index, as: .displayed)
    world.messages[index].displayedAt = world.now
    world.messages[index].forced = forced
    world.messages[index].screen = Int32(world.currentScreen)
    let record = world.messages[index]
    let lane = record.reason.laneIndex
    let latency = world.now - record.issuedAt
    tally.displayed[lane] += 1
    recordDuration(latency, histogram: 0, lane: lane, tally: &tally, H.self)
    tally.latencySumMilliseconds[lane] += Int64((latency * 1000).rounded())
    // A policy can only show what StoreKit delivered, so deliveredAt is set.
    assert(!record.deliveredAt.isNaN, "displayed a message never delivered")
    recordDuration(world.now - record.deliveredAt, histogram: 1, lane: lane, tally: &tally, H.self)
    if forced { tally.fallbackFired += 1 }
    tally.sheets += 1
    let kind = compiled.screenKinds[world.currentScreen]
    if let model = compiled.responses { respond(index, model: model, kind: kind, tally: &tally) }
    // One step per display (the conformance replay reads a display's result from the step
    // after its decision); it carries the response, if any.
    trace(forced ? .displayedForced : .displayed, message: index, H.self)

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

  /// What the user does with the sheet of message `index` shown over a screen of `kind`
  /// (``ResponseModel``): read from the message's own draw, so every policy meets the same user.
  mutating func respond(_ index: Int, model: ResponseModel, kind: ScreenKind, tally: inout Tally) {
    let record = world.messages[index]
    let response = model.response(
      to: record.reason, u: record.responseDraw, kind: kind,
      early: world.now - world.foregroundSince < model.firstSeconds,
      waitedDays: max(0, world.now - record.deliveredAt) / 86_400)
    world.messages[index].response = response
    switch response {
    case .accepted:
      tally.consentAccepted += 1
      tally.screenConsentAccepted[world.currentScreen] += 1
    case .declined: tally.consentDeclined += 1
    case .closed: tally.consentClosed += 1
    case .fixed: tally.billingFixed += 1
    case .redeemed: tally.winBackRedeemed += 1
    case .none, .notFixed, .notRedeemed, .seen: break
    }
    if record.reason == .priceIncreaseConsent {
      tally.screenConsentShown[world.currentScreen] += 1
    }
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
      time: world.now + compiled.sheetDwell.draw(&streams.sheet, at: world.now),
      payload: _Event(kind: .sheetEnd))
  }

  /// A sheet is dismissed: the next one, or the screen resumes (or the user quits).
  mutating func endSheet<H: _Hearing>(tally: inout Tally, _: H.Type) {
    if world.sheetsWaiting > 0 {
      startSheet()
      return
    }
    world.sheetShowing = false
    tally.breaks += 1
    tally.sheetsInBreaks += world.sheetsThisBreak
    tally.maxSheetsPerBreak = max(tally.maxSheetsPerBreak, world.sheetsThisBreak)
    trace(.sheetsDismissed, message: -1, H.self)
    if world.quitAfterSheets {
      world.quitAfterSheets = false
      trace(.quitAfterSheet, message: -1, H.self)
      goToBackground(tally: &tally, H.self)
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
}
