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
    var check = _TallyCheck()
    check.count(screenVisits, "screenVisits")
    check.count(screenInterrupted, "screenInterrupted")
    check.count(screenConsentShown, "screenConsentShown")
    check.count(screenConsentAccepted, "screenConsentAccepted")
    check.count(counters.counterValues, names: TallyCounters.fieldNames)
    check.count([maxSheetsPerBreak], names: ["maxSheetsPerBreak"])
    check.count(issued.lanes, "issued")
    check.count(displayed.lanes, "displayed")
    check.count(expired.lanes, "expired")
    check.count(pending.lanes, "pending")
    check.count(latencySumMilliseconds.map(Int.init), "latencySumMilliseconds", bounded: false)
    check.count([Int(simulatedSeconds)], names: ["simulatedSeconds"], bounded: false)
    check.count(variates.counts, "variates.counts", bounded: false)
    check.count(screenMilliseconds.map { Int(clamping: $0) }, "screenMilliseconds", bounded: false)
    for (index, segment) in segments.enumerated() {
      check.count(
        segment.counters.counterValues,
        names: SegmentCounters.fieldNames.map { "segments[\(index)].\($0)" })
      check.histogram(segment.consentLatency, "segments[\(index)].consentLatency")
    }
    for (name, histograms) in [("latency", latency), ("hold", hold)] {
      for (lane, histogram) in histograms.enumerated() {
        check.histogram(histogram, "\(name)[\(lane)]")
      }
    }
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
    guard hasShape(screens: other.screenVisits.count) else {
      return Problem(field: "screenVisits", message: "tallies of different scenarios")
    }
    var check = _TallyCheck()
    check.add(&screenVisits, other.screenVisits, "screenVisits")
    check.add(&screenInterrupted, other.screenInterrupted, "screenInterrupted")
    check.add(&screenConsentShown, other.screenConsentShown, "screenConsentShown")
    check.add(&screenConsentAccepted, other.screenConsentAccepted, "screenConsentAccepted")
    var counts = counters.counterValues
    check.add(&counts, other.counters.counterValues, names: TallyCounters.fieldNames)
    counters.counterValues = counts
    maxSheetsPerBreak = max(maxSheetsPerBreak, other.maxSheetsPerBreak)
    check.add(&issued.lanes, other.issued.lanes, "issued")
    check.add(&displayed.lanes, other.displayed.lanes, "displayed")
    check.add(&expired.lanes, other.expired.lanes, "expired")
    check.add(&pending.lanes, other.pending.lanes, "pending")
    for lane in 0..<Reason.laneCount {
      check.add(&latency[lane], other.latency[lane], "latency[\(lane)]")
      check.add(&hold[lane], other.hold[lane], "hold[\(lane)]")
      check.add64(
        &latencySumMilliseconds[lane], other.latencySumMilliseconds[lane],
        "latencySumMilliseconds[\(lane)]")
    }
    check.add64(&simulatedSeconds, other.simulatedSeconds, "simulatedSeconds")
    for index in screenMilliseconds.indices {
      check.add64(
        &screenMilliseconds[index], other.screenMilliseconds[index],
        "screenMilliseconds[\(index)]")
    }
    for index in segments.indices {
      var counts = segments[index].counters.counterValues
      check.add(
        &counts, other.segments[index].counters.counterValues,
        names: SegmentCounters.fieldNames.map { "segments[\(index)].\($0)" })
      segments[index].counters.counterValues = counts
      check.add(
        &segments[index].consentLatency, other.segments[index].consentLatency,
        "segments[\(index)].consentLatency")
    }
    check.add(&variates.counts, other.variates.counts, "variates.counts", bounded: false)
    return check.problem
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
