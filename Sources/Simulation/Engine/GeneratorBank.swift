import CGSL

/// Saved states of ``RandomStream``s, in numbered slots: a stream restored from a slot draws
/// exactly what the saved stream would have drawn next. How a shared trunk forks a user's
/// streams, once per policy, without re-seeding or re-drawing.
///
/// Each slot is a GSL generator of the streams' type, allocated once; saving and restoring copy
/// its state (`gsl_rng_memcpy`, 24 bytes for `taus2`) and allocate nothing. A class owned by one
/// worker's simulator (never shared between threads), so that it can free its generators. A stream's
/// ``RandomStream/variateCounts`` are not part of its state: they count what was drawn.
final class _GeneratorBank {
  private var slots: [UnsafeMutablePointer<gsl_rng>] = []

  init() {}

  deinit {
    for slot in slots { gsl_rng_free(slot) }
  }

  /// Makes room for at least `count` slots.
  func reserve(_ count: Int) {
    while slots.count < count {
      guard let generator = gsl_rng_alloc(cgsl_rng_type_taus2()) else {
        fatalError("GSL could not allocate a random number generator (out of memory)")
      }
      slots.append(generator)
    }
  }

  /// Saves `stream`'s state in slot `slot`.
  func save(_ stream: borrowing RandomStream, to slot: Int) {
    gsl_rng_memcpy(slots[slot], stream.generator)
  }

  /// Gives `stream` the state saved in slot `slot`.
  func restore(_ stream: inout RandomStream, from slot: Int) {
    gsl_rng_memcpy(stream.generator, slots[slot])
  }

  /// Saves the state of a stream's generator (``RandomStream/generator``) in slot `slot`.
  func save(_ generator: UnsafeMutablePointer<gsl_rng>, to slot: Int) {
    gsl_rng_memcpy(slots[slot], generator)
  }

  /// Gives a stream's generator the state saved in slot `slot`.
  func restore(_ generator: UnsafeMutablePointer<gsl_rng>, from slot: Int) {
    gsl_rng_memcpy(generator, slots[slot])
  }

  /// Gives a stream's generator the state saved in slot `slot` when `when` holds. (The
  /// condition is here, on a pointer, so that no caller borrows a stream conditionally in a
  /// loop: see ``UserSimulator/catchUpLanes()``.)
  func swapIn(_ generator: UnsafeMutablePointer<gsl_rng>, from slot: Int, when: Bool) {
    if when { gsl_rng_memcpy(generator, slots[slot]) }
  }

  /// Saves the state of a stream's generator in slot `slot` when `when` holds.
  func swapOut(_ generator: UnsafeMutablePointer<gsl_rng>, to slot: Int, when: Bool) {
    if when { gsl_rng_memcpy(slots[slot], generator) }
  }
}
