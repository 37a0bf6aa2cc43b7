import MessageDeferral

/// The fields of a tally, declared once with their kind.
///
/// ``Tally/_visitFields(_:_:_:)`` (and ``SegmentTally``'s) is the one table: each line names a
/// field, its JSON key in partial files and its kind. Merge, checked merge, the checks of a
/// tally read from a file, the shape of a new tally and of one read from a file, partial
/// encoding and decoding, and their tests (`TallyFieldsTests`) are visitors that go over it,
/// so adding a field is its property, its line here, its increment and its metric.
///
/// A visitor is handed each field of `mine` (to read or change) beside the same field of
/// `theirs` (the other tally of a merge; a copy of `mine` for the operations on one tally).
protocol _TallyFieldVisitor {
  /// Counts summed on merge, one per screen or per lane; each at most ``Tally/maximumCount`` in
  /// a file when `bounded` (variate counts are not: a run may draw more than 2⁵³).
  mutating func counts(
    _ name: String, _ shape: _FieldShape, bounded: Bool, _ mine: inout [Int], _ theirs: [Int])
  /// Durations summed on merge in whole units (milliseconds), one per screen or per lane: never
  /// negative, bounded only by 64 bits.
  mutating func sums(_ name: String, _ shape: _FieldShape, _ mine: inout [Int64], _ theirs: [Int64])
  /// One duration summed on merge in whole units (seconds).
  mutating func sum(_ name: String, _ mine: inout Int64, _ theirs: Int64)
  /// A count that merges as the larger of the two, not a sum.
  mutating func maximum(_ name: String, _ mine: inout Int, _ theirs: Int)
  /// Latency histograms, one per lane, merged bin by bin.
  mutating func histograms(
    _ name: String, _ shape: _FieldShape, _ mine: inout [LatencyHistogram],
    _ theirs: [LatencyHistogram])
  /// One latency histogram.
  mutating func histogram(
    _ name: String, _ mine: inout LatencyHistogram, _ theirs: LatencyHistogram)
  /// A block of counters (``_CounterBlock``), each under its own name among the fields.
  mutating func counters<Block: _CounterBlock>(_ mine: inout Block, _ theirs: Block)
  /// One ``SegmentTally`` per ``UserSegment``, each an object of its own fields.
  mutating func segments(_ name: String, _ mine: inout [SegmentTally], _ theirs: [SegmentTally])
  /// GSL variates drawn by kind (an object `{"counts": […]}` in files): counts summed on merge,
  /// one per ``VariateKind``, unbounded (a run may draw more than 2⁵³).
  mutating func variates(_ name: String, _ mine: inout VariateCounts, _ theirs: VariateCounts)
}

/// How many entries an array field has.
enum _FieldShape: Sendable {
  /// One per screen of the scenario.
  case perScreen
  /// One per reason lane (``Reason/laneCount``).
  case perReason
  /// One per ``VariateKind``.
  case perVariateKind

  /// The entries of a field of this shape in a tally of `screens` screens.
  func count(screens: Int) -> Int {
    switch self {
    case .perScreen: screens
    case .perReason: Reason.laneCount
    case .perVariateKind: VariateKind.allCases.count
    }
  }
}

/// A tally whose fields are listed once (``_TallyFieldVisitor``).
protocol _TallyFields {
  static func _visitFields<Visitor: _TallyFieldVisitor>(
    _ mine: inout Self, _ theirs: Self, _ visitor: inout Visitor)
}

extension Tally: _TallyFields {
  /// The table of a tally's fields (``_TallyFieldVisitor``), in the order the checks report.
  @inline(__always)
  static func _visitFields<Visitor: _TallyFieldVisitor>(
    _ mine: inout Tally, _ theirs: Tally, _ visitor: inout Visitor
  ) {
    visitor.counts(
      "screenVisits", .perScreen, bounded: true, &mine.screenVisits, theirs.screenVisits)
    visitor.counts(
      "screenInterrupted", .perScreen, bounded: true, &mine.screenInterrupted,
      theirs.screenInterrupted)
    visitor.sums(
      "screenMilliseconds", .perScreen, &mine.screenMilliseconds, theirs.screenMilliseconds)
    visitor.counts(
      "screenConsentShown", .perScreen, bounded: true, &mine.screenConsentShown,
      theirs.screenConsentShown)
    visitor.counts(
      "screenConsentAccepted", .perScreen, bounded: true, &mine.screenConsentAccepted,
      theirs.screenConsentAccepted)
    visitor.counters(&mine.counters, theirs.counters)
    visitor.counts("issued", .perReason, bounded: true, &mine.issued.lanes, theirs.issued.lanes)
    visitor.counts(
      "displayed", .perReason, bounded: true, &mine.displayed.lanes, theirs.displayed.lanes)
    visitor.counts("expired", .perReason, bounded: true, &mine.expired.lanes, theirs.expired.lanes)
    visitor.counts("pending", .perReason, bounded: true, &mine.pending.lanes, theirs.pending.lanes)
    visitor.histograms("latency", .perReason, &mine.latency.lanes, theirs.latency.lanes)
    visitor.histograms("hold", .perReason, &mine.hold.lanes, theirs.hold.lanes)
    visitor.sums(
      "latencySumMilliseconds", .perReason, &mine.latencySumMilliseconds.lanes,
      theirs.latencySumMilliseconds.lanes)
    visitor.maximum("maxSheetsPerBreak", &mine.maxSheetsPerBreak, theirs.maxSheetsPerBreak)
    visitor.sum("simulatedSeconds", &mine.simulatedSeconds, theirs.simulatedSeconds)
    visitor.segments("segments", &mine.segments, theirs.segments)
    visitor.variates("variates", &mine.variates, theirs.variates)
  }
}

extension SegmentTally: _TallyFields {
  /// The table of a segment's fields (``_TallyFieldVisitor``).
  @inline(__always)
  static func _visitFields<Visitor: _TallyFieldVisitor>(
    _ mine: inout SegmentTally, _ theirs: SegmentTally, _ visitor: inout Visitor
  ) {
    visitor.counters(&mine.counters, theirs.counters)
    visitor.histogram("consentLatency", &mine.consentLatency, theirs.consentLatency)
  }
}

// MARK: - Merge and shape

/// Adds `theirs` into `mine`, field by field (``Tally/merge(_:)``): exact, commutative, and
/// trapping on overflow like `+=`.
struct _MergeFields: _TallyFieldVisitor {
  @inline(__always)
  mutating func counts(
    _ name: String, _ shape: _FieldShape, bounded: Bool, _ mine: inout [Int], _ theirs: [Int]
  ) {
    for index in mine.indices { mine[index] += theirs[index] }
  }

  @inline(__always)
  mutating func sums(
    _ name: String, _ shape: _FieldShape, _ mine: inout [Int64], _ theirs: [Int64]
  ) {
    for index in mine.indices { mine[index] += theirs[index] }
  }

  @inline(__always)
  mutating func sum(_ name: String, _ mine: inout Int64, _ theirs: Int64) { mine += theirs }

  @inline(__always)
  mutating func maximum(_ name: String, _ mine: inout Int, _ theirs: Int) {
    mine = max(mine, theirs)
  }

  @inline(__always)
  mutating func histograms(
    _ name: String, _ shape: _FieldShape, _ mine: inout [LatencyHistogram],
    _ theirs: [LatencyHistogram]
  ) {
    for index in mine.indices { mine[index].merge(theirs[index]) }
  }

  @inline(__always)
  mutating func histogram(
    _ name: String, _ mine: inout LatencyHistogram, _ theirs: LatencyHistogram
  ) {
    mine.merge(theirs)
  }

  @inline(__always)
  mutating func counters<Block: _CounterBlock>(_ mine: inout Block, _ theirs: Block) {
    mine.addCounters(theirs)
  }

  @inline(__always)
  mutating func segments(
    _ name: String, _ mine: inout [SegmentTally], _ theirs: [SegmentTally]
  ) {
    for index in mine.indices { SegmentTally._visitFields(&mine[index], theirs[index], &self) }
  }

  @inline(__always)
  mutating func variates(_ name: String, _ mine: inout VariateCounts, _ theirs: VariateCounts) {
    mine.merge(theirs)
  }
}

/// Gives every array field the entries of its shape, all zero (``Tally/init(screenCount:)``),
/// or, with `reshapes` false, tells whether each already has them
/// (``Tally/hasShape(screens:)``).
struct _ShapeFields: _TallyFieldVisitor {
  let screens: Int
  let reshapes: Bool
  var fits = true

  mutating func shape<Value>(_ shape: _FieldShape, _ mine: inout [Value], _ zero: Value) {
    let count = shape.count(screens: screens)
    if reshapes {
      mine = Array(repeating: zero, count: count)
    } else if mine.count != count {
      fits = false
    }
  }

  mutating func counts(
    _ name: String, _ shape: _FieldShape, bounded: Bool, _ mine: inout [Int], _ theirs: [Int]
  ) { self.shape(shape, &mine, 0) }

  mutating func sums(
    _ name: String, _ shape: _FieldShape, _ mine: inout [Int64], _ theirs: [Int64]
  ) { self.shape(shape, &mine, 0) }

  mutating func sum(_ name: String, _ mine: inout Int64, _ theirs: Int64) {}
  mutating func maximum(_ name: String, _ mine: inout Int, _ theirs: Int) {}

  mutating func histograms(
    _ name: String, _ shape: _FieldShape, _ mine: inout [LatencyHistogram],
    _ theirs: [LatencyHistogram]
  ) { self.shape(shape, &mine, LatencyHistogram()) }

  mutating func histogram(
    _ name: String, _ mine: inout LatencyHistogram, _ theirs: LatencyHistogram
  ) {}
  mutating func counters<Block: _CounterBlock>(_ mine: inout Block, _ theirs: Block) {}

  mutating func segments(
    _ name: String, _ mine: inout [SegmentTally], _ theirs: [SegmentTally]
  ) {
    let count = UserSegment.allCases.count
    if reshapes {
      mine = Array(repeating: SegmentTally(), count: count)
    } else if mine.count != count {
      fits = false
    }
  }

  mutating func variates(_ name: String, _ mine: inout VariateCounts, _ theirs: VariateCounts) {
    self.shape(.perVariateKind, &mine.counts, 0)
  }
}

// MARK: - Partial files

/// Reads every field of a tally under its JSON key; stops at the first error (a missing key
/// names it), which the caller throws.
struct _DecodeFields: _TallyFieldVisitor {
  let container: KeyedDecodingContainer<_CodingName>
  var error: (any Error)?

  mutating func read<Value: Decodable>(_ name: String, _ value: inout Value) {
    guard error == nil else { return }
    do {
      value = try container.decode(Value.self, forKey: _CodingName(name))
    } catch {
      self.error = error
    }
  }

  mutating func counts(
    _ name: String, _ shape: _FieldShape, bounded: Bool, _ mine: inout [Int], _ theirs: [Int]
  ) { read(name, &mine) }

  mutating func sums(
    _ name: String, _ shape: _FieldShape, _ mine: inout [Int64], _ theirs: [Int64]
  ) { read(name, &mine) }
  mutating func sum(_ name: String, _ mine: inout Int64, _ theirs: Int64) { read(name, &mine) }
  mutating func maximum(_ name: String, _ mine: inout Int, _ theirs: Int) { read(name, &mine) }

  mutating func histograms(
    _ name: String, _ shape: _FieldShape, _ mine: inout [LatencyHistogram],
    _ theirs: [LatencyHistogram]
  ) { read(name, &mine) }

  mutating func histogram(
    _ name: String, _ mine: inout LatencyHistogram, _ theirs: LatencyHistogram
  ) { read(name, &mine) }

  mutating func counters<Block: _CounterBlock>(_ mine: inout Block, _ theirs: Block) {
    guard error == nil else { return }
    do { try mine.decodeCounters(from: container) } catch { self.error = error }
  }

  mutating func segments(
    _ name: String, _ mine: inout [SegmentTally], _ theirs: [SegmentTally]
  ) { read(name, &mine) }

  mutating func variates(_ name: String, _ mine: inout VariateCounts, _ theirs: VariateCounts) {
    read(name, &mine)
  }
}

/// Writes every field of a tally under its JSON key; stops at the first error.
struct _EncodeFields: _TallyFieldVisitor {
  var container: KeyedEncodingContainer<_CodingName>
  var error: (any Error)?

  mutating func write<Value: Encodable>(_ name: String, _ value: Value) {
    guard error == nil else { return }
    do {
      try container.encode(value, forKey: _CodingName(name))
    } catch {
      self.error = error
    }
  }

  mutating func counts(
    _ name: String, _ shape: _FieldShape, bounded: Bool, _ mine: inout [Int], _ theirs: [Int]
  ) { write(name, mine) }

  mutating func sums(
    _ name: String, _ shape: _FieldShape, _ mine: inout [Int64], _ theirs: [Int64]
  ) { write(name, mine) }
  mutating func sum(_ name: String, _ mine: inout Int64, _ theirs: Int64) { write(name, mine) }
  mutating func maximum(_ name: String, _ mine: inout Int, _ theirs: Int) { write(name, mine) }

  mutating func histograms(
    _ name: String, _ shape: _FieldShape, _ mine: inout [LatencyHistogram],
    _ theirs: [LatencyHistogram]
  ) { write(name, mine) }

  mutating func histogram(
    _ name: String, _ mine: inout LatencyHistogram, _ theirs: LatencyHistogram
  ) { write(name, mine) }

  mutating func counters<Block: _CounterBlock>(_ mine: inout Block, _ theirs: Block) {
    guard error == nil else { return }
    do { try mine.encodeCounters(to: &container) } catch { self.error = error }
  }

  mutating func segments(
    _ name: String, _ mine: inout [SegmentTally], _ theirs: [SegmentTally]
  ) { write(name, mine) }

  mutating func variates(_ name: String, _ mine: inout VariateCounts, _ theirs: VariateCounts) {
    write(name, mine)
  }
}
