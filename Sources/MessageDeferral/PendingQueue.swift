/// A queue of pending messages in priority lanes: lane 0 leaves first, and within a lane
/// elements leave in the order they arrived (stable FIFO).
///
/// Each lane is a ring buffer, so enqueueing and removing the head are O(1) amortized, and a
/// chosen element can be removed from the middle without moving the others (its slot becomes
/// a tombstone that the head skips; tombstones are compacted away once they outnumber the
/// live elements of their lane). Unlike the article's `Array` queue, nothing is ever shifted
/// by `insert(at: 0)` or `removeFirst()`.
///
/// Does *not* hold: any order across lanes other than lane order; de-duplication (callers
/// decide whether an element may appear twice).
public struct PendingQueue<Element> {
  @usableFromInline var lanes: ContiguousArray<_Ring<Element>>
  @usableFromInline var _count = 0

  /// Number of live elements in all lanes.
  @inlinable public var count: Int { _count }

  /// Creates an empty queue with `laneCount` lanes (at least one).
  @inlinable
  public init(laneCount: Int) {
    precondition(laneCount >= 1, "A PendingQueue needs at least one lane")
    lanes = ContiguousArray(repeating: _Ring(), count: laneCount)
  }

  @inlinable
  public var laneCount: Int { lanes.count }
  @inlinable
  public var isEmpty: Bool { count == 0 }

  /// Adds `element` at the back of `lane`.
  ///
  /// - Complexity: O(1) amortized.
  @inlinable
  public mutating func enqueue(_ element: Element, lane: Int) {
    precondition(lane >= 0 && lane < lanes.count, "Lane \(lane) out of range")
    lanes[lane].append(element)
    _count += 1
  }

  /// The element that would leave first, if any.
  ///
  /// - Complexity: O(1) amortized (tombstones at a lane's head are skipped once).
  @inlinable
  public var first: Element? {
    for lane in lanes.indices {
      if let element = lanes[lane].first { return element }
    }
    return nil
  }

  /// Removes and returns the element that leaves first, or `nil` when empty.
  ///
  /// - Complexity: O(1) amortized.
  @inlinable
  public mutating func popFirst() -> Element? {
    for lane in lanes.indices {
      if let element = lanes[lane].popFirst() {
        _count -= 1
        return element
      }
    }
    return nil
  }

  /// Removes the first element (in leaving order) that satisfies `predicate`, leaving every
  /// other element where it was. Returns it, or `nil` if none matches.
  ///
  /// - Complexity: O(*n*) to find it; the removal itself is O(1) amortized.
  @inlinable
  @discardableResult
  public mutating func remove(where predicate: (Element) throws -> Bool) rethrows -> Element? {
    for lane in lanes.indices {
      if let element = try lanes[lane].remove(where: predicate) {
        _count -= 1
        return element
      }
    }
    return nil
  }

  /// Updates, in place, every live element (in leaving order).
  @inlinable
  public mutating func updateEach(_ body: (inout Element) throws -> Void) rethrows {
    for lane in lanes.indices { try lanes[lane].updateEach(body) }
  }

  /// Updates, in place, the first live element (in leaving order) that satisfies
  /// `predicate`, and stops there. Returns whether one did.
  ///
  /// - Complexity: O(*k*) for the *k*-th live element.
  @inlinable
  @discardableResult
  public mutating func updateFirst(
    where predicate: (Element) throws -> Bool, _ body: (inout Element) throws -> Void
  ) rethrows -> Bool {
    for lane in lanes.indices where try lanes[lane].updateFirst(where: predicate, body) {
      return true
    }
    return false
  }

  /// Whether a live element satisfies `predicate` (stops at the first that does).
  @inlinable
  public func contains(where predicate: (Element) throws -> Bool) rethrows -> Bool {
    for lane in lanes where try lane.contains(where: predicate) { return true }
    return false
  }

  /// Calls `body` on every live element in leaving order.
  @inlinable
  public func forEach(_ body: (Element) throws -> Void) rethrows {
    for lane in lanes { try lane.forEach(body) }
  }

  /// Every live element in leaving order.
  @inlinable
  public var elements: [Element] {
    var result: [Element] = []
    result.reserveCapacity(count)
    forEach { result.append($0) }
    return result
  }

  /// Removes every element, keeping the storage.
  @inlinable
  public mutating func removeAll() {
    // Read before writing: an already clear queue (the common case at a relaunch) is left
    // untouched, so a copy's shared storage is not duplicated just to be cleared.
    guard lanes.contains(where: { $0.used > 0 || $0.head != 0 || $0.tombstones > 0 }) else {
      _count = 0
      return
    }
    for lane in lanes.indices { lanes[lane].removeAll() }
    _count = 0
  }
}

extension PendingQueue: Sendable where Element: Sendable {}
extension _Ring: Sendable where Element: Sendable {}

/// One lane of a ``PendingQueue``: a growable ring buffer of optional slots (`nil` is a
/// tombstone left by removal from the middle).
@usableFromInline
struct _Ring<Element> {
  @usableFromInline var slots: ContiguousArray<Element?> = []
  /// Index of the head slot.
  @usableFromInline var head = 0
  /// Slots in use, tombstones included.
  @usableFromInline var used = 0
  @usableFromInline var tombstones = 0

  @usableFromInline init() {}

  @inlinable var live: Int { used - tombstones }

  @inlinable func physical(_ logical: Int) -> Int {
    let index = head + logical
    return index < slots.count ? index : index - slots.count
  }

  @inlinable mutating func append(_ element: Element) {
    if used == slots.count { grow() }
    slots[physical(used)] = element
    used += 1
  }

  /// The first live element (tombstones at the head are always skipped eagerly).
  @inlinable var first: Element? {
    used > 0 ? slots[head] : nil
  }

  @inlinable mutating func popFirst() -> Element? {
    skipLeadingTombstones()
    guard used > 0 else { return nil }
    let element = slots[head].take()
    head = physical(1)
    used -= 1
    // Keep the head on a live element: `first` reads the head slot without skipping.
    skipLeadingTombstones()
    return element
  }

  @inlinable mutating func skipLeadingTombstones() {
    while used > 0, slots[head] == nil {
      head = physical(1)
      used -= 1
      tombstones -= 1
    }
  }

  @inlinable mutating func remove(where predicate: (Element) throws -> Bool) rethrows -> Element? {
    var logical = 0
    while logical < used {
      let index = physical(logical)
      if let element = slots[index], try predicate(element) {
        slots[index] = nil
        tombstones += 1
        skipLeadingTombstones()
        if tombstones > 8 && tombstones * 2 > used { compact() }
        return element
      }
      logical += 1
    }
    return nil
  }

  @inlinable mutating func updateEach(_ body: (inout Element) throws -> Void) rethrows {
    for logical in 0..<used {
      let index = physical(logical)
      if slots[index] != nil { try body(&slots[index]!) }
    }
  }

  @inlinable mutating func updateFirst(
    where predicate: (Element) throws -> Bool, _ body: (inout Element) throws -> Void
  ) rethrows -> Bool {
    for logical in 0..<used {
      let index = physical(logical)
      if let element = slots[index], try predicate(element) {
        try body(&slots[index]!)
        return true
      }
    }
    return false
  }

  @inlinable func contains(where predicate: (Element) throws -> Bool) rethrows -> Bool {
    for logical in 0..<used {
      if let element = slots[physical(logical)], try predicate(element) { return true }
    }
    return false
  }

  @inlinable func forEach(_ body: (Element) throws -> Void) rethrows {
    for logical in 0..<used {
      if let element = slots[physical(logical)] { try body(element) }
    }
  }

  @inlinable mutating func removeAll() {
    // Only the used slots hold anything; an empty ring (the common case at a relaunch) is
    // left untouched, without even a uniqueness check of its buffer.
    for logical in 0..<used { slots[physical(logical)] = nil }
    head = 0
    used = 0
    tombstones = 0
  }

  /// Doubles the capacity, unrolling the ring to start at slot 0.
  @usableFromInline mutating func grow() {
    let newCapacity = max(4, slots.count * 2)
    var newSlots = ContiguousArray<Element?>(repeating: nil, count: newCapacity)
    for logical in 0..<used { newSlots[logical] = slots[physical(logical)] }
    slots = newSlots
    head = 0
  }

  /// Moves live elements together (keeping their order) and drops the tombstones.
  @usableFromInline mutating func compact() {
    var write = 0
    var newSlots = ContiguousArray<Element?>(repeating: nil, count: slots.count)
    for logical in 0..<used {
      if let element = slots[physical(logical)] {
        newSlots[write] = element
        write += 1
      }
    }
    slots = newSlots
    head = 0
    used = write
    tombstones = 0
  }
}

extension Optional {
  @inlinable mutating func take() -> Wrapped? {
    let value = self
    self = nil
    return value
  }
}
