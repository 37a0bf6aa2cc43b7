import MessageDeferral

/// Checks for tallies read from files (partial results): every count in range, messages
/// conserved, and merging with checked arithmetic, so that no file, however edited, makes
/// `merge` trap.
extension Tally {
  /// The largest count a tally read from a file may hold: 2⁵³, below which every count is
  /// exact in a `Double` (histogram bins are GSL doubles), and far beyond any real run.
  public static let maximumCount = 1 << 53

  /// A problem in one field of a tally: `field` is its JSON path below the tally
  /// (`displayed[1]`, `latency[0].count`).
  public struct Problem: Error, Sendable, Equatable {
    public var field: String
    public var message: String
  }

  /// The first field that is negative or above ``maximumCount``, or the first reason lane whose
  /// messages are not conserved (issued = displayed + expired + pending), or a histogram whose
  /// minimum, maximum or sum cannot be; `nil` when the tally could have been written by a run.
  ///
  /// Does not check that the counts are the ones a run would give: a consistent edit (the
  /// same amount added to `issued` and `displayed`) passes; the partial's content digest is
  /// what refuses edits.
  public func problem() -> Problem? {
    var fields = _CheckFields()
    var copy = self
    Self._visitFields(&copy, self, &fields)
    var check = fields.check
    if check.problem == nil {
      for lane in issued.indices {
        let parts = [displayed[lane], expired[lane], pending[lane]]
        let (sum, overflow) = parts.reduce((0, false)) { partial, part in
          let (value, over) = partial.0.addingReportingOverflow(part)
          return (value, partial.1 || over)
        }
        if overflow || sum != issued[lane] {
          check.fail(
            "issued[\(lane)]",
            "\(issued[lane]) messages issued but \(parts[0]) displayed + \(parts[1]) expired + "
              + "\(parts[2]) pending; every issued message ends in exactly one of those")
          break
        }
      }
    }
    return check.problem
  }

  /// Adds `other` into `self` like ``merge(_:)`` but never traps: returns the first field whose
  /// sum would overflow, or pass ``maximumCount`` for counts, and then `self` is partly merged
  /// (throw it away).
  public mutating func mergeChecked(_ other: Tally) -> Problem? {
    guard hasShape(screens: other.screenVisits.count), other.hasShape(screens: screenVisits.count)
    else {
      return Problem(field: "screenVisits", message: "tallies of different scenarios")
    }
    var merge = _CheckedMergeFields()
    Self._visitFields(&self, other, &merge)
    return merge.check.problem
  }
}

/// The checks of one tally read from a file (``Tally/problem()``), field by field: every count
/// 0 or more (and at most ``Tally/maximumCount`` when bounded), every duration 0 or more, every
/// histogram possible.
struct _CheckFields: _TallyFieldVisitor {
  var check = _TallyCheck()
  /// The JSON path of the object being visited (`segments[2].`), before each field's name.
  var prefix = ""

  mutating func counts(
    _ name: String, _ shape: _FieldShape, bounded: Bool, _ mine: inout [Int], _ theirs: [Int]
  ) { check.count(mine, prefix + name, bounded: bounded) }

  mutating func sums(
    _ name: String, _ shape: _FieldShape, _ mine: inout [Int64], _ theirs: [Int64]
  ) { check.count(mine.map { Int(clamping: $0) }, prefix + name, bounded: false) }

  mutating func sum(_ name: String, _ mine: inout Int64, _ theirs: Int64) {
    check.count([Int(clamping: mine)], names: [prefix + name], bounded: false)
  }

  mutating func maximum(_ name: String, _ mine: inout Int, _ theirs: Int) {
    check.count([mine], names: [prefix + name])
  }

  mutating func histograms(
    _ name: String, _ shape: _FieldShape, _ mine: inout [LatencyHistogram],
    _ theirs: [LatencyHistogram]
  ) {
    for (lane, histogram) in mine.enumerated() {
      check.histogram(histogram, "\(prefix)\(name)[\(lane)]")
    }
  }

  mutating func histogram(
    _ name: String, _ mine: inout LatencyHistogram, _ theirs: LatencyHistogram
  ) { check.histogram(mine, prefix + name) }

  mutating func counters<Block: _CounterBlock>(_ mine: inout Block, _ theirs: Block) {
    check.count(mine.counterValues, names: Block.fieldNames.map { prefix + $0 })
  }

  mutating func segments(
    _ name: String, _ mine: inout [SegmentTally], _ theirs: [SegmentTally]
  ) {
    let outer = prefix
    for index in mine.indices {
      prefix = "\(outer)\(name)[\(index)]."
      SegmentTally._visitFields(&mine[index], theirs[index], &self)
    }
    prefix = outer
  }

  mutating func variates(_ name: String, _ mine: inout VariateCounts, _ theirs: VariateCounts) {
    check.count(mine.counts, prefix + name + ".counts", bounded: false)
  }
}

/// Adds `theirs` into `mine` field by field like ``_MergeFields``, but never traps: the first
/// sum past a count's bound or past 64 bits is the problem (``Tally/mergeChecked(_:)``). Both
/// tallies have their shape (``_ShapeFields``).
struct _CheckedMergeFields: _TallyFieldVisitor {
  var check = _TallyCheck()
  var prefix = ""

  mutating func counts(
    _ name: String, _ shape: _FieldShape, bounded: Bool, _ mine: inout [Int], _ theirs: [Int]
  ) { check.add(&mine, theirs, prefix + name, bounded: bounded) }

  mutating func sums(
    _ name: String, _ shape: _FieldShape, _ mine: inout [Int64], _ theirs: [Int64]
  ) {
    for index in mine.indices {
      check.add64(&mine[index], theirs[index], "\(prefix)\(name)[\(index)]")
    }
  }

  mutating func sum(_ name: String, _ mine: inout Int64, _ theirs: Int64) {
    check.add64(&mine, theirs, prefix + name)
  }

  mutating func maximum(_ name: String, _ mine: inout Int, _ theirs: Int) {
    mine = max(mine, theirs)
  }

  mutating func histograms(
    _ name: String, _ shape: _FieldShape, _ mine: inout [LatencyHistogram],
    _ theirs: [LatencyHistogram]
  ) {
    for lane in mine.indices {
      check.add(&mine[lane], theirs[lane], "\(prefix)\(name)[\(lane)]")
    }
  }

  mutating func histogram(
    _ name: String, _ mine: inout LatencyHistogram, _ theirs: LatencyHistogram
  ) { check.add(&mine, theirs, prefix + name) }

  mutating func counters<Block: _CounterBlock>(_ mine: inout Block, _ theirs: Block) {
    var counts = mine.counterValues
    check.add(&counts, theirs.counterValues, names: Block.fieldNames.map { prefix + $0 })
    mine.counterValues = counts
  }

  mutating func segments(
    _ name: String, _ mine: inout [SegmentTally], _ theirs: [SegmentTally]
  ) {
    let outer = prefix
    for index in mine.indices {
      prefix = "\(outer)\(name)[\(index)]."
      SegmentTally._visitFields(&mine[index], theirs[index], &self)
    }
    prefix = outer
  }

  mutating func variates(_ name: String, _ mine: inout VariateCounts, _ theirs: VariateCounts) {
    check.add(&mine.counts, theirs.counts, prefix + name + ".counts", bounded: false)
  }
}

/// Collects the first problem found by the checks of ``Tally/problem()`` and
/// ``Tally/mergeChecked(_:)``.
struct _TallyCheck {
  var problem: Tally.Problem?

  mutating func fail(_ field: String, _ message: String) {
    if problem == nil { problem = Tally.Problem(field: field, message: message) }
  }

  mutating func count(_ values: [Int], _ name: String, bounded: Bool = true) {
    count(values, names: values.indices.map { "\(name)[\($0)]" }, bounded: bounded)
  }

  mutating func count(_ values: [Int], names: [String], bounded: Bool = true) {
    for (value, name) in zip(values, names) where problem == nil {
      if value < 0 {
        fail(name, "\(value) is negative; a count is 0 or more")
      } else if bounded, value > Tally.maximumCount {
        fail(name, "\(value) is above the largest count a run can give (2^53)")
      }
    }
  }

  mutating func histogram(_ histogram: LatencyHistogram, _ name: String) {
    count(
      [histogram.count, histogram.belowRangeCount, histogram.aboveRangeCount],
      names: ["count", "below", "above"].map { "\(name).\($0)" })
    let extremes = [histogram.minimum ?? 0, histogram.maximum ?? 0]
    if problem == nil, !(histogram.sum >= 0 && extremes.allSatisfy { $0 >= 0 }) {
      fail("\(name).sum", "a duration (sum, minimum or maximum) is negative")
    } else if problem == nil, extremes[0] > extremes[1] {
      fail("\(name).minimum", "the minimum \(extremes[0]) is above the maximum \(extremes[1])")
    }
  }

  mutating func add(_ values: inout [Int], _ other: [Int], _ name: String, bounded: Bool = true) {
    var names: [String] = []
    for index in values.indices { names.append("\(name)[\(index)]") }
    add(&values, other, names: names, bounded: bounded)
  }

  mutating func add(
    _ values: inout [Int], _ other: [Int], names: [String], bounded: Bool = true
  ) {
    for index in values.indices where problem == nil {
      let (sum, overflow) = values[index].addingReportingOverflow(other[index])
      if overflow || (bounded && sum > Tally.maximumCount) {
        fail(
          names[index],
          "\(values[index]) + \(other[index]) is past the largest count a run can give (2^53)")
      }
      values[index] = sum
    }
  }

  mutating func add64(_ value: inout Int64, _ other: Int64, _ name: String) {
    let (sum, overflow) = value.addingReportingOverflow(other)
    if overflow { fail(name, "\(value) + \(other) overflows a 64-bit integer") }
    value = sum
  }

  mutating func add(_ histogram: inout LatencyHistogram, _ other: LatencyHistogram, _ name: String)
  {
    let (sum, overflow) = histogram.count.addingReportingOverflow(other.count)
    guard !overflow, sum <= Tally.maximumCount else {
      fail("\(name).count", "the merged count is past the largest a run can give (2^53)")
      return
    }
    histogram.merge(other)
    if !histogram.sum.isFinite {
      fail("\(name).sum", "the merged sum of durations is not a finite number")
    }
  }
}
