import MessageDeferral

// Checks that every scenario `validate` accepts runs in bounded time and memory: no loop of
// screens on which simulated time stands still, and no message process that would issue more
// messages per user than a run can hold. The engine's per-user event budget
// (`EngineLimits.eventsPerUser`) guards whatever these checks cannot see.

extension _ScenarioDecoder {
  /// The most messages one recurring process may be expected to issue to one user over the
  /// horizon. A million users of a month at one message a minute stay below it; a
  /// `mean_interval` of milliseconds does not.
  static let maximumExpectedMessagesPerUser = 100_000.0

  /// Refuses a `mean_interval` that would issue more than
  /// ``maximumExpectedMessagesPerUser`` messages to a user over the horizon.
  mutating func checkIssuanceBound(
    _ interval: Double, at path: String, _ node: JSONNode?
  ) -> Bool {
    guard let horizon = messageHorizon, interval > 0 else { return true }
    let expected = horizon / interval
    guard expected > Self.maximumExpectedMessagesPerUser else { return true }
    let shortest = horizon / Self.maximumExpectedMessagesPerUser
    report(
      path, node,
      "issues about \(Self.rounded(expected)) messages per user over the horizon "
        + "(\(DurationText.format(horizon))); at most "
        + "\(Self.rounded(Self.maximumExpectedMessagesPerUser)) can be simulated, so make "
        + "mean_interval at least \(DurationText.format(shortest))")
    return false
  }

  /// Whether a dwell time is always exactly zero.
  static func isAlwaysZero(_ dwell: DistributionSpec?) -> Bool {
    switch dwell {
    case .fixed(let value)?: value == 0
    case .uniform(let low, let high)?: low == 0 && high == 0
    case .empirical(let values, _)?: values.allSatisfy { $0 == 0 }
    default: false
    }
  }

  /// The longest a dwell can be, or `nil` when it has no upper bound.
  static func upperBound(_ dwell: DistributionSpec?) -> Double? {
    switch dwell {
    case .fixed(let value)?: value
    case .uniform(_, let high)?: high
    case .empirical(let values, _)?: values.max()
    default: nil
    }
  }

  /// Whether a dwell is so short that going round screens of it for the horizon would take
  /// more events than a run allows (``EngineLimits/eventsPerUser``): what `run` would stop at
  /// (exit 1), refused here instead. Zero dwells are the extreme case.
  func isInstant(_ dwell: DistributionSpec?) -> Bool {
    if Self.isAlwaysZero(dwell) { return true }
    guard let horizon = screenHorizon, let bound = Self.upperBound(dwell) else { return false }
    return bound * Double(EngineLimits.eventsPerUser) < horizon
  }

  /// Refuses a cycle of screens whose dwell times are all zero, or all so short that a
  /// user going round them for the horizon would take more events than a run allows: a run
  /// would not end, or stop at the event budget (``isInstant(_:)``).
  ///
  /// - Complexity: O(*V* + *E*): screens off every such cycle are peeled away by in- and
  ///   out-degree; what remains lies on one.
  mutating func checkInstantCycles(
    _ drafts: [_ScreenDraft], successors: [[Int]], names: [String]
  ) {
    let count = drafts.count
    let instant = (0..<count).map {
      drafts[$0].kind != .launch && isInstant(drafts[$0].dwell)
    }
    var outgoing = [[Int]](repeating: [], count: count)
    var incoming = [[Int]](repeating: [], count: count)
    for screen in 0..<count where instant[screen] {
      for target in successors[screen] where instant[target] && !outgoing[screen].contains(target) {
        outgoing[screen].append(target)
        incoming[target].append(screen)
      }
    }
    var inDegree = incoming.map(\.count)
    var outDegree = outgoing.map(\.count)
    var removed = (0..<count).map { !instant[$0] }
    var stack = (0..<count).filter { instant[$0] && (inDegree[$0] == 0 || outDegree[$0] == 0) }
    while let screen = stack.popLast() {
      guard !removed[screen] else { continue }
      removed[screen] = true
      for target in outgoing[screen] where !removed[target] {
        inDegree[target] -= 1
        if inDegree[target] == 0 { stack.append(target) }
      }
      for source in incoming[screen] where !removed[source] {
        outDegree[source] -= 1
        if outDegree[source] == 0 { stack.append(source) }
      }
    }
    let looping = (0..<count).filter { !removed[$0] }
    guard let first = looping.first else { return }
    let shown = Self.list(looping.map { "'\(names[$0])'" }, limit: 6)
    let allZero = looping.allSatisfy { Self.isAlwaysZero(drafts[$0].dwell) }
    let longest = (screenHorizon ?? 0) / Double(EngineLimits.eventsPerUser)
    report(
      _JSONPath.member(drafts[first].path, "dwell"),
      drafts[first].node["dwell"] ?? drafts[first].node,
      allZero
        ? "screens \(shown) lead to one another and all have a dwell of 0 s, so simulated time "
          + "would stand still while a user goes round them; give at least one of them a "
          + "positive dwell (for example \"1s\")"
        : "screens \(shown) lead to one another and none can last longer than "
          + "\(DurationText.format(longest)), so a user going round them over the horizon "
          + "would take more than the \(EngineLimits.eventsPerUser) events a run allows per "
          + "user (run would stop); give at least one of them a longer dwell (for example \"1s\")")
  }
}
