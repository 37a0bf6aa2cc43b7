extension PendingQueue {
  /// Checks the internal bookkeeping; traps with a message when it is broken. For tests.
  func _checkInvariants() {
    var total = 0
    for lane in lanes {
      precondition(lane.used <= lane.slots.count, "Ring uses more slots than it has")
      precondition(lane.tombstones >= 0 && lane.tombstones <= lane.used, "Tombstone count")
      var nils = 0
      var live = 0
      for logical in 0..<lane.used {
        if lane.slots[lane.physical(logical)] == nil { nils += 1 } else { live += 1 }
      }
      precondition(nils == lane.tombstones, "Tombstones miscounted")
      precondition(lane.used == 0 || lane.slots[lane.head] != nil, "Head is a tombstone")
      total += live
    }
    precondition(total == count, "count is \(count) but \(total) elements are live")
  }
}
