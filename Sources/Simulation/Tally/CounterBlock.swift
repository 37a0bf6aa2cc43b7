/// A block of counters declared once: a struct whose stored properties are all `Int`
/// counts, summed on merge. Its property names are its JSON keys in partial files, and
/// merging, checked merging, the checks of a tally read from a file and partial encoding all
/// go over its properties, so adding a counter is one property here, its increment where it
/// happens and its metric where it is reported.
///
/// A conforming type declares `static let fieldNames = _counterFieldNames(of: Self.self)`.
/// Values are read and written by index through the struct's raw bytes: Swift lays out a
/// struct's stored properties in declaration order, and `_counterFieldNames(of:)` checks
/// that this type is exactly its `Int` properties in that order (it traps otherwise, at its
/// first use), so the index of a name is the index of its value.
protocol _CounterBlock: Sendable, Equatable {
  init()
  /// The property names, in declaration order.
  static var fieldNames: [String] { get }
}

extension _CounterBlock {
  /// The number of counters.
  static var fieldCount: Int { MemoryLayout<Self>.size / MemoryLayout<Int>.stride }

  /// The counter at `index` (declaration order).
  @inline(__always)
  subscript(counter index: Int) -> Int {
    get {
      withUnsafeBytes(of: self) {
        $0.load(fromByteOffset: index * MemoryLayout<Int>.stride, as: Int.self)
      }
    }
    set {
      withUnsafeMutableBytes(of: &self) {
        $0.storeBytes(of: newValue, toByteOffset: index * MemoryLayout<Int>.stride, as: Int.self)
      }
    }
  }

  /// Every counter, in declaration order.
  var counterValues: [Int] {
    get { (0..<Self.fieldCount).map { self[counter: $0] } }
    set {
      precondition(newValue.count == Self.fieldCount)
      for (index, value) in newValue.enumerated() { self[counter: index] = value }
    }
  }

  /// Adds every counter of `other` into `self` (trapping on overflow, like `+=`).
  @inline(__always)
  mutating func addCounters(_ other: Self) {
    withUnsafeMutableBytes(of: &self) { mine in
      withUnsafeBytes(of: other) { theirs in
        for offset in stride(from: 0, to: mine.count, by: MemoryLayout<Int>.stride) {
          let sum =
            mine.load(fromByteOffset: offset, as: Int.self)
            + theirs.load(fromByteOffset: offset, as: Int.self)
          mine.storeBytes(of: sum, toByteOffset: offset, as: Int.self)
        }
      }
    }
  }
}

/// The property names of a counter block, in declaration order, after checking that the type
/// is made of `Int` properties only, laid out one after the other in that order (each
/// counter written through its raw index reads back through its name).
func _counterFieldNames<Block: _CounterBlock>(of type: Block.Type) -> [String] {
  let children = Array(Mirror(reflecting: Block()).children)
  let names = children.map { $0.label ?? "" }
  precondition(
    MemoryLayout<Block>.size == names.count * MemoryLayout<Int>.stride
      && children.allSatisfy { $0.value is Int } && !names.contains(""),
    "\(Block.self) must have only Int stored properties")
  var probe = Block()
  for index in names.indices { probe[counter: index] = index + 1 }
  let read = Mirror(reflecting: probe).children.map { $0.value as? Int }
  precondition(
    read == names.indices.map { $0 + 1 }, "\(Block.self): properties not laid out in order")
  return names
}
