/// Partial files hold tallies as flat JSON objects: each counter of ``TallyCounters`` (and of
/// ``SegmentCounters``) under its property name, beside the tally's other fields, exactly as
/// when every counter was a property of the tally itself.
extension Tally: Codable {
  /// The fields that are not counters, under their JSON keys.
  enum _Field: String, CaseIterable {
    case screenVisits, screenInterrupted, screenMilliseconds, screenConsentShown
    case screenConsentAccepted, issued, displayed, expired
    case pending, latency, hold, latencySumMilliseconds, maxSheetsPerBreak, simulatedSeconds
    case segments, variates
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: _CodingName.self)
    func key(_ field: _Field) -> _CodingName { _CodingName(field.rawValue) }
    screenVisits = try container.decode([Int].self, forKey: key(.screenVisits))
    screenInterrupted = try container.decode([Int].self, forKey: key(.screenInterrupted))
    screenMilliseconds = try container.decode([Int64].self, forKey: key(.screenMilliseconds))
    screenConsentShown = try container.decode([Int].self, forKey: key(.screenConsentShown))
    screenConsentAccepted = try container.decode([Int].self, forKey: key(.screenConsentAccepted))
    issued = try container.decode(PerReason<Int>.self, forKey: key(.issued))
    displayed = try container.decode(PerReason<Int>.self, forKey: key(.displayed))
    expired = try container.decode(PerReason<Int>.self, forKey: key(.expired))
    pending = try container.decode(PerReason<Int>.self, forKey: key(.pending))
    latency = try container.decode(PerReason<LatencyHistogram>.self, forKey: key(.latency))
    hold = try container.decode(PerReason<LatencyHistogram>.self, forKey: key(.hold))
    latencySumMilliseconds = try container.decode(
      PerReason<Int64>.self, forKey: key(.latencySumMilliseconds))
    maxSheetsPerBreak = try container.decode(Int.self, forKey: key(.maxSheetsPerBreak))
    simulatedSeconds = try container.decode(Int64.self, forKey: key(.simulatedSeconds))
    segments = try container.decode([SegmentTally].self, forKey: key(.segments))
    variates = try container.decode(VariateCounts.self, forKey: key(.variates))
    try counters.decodeCounters(from: container)
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: _CodingName.self)
    func key(_ field: _Field) -> _CodingName { _CodingName(field.rawValue) }
    try container.encode(screenVisits, forKey: key(.screenVisits))
    try container.encode(screenInterrupted, forKey: key(.screenInterrupted))
    try container.encode(screenMilliseconds, forKey: key(.screenMilliseconds))
    try container.encode(screenConsentShown, forKey: key(.screenConsentShown))
    try container.encode(screenConsentAccepted, forKey: key(.screenConsentAccepted))
    try container.encode(issued, forKey: key(.issued))
    try container.encode(displayed, forKey: key(.displayed))
    try container.encode(expired, forKey: key(.expired))
    try container.encode(pending, forKey: key(.pending))
    try container.encode(latency, forKey: key(.latency))
    try container.encode(hold, forKey: key(.hold))
    try container.encode(latencySumMilliseconds, forKey: key(.latencySumMilliseconds))
    try container.encode(maxSheetsPerBreak, forKey: key(.maxSheetsPerBreak))
    try container.encode(simulatedSeconds, forKey: key(.simulatedSeconds))
    try container.encode(segments, forKey: key(.segments))
    try container.encode(variates, forKey: key(.variates))
    try counters.encodeCounters(to: &container)
  }
}

extension SegmentTally: Codable {
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: _CodingName.self)
    consentLatency = try container.decode(
      LatencyHistogram.self, forKey: _CodingName("consentLatency"))
    try counters.decodeCounters(from: container)
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: _CodingName.self)
    try container.encode(consentLatency, forKey: _CodingName("consentLatency"))
    try counters.encodeCounters(to: &container)
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
