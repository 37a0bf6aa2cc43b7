/// What StoreKit holds for the app, kept as counts so that a question asked at every open
/// ("is anything issued and not yet delivered to this process?") costs O(1) instead of a scan
/// of every message (which made a user's cost grow with messages × opens).
///
/// The messages are ordered by issue time once drawn (``UserSimulator/issueOrder``); a cursor,
/// ``_Life/arrived``, passes those issued by now, lazily, and two counts cover what it passed:
/// the pending ones and, of those, the ones not delivered to the current process. A message
/// not passed yet is counted when the cursor passes it, in whatever state it is then, so the
/// counts always equal what a scan of `issuedAt <= now` would find.
extension UserSimulator {
  /// Orders the messages just drawn by issue time (ties in index order) and resets the counts.
  mutating func orderArrivals() {
    issueOrder.removeAll(keepingCapacity: true)
    for index in messages.indices { issueOrder.append(Int32(index)) }
    if messages.count > 1 {
      let drawn = messages
      issueOrder.sort { left, right in
        let (a, b) = (drawn[Int(left)].issuedAt, drawn[Int(right)].issuedAt)
        return a < b || (a == b && left < right)
      }
    }
    for (rank, index) in issueOrder.enumerated() {
      messages[Int(index)].arrivalRank = Int32(rank)
    }
    life.arrived = 0
    life.arrivedPending = 0
    life.arrivedUndelivered = 0
  }

  /// Moves the cursor past every message issued at or before ``_Life/now``.
  @inline(__always)
  mutating func advanceArrivals() {
    while life.arrived < issueOrder.count {
      let index = Int(issueOrder[life.arrived])
      guard messages[index].issuedAt <= life.now else { return }
      life.arrived += 1
      if messages[index].state == .pending {
        life.arrivedPending += 1
        if messages[index].deliveredInProcess != life.process { life.arrivedUndelivered += 1 }
      }
    }
  }

  /// Whether the cursor has passed message `index` (it is in the counts).
  @inline(__always)
  func hasPassed(_ index: Int) -> Bool {
    Int(messages[index].arrivalRank) < life.arrived
  }

  /// Whether a message issued by now is pending and was not delivered to this process: what a
  /// warm resume fetches for (`launch_and_resume`) and a fetch delivers.
  var hasUndelivered: Bool {
    mutating get {
      advanceArrivals()
      return life.arrivedUndelivered > 0
    }
  }

  /// Whether a message issued by now is pending (what an `every_foreground` fetch delivers).
  var hasArrivedPending: Bool {
    mutating get {
      advanceArrivals()
      return life.arrivedPending > 0
    }
  }

  /// A cold launch: a new process, to which nothing has been delivered.
  mutating func startProcess() {
    life.process &+= 1
    life.arrivedUndelivered = life.arrivedPending
  }

  /// Pending message `index` is delivered to this process.
  mutating func markDelivered(_ index: Int) {
    if messages[index].deliveredInProcess != life.process, hasPassed(index) {
      life.arrivedUndelivered -= 1
    }
    messages[index].deliveredInProcess = life.process
  }

  /// Message `index` stops being pending: it was displayed or it expired.
  mutating func resolve(_ index: Int, as state: _MessageRecord.State) {
    if messages[index].state == .pending, hasPassed(index) {
      life.arrivedPending -= 1
      if messages[index].deliveredInProcess != life.process { life.arrivedUndelivered -= 1 }
    }
    messages[index].state = state
  }

  /// Whether handling `event` now would deliver a message to the app: the first moment a
  /// policy can act, so where a shared trunk forks. Mirrors the `.issue` and `.fetch` cases of
  /// ``handle(_:tally:)`` and ``deliverHeldMessages(tally:)``; ``deliver(_:tally:)`` traps on
  /// a trunk, so a delivery this misses cannot pass unnoticed.
  mutating func deliversMessage(_ event: _Event) -> Bool {
    switch event.kind {
    case .issue:
      return life.processAlive && life.inForeground
        && messages[Int(event.index)].state == .pending
    case .fetch:
      guard event.epoch == life.foregroundEpoch, life.inForeground else { return false }
      return world.scenario.sessions.delivery == .everyForeground
        ? hasArrivedPending : hasUndelivered
    default:
      return false
    }
  }
}
