import MessageDeferral

/// One JSON value as ``JSONReader`` read it, with the position where it starts.
///
/// Objects keep their members in file order, repeated keys included (RFC 8259 leaves their
/// meaning open; the scenario loader rejects them). Numbers keep the text they were written
/// with, so an integer beyond 2^53 can still be read exactly.
public struct JSONNode: Equatable, Sendable {
  /// The value, without position.
  public enum Value: Equatable, Sendable {
    case null
    case bool(Bool)
    /// A finite number and its text as written (`1e3`, `18446744073709551615`).
    case number(Double, literal: String)
    case string(String)
    case array([JSONNode])
    case object([Member])
  }

  /// One `"key": value` pair of an object.
  public struct Member: Equatable, Sendable {
    public var key: String
    /// Where the key's opening quote is.
    public var keyPosition: SourcePosition
    public var value: JSONNode

    public init(key: String, keyPosition: SourcePosition, value: JSONNode) {
      self.key = key
      self.keyPosition = keyPosition
      self.value = value
    }
  }

  public var value: Value
  /// Where the value's first character is.
  public var position: SourcePosition

  public init(_ value: Value, at position: SourcePosition) {
    self.value = value
    self.position = position
  }

  /// A short name of the value's JSON type, for error messages ("a string", "an object").
  public var typeName: String {
    switch value {
    case .null: "null"
    case .bool: "a boolean"
    case .number: "a number"
    case .string: "a string"
    case .array: "an array"
    case .object: "an object"
    }
  }

  /// The value of `key` in an object (the first, if repeated), or `nil`.
  public subscript(key: String) -> JSONNode? {
    guard case .object(let members) = value else { return nil }
    return members.first { $0.key == key }?.value
  }

  /// The same value without positions, in the shape `MessageDeferral` reads policies from.
  ///
  /// - Complexity: O(*n*) in the number of values; recursion depth is bounded by
  ///   ``JSONReader/maximumDepth`` for any tree the reader produced.
  public var configValue: ConfigValue {
    switch value {
    case .null: .null
    case .bool(let flag): .bool(flag)
    case .number(let number, _): .number(number)
    case .string(let text): .string(text)
    case .array(let elements): .array(elements.map(\.configValue))
    case .object(let members):
      .object(members.map { ConfigValue.Member(key: $0.key, value: $0.value.configValue) })
    }
  }
}
