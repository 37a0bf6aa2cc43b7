// Self-checks of EventQueue, for tests: O(n), never called on hot paths.
extension EventQueue {
  /// Traps with a message unless the queue is a valid 4-ary min-heap in (time, sequence)
  /// order (see ``_invariantViolation()``).
  internal func _checkInvariants() {
    if let violation = _invariantViolation() {
      preconditionFailure("EventQueue invariant violated: \(violation)")
    }
  }

  /// What is wrong with the heap, or `nil` when nothing is: every entry's time is not NaN, no
  /// child precedes its parent, every sequence number is below the next one to be assigned,
  /// and no two entries share a sequence number. Tests call this to report a failing seed
  /// instead of trapping.
  internal func _invariantViolation() -> String? {
    var seen = Set<UInt64>()
    seen.reserveCapacity(entries.count)
    for index in entries.indices {
      let entry = entries[index]
      if entry.time.isNaN { return "entry \(index) has a NaN time" }
      if entry.sequence >= nextSequence {
        return "entry \(index) has sequence \(entry.sequence), not below \(nextSequence)"
      }
      if !seen.insert(entry.sequence).inserted {
        return "sequence \(entry.sequence) appears twice"
      }
      if index > 0 {
        let parent = (index - 1) / 4
        if entry.precedes(entries[parent]) {
          return "entry \(index) (\(entry.time), #\(entry.sequence)) precedes its parent "
            + "\(parent) (\(entries[parent].time), #\(entries[parent].sequence))"
        }
      }
    }
    return nil
  }
}
