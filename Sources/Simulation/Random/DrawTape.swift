import CGSL

/// The lognormal draws one simulation of a stream made, kept so that a later simulation of the
/// same user takes a draw's result instead of drawing it again (``UserSimulator/runGroups``:
/// the groups of a forked user all start from the same fork, and their screens, gaps and sheets
/// mostly draw the same sequence). Attached to a ``RandomStream`` (``RandomStream/tape``).
///
/// A replayed draw is exact, not approximate: `gsl_ran_lognormal` is a function of the
/// generator's state and its two parameters alone, giving a value and a new state; an entry
/// keeps all five, and is taken only when the stream's state and the parameters equal the
/// entry's, bit for bit, after which the stream's state is set to what the draw left. A draw
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

  /// One lognormal draw: the state before, the parameters, the result, the state after.
  @usableFromInline
  struct Entry {
    @usableFromInline var before: (UInt, UInt, UInt)
    @usableFromInline var zeta: Double
    @usableFromInline var sigma: Double
    @usableFromInline var value: Double
    @usableFromInline var after: (UInt, UInt, UInt)

    @usableFromInline
    init(
      before: (UInt, UInt, UInt), zeta: Double, sigma: Double, value: Double,
      after: (UInt, UInt, UInt)
    ) {
      self.before = before
      self.zeta = zeta
      self.sigma = sigma
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

  /// The result of the next entry, when replaying and the stream's state and the parameters
  /// are the entry's (the stream's state is then left as the draw left it); else `nil`.
  @inlinable
  mutating func replayLognormal(zeta: Double, sigma: Double) -> Double? {
    guard mode == .replaying, cursor < entries.count, let state else { return nil }
    let entry = entries[cursor]
    guard state[0] == entry.before.0, state[1] == entry.before.1, state[2] == entry.before.2,
      zeta.bitPattern == entry.zeta.bitPattern, sigma.bitPattern == entry.sigma.bitPattern
    else { return nil }
    state[0] = entry.after.0
    state[1] = entry.after.1
    state[2] = entry.after.2
    cursor += 1
    replayed &+= 1
    return entry.value
  }

  /// `gsl_ran_lognormal(generator, zeta, sigma)`, kept when recording.
  @inlinable
  mutating func drawLognormal(
    _ generator: UnsafeMutablePointer<gsl_rng>, zeta: Double, sigma: Double
  ) -> Double {
    guard mode == .recording, let state else {
      if mode == .replaying { missed &+= 1 }
      return gsl_ran_lognormal(generator, zeta, sigma)
    }
    let before = (state[0], state[1], state[2])
    let value = gsl_ran_lognormal(generator, zeta, sigma)
    entries.append(
      Entry(
        before: before, zeta: zeta, sigma: sigma, value: value,
        after: (state[0], state[1], state[2])))
    return value
  }
}
