import TestSupport
import Testing

@testable import Simulation

/// The obvious model: an unordered list; the minimum by (time, push order) found by a scan.
private struct ReferenceQueue {
  var events: [(time: Double, order: Int, payload: Int)] = []
  var pushes = 0

  mutating func push(time: Double, payload: Int) {
    events.append((time, pushes, payload))
    pushes += 1
  }

  mutating func popMin() -> (time: Double, payload: Int)? {
    guard var best = events.indices.first else { return nil }
    for index in events.indices.dropFirst() {
      let candidate = events[index]
      if candidate.time < events[best].time
        || (candidate.time == events[best].time && candidate.order < events[best].order)
      {
        best = index
      }
    }
    let event = events.remove(at: best)
    return (event.time, event.payload)
  }
}

@Suite("EventQueue")
struct EventQueueTests {
  @Test func emptyQueue() {
    var queue = EventQueue<Int>()
    #expect(queue.isEmpty)
    #expect(queue.count == 0)
    #expect(queue.peekMinTime == nil)
    #expect(queue.popMin() == nil)
  }

  /// Every sequence of up to 6 pushes with times in {0, 1, 2}, then pops until empty: the pops
  /// are the stable sort of the pushes by time.
  @Test func exhaustivePushesThenPops() {
    for length in 0...6 {
      var code = 0
      let combinations = (0..<length).reduce(1) { product, _ in product * 3 }
      while code < combinations {
        var times = [Double]()
        var rest = code
        for _ in 0..<length {
          times.append(Double(rest % 3))
          rest /= 3
        }
        var queue = EventQueue<Int>(minimumCapacity: length)
        for (index, time) in times.enumerated() { queue.push(time: time, payload: index) }
        #expect(queue._invariantViolation() == nil, "times \(times)")
        var popped = [Int]()
        while let event = queue.popMin() {
          #expect(event.time == times[event.payload])
          popped.append(event.payload)
        }
        let expected = times.indices.sorted { (times[$0], $0) < (times[$1], $1) }
        #expect(popped == expected, "times \(times)")
        code += 1
      }
    }
  }

  /// Every interleaving of up to 7 operations among push at 0, push at 1, push at 2 and pop,
  /// against the reference.
  @Test func exhaustiveInterleavings() {
    for length in 0...7 {
      let combinations = (0..<length).reduce(1) { product, _ in product * 4 }
      for code in 0..<combinations {
        var queue = EventQueue<Int>()
        var reference = ReferenceQueue()
        var rest = code
        var failed = false
        for step in 0..<length {
          let operation = rest % 4
          rest /= 4
          if operation < 3 {
            queue.push(time: Double(operation), payload: step)
            reference.push(time: Double(operation), payload: step)
          } else {
            let actual = queue.popMin()
            let expected = reference.popMin()
            if actual?.time != expected?.time || actual?.payload != expected?.payload {
              failed = true
            }
          }
          if queue._invariantViolation() != nil || queue.count != reference.events.count {
            failed = true
          }
        }
        #expect(!failed, "operation code \(code) of length \(length)")
      }
    }
  }

  /// Random push/pop/clear loops against the reference, with many ties (a few distinct times)
  /// or none (continuous times), infinities included. The failing seed is printed.
  @Test func seededRandomOperations() {
    for seed in 0..<2000 {
      var generator = SplitMix64(seed: UInt64(seed))
      var queue = EventQueue<Int>(minimumCapacity: seed % 3 == 0 ? 0 : 16)
      var reference = ReferenceQueue()
      let distinctTimes = seed % 2 == 0 ? 4 : 0
      var payload = 0
      var failure: String?
      for step in 0..<120 where failure == nil {
        let roll = Int.random(in: 0..<100, using: &generator)
        if roll < 55 {
          let time: Double
          if roll == 0 {
            time = .infinity
          } else if roll == 1 {
            time = -.infinity
          } else if distinctTimes > 0 {
            time = Double(Int.random(in: 0..<distinctTimes, using: &generator))
          } else {
            time = Double.random(in: 0..<1000, using: &generator)
          }
          queue.push(time: time, payload: payload)
          reference.push(time: time, payload: payload)
          payload += 1
        } else if roll < 98 {
          let peeked = queue.peekMinTime
          let actual = queue.popMin()
          let expected = reference.popMin()
          if actual?.time != expected?.time || actual?.payload != expected?.payload {
            failure =
              "step \(step): popped \(String(describing: actual)), "
              + "expected \(String(describing: expected))"
          } else if peeked != actual?.time {
            failure = "step \(step): peekMinTime \(String(describing: peeked))"
          }
        } else {
          queue.removeAll(keepingCapacity: roll == 98)
          reference.events.removeAll()
        }
        if failure == nil, let violation = queue._invariantViolation() {
          failure = "step \(step): \(violation)"
        }
        if failure == nil && queue.count != reference.events.count {
          failure = "step \(step): count \(queue.count) vs \(reference.events.count)"
        }
      }
      #expect(failure == nil, "seed \(seed): \(failure ?? "")")
      if failure != nil { return }
    }
  }

  /// Equal times leave in push order even when pops interleave with pushes.
  @Test func tiesPopInInsertionOrder() {
    var queue = EventQueue<Int>()
    var popped = [Int]()
    for index in 0..<100 {
      queue.push(time: 5, payload: index)
      if index % 3 == 2 { popped.append(queue.removeMin().payload) }
    }
    while let event = queue.popMin() { popped.append(event.payload) }
    #expect(popped == Array(0..<100))
  }

  /// Payloads with references survive the heap's moves (no double release, no leak of order).
  @Test func referencePayloads() {
    var queue = EventQueue<String>(minimumCapacity: 4)
    let words = ["delta", "alpha", "charlie", "bravo", "echo"]
    for (index, word) in words.enumerated() {
      queue.push(time: Double(words.count - index), payload: String(repeating: word, count: 20))
    }
    var popped = [String]()
    while let event = queue.popMin() { popped.append(event.payload) }
    #expect(popped == words.reversed().map { String(repeating: $0, count: 20) })
  }

  @Test func removeAllEmptiesAndTheQueueStaysUsable() {
    var queue = EventQueue<Int>()
    for index in 0..<10 { queue.push(time: Double(10 - index), payload: index) }
    queue.removeAll(keepingCapacity: true)
    #expect(queue.isEmpty)
    #expect(queue.peekMinTime == nil)
    queue.push(time: 3, payload: 1)
    queue.push(time: 3, payload: 2)
    queue.push(time: 1, payload: 3)
    #expect(queue.peekMinTime == 1)
    #expect(queue.popMin()?.payload == 3)
    #expect(queue.popMin()?.payload == 1)
    #expect(queue.popMin()?.payload == 2)
    #expect(queue.popMin() == nil)
  }
}
