import MessageDeferral

/// One value per reason lane (``Reason/laneIndex``: price-increase consent, billing issue,
/// win-back offer, generic, then every unknown reason together), indexed by ``Reason``
/// (`tally.displayed[.priceIncreaseConsent]`) or by lane number (`tally.issued[lane]`).
///
/// Encodes as a plain JSON array of its values, exactly as the arrays it replaced did, so
/// partial files keep their format.
public struct PerReason<Value>: RandomAccessCollection, MutableCollection {
  /// The values by lane: ``Reason/laneCount`` in a tally a run made (one read from a file may
  /// hold another count, which ``Tally/hasShape(screens:)`` refuses).
  public var lanes: [Value]

  /// ``Reason/laneCount`` copies of `value`.
  public init(repeating value: Value) {
    lanes = Array(repeating: value, count: Reason.laneCount)
  }

  /// The given values, one per lane in lane order.
  public init(lanes: [Value]) { self.lanes = lanes }

  @inlinable public var startIndex: Int { 0 }
  @inlinable public var endIndex: Int { lanes.count }

  /// The value of lane `lane` (``Reason/laneIndex``).
  @inlinable public subscript(lane: Int) -> Value {
    get { lanes[lane] }
    set { lanes[lane] = newValue }
    _modify { yield &lanes[lane] }
  }

  /// The value of `reason`'s lane (every unknown reason shares one).
  @inlinable public subscript(reason: Reason) -> Value {
    get { lanes[reason.laneIndex] }
    set { lanes[reason.laneIndex] = newValue }
    _modify { yield &lanes[reason.laneIndex] }
  }
}

extension PerReason: ExpressibleByArrayLiteral {
  public init(arrayLiteral values: Value...) { lanes = values }
}

extension PerReason: Sendable where Value: Sendable {}
extension PerReason: Equatable where Value: Equatable {}

extension PerReason: Codable where Value: Codable {
  public init(from decoder: any Decoder) throws {
    lanes = try decoder.singleValueContainer().decode([Value].self)
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(lanes)
  }
}
