import MessageDeferral

// Locating the nodes that policy issues point at (``PolicyCatalog`` reports JSON paths only).

/// Finds the nodes that a policy entry's issues point at, to give each problem a position.
///
/// Objects are indexed by key the first time a path goes through them (keyed by their
/// position, which no two values share), so locating many issues in one large object stays
/// linear in its size; searching its members for each issue was quadratic.
struct _IssueLocator {
  let entry: JSONNode
  let path: String
  /// For each object visited, its first member of each key.
  var indexes: [SourcePosition: [String: JSONNode]] = [:]

  init(entry: JSONNode, path: String) {
    self.entry = entry
    self.path = path
  }

  /// The node `issuePath` points at, when it is `path` followed by plain `.key` and `[index]`
  /// steps; otherwise `nil` (the entry's position is used instead).
  mutating func node(at issuePath: String) -> JSONNode? {
    guard issuePath.hasPrefix(path) else { return nil }
    var node = entry
    var rest = Substring(issuePath.dropFirst(path.count))
    while let first = rest.first {
      if first == "." {
        let key = rest.dropFirst().prefix { $0 != "." && $0 != "[" }
        guard let next = member(String(key), of: node) else { return nil }
        node = next
        rest = rest.dropFirst(1 + key.count)
      } else if first == "[" {
        let digits = rest.dropFirst().prefix { $0 != "]" }
        guard let index = Int(digits), case .array(let elements) = node.value,
          elements.indices.contains(index)
        else { return nil }
        node = elements[index]
        rest = rest.dropFirst(2 + digits.count)
      } else {
        return nil
      }
    }
    return node
  }

  /// The first member `key` of `object`, through its index.
  ///
  /// - Complexity: O(1) expected after the first call for `object`, which is O(*m*) for its
  ///   *m* members.
  mutating func member(_ key: String, of object: JSONNode) -> JSONNode? {
    guard case .object(let members) = object.value else { return nil }
    if let index = indexes[object.position] { return index[key] }
    var index: [String: JSONNode] = [:]
    for member in members where index[member.key] == nil { index[member.key] = member.value }
    indexes[object.position] = index
    return index[key]
  }
}
