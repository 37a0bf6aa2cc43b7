import MessageDeferral

/// Simulates one user's life under one policy, event by event. One per worker, reused for
/// every (user, policy) it runs, so the per-event path allocates nothing once warm.
///
/// Generic over the ``SimulationSink`` so that the plain run (``NoSink``) compiles to code with
/// no tracing at all, while `deferral-sim trace` runs the very same code with a sink that
/// records every step.
struct UserSimulator<Sink: SimulationSink>: ~Copyable {
  /// The scenario, compiled: samplers and tables, read-only.
  let compiled: CompiledScenario
  var sink: Sink

  /// The user's life at this instant: one value (``_World``), forked by assignment.
  var world = _World()
  /// The world's random streams, one per purpose (``_WorldStreams``).
  var streams = _WorldStreams()
  /// The policy's own draws: when its listener exists after each cold launch.
  var policyStream: RandomStream

  var actions = PolicyActions()
  /// The policy being simulated: its coordinator and listener.
  var lane: _PolicyLane

  // Who is being simulated (for sinks).
  var replication = 0
  var user = 0
  var policyIndex = 0

  /// Set when the last ``run`` stopped at ``EngineLimits/eventsPerUser``: what looped.
  var budgetExceeded: EngineError?

  /// The lanes of every policy and what a fork copies (used by the shared trunk only).
  var trunk = _Trunk()
  /// The forked branches' groups (used by the shared trunk only).
  var groups = _BranchGroups(screenCount: 0)
  /// Whether a forked user's branches may be shared in groups (``RunOptions/branchGroups``).
  var groupsAllowed = true
  /// Each policy's lane while its group runs (copied from ``_Trunk/lanes`` at the group's
  /// start), and the answers of the group's first member and of another member to an event.
  /// Stored here, not in ``groups``, so that a lane is changed in place.
  var branchLanes: [_PolicyLane] = []
  var leadEffect = _PolicyEffect()
  var memberEffect = _PolicyEffect()

  init(scenario compiled: CompiledScenario, sink: Sink) {
    self.compiled = compiled
    self.sink = sink
    policyStream = RandomStream(seed: 0, replication: 0, user: 0, purpose: .policy)
    lane = _PolicyLane(PolicyConfiguration())
  }
}

extension UserSimulator {
  /// Reseeds the streams for (`replication`, `user`) and clears the state of the last user.
  mutating func beginUser(seed: UInt64, replication: Int, user: Int) {
    self.replication = replication
    self.user = user
    streams.reseed(seed: seed, replication: replication, user: user)
    policyStream.reseed(seed: seed, replication: replication, user: user, purpose: .policy)
    world.reset()
    budgetExceeded = nil
  }

  /// Handles events until the horizon, starting with `first` when given (an event already
  /// popped, at ``_World/now``), the policies hearing them as strategy `H` has them hear.
  /// When `H` ``_Hearing/stopsBeforeDelivery``, stops before handling an event that would
  /// deliver a message to the app, and returns it: the first moment policies can differ.
  /// Stops early, with ``budgetExceeded`` set, when `budget` runs out.
  mutating func simulate<H: _Hearing>(
    from first: _Event?, tally: inout Tally, budget: inout Int, _: H.Type
  ) -> _Event? {
    let horizon = compiled.scenario.horizon
    var next = first
    while true {
      let event: _Event
      if let first = next {
        event = first
        next = nil
      } else {
        guard let (time, popped) = world.queue.popMin(), time <= horizon else { break }
        world.now = time
        if H.stopsBeforeDelivery, deliversMessage(popped) { return popped }
        event = popped
      }
      if handle(event, tally: &tally, H.self) { tally.events += 1 }
      budget &-= 1  // Counts down from a positive Int: cannot wrap.
      if budget == 0 {
        budgetExceeded = .eventBudgetExceeded(
          replication: replication, user: user, simulatedTime: world.now, horizon: horizon,
          screen: world.currentScreen >= 0
            ? compiled.scenario.screens[world.currentScreen].name : nil)
        world.queue.removeAll()
        break
      }
    }
    return nil
  }

  /// At the horizon: screen time, what became of each message (and its row for the sink, with
  /// `outcomes`), the user's segment (counting the user when `countsUser`, its consent
  /// latencies when `consentLatencies`), the variates.
  mutating func finishUser(
    tally: inout Tally, since before: _SegmentSnapshot, countsUser: Bool, outcomes: Bool,
    consentLatencies: Bool = true
  ) {
    world.now = compiled.scenario.horizon
    creditScreenTime(tally: &tally)
    finish(tally: &tally)
    if outcomes, Sink.recordsOutcomes { emitOutcomes() }
    addToSegment(
      since: before, tally: &tally, countsUser: countsUser, consentLatencies: consentLatencies)
    if streams.countsVariates { drainVariateCounts(into: &tally) }
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
        if let model = compiled.responses {
          countRenewal(record, shownInTime: shownInTime, resolved: resolved, model, &tally)
        }
      }
      // A billing issue is recovered when fixed from its sheet, or outside the app by the
      // horizon (its expiry): before any sheet, or after one that did not fix it.
      if record.reason == .billingIssue, compiled.responses != nil,
        record.response == .fixed || record.state == .expired || record.expiresAt <= horizon
      {
        tally.billingRecovered += 1
      }
    }
  }

  /// With a response model: whether a consent due within the horizon kept its renewal. Accepted
  /// in the app by the deadline; or agreed outside the app by it (``_MessageRecord/expiresAt``,
  /// the campaign's expiry): before any sheet (the message withdrawn), or after a sheet closed
  /// without a choice (unless ``ResponseModel/AfterClose/renewalLost``). A decline is final.
  func countRenewal(
    _ record: _MessageRecord, shownInTime: Bool, resolved: Bool, _ model: ResponseModel,
    _ tally: inout Tally
  ) {
    if shownInTime, record.response == .accepted {
      tally.consentKept += 1
    } else if resolved {
      tally.consentKept += 1
      tally.consentKeptOutside += 1
    } else if record.state == .displayed, record.response != .declined,
      record.response != .closed || model.afterClose == .outsideChannel,
      record.expiresAt <= record.deadline
    {
      // Shown and closed (or shown after the deadline): the subscriber agreed outside the app.
      tally.consentKeptOutside += 1
      tally.consentKept += 1
    }
  }

  /// Makes every stream count the variates it draws (see ``RunOptions/countsVariates``).
  mutating func startCountingVariates() {
    streams.startCountingVariates()
    policyStream.variateCounts = VariateCounts()
  }

  mutating func drainVariateCounts(into tally: inout Tally) {
    streams.drainVariateCounts(into: &tally.variates)
    policyStream.drainVariateCounts(into: &tally.variates)
  }

  /// Who the user is (from the population stream) and which messages the App Store will issue
  /// them (from the App Store stream), so that every policy sees the same user and the same
  /// messages.
  mutating func drawProfileAndMessages() {
    let population = compiled.scenario.population
    let horizon = compiled.scenario.horizon
    let isNew = streams.population.bernoulli(population.newUserShare)
    var subscriber: Bool
    var lapsed: Bool
    var installAt = 0.0
    var onboards = isNew
    if isNew {
      let window = population.installWindow
      let u = streams.population.uniform()
      if !compiled.installParts.isEmpty {
        // Weighted parts (on the rhythm's active clock when there is one).
        installAt = compiled.installTime(at: u)
      } else if let rhythm = compiled.rhythm {
        // Spread in proportion to the rhythm's rate: uniform on its active clock.
        let span = rhythm.activeTime(from: window.lowerBound, to: window.upperBound)
        installAt = min(
          rhythm.time(after: u * span, from: window.lowerBound), window.upperBound)
      } else {
        installAt = window.lowerBound + u * (window.upperBound - window.lowerBound)
      }
      subscriber = streams.population.bernoulli(population.returningSubscriberShare)
      lapsed = false
      // A draw only when some new users skip onboarding, so other scenarios draw as before.
      if population.onboardingShare < 1 {
        onboards =
          population.onboardingShare > 0
          && streams.population.bernoulli(population.onboardingShare)
      }
    } else {
      subscriber = streams.population.bernoulli(population.subscriberShare)
      lapsed = !subscriber
    }
    world.profile = _UserProfile(
      isNew: isNew, installAt: installAt, subscriber: subscriber, lapsed: lapsed)
    world.completedOnboarding = !onboards
    // A returning subscriber's App Store account has history before the install; a brand-new
    // user's starts at the install.
    let accountStart = isNew && !subscriber ? installAt : 0

    if let campaign = compiled.scenario.messages.consent, subscriber {
      let chosen = streams.appStore.bernoulli(campaign.audienceShare)
      let offset = streams.appStore.uniform() * campaign.rolloutWindow
      let deadline = compiled.consentDeadline!.draw(&streams.appStore, at: campaign.start + offset)
      let expiry =
        compiled.consentExpiry?.draw(&streams.appStore, at: campaign.start + offset) ?? .infinity
      var issuedAt = campaign.start + offset
      if let localTime = campaign.localTime {
        issuedAt = RhythmClock.next(
          localTime, atOrAfter: issuedAt, shift: compiled.rhythm?.shift ?? 0)
      }
      if chosen, issuedAt >= accountStart, issuedAt < horizon {
        addMessage(
          .priceIncreaseConsent, at: issuedAt, deadline: issuedAt + deadline, expiry: expiry)
      }
    }
    for (index, process) in compiled.scenario.messages.recurring.enumerated() {
      let inAudience: Bool
      switch process.audience {
      case .subscribers: inAudience = subscriber
      case .lapsed: inAudience = lapsed
      case .all: inAudience = true
      }
      guard inAudience else { continue }
      var time = accountStart
      while true {
        time += compiled.recurringGap[index].draw(&streams.appStore, at: time)
        guard time < horizon else { break }
        let expiry = compiled.recurringExpiry[index]?.draw(&streams.appStore, at: time) ?? .infinity
        addMessage(process.reason, at: time, deadline: .infinity, expiry: expiry)
      }
    }
    issueCampaigns(accountStart: accountStart)
    issueBillingRenewals(accountStart: accountStart)
    // An existing user's sessions count from their phase's `from_session`.
    if !isNew, compiled.hasPhases { world.sessionIndex = compiled.existingFirstSession - 1 }
    var firstOpen = isNew ? installAt : compiled.firstOpen.draw(&streams.journey)
    if !isNew, let rhythm = compiled.rhythm {
      // Steady state under the rhythm: the forward-recurrence time on its active clock.
      firstOpen = rhythm.time(after: firstOpen, from: 0)
    }
    world.queue.push(time: firstOpen, payload: _Event(kind: .open))
    orderArrivals()
  }

  mutating func addMessage(_ reason: Reason, at time: Double, deadline: Double, expiry: Double) {
    let index = Int32(world.messages.count)
    var record = _MessageRecord(
      reason: reason, issuedAt: time, deadline: deadline, expiresAt: time + expiry)
    if compiled.responses != nil { record.responseDraw = streams.response.uniform() }
    world.messages.append(record)
    world.queue.push(time: time, payload: _Event(kind: .issue, index: index))
    if expiry.isFinite {
      world.queue.push(time: time + expiry, payload: _Event(kind: .expire, index: index))
    }
  }
}
