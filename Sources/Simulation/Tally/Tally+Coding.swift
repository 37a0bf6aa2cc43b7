/// Partial files hold tallies as flat JSON objects: each field of the table
/// (``_TallyFields``) under its name, and each counter of ``TallyCounters`` (and of
/// ``SegmentCounters``) under its property name beside them, exactly as when every counter was
/// a property of the tally itself.
extension Tally: Codable {
  public init(from decoder: any Decoder) throws {
    self.init(screenCount: 0)
    try decodeFields(from: decoder)
  }

  public func encode(to encoder: any Encoder) throws { try encodeFields(to: encoder) }
}

extension SegmentTally: Codable {
  public init(from decoder: any Decoder) throws {
    self.init()
    try decodeFields(from: decoder)
  }

  public func encode(to encoder: any Encoder) throws { try encodeFields(to: encoder) }
}

extension _TallyFields {
  /// Reads every field under its key (``_DecodeFields``); a missing one is a `keyNotFound`
  /// error naming it.
  mutating func decodeFields(from decoder: any Decoder) throws {
    var reader = _DecodeFields(container: try decoder.container(keyedBy: _CodingName.self))
    let before = self
    Self._visitFields(&self, before, &reader)
    if let error = reader.error { throw error }
  }

  /// Writes every field under its key (``_EncodeFields``).
  func encodeFields(to encoder: any Encoder) throws {
    var writer = _EncodeFields(container: encoder.container(keyedBy: _CodingName.self))
    var copy = self
    Self._visitFields(&copy, self, &writer)
    if let error = writer.error { throw error }
  }
}

/// A JSON key given by its text.
struct _CodingName: CodingKey {
  var stringValue: String
  var intValue: Int? { nil }
  init(_ name: String) { stringValue = name }
  init?(stringValue: String) { self.stringValue = stringValue }
  init?(intValue: Int) { nil }
}

extension _CounterBlock {
  /// Reads every counter under its name; a missing one is a `keyNotFound` error naming it.
  mutating func decodeCounters(from container: KeyedDecodingContainer<_CodingName>) throws {
    for (index, name) in Self.fieldNames.enumerated() {
      self[counter: index] = try container.decode(Int.self, forKey: _CodingName(name))
    }
  }

  func encodeCounters(to container: inout KeyedEncodingContainer<_CodingName>) throws {
    for (index, name) in Self.fieldNames.enumerated() {
      try container.encode(self[counter: index], forKey: _CodingName(name))
    }
  }
}
