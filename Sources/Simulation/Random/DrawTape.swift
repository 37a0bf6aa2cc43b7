import CGSL

/// The lognormal and alias-table draws one simulation of a stream made, kept so that a later simulation of the
/// same user takes a draw's result instead of drawing it again (``UserSimulator/runGroups``:
/// the groups of a forked user all start from the same fork, and their screens, gaps and sheets
/// mostly draw the same sequence). Attached to a ``RandomStream`` (``RandomStream/tape``).
///
/// A replayed draw is exact, not approximate: `gsl_ran_lognormal` is a function of the
/// generator's state and its two parameters alone (`gsl_ran_discrete` of the state and its
/// table), giving a value and a new state; an entry keeps them all, and is taken only when the
/// stream's state and the parameters equal the entry's, bit for bit, after which the stream's state is set to what the draw left. A draw
/// that does not match (the life took another path, or drew something else before) is drawn
/// by GSL as always, so the stream never draws anything it would not have drawn. Only
/// `taus2`'s state is read (three words, as ``RandomStream/seed(_:with:)`` writes it); with
/// any other layout the tape stays off.
///
/// One tape per stream of one worker's simulator, never shared between threads. The stream
/// holds it by pointer and frees it (a class's stored properties would be checked for
/// exclusive access at every draw, at a cost of the order of the draws it saves).
@usableFromInline
struct _DrawTape {
  @usableFromInline
  enum Mode {
    /// Neither records nor replays.
    case off
    /// Every lognormal draw is drawn and kept.
    case recording
    /// A draw that matches the next entry takes its result.
    case replaying
  }

  /// One draw: the state before, what was drawn (a lognormal's ζ and σ, or an alias table's
  /// address and 0), the result, the state after.
  @usableFromInline
  struct Entry {
    @usableFromInline var before: (UInt, UInt, UInt)
    @usableFromInline var first: UInt64
    @usableFromInline var second: UInt64
    @usableFromInline var value: Double
    @usableFromInline var after: (UInt, UInt, UInt)

    @usableFromInline
    init(
      before: (UInt, UInt, UInt), first: UInt64, second: UInt64, value: Double,
      after: (UInt, UInt, UInt)
    ) {
      self.before = before
      self.first = first
      self.second = second
      self.value = value
      self.after = after
    }
  }

  @usableFromInline var mode = Mode.off
  @usableFromInline var entries: ContiguousArray<Entry> = []
  /// The next entry a replaying simulation may take.
  @usableFromInline var cursor = 0
  /// The stream's generator state (three words), or `nil` when the layout is not `taus2`'s.
  @usableFromInline let state: UnsafeMutablePointer<UInt>?
  /// Draws taken from the tape, and drawn while replaying, since ``takeCounts()``.
  @usableFromInline var replayed = 0
  @usableFromInline var missed = 0

  /// A tape for the stream whose generator is `generator`.
  init(generator: UnsafeMutablePointer<gsl_rng>) {
    if gsl_rng_size(generator) == 3 * MemoryLayout<UInt>.size, let raw = gsl_rng_state(generator) {
      state = raw.assumingMemoryBound(to: UInt.self)
    } else {
      state = nil
    }
  }

  /// Starts recording anew (the entries of the last user are dropped, their room kept).
  mutating func record() {
    entries.removeAll(keepingCapacity: true)
    cursor = 0
    mode = state == nil ? .off : .recording
  }

  /// Replays the recorded entries from the first.
  mutating func replay() {
    cursor = 0
    mode = state == nil ? .off : .replaying
  }

  mutating func stop() {
    mode = .off
  }

  /// The draws replayed and missed since the last call, counting from zero again.
  mutating func takeCounts() -> (replayed: Int, missed: Int) {
    defer {
      replayed = 0
      missed = 0
    }
    return (replayed, missed)
  }

  /// The result of the next entry, when replaying and the stream's state and what is drawn
  /// (`first`, `second`) are the entry's (the stream's state is then left as the draw left
  /// it); else `nil`.
  @inlinable @inline(__always)
  mutating func replay(_ first: UInt64, _ second: UInt64) -> Double? {
    guard mode == .replaying, cursor < entries.count, let state else { return nil }
    return entries.withUnsafeBufferPointer { buffer in
      let entry = buffer[cursor]
      guard state[0] == entry.before.0, state[1] == entry.before.1, state[2] == entry.before.2,
        first == entry.first, second == entry.second
      else { return nil }
      state[0] = entry.after.0
      state[1] = entry.after.1
      state[2] = entry.after.2
      cursor += 1
      replayed &+= 1
      return entry.value
    }
  }

  /// Keeps a draw of `first`, `second` that `draw` makes, when recording.
  @inlinable @inline(__always)
  mutating func keep(_ first: UInt64, _ second: UInt64, _ draw: () -> Double) -> Double {
    guard mode == .recording, let state else {
      guard mode == .replaying, let state, cursor < entries.count else { return draw() }
      // Drawn from the entry's state with other parameters: when the draw took as many
      // uniforms (a lognormal's rejection loop reads only the uniforms, an alias draw takes
      // one), the stream is back where the tape goes on, and the next entry can match.
      missed &+= 1
      let entry = entries[cursor]
      let fromEntry =
        state[0] == entry.before.0 && state[1] == entry.before.1 && state[2] == entry.before.2
      let value = draw()
      if fromEntry, state[0] == entry.after.0, state[1] == entry.after.1,
        state[2] == entry.after.2
      {
        cursor += 1
      }
      return value
    }
    let before = (state[0], state[1], state[2])
    let value = draw()
    entries.append(
      Entry(
        before: before, first: first, second: second, value: value,
        after: (state[0], state[1], state[2])))
    return value
  }

  /// The next lognormal draw's result from the tape (``replay(_:_:)``), or `nil`.
  @inlinable @inline(__always)
  mutating func replayLognormal(zeta: Double, sigma: Double) -> Double? {
    replay(zeta.bitPattern, sigma.bitPattern)
  }

  /// `gsl_ran_lognormal(generator, zeta, sigma)`, kept when recording.
  @inlinable
  mutating func drawLognormal(
    _ generator: UnsafeMutablePointer<gsl_rng>, zeta: Double, sigma: Double
  ) -> Double {
    keep(zeta.bitPattern, sigma.bitPattern) { gsl_ran_lognormal(generator, zeta, sigma) }
  }

  /// The next alias-table draw's index from the tape, or `nil` (σ is never 0, so a table's
  /// entry is never a lognormal's).
  @inlinable @inline(__always)
  mutating func replayDiscrete(_ table: UnsafePointer<gsl_ran_discrete_t>) -> Int? {
    replay(UInt64(UInt(bitPattern: table)), 0).map { Int($0) }
  }

  /// `gsl_ran_discrete(generator, table)`, kept when recording.
  @inlinable
  mutating func drawDiscrete(
    _ generator: UnsafeMutablePointer<gsl_rng>, _ table: UnsafePointer<gsl_ran_discrete_t>
  ) -> Int {
    Int(keep(UInt64(UInt(bitPattern: table)), 0) { Double(gsl_ran_discrete(generator, table)) })
  }
}
