import MessageDeferral

/// Simulates one user's life under one policy, event by event. One per worker, reused for
/// every (user, policy) it runs, so the per-event path allocates nothing once warm.
///
/// Generic over the ``SimulationSink`` so that the plain run (``NoSink``) compiles to code with
/// no tracing at all, while `deferral-sim trace` runs the very same code with a sink that
/// records every step.
struct UserSimulator<Sink: SimulationSink>: ~Copyable {
  let world: CompiledScenario
  var sink: Sink

  // Random streams, one per purpose, reseeded for every (replication, user).
  var journey: RandomStream
  var appStore: RandomStream
  /// Who the user is (new or existing, subscriber, install time): a stream of its own, so a
  /// sweep over message rates keeps the very same users.
  var population: RandomStream
  var scene: RandomStream
  var sheet: RandomStream
  /// The policy's own draws: when its listener exists after each cold launch.
  var policyStream: RandomStream

  var queue = EventQueue<_Event>(minimumCapacity: 64)
  var messages: ContiguousArray<_MessageRecord> = []
  var actions = PolicyActions()
  var coordinator: Coordinator
  /// The policy's ``PolicyConfiguration/listenerDelay``; `nil` when always zero (no draw).
  var listenerDelay: Sampler?
  /// When this process's listener exists; what is delivered before goes to `storeKitDefault`.
  var listenerReadyAt = 0.0
  /// StoreKit showing what it delivered before the listener existed (`storekit-auto`).
  var storeKitDefault = Coordinator(configuration: .storeKitAuto)

  // Who is being simulated (for sinks).
  var replication = 0
  var user = 0
  var policyIndex = 0

  // User state.
  var profile = _UserProfile(isNew: false, installAt: 0, subscriber: false, lapsed: false)
  var now = 0.0
  var processAlive = false
  var inForeground = false
  var sceneActive = false
  var churned = false
  var foregroundEpoch: UInt32 = 0
  var screenEpoch: UInt32 = 0
  var timerEpoch: UInt32 = 0
  var currentScreen = -1
  /// When the current screen's dwell ends (infinity while paused or in background).
  var screenEndsAt = Double.infinity
  /// Dwell left on the current screen while a sheet covers it.
  var pausedRemaining = Double.nan
  var visitInterrupted = false
  var foregroundSince = 0.0
  /// Since when the current screen has been in the foreground (NaN: not counting).
  var screenSince = Double.nan

  // Onboarding.
  var onboardingRunActive = false
  var onboardingRunInterrupted = false
  var startedOnboarding = false
  var completedOnboarding = false

  // Sheets.
  var sheetsWaiting = 0
  var sheetShowing = false
  var sheetsThisBreak = 0
  var quitAfterSheets = false
  /// Set when the last ``run`` stopped at ``EngineLimits/eventsPerUser``: what looped.
  var budgetExceeded: EngineError?

  init(world: CompiledScenario, sink: Sink) {
    self.world = world
    self.sink = sink
    journey = RandomStream(seed: 0, replication: 0, user: 0, purpose: .journey)
    appStore = RandomStream(seed: 0, replication: 0, user: 0, purpose: .appStore)
    population = RandomStream(seed: 0, replication: 0, user: 0, purpose: .population)
    scene = RandomStream(seed: 0, replication: 0, user: 0, purpose: .scene)
    sheet = RandomStream(seed: 0, replication: 0, user: 0, purpose: .sheet)
    policyStream = RandomStream(seed: 0, replication: 0, user: 0, purpose: .policy)
    coordinator = Coordinator(configuration: PolicyConfiguration())
  }
}

extension UserSimulator {
  /// Runs user `user` of replication `replication` under `policy`, adding what happened to
  /// `tally`.
  mutating func run(
    seed: UInt64, replication: Int, user: Int, policyIndex: Int, policy: PolicyConfiguration,
    tally: inout Tally, eventBudget: Int = EngineLimits.eventsPerUser
  ) {
    precondition(eventBudget > 0, "An event budget must be positive")
    self.replication = replication
    self.user = user
    self.policyIndex = policyIndex
    journey.reseed(seed: seed, replication: replication, user: user, purpose: .journey)
    appStore.reseed(seed: seed, replication: replication, user: user, purpose: .appStore)
    population.reseed(seed: seed, replication: replication, user: user, purpose: .population)
    scene.reseed(seed: seed, replication: replication, user: user, purpose: .scene)
    sheet.reseed(seed: seed, replication: replication, user: user, purpose: .sheet)
    policyStream.reseed(seed: seed, replication: replication, user: user, purpose: .policy)
    resetState(policy: policy)
    sink.begin(replication: replication, user: user, policy: policyIndex)
    drawProfileAndMessages()
    tally.users += 1
    let before = segmentSnapshot(tally)

    let horizon = world.scenario.horizon
    var budget = eventBudget
    budgetExceeded = nil
    while let (time, event) = queue.popMin() {
      guard time <= horizon else { break }
      now = time
      if handle(event, tally: &tally) { tally.events += 1 }
      budget &-= 1  // Counts down from a positive Int: cannot wrap.
      if budget == 0 {
        budgetExceeded = .eventBudgetExceeded(
          replication: replication, user: user, simulatedTime: now, horizon: horizon,
          screen: currentScreen >= 0 ? world.scenario.screens[currentScreen].name : nil)
        queue.removeAll()
        break
      }
    }
    now = horizon
    creditScreenTime(tally: &tally)
    finish(tally: &tally)
    addToSegment(since: before, tally: &tally)
    if journey.variateCounts != nil { drainVariateCounts(into: &tally) }
  }

  /// Makes every stream count the variates it draws (see ``RunOptions/countsVariates``).
  mutating func startCountingVariates() {
    journey.variateCounts = VariateCounts()
    appStore.variateCounts = VariateCounts()
    population.variateCounts = VariateCounts()
    scene.variateCounts = VariateCounts()
    sheet.variateCounts = VariateCounts()
    policyStream.variateCounts = VariateCounts()
  }

  mutating func drainVariateCounts(into tally: inout Tally) {
    journey.drainVariateCounts(into: &tally.variates)
    appStore.drainVariateCounts(into: &tally.variates)
    population.drainVariateCounts(into: &tally.variates)
    scene.drainVariateCounts(into: &tally.variates)
    sheet.drainVariateCounts(into: &tally.variates)
    policyStream.drainVariateCounts(into: &tally.variates)
  }

  mutating func resetState(policy: PolicyConfiguration) {
    queue.removeAll(keepingCapacity: true)
    messages.removeAll(keepingCapacity: true)
    coordinator = Coordinator(configuration: policy)
    listenerDelay =
      policy.listenerDelay.isZero ? nil : Sampler(DistributionSpec(policy.listenerDelay))
    listenerReadyAt = 0
    if listenerDelay != nil { storeKitDefault = Coordinator(configuration: .storeKitAuto) }
    now = 0
    processAlive = false
    inForeground = false
    sceneActive = false
    churned = false
    foregroundEpoch = 0
    screenEpoch = 0
    timerEpoch = 0
    currentScreen = -1
    screenEndsAt = .infinity
    pausedRemaining = .nan
    visitInterrupted = false
    foregroundSince = 0
    screenSince = .nan
    onboardingRunActive = false
    onboardingRunInterrupted = false
    startedOnboarding = false
    completedOnboarding = false
    sheetsWaiting = 0
    sheetShowing = false
    sheetsThisBreak = 0
    quitAfterSheets = false
  }

  /// Who the user is (from the population stream) and which messages the App Store will issue
  /// them (from the App Store stream), so that every policy sees the same user and the same
  /// messages.
  mutating func drawProfileAndMessages() {
    let population = world.scenario.population
    let horizon = world.scenario.horizon
    let isNew = self.population.bernoulli(population.newUserShare)
    var subscriber: Bool
    var lapsed: Bool
    var installAt = 0.0
    if isNew {
      let window = population.installWindow
      installAt =
        window.lowerBound + self.population.uniform() * (window.upperBound - window.lowerBound)
      subscriber = self.population.bernoulli(population.returningSubscriberShare)
      lapsed = false
    } else {
      subscriber = self.population.bernoulli(population.subscriberShare)
      lapsed = !subscriber
    }
    profile = _UserProfile(
      isNew: isNew, installAt: installAt, subscriber: subscriber, lapsed: lapsed)
    completedOnboarding = !isNew
    // A returning subscriber's App Store account has history before the install; a brand-new
    // user's starts at the install.
    let accountStart = isNew && !subscriber ? installAt : 0

    if let campaign = world.scenario.messages.consent, subscriber {
      let chosen = appStore.bernoulli(campaign.audienceShare)
      let offset = appStore.uniform() * campaign.rolloutWindow
      let deadline = world.consentDeadline!.draw(&appStore)
      let expiry = world.consentExpiry?.draw(&appStore) ?? .infinity
      let issuedAt = campaign.start + offset
      if chosen, issuedAt >= accountStart, issuedAt < horizon {
        addMessage(
          .priceIncreaseConsent, at: issuedAt, deadline: issuedAt + deadline, expiry: expiry)
      }
    }
    for (index, process) in world.scenario.messages.recurring.enumerated() {
      let inAudience: Bool
      switch process.audience {
      case .subscribers: inAudience = subscriber
      case .lapsed: inAudience = lapsed
      case .all: inAudience = true
      }
      guard inAudience else { continue }
      var time = accountStart
      while true {
        time += world.recurringGap[index].draw(&appStore)
        guard time < horizon else { break }
        let expiry = world.recurringExpiry[index]?.draw(&appStore) ?? .infinity
        addMessage(process.reason, at: time, deadline: .infinity, expiry: expiry)
      }
    }
    issueCampaigns(accountStart: accountStart)
    issueBillingRenewals(accountStart: accountStart)
    let firstOpen = isNew ? installAt : world.firstOpen.draw(&journey)
    queue.push(time: firstOpen, payload: _Event(kind: .open))
  }

  mutating func addMessage(_ reason: Reason, at time: Double, deadline: Double, expiry: Double) {
    let index = Int32(messages.count)
    messages.append(
      _MessageRecord(reason: reason, issuedAt: time, deadline: deadline, expiresAt: time + expiry))
    queue.push(time: time, payload: _Event(kind: .issue, index: index))
    if expiry.isFinite {
      queue.push(time: time + expiry, payload: _Event(kind: .expire, index: index))
    }
  }
}
