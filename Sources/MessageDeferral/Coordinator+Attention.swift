/// Which events a coordinator must hear, and how one that did not hear the others is brought
/// up to date (``PolicyListener/heeds``, ``PolicyListener/catchUp(with:since:)``).
extension Coordinator {
  /// With nothing held and no batch running (idle): a delivery (it may queue, and remembers
  /// when it first saw a lane), display results (a failed one counts against the break) and,
  /// when it remembers opens, a scene activation. Every other event, to an idle coordinator,
  /// answers no display and no timer and changes only what ``PolicyEventDigest`` derives from
  /// the events (screen, scene, gate, break), which ``catchUp(with:since:)`` brings up to date.
  /// Otherwise every event. Kept in ``heeds`` after every event (``handle(_:at:into:)``).
  var currentHeeds: PolicyEventKinds {
    guard store.count == 0, batch == nil else { return .all }
    var kinds: PolicyEventKinds = [.delivered, .displaySucceeded, .displayFailed]
    if opens.capacity > 0 { kinds.insert(.sceneActivated) }
    return kinds
  }

  /// Brings the screen, scene, gate and break state up to date after the events `digest`
  /// recorded after `mark`, none of which this coordinator heard and none of which it heeds
  /// (it was idle when it last heard one, and they leave it idle). Its state is then what it
  /// would be had it heard them.
  public mutating func catchUp(with digest: PolicyEventDigest, since mark: UInt64) {
    guard digest.count > mark else { return }
    let reset = digest.lastReset > mark
    if reset {
      // What a launch or a termination resets (the queue and the batch are empty already).
      canPresent = configuration.gateAtLaunch
    }
    if digest.lastBreak > mark {
      shownThisBreak = 0
      failedThisBreak = 0
    }
    if digest.lastScene > mark { sceneActive = digest.sceneActive }
    if digest.lastScreen > mark { currentKind = digest.currentKind }
    // The gate: the rule of the last screen since the launch whose rule assigns it.
    guard gateAssigningKinds != 0 else { return }
    var latest: UInt64 = 0
    var latestKind = 0
    for index in digest.lastAppearance.indices
    where gateAssigningKinds & (1 << UInt16(index)) != 0 && digest.lastAppearance[index] > latest {
      latest = digest.lastAppearance[index]
      latestKind = index
    }
    if latest > mark, latest > digest.lastReset {
      canPresent = gateOpeningRules & (1 << UInt16(latestKind)) != 0
    }
  }

  /// ``catchUp(with:since:)`` for a coordinator told no screen appearance at all: StoreKit's
  /// own handling while a late listener routes events (a launch, a termination and scene
  /// changes reach it, screens do not). Screens neither begin its breaks nor set its screen
  /// kind or its gate: a launch or a termination resets them, a scene activation begins a
  /// break.
  public mutating func catchUpWithoutScreens(with digest: PolicyEventDigest, since mark: UInt64) {
    guard digest.count > mark else { return }
    if digest.lastReset > mark {
      canPresent = configuration.gateAtLaunch
      currentKind = nil
    }
    if digest.lastSceneBreak > mark {
      shownThisBreak = 0
      failedThisBreak = 0
    }
    if digest.lastScene > mark { sceneActive = digest.sceneActive }
  }
}
