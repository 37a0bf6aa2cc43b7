/// The article's pending queue, as written (sources/000): a plain `Array` where
/// price-increase consent and billing-issue messages are inserted at index 0 (so the newest
/// of them leaves first) and every other reason is appended.
///
/// Kept because the `screen-gate` policies must reproduce its ordering exactly, and so the
/// benchmarks can measure it against ``PendingQueue``.
///
/// - Complexity: `insert(at: 0)` is O(*n*): every element shifts. Flushing is O(*n*).
public struct ArticleQueue<Element> {
  @usableFromInline var _elements: [Element] = []

  /// Everything queued, in leaving order.
  @inlinable public var elements: [Element] { _elements }

  @inlinable
  public init() {}

  @inlinable
  public var count: Int { _elements.count }
  @inlinable
  public var isEmpty: Bool { _elements.isEmpty }

  /// Enqueues as the article's `enqueue(_:)` does.
  @inlinable
  public mutating func enqueue(_ element: Element, reason: Reason) {
    switch reason {
    case .priceIncreaseConsent, .billingIssue: _elements.insert(element, at: 0)
    default: _elements.append(element)
    }
  }

  /// Appends at the back: where the article puts a message whose display failed.
  @inlinable
  public mutating func append(_ element: Element) { _elements.append(element) }

  /// Takes everything, in order, and leaves the queue empty (the article's
  /// `let next = pending; pending.removeAll()`).
  @inlinable
  public mutating func takeAll() -> [Element] {
    let all = _elements
    _elements.removeAll(keepingCapacity: true)
    return all
  }

  @inlinable
  @discardableResult
  public mutating func remove(where predicate: (Element) throws -> Bool) rethrows -> Element? {
    guard let index = try _elements.firstIndex(where: predicate) else { return nil }
    return _elements.remove(at: index)
  }

  @inlinable
  public mutating func updateEach(_ body: (inout Element) throws -> Void) rethrows {
    for index in _elements.indices { try body(&_elements[index]) }
  }

  /// Updates, in place, the first element that satisfies `predicate`, and stops there.
  /// Returns whether one did.
  @inlinable
  @discardableResult
  public mutating func updateFirst(
    where predicate: (Element) throws -> Bool, _ body: (inout Element) throws -> Void
  ) rethrows -> Bool {
    guard let index = try _elements.firstIndex(where: predicate) else { return false }
    try body(&_elements[index])
    return true
  }

  @inlinable
  public mutating func removeAll() {
    // An empty queue is left untouched: clearing a copy's shared storage would duplicate it.
    if !_elements.isEmpty { _elements.removeAll(keepingCapacity: true) }
  }
}

extension ArticleQueue: Sendable where Element: Sendable {}
