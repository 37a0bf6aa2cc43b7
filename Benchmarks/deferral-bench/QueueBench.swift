import MessageDeferral
import Simulation

/// Queue throughput: ``PendingQueue`` against the article's `Array` queue (``ArticleQueue``),
/// on the article's own workload: messages delivered one by one (consent and billing inserted
/// at index 0, others appended, as `enqueue(_:)` does), then a flush that takes them all.
///
/// One cycle at depth d = d enqueues + d removals (2d operations). `PendingQueue` gets the
/// coordinator's priority lanes (consent, billing, others), so both leave consent and billing
/// first; within those lanes the article serves the newest first and `PendingQueue` the oldest
/// (a documented difference in order, not in work).
struct QueueBench {
  /// Share of each reason lane among issued messages (lanes 0...4), from the default scenario.
  var mix: [Double]
  var depths: [Int]
  var repetitions: Int
  /// Minimum duration of one timed sample, seconds (cycles are repeated to reach it).
  var minimumSampleSeconds: Double

  struct Row {
    var depth: Int
    var side: String
    var nanosecondsPerOperation: Double
    var minimum: Double
    var maximum: Double
    var cyclesPerSample: Int
    var repetitions: Int
    /// Median over repetitions of (article time ÷ ours), measured side by side.
    var speedup: Double?
  }

  /// Messages with reasons drawn from `mix` by a fixed SplitMix64 sequence (the same for both
  /// sides and every run).
  func messages(count: Int) -> [Message] {
    var state: UInt64 = 0x5EED
    var cumulative: [Double] = []
    var total = 0.0
    for share in mix {
      total += share
      cumulative.append(total)
    }
    let reasons: [Reason] = [
      .priceIncreaseConsent, .billingIssue, .winBackOffer, .generic, .unknown(rawValue: 7),
    ]
    return (0..<count).map { index in
      state &+= 0x9E37_79B9_7F4A_7C15
      let unit = Double(RandomStream.splitMix64Finalizer(state) >> 11) / Double(1 << 53) * total
      let lane = cumulative.firstIndex { unit < $0 } ?? cumulative.count - 1
      let time = Double(index)
      return Message(
        id: MessageID(index), reason: reasons[lane], firstIssuedAt: time, deliveredAt: time,
        deadline: lane == 0 ? time + 86_400 : nil)
    }
  }

  static func lane(_ reason: Reason) -> Int {
    switch reason {
    case .priceIncreaseConsent: 0
    case .billingIssue: 1
    default: 2
    }
  }

  /// `cycles` cycles of the article's queue; returns elapsed seconds.
  static func runArticle(
    _ queue: inout ArticleQueue<Message>, _ batch: [Message], cycles: Int
  ) -> Double {
    var checksum = 0
    let seconds = Measure.seconds {
      for _ in 0..<cycles {
        for message in batch { queue.enqueue(message, reason: message.reason) }
        let flushed = queue.takeAll()
        for message in flushed { checksum &+= Int(message.id) }
      }
    }
    checksumSink &+= checksum
    return seconds
  }

  /// `cycles` cycles of `PendingQueue`; returns elapsed seconds.
  static func runLanes(
    _ queue: inout PendingQueue<Message>, _ batch: [Message], lanes: [Int], cycles: Int
  ) -> Double {
    var checksum = 0
    let seconds = Measure.seconds {
      for _ in 0..<cycles {
        for index in batch.indices { queue.enqueue(batch[index], lane: lanes[index]) }
        while let message = queue.popFirst() { checksum &+= Int(message.id) }
      }
    }
    checksumSink &+= checksum
    return seconds
  }

  func run(log: (String) -> Void) -> [Row] {
    var rows: [Row] = []
    let all = messages(count: depths.max() ?? 1)
    for depth in depths {
      let batch = Array(all.prefix(depth))
      let lanes = batch.map { Self.lane($0.reason) }
      var article = ArticleQueue<Message>()
      var ours = PendingQueue<Message>(laneCount: 3)
      // Warm-up (grows both queues' storage) and calibration: enough cycles per sample. One
      // article cycle at depth 100k takes seconds (its cost is quadratic in the depth), so
      // from 50k on it gets no warm-up of its own (the smaller depths warmed its code) and
      // fewer repetitions.
      let large = depth >= 50_000
      let repetitions = large ? min(self.repetitions, 3) : self.repetitions
      let articleOnce = large ? .infinity : Self.runArticle(&article, batch, cycles: 1)
      let oursOnce = Self.runLanes(&ours, batch, lanes: lanes, cycles: 1)
      let articleCycles = max(1, Int(minimumSampleSeconds / max(articleOnce, 1e-9)))
      let oursCycles = max(1, Int(minimumSampleSeconds / max(oursOnce, 1e-9)))
      var articleCosts: [Double] = []
      var oursCosts: [Double] = []
      var ratios: [Double] = []
      let operations = Double(2 * depth)
      for repetition in 0..<repetitions {
        var articleCost = 0.0
        var oursCost = 0.0
        // Alternate which side goes first.
        for side in repetition % 2 == 0 ? [0, 1] : [1, 0] {
          if side == 0 {
            let seconds = Self.runArticle(&article, batch, cycles: articleCycles)
            articleCost = seconds * 1e9 / (Double(articleCycles) * operations)
          } else {
            let seconds = Self.runLanes(&ours, batch, lanes: lanes, cycles: oursCycles)
            oursCost = seconds * 1e9 / (Double(oursCycles) * operations)
          }
        }
        articleCosts.append(articleCost)
        oursCosts.append(oursCost)
        ratios.append(articleCost / oursCost)
      }
      let speedup = Measure.median(ratios)
      rows.append(
        Row(
          depth: depth, side: "article_array",
          nanosecondsPerOperation: Measure.median(articleCosts),
          minimum: articleCosts.min()!, maximum: articleCosts.max()!,
          cyclesPerSample: articleCycles, repetitions: repetitions, speedup: nil))
      rows.append(
        Row(
          depth: depth, side: "pending_queue", nanosecondsPerOperation: Measure.median(oursCosts),
          minimum: oursCosts.min()!, maximum: oursCosts.max()!, cyclesPerSample: oursCycles,
          repetitions: repetitions, speedup: speedup))
      log(
        "queue depth \(depth): article \(Format.nanoseconds(Measure.median(articleCosts)))/op, "
          + "PendingQueue \(Format.nanoseconds(Measure.median(oursCosts)))/op, "
          + "\(Format.ratio(speedup))")
    }
    return rows
  }
}
