/// The coordinator's queue: the article's `Array` for ``Ordering/article``, priority lanes
/// (``PendingQueue``) otherwise. Both are stored and one is used, so every call is direct
/// (no existential) and mutation happens in place.
struct _PendingStore: Sendable {
  var article = ArticleQueue<_Entry>()
  var lanes: PendingQueue<_Entry>
  let usesArticle: Bool
  /// Counts the calls that may have changed an entry (every mutating method adds one), so a
  /// ``_Schedule`` knows whether the entries it scanned are still the same.
  private(set) var version: UInt64 = 0

  init(ordering: Ordering) {
    usesArticle = ordering == .article
    lanes = PendingQueue(laneCount: ordering == .priority ? 3 : 1)
  }

  var count: Int { usesArticle ? article.count : lanes.count }

  /// Entries in the order the policy considers them.
  var entries: [_Entry] { usesArticle ? article.elements : lanes.elements }

  func lane(for reason: Reason) -> Int {
    guard lanes.laneCount == 3 else { return 0 }
    switch reason {
    case .priceIncreaseConsent: return 0
    case .billingIssue: return 1
    default: return 2
    }
  }

  /// A newly delivered message, placed as the ordering says.
  mutating func enqueue(_ entry: _Entry) {
    version &+= 1
    if usesArticle {
      article.enqueue(entry, reason: entry.message.reason)
    } else {
      lanes.enqueue(entry, lane: lane(for: entry.message.reason))
    }
  }

  /// At the back (of its lane): where ``FailureHandling/appendToBack`` puts a failed display.
  mutating func append(_ entry: _Entry) {
    version &+= 1
    if usesArticle {
      article.append(entry)
    } else {
      lanes.enqueue(entry, lane: lane(for: entry.message.reason))
    }
  }

  /// Removes the in-flight entry with this id (or, failing that, the first with it).
  @discardableResult
  mutating func remove(id: MessageID) -> _Entry? {
    version &+= 1
    if usesArticle {
      return article.remove { $0.message.id == id && $0.inFlight }
        ?? article.remove { $0.message.id == id }
    }
    return lanes.remove { $0.message.id == id && $0.inFlight }
      ?? lanes.remove { $0.message.id == id }
  }

  /// Applies `body` to the in-flight entry with this id (or, failing that, the first with it).
  mutating func update(id: MessageID, _ body: (inout _Entry) -> Void) {
    if !updateFirst(where: { $0.message.id == id && $0.inFlight }, body) {
      updateFirst(where: { $0.message.id == id }, body)
    }
  }

  /// Applies `body` to the first entry that satisfies `predicate` and stops; returns whether
  /// one did.
  @discardableResult
  mutating func updateFirst(
    where predicate: (_Entry) -> Bool, _ body: (inout _Entry) -> Void
  ) -> Bool {
    version &+= 1
    return usesArticle
      ? article.updateFirst(where: predicate, body) : lanes.updateFirst(where: predicate, body)
  }

  mutating func updateAll(_ body: (inout _Entry) -> Void) {
    version &+= 1
    if usesArticle { article.updateEach(body) } else { lanes.updateEach(body) }
  }

  /// Marks the first not-in-flight entry with this id as in flight and returns its message.
  mutating func markInFlight(id: MessageID) -> Message? {
    var message: Message?
    updateFirst(where: { $0.message.id == id && !$0.inFlight }) { entry in
      entry.inFlight = true
      message = entry.message
    }
    return message
  }

  func contains(_ id: MessageID) -> Bool {
    contains { $0.message.id == id }
  }

  func containsLane(_ lane: Int) -> Bool {
    contains { $0.message.reason.laneIndex == lane }
  }

  /// Whether an entry satisfies `predicate` (stops at the first that does).
  func contains(where predicate: (_Entry) -> Bool) -> Bool {
    usesArticle ? article.elements.contains(where: predicate) : lanes.contains(where: predicate)
  }

  func forEach(_ body: (_Entry) -> Void) {
    if usesArticle { article.elements.forEach(body) } else { lanes.forEach(body) }
  }

  mutating func removeAll() {
    version &+= 1
    article.removeAll()
    lanes.removeAll()
  }
}
