import Foundation
import MessageDeferral
import Testing

@testable import Simulation

/// A tally's fields are declared once, in its table (``Tally/_visitFields(_:_:_:)``): these
/// tests go over the table, so a field added to it is merged, checked, shaped, written and
/// read back under test with no test edited, and a property left out of it fails the first.
@Suite("Tally fields, from the one table")
struct TallyFieldsTests {
  static let screens = 2

  /// One number of a tally as the table lists it: its JSON path (what the checks report) and
  /// what it is.
  struct Leaf: Equatable, CustomStringConvertible {
    enum Kind: Equatable { case boundedCount, unboundedCount, sum, maximum, histogram }
    var path: String
    var kind: Kind
    var description: String { path }
  }

  /// Lists the table's fields (`names`, each once, counter blocks as `counters`) and its leaves.
  struct Collector: _TallyFieldVisitor {
    var names: [String] = []
    var leaves: [Leaf] = []
    var prefix = ""

    mutating func add(_ name: String, _ count: Int?, _ kind: Leaf.Kind) {
      names.append(name)
      if let count {
        for index in 0..<count {
          leaves.append(Leaf(path: "\(prefix)\(name)[\(index)]", kind: kind))
        }
      } else {
        leaves.append(Leaf(path: prefix + name, kind: kind))
      }
    }

    mutating func counts(
      _ name: String, _ shape: _FieldShape, bounded: Bool, _ mine: inout [Int], _ theirs: [Int]
    ) { add(name, mine.count, bounded ? .boundedCount : .unboundedCount) }
    mutating func sums(
      _ name: String, _ shape: _FieldShape, _ mine: inout [Int64], _ theirs: [Int64]
    ) { add(name, mine.count, .sum) }
    mutating func sum(_ name: String, _ mine: inout Int64, _ theirs: Int64) {
      add(name, nil, .sum)
    }
    mutating func maximum(_ name: String, _ mine: inout Int, _ theirs: Int) {
      add(name, nil, .maximum)
    }
    mutating func histograms(
      _ name: String, _ shape: _FieldShape, _ mine: inout [LatencyHistogram],
      _ theirs: [LatencyHistogram]
    ) { add(name, mine.count, .histogram) }
    mutating func histogram(
      _ name: String, _ mine: inout LatencyHistogram, _ theirs: LatencyHistogram
    ) { add(name, nil, .histogram) }
    mutating func counters<Block: _CounterBlock>(_ mine: inout Block, _ theirs: Block) {
      names.append("counters")
      for name in Block.fieldNames { leaves.append(Leaf(path: prefix + name, kind: .boundedCount)) }
    }
    mutating func segments(
      _ name: String, _ mine: inout [SegmentTally], _ theirs: [SegmentTally]
    ) {
      names.append(name)
      let outer = prefix
      for index in mine.indices {
        var inner = Collector(prefix: "\(outer)\(name)[\(index)].")
        SegmentTally._visitFields(&mine[index], theirs[index], &inner)
        leaves += inner.leaves
      }
    }
    mutating func variates(_ name: String, _ mine: inout VariateCounts, _ theirs: VariateCounts) {
      add(name, nil, .unboundedCount)
      leaves.removeLast()
      for index in mine.counts.indices {
        leaves.append(Leaf(path: "\(prefix)\(name).counts[\(index)]", kind: .unboundedCount))
      }
    }
  }

  /// Writes every number of a tally from its leaf's position: the `target`-th leaf (in table
  /// order) gets `value` when given; otherwise every leaf gets `scale` × (its position + 1),
  /// maxima `maximumScale` × it, and each histogram that many records of one duration.
  struct Writer: _TallyFieldVisitor {
    var scale = 1
    var maximumScale = 1
    var target: Int?
    var value = 0
    var position = 0

    mutating func next(_ current: Int, scale: Int) -> Int {
      defer { position += 1 }
      if let target { return position == target ? value : current }
      return scale * (position + 1)
    }

    mutating func counts(
      _ name: String, _ shape: _FieldShape, bounded: Bool, _ mine: inout [Int], _ theirs: [Int]
    ) { for index in mine.indices { mine[index] = next(mine[index], scale: scale) } }
    mutating func sums(
      _ name: String, _ shape: _FieldShape, _ mine: inout [Int64], _ theirs: [Int64]
    ) {
      for index in mine.indices { mine[index] = Int64(next(Int(mine[index]), scale: scale)) }
    }
    mutating func sum(_ name: String, _ mine: inout Int64, _ theirs: Int64) {
      mine = Int64(next(Int(mine), scale: scale))
    }
    mutating func maximum(_ name: String, _ mine: inout Int, _ theirs: Int) {
      mine = next(mine, scale: maximumScale)
    }
    mutating func fill(_ histogram: inout LatencyHistogram) {
      let records = next(0, scale: scale)
      if target == nil {
        // A whole number of seconds: sums of copies are exact whatever the order.
        for _ in 0..<records { histogram.record(Double(position)) }
      }
    }
    mutating func histograms(
      _ name: String, _ shape: _FieldShape, _ mine: inout [LatencyHistogram],
      _ theirs: [LatencyHistogram]
    ) { for index in mine.indices { fill(&mine[index]) } }
    mutating func histogram(
      _ name: String, _ mine: inout LatencyHistogram, _ theirs: LatencyHistogram
    ) { fill(&mine) }
    mutating func counters<Block: _CounterBlock>(_ mine: inout Block, _ theirs: Block) {
      for index in 0..<Block.fieldCount {
        mine[counter: index] = next(mine[counter: index], scale: scale)
      }
    }
    mutating func segments(
      _ name: String, _ mine: inout [SegmentTally], _ theirs: [SegmentTally]
    ) {
      for index in mine.indices { SegmentTally._visitFields(&mine[index], theirs[index], &self) }
    }
    mutating func variates(_ name: String, _ mine: inout VariateCounts, _ theirs: VariateCounts) {
      for index in mine.counts.indices {
        mine.counts[index] = next(mine.counts[index], scale: scale)
      }
    }
  }

  static func visit<Visitor: _TallyFieldVisitor>(_ tally: inout Tally, _ visitor: inout Visitor) {
    let copy = tally
    Tally._visitFields(&tally, copy, &visitor)
  }

  static var table: Collector {
    var tally = Tally(screenCount: screens)
    var collector = Collector()
    visit(&tally, &collector)
    return collector
  }

  static func written(scale: Int, maximumScale: Int? = nil) -> Tally {
    var tally = Tally(screenCount: screens)
    var writer = Writer(scale: scale, maximumScale: maximumScale ?? scale)
    visit(&tally, &writer)
    return tally
  }

  /// `tally` with its `target`-th leaf set to `value`.
  static func with(_ tally: Tally, leaf target: Int, _ value: Int) -> Tally {
    var edited = tally
    var writer = Writer(target: target, value: value)
    visit(&edited, &writer)
    return edited
  }

  @Test func everyStoredPropertyIsInTheTableOnce() {
    let properties = Mirror(reflecting: Tally(screenCount: 1)).children.compactMap(\.label)
    #expect(Self.table.names.sorted() == properties.sorted())
    #expect(Set(Self.table.names).count == Self.table.names.count)
    var segment = Tally(screenCount: 1).segments
    var collector = Collector()
    SegmentTally._visitFields(&segment[0], segment[0], &collector)
    let segmentProperties = Mirror(reflecting: SegmentTally()).children.compactMap(\.label)
    #expect(collector.names.sorted() == segmentProperties.sorted())
  }

  /// A new tally has each field's entries: per screen, per lane, per segment, per variate kind.
  @Test func aNewTallyHasEveryFieldsShape() {
    let tally = Tally(screenCount: Self.screens)
    #expect(tally.hasShape(screens: Self.screens) && !tally.hasShape(screens: Self.screens + 1))
    #expect(tally.screenMilliseconds.count == Self.screens && tally.hold.count == Reason.laneCount)
    #expect(tally.segments.count == UserSegment.allCases.count)
    #expect(tally.variates.counts.count == VariateKind.allCases.count)
    #expect(Self.written(scale: 0) == tally, "a tally written with zeros is a new tally")
  }

  /// Every leaf gets a value of its own: the writer touches each one (the tests below see all).
  @Test func theWriterReachesEveryLeaf() {
    let leaves = Self.table.leaves
    let tally = Self.written(scale: 1)
    for (position, leaf) in leaves.enumerated() where leaf.kind != .histogram {
      #expect(Self.with(tally, leaf: position, 0) != tally, "\(leaf)")
    }
  }

  @Test func mergeAddsEveryFieldAndTakesTheLargerMaximum() {
    var plain = Self.written(scale: 2, maximumScale: 2)
    plain.merge(Self.written(scale: 3, maximumScale: 3))
    let expected = Self.written(scale: 5, maximumScale: 3)
    #expect(plain == expected)
    var checked = Self.written(scale: 2, maximumScale: 2)
    #expect(checked.mergeChecked(Self.written(scale: 3, maximumScale: 3)) == nil)
    #expect(checked == expected)
    var reversed = Self.written(scale: 3)
    reversed.merge(Self.written(scale: 2))
    #expect(reversed == expected, "merge is commutative")
  }

  /// A partial's tally is a flat object with one key per field of the table (counters by
  /// their own names) and reads back equal.
  @Test func partialEncodingHasEveryFieldAndReadsBack() throws {
    let tally = Self.written(scale: 7)
    let data = try JSONEncoder().encode(tally)
    let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    let keys = Self.table.names.filter { $0 != "counters" } + TallyCounters.fieldNames
    #expect(Set(object.keys) == Set(keys))
    #expect(try JSONDecoder().decode(Tally.self, from: data) == tally)
    for key in keys {
      var missing = object
      missing[key] = nil
      let edited = try JSONSerialization.data(withJSONObject: missing)
      do {
        _ = try JSONDecoder().decode(Tally.self, from: edited)
        Issue.record("a tally without \(key) was read")
      } catch {
        #expect("\(error)".contains("\"\(key)\""), "\(key): \(error)")
      }
    }
  }

  /// A negative number anywhere is named by its JSON path.
  @Test func aNegativeNumberIsNamedWherever() {
    let tally = Tally(screenCount: Self.screens)
    #expect(tally.problem() == nil)
    for (position, leaf) in Self.table.leaves.enumerated() where leaf.kind != .histogram {
      let edited = Self.with(tally, leaf: position, -1)
      #expect(edited.problem()?.field == leaf.path, "\(leaf)")
    }
  }

  /// A count past 2⁵³ in a file, and a merge past it or past 64 bits, is named, never a trap.
  @Test func countsPastTheirBoundAreNamedAndMergesNeverTrap() {
    let tally = Tally(screenCount: Self.screens)
    for (position, leaf) in Self.table.leaves.enumerated() where leaf.kind != .histogram {
      switch leaf.kind {
      case .boundedCount, .maximum:
        let edited = Self.with(tally, leaf: position, Tally.maximumCount + 1)
        #expect(edited.problem()?.field == leaf.path, "\(leaf)")
      default:
        #expect(Self.with(tally, leaf: position, Tally.maximumCount + 1).problem() == nil)
      }
      guard leaf.kind != .maximum else { continue }
      let large = Self.with(
        tally, leaf: position, leaf.kind == .boundedCount ? (1 << 52) + 1 : .max)
      var merged = large
      let problem = merged.mergeChecked(large)
      #expect(problem?.field == leaf.path, "\(leaf)")
    }
  }

  /// A tally read from a file whose array field has the wrong number of entries is refused
  /// before any merge (``Tally/hasShape(screens:)``); a checked merge says so and does not trap.
  @Test func everyArrayFieldsShapeIsChecked() throws {
    let tally = Tally(screenCount: Self.screens)
    let object = try #require(
      try JSONSerialization.jsonObject(with: JSONEncoder().encode(tally)) as? [String: Any])
    var arrays = 0
    for key in object.keys.sorted() {
      var edited = object
      if let array = object[key] as? [Any] {
        edited[key] = Array(array.dropLast())
      } else if key == "variates", var variates = object[key] as? [String: Any],
        let counts = variates["counts"] as? [Any]
      {
        variates["counts"] = Array(counts.dropLast())
        edited[key] = variates
      } else {
        continue
      }
      arrays += 1
      let short = try JSONDecoder().decode(
        Tally.self, from: JSONSerialization.data(withJSONObject: edited))
      #expect(!short.hasShape(screens: Self.screens), "\(key)")
      var merged = tally
      #expect(merged.mergeChecked(short) != nil, "\(key)")
      var other = short
      #expect(other.mergeChecked(tally) != nil, "\(key)")
    }
    #expect(arrays == 14, "per screen 5, per lane 7, per segment 1 and the variates' counts")
  }
}
