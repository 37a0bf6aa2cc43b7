/// What StoreKit holds for the app, kept as counts so that a question asked at every open
/// ("is anything issued and not yet delivered to this process?") costs O(1) instead of a scan
/// of every message (which made a user's cost grow with messages × opens).
///
/// The messages are ordered by issue time once drawn (``UserSimulator/issueOrder``); a cursor,
/// ``_World/arrived``, passes those issued by now, lazily, and two counts cover what it passed:
/// the pending ones and, of those, the ones not delivered to the current process. A message
/// not passed yet is counted when the cursor passes it, in whatever state it is then, so the
/// counts always equal what a scan of `issuedAt <= now` would find.
extension UserSimulator {
  /// Orders the messages just drawn by issue time (ties in index order) and resets the counts.
  mutating func orderArrivals() {
    world.issueOrder.removeAll(keepingCapacity: true)
    for index in world.messages.indices { world.issueOrder.append(Int32(index)) }
    if world.messages.count > 1 {
      let drawn = world.messages
      world.issueOrder.sort { left, right in
        let (a, b) = (drawn[Int(left)].issuedAt, drawn[Int(right)].issuedAt)
        return a < b || (a == b && left < right)
      }
    }
    for (rank, index) in world.issueOrder.enumerated() {
      world.messages[Int(index)].arrivalRank = Int32(rank)
    }
    world.arrived = 0
    world.arrivedPending = 0
    world.arrivedUndelivered = 0
  }

  /// Moves the cursor past every message issued at or before ``_World/now``.
  @inline(__always)
  mutating func advanceArrivals() {
    while world.arrived < world.issueOrder.count {
      let index = Int(world.issueOrder[world.arrived])
      guard world.messages[index].issuedAt <= world.now else { return }
      world.arrived += 1
      if world.messages[index].state == .pending {
        world.arrivedPending += 1
        if world.messages[index].deliveredInProcess != world.process {
          world.arrivedUndelivered += 1
        }
      }
    }
  }

  /// Whether the cursor has passed message `index` (it is in the counts).
  @inline(__always)
  func hasPassed(_ index: Int) -> Bool {
    Int(world.messages[index].arrivalRank) < world.arrived
  }

  /// Whether a message issued by now is pending and was not delivered to this process: what a
  /// warm resume fetches for (`launch_and_resume`) and a fetch delivers.
  var hasUndelivered: Bool {
    mutating get {
      advanceArrivals()
      return world.arrivedUndelivered > 0
    }
  }

  /// Whether a message issued by now is pending (what an `every_foreground` fetch delivers).
  var hasArrivedPending: Bool {
    mutating get {
      advanceArrivals()
      return world.arrivedPending > 0
    }
  }

  /// A cold launch: a new process, to which nothing has been delivered.
  mutating func startProcess() {
    world.process &+= 1
    world.arrivedUndelivered = world.arrivedPending
  }

  /// Pending message `index` is delivered to this process.
  mutating func markDelivered(_ index: Int) {
    if world.messages[index].deliveredInProcess != world.process, hasPassed(index) {
      world.arrivedUndelivered -= 1
    }
    world.messages[index].deliveredInProcess = world.process
  }

  /// Message `index` stops being pending: it was displayed or it expired.
  mutating func resolve(_ index: Int, as state: _MessageRecord.State) {
    if world.messages[index].state == .pending, hasPassed(index) {
      world.arrivedPending -= 1
      if world.messages[index].deliveredInProcess != world.process { world.arrivedUndelivered -= 1 }
    }
    world.messages[index].state = state
  }
}
