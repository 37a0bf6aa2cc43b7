/// The article's pending queue, as written (sources/000): a plain `Array` where
/// price-increase consent and billing-issue messages are inserted at index 0 (so the newest
/// of them leaves first) and every other reason is appended.
///
/// Kept because the `screen-gate` policies must reproduce its ordering exactly, and so the
/// benchmarks can measure it against ``PendingQueue``.
///
/// - Complexity: `insert(at: 0)` is O(*n*): every element shifts. Flushing is O(*n*).
public struct ArticleQueue<Element> {
  public private(set) var elements: [Element] = []

  public init() {}

  public var count: Int { elements.count }
  public var isEmpty: Bool { elements.isEmpty }

  /// Enqueues as the article's `enqueue(_:)` does.
  public mutating func enqueue(_ element: Element, reason: Reason) {
    switch reason {
    case .priceIncreaseConsent, .billingIssue: elements.insert(element, at: 0)
    default: elements.append(element)
    }
  }

  /// Appends at the back: where the article puts a message whose display failed.
  public mutating func append(_ element: Element) { elements.append(element) }

  /// Takes everything, in order, and leaves the queue empty (the article's
  /// `let next = pending; pending.removeAll()`).
  public mutating func takeAll() -> [Element] {
    let all = elements
    elements.removeAll(keepingCapacity: true)
    return all
  }

  @discardableResult
  public mutating func remove(where predicate: (Element) throws -> Bool) rethrows -> Element? {
    guard let index = try elements.firstIndex(where: predicate) else { return nil }
    return elements.remove(at: index)
  }

  public mutating func updateEach(_ body: (inout Element) throws -> Void) rethrows {
    for index in elements.indices { try body(&elements[index]) }
  }

  public mutating func removeAll() { elements.removeAll(keepingCapacity: true) }
}

extension ArticleQueue: Sendable where Element: Sendable {}
