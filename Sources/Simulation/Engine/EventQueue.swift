/// A min-priority queue of events ordered by time, with ties leaving in insertion order.
///
/// Each event is stored as a small struct (time, sequence number, payload) in a 4-ary heap
/// over one `ContiguousArray`: no class, closure or existential per event, and no allocation
/// once the capacity is reached. The queue assigns the sequence numbers itself, in push order,
/// so for any interleaving of pushes and pops, events with equal times pop in the order they
/// were pushed; together with the times this makes the pop order a pure function of the
/// pushes, independent of the heap's layout.
///
/// A 4-ary heap halves the depth of a binary heap; its sift-down compares up to four
/// children per level, which sit in one or two cache lines for small payloads.
///
/// What does not hold: there is no removal of an arbitrary event (cancel by checking a
/// generation number in the payload when it pops), and times must not be NaN (trap).
///
/// - Complexity: ``push(time:payload:)`` and ``popMin()`` are O(log n) (at most
///   ⌈log₄ n⌉ levels); ``peekMinTime``, ``count`` and ``isEmpty`` are O(1).
public struct EventQueue<Payload> {
  @usableFromInline
  internal struct _Entry {
    @usableFromInline internal var time: Double
    @usableFromInline internal var sequence: UInt64
    @usableFromInline internal var payload: Payload

    @inlinable
    internal init(time: Double, sequence: UInt64, payload: Payload) {
      self.time = time
      self.sequence = sequence
      self.payload = payload
    }

    /// Strict (time, sequence) order. Sequences are unique, so this is a total order.
    @inlinable
    internal func precedes(_ other: _Entry) -> Bool {
      time < other.time || (time == other.time && sequence < other.sequence)
    }
  }

  @usableFromInline
  internal var entries: ContiguousArray<_Entry>

  /// The sequence number the next push receives.
  @usableFromInline
  internal var nextSequence: UInt64 = 0

  /// An empty queue with room for `minimumCapacity` events before it reallocates.
  public init(minimumCapacity: Int = 0) {
    entries = []
    entries.reserveCapacity(minimumCapacity)
  }

  /// The number of events in the queue.
  @inlinable
  public var count: Int { entries.count }

  /// Whether the queue holds no event.
  @inlinable
  public var isEmpty: Bool { entries.isEmpty }

  /// The time of the event ``popMin()`` would return, or `nil` when the queue is empty.
  ///
  /// - Complexity: O(1).
  @inlinable
  public var peekMinTime: Double? { entries.first?.time }

  /// Reserves room for `minimumCapacity` events in total.
  public mutating func reserveCapacity(_ minimumCapacity: Int) {
    entries.reserveCapacity(minimumCapacity)
  }

  /// Adds an event at `time`. It leaves after every event with an earlier time and after every
  /// event with the same time pushed before it.
  ///
  /// - Precondition: `time` is not NaN.
  /// - Complexity: O(log n); amortized no allocation.
  @inlinable
  public mutating func push(time: Double, payload: Payload) {
    precondition(!time.isNaN, "An event time must not be NaN")
    let entry = _Entry(time: time, sequence: nextSequence, payload: payload)
    // Cannot overflow: 2^64 pushes would take centuries at any speed.
    nextSequence &+= 1
    entries.append(entry)
    // The entry is passed on, not read back from the buffer: read back at once, in wider
    // loads than the append's stores, it waited for them (store forwarding fails).
    entries.withUnsafeMutableBufferPointer { buffer in
      Self._siftUp(buffer, placing: entry, from: buffer.count - 1)
    }
  }

  /// Removes and returns the earliest event (the first pushed among equal times), or `nil` when
  /// the queue is empty.
  ///
  /// - Complexity: O(log n).
  @inlinable
  public mutating func popMin() -> (time: Double, payload: Payload)? {
    guard let last = entries.popLast() else { return nil }
    if entries.isEmpty { return (last.time, last.payload) }
    let minimum = entries.withUnsafeMutableBufferPointer { buffer in
      let minimum = buffer[0]
      Self._siftDown(buffer, placing: last, from: 0)
      return minimum
    }
    return (minimum.time, minimum.payload)
  }

  /// Removes and returns the earliest event.
  ///
  /// - Precondition: the queue is not empty.
  /// - Complexity: O(log n).
  @inlinable
  public mutating func removeMin() -> (time: Double, payload: Payload) {
    guard let minimum = popMin() else { preconditionFailure("No event to remove") }
    return minimum
  }

  /// Makes this queue hold exactly what `other` holds, in the same layout, so that it pops the
  /// same events in the same order; reuses this queue's storage (no allocation once it has
  /// grown). How a fork copies a queue.
  ///
  /// - Complexity: O(n).
  public mutating func assign(_ other: EventQueue) {
    entries.removeAll(keepingCapacity: true)
    entries.append(contentsOf: other.entries)
    nextSequence = other.nextSequence
  }

  /// Removes every event. Sequence numbering restarts, which cannot change any order since
  /// the queue is empty.
  public mutating func removeAll(keepingCapacity: Bool = false) {
    entries.removeAll(keepingCapacity: keepingCapacity)
    nextSequence = 0
  }
}

extension EventQueue: Sendable where Payload: Sendable {}
extension EventQueue._Entry: Sendable where Payload: Sendable {}

// The heap algorithms, on a buffer taken once per operation.
extension EventQueue {
  /// Puts `entry` at the hole `index` and moves it up until its parent precedes it.
  @inlinable
  internal static func _siftUp(
    _ buffer: UnsafeMutableBufferPointer<_Entry>, placing entry: _Entry, from index: Int
  ) {
    var child = index
    while child > 0 {
      let parent = (child - 1) / 4
      guard entry.precedes(buffer[parent]) else { break }
      buffer[child] = buffer[parent]
      child = parent
    }
    buffer[child] = entry
  }

  /// Puts `entry` at the hole `index` and moves it down until it precedes its children.
  @inlinable
  internal static func _siftDown(
    _ buffer: UnsafeMutableBufferPointer<_Entry>, placing entry: _Entry, from index: Int
  ) {
    let count = buffer.count
    var hole = index
    while true {
      let first = 4 * hole + 1
      if first >= count { break }
      var best = first
      let end = Swift.min(first + 4, count)
      var child = first + 1
      while child < end {
        if buffer[child].precedes(buffer[best]) { best = child }
        child += 1
      }
      guard buffer[best].precedes(entry) else { break }
      buffer[hole] = buffer[best]
      hole = best
    }
    buffer[hole] = entry
  }
}
