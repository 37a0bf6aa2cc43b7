import TestSupport
import Testing

@testable import MessageDeferral

/// The reference model: one plain array per lane.
struct LaneModel {
  var lanes: [[Int]]

  init(laneCount: Int) { lanes = Array(repeating: [], count: laneCount) }

  var elements: [Int] { lanes.flatMap { $0 } }
  var count: Int { lanes.reduce(0) { $0 + $1.count } }

  mutating func popFirst() -> Int? {
    for lane in lanes.indices where !lanes[lane].isEmpty { return lanes[lane].removeFirst() }
    return nil
  }

  mutating func remove(where predicate: (Int) -> Bool) -> Int? {
    for lane in lanes.indices {
      if let index = lanes[lane].firstIndex(where: predicate) {
        return lanes[lane].remove(at: index)
      }
    }
    return nil
  }
}

/// What is wrong with the queue's bookkeeping, or `nil`. The same checks as
/// `_checkInvariants()`, without trapping, so a random test can print its seed first.
func bookkeepingProblem(_ queue: PendingQueue<Int>) -> String? {
  var total = 0
  for (index, lane) in queue.lanes.enumerated() {
    if lane.used > lane.slots.count { return "lane \(index) uses more slots than it has" }
    var nils = 0
    for logical in 0..<lane.used where lane.slots[lane.physical(logical)] == nil { nils += 1 }
    if nils != lane.tombstones {
      return "lane \(index): \(nils) tombstones, \(lane.tombstones) counted"
    }
    if lane.used > 0, lane.slots[lane.head] == nil { return "lane \(index): head is a tombstone" }
    total += lane.used - nils
  }
  return total == queue.count ? nil : "count is \(queue.count) but \(total) are live"
}

/// Compares the queue with the model; returns a description of the first difference.
func difference(_ queue: PendingQueue<Int>, _ model: LaneModel) -> String? {
  if let problem = bookkeepingProblem(queue) { return problem }
  if queue.elements != model.elements {
    return "elements \(queue.elements), model \(model.elements)"
  }
  if queue.count != model.count { return "count \(queue.count), model \(model.count)" }
  if queue.first != model.elements.first {
    return
      "first \(String(describing: queue.first)), model \(String(describing: model.elements.first))"
  }
  if queue.isEmpty != model.elements.isEmpty { return "isEmpty disagrees" }
  return nil
}

@Suite("PendingQueue against a model of plain arrays")
struct PendingQueueTests {
  @Test func emptyQueue() {
    var queue = PendingQueue<Int>(laneCount: 3)
    #expect(queue.isEmpty && queue.count == 0 && queue.first == nil)
    #expect(queue.popFirst() == nil)
    #expect(queue.remove { _ in true } == nil)
    #expect(queue.elements.isEmpty)
    queue._checkInvariants()
  }

  @Test func lanesLeaveInLaneOrderAndFIFOWithin() {
    var queue = PendingQueue<Int>(laneCount: 3)
    for (element, lane) in [(1, 2), (2, 0), (3, 1), (4, 0), (5, 2), (6, 1)] {
      queue.enqueue(element, lane: lane)
    }
    #expect(queue.elements == [2, 4, 3, 6, 1, 5])
    var popped: [Int] = []
    while let element = queue.popFirst() { popped.append(element) }
    #expect(popped == [2, 4, 3, 6, 1, 5])
  }

  /// The head must never be a tombstone: after popping, a tombstone that follows is skipped.
  /// (Found by these tests: `popFirst` left the head on a tombstone, so `first` answered
  /// with the next lane's element, or `nil`.)
  @Test func popFirstSkipsATombstoneThatFollowsTheHead() {
    var queue = PendingQueue<Int>(laneCount: 2)
    for element in [1, 2, 3] { queue.enqueue(element, lane: 0) }
    queue.enqueue(9, lane: 1)
    #expect(queue.remove { $0 == 2 } == 2)
    #expect(queue.popFirst() == 1)
    #expect(queue.first == 3)
    #expect(bookkeepingProblem(queue) == nil)
    #expect(queue.popFirst() == 3)
    #expect(queue.popFirst() == 9)
    #expect(queue.popFirst() == nil)
  }

  /// Every placement of up to 5 elements in 2 lanes, every subset removed (front to back and
  /// back to front), then refills that wrap the rings, then pops to the end.
  @Test func exhaustiveSmallSizes() {
    for size in 0...5 {
      for placement in 0..<(1 << size) {
        for removal in 0..<(1 << size) {
          for backwards in [false, true] {
            var queue = PendingQueue<Int>(laneCount: 2)
            var model = LaneModel(laneCount: 2)
            for element in 0..<size {
              let lane = (placement >> element) & 1
              queue.enqueue(element, lane: lane)
              model.lanes[lane].append(element)
            }
            let order = backwards ? Array((0..<size).reversed()) : Array(0..<size)
            for element in order where (removal >> element) & 1 == 1 {
              let removed = queue.remove { $0 == element }
              #expect(removed == element)
              _ = model.remove { $0 == element }
            }
            for extra in 100..<103 {
              queue.enqueue(extra, lane: extra % 2)
              model.lanes[extra % 2].append(extra)
            }
            let label = "size \(size) placement \(placement) removal \(removal) back \(backwards)"
            if let problem = difference(queue, model) {
              Issue.record("\(label): \(problem)")
              return
            }
            while true {
              let popped = queue.popFirst()
              #expect(popped == model.popFirst(), "\(label)")
              if let problem = difference(queue, model) {
                Issue.record("\(label) after a pop: \(problem)")
                return
              }
              if popped == nil { break }
            }
            queue._checkInvariants()
          }
        }
      }
    }
  }

  /// Seeded random operation sequences; a failure names its seed and step.
  @Test func randomOperationsMatchTheModel() {
    for seed in UInt64(0)..<2000 {
      var rng = SplitMix64(seed: seed)
      let laneCount = 1 + rng.below(3)
      var queue = PendingQueue<Int>(laneCount: laneCount)
      var model = LaneModel(laneCount: laneCount)
      var nextElement = 0
      for step in 0..<50 {
        var answer: Int?
        var expected: Int?
        switch rng.pick(weights: [5, 2, 3, 1, 1, 2, 0.2]) {
        case 0:
          let lane = rng.below(laneCount)
          queue.enqueue(nextElement, lane: lane)
          model.lanes[lane].append(nextElement)
          nextElement += 1
        case 1:
          answer = queue.popFirst()
          expected = model.popFirst()
        case 2:
          // Remove one element by value (often one that is present).
          let target = nextElement == 0 ? 0 : rng.below(nextElement)
          answer = queue.remove { $0 == target }
          expected = model.remove { $0 == target }
        case 3:
          // Remove the first element matching a predicate that several may satisfy.
          let modulus = 2 + rng.below(3)
          let residue = rng.below(modulus)
          answer = queue.remove { $0 % modulus == residue }
          expected = model.remove { $0 % modulus == residue }
        case 4:
          // Updating in place keeps every element where it is.
          queue.updateEach { $0 += 1_000_000 }
          queue.updateEach { $0 -= 1_000_000 }
        case 5:
          // Update the first element matching a predicate, in place, and only that one.
          let modulus = 2 + rng.below(3)
          let residue = rng.below(modulus)
          let matches = { (element: Int) in element % modulus == residue }
          #expect(queue.contains(where: matches) == model.elements.contains(where: matches))
          let updated = queue.updateFirst(where: matches) {
            answer = $0
            $0 += modulus * 1000
          }
          for lane in model.lanes.indices {
            if let index = model.lanes[lane].firstIndex(where: matches) {
              expected = model.lanes[lane][index]
              model.lanes[lane][index] += modulus * 1000
              break
            }
          }
          #expect(updated == (expected != nil))
        default:
          queue.removeAll()
          model = LaneModel(laneCount: laneCount)
        }
        // Plain comparisons, recording only failures, keep 100 000 steps fast in debug builds.
        if answer != expected {
          Issue.record("seed \(seed) step \(step): got \(answer as Any), model \(expected as Any)")
          return
        }
        if let problem = difference(queue, model) {
          Issue.record("seed \(seed) step \(step): \(problem)")
          return
        }
        queue._checkInvariants()
      }
    }
  }

  /// Many removals from the middle force compaction; order survives it.
  @Test func compactionKeepsOrder() {
    var queue = PendingQueue<Int>(laneCount: 1)
    var model = LaneModel(laneCount: 1)
    for element in 0..<200 {
      queue.enqueue(element, lane: 0)
      model.lanes[0].append(element)
    }
    for element in stride(from: 1, to: 200, by: 2) {
      #expect(queue.remove { $0 == element } == element)
      _ = model.remove { $0 == element }
      #expect(difference(queue, model) == nil, "after removing \(element)")
    }
    #expect(queue.elements == Array(stride(from: 0, to: 200, by: 2)))
  }
}

@Suite("ArticleQueue reproduces the article's array")
struct ArticleQueueTests {
  /// The article's `enqueue(_:)` and `flushIfPossible()` on a plain array, with a display
  /// that fails for the ids in `failing`.
  struct ArticleModel {
    var pending: [(id: Int, reason: Reason)] = []

    mutating func enqueue(_ id: Int, _ reason: Reason) {
      switch reason {
      case .priceIncreaseConsent, .billingIssue: pending.insert((id, reason), at: 0)
      default: pending.append((id, reason))
      }
    }

    mutating func flush(failing: Set<Int>) -> [Int] {
      let next = pending
      pending.removeAll()
      var shown: [Int] = []
      for message in next {
        if failing.contains(message.id) {
          pending.append(message)
        } else {
          shown.append(message.id)
        }
      }
      return shown
    }
  }

  @Test func consentAndBillingGoToTheFrontOthersToTheBack() {
    var queue = ArticleQueue<Int>()
    let arrivals: [(Int, Reason)] = [
      (1, .generic), (2, .priceIncreaseConsent), (3, .winBackOffer), (4, .billingIssue),
      (5, .unknown(rawValue: 7)), (6, .priceIncreaseConsent),
    ]
    for (id, reason) in arrivals { queue.enqueue(id, reason: reason) }
    #expect(queue.elements == [6, 4, 2, 1, 3, 5])
    queue.append(7)
    #expect(queue.takeAll() == [6, 4, 2, 1, 3, 5, 7])
    #expect(queue.isEmpty)
  }

  /// Random arrivals and flushes with random failures: the same order as the article's code.
  @Test func randomFlushesMatchTheArticle() {
    let reasons: [Reason] = [
      .priceIncreaseConsent, .billingIssue, .winBackOffer, .generic, .unknown(rawValue: 3),
    ]
    for seed in UInt64(0)..<2000 {
      var rng = SplitMix64(seed: seed)
      var queue = ArticleQueue<Int>()
      var model = ArticleModel()
      var nextID = 0
      for step in 0..<60 {
        if rng.chance(0.7) {
          let reason = reasons[rng.below(reasons.count)]
          queue.enqueue(nextID, reason: reason)
          model.enqueue(nextID, reason)
          nextID += 1
        } else {
          let failing = Set(queue.elements.filter { _ in rng.chance(0.3) })
          var shown: [Int] = []
          for id in queue.takeAll() {
            if failing.contains(id) { queue.append(id) } else { shown.append(id) }
          }
          let expected = model.flush(failing: failing)
          #expect(shown == expected, "seed \(seed) step \(step)")
        }
        #expect(queue.elements == model.pending.map(\.id), "seed \(seed) step \(step)")
      }
    }
  }
}
