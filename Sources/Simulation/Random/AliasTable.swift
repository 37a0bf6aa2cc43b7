import CGSL

/// Draws an index in `0..<count` with probability proportional to fixed weights, in O(1):
/// Walker's alias method through GSL (`gsl_ran_discrete_preproc`, `gsl_ran_discrete`).
///
/// Built once (for example per screen, for its transitions) and shared: the preprocessed table
/// is immutable, so a table may be used from any number of threads at once, each drawing from
/// its own ``RandomStream``.
///
/// An index of weight zero is never drawn. Each draw consumes exactly one uniform from the
/// stream (`gsl_ran_discrete` splits it into a column and a coin).
///
/// What does not hold: the probabilities are the weights divided by their sum in floating
/// point, so they are exact only to about 1e-15 relative, and GSL rounds the column split of
/// the 32-bit uniform, so an index's true probability differs from its weight's share by up to
/// about `count` × 2⁻³².
///
/// - Complexity: O(n) time and memory to build, O(1) per draw.
public struct AliasTable: Sendable {
  @usableFromInline
  internal let storage: _AliasTableStorage

  /// The probability of each index: the weights divided by their sum.
  public let probabilities: ContiguousArray<Double>

  /// A table over `weights.count` indices.
  ///
  /// - Precondition: `weights` is not empty, every weight is finite and non-negative, and at
  ///   least one is positive.
  public init<Weights: Collection<Double>>(weights: Weights) {
    let weights = ContiguousArray(weights)
    precondition(!weights.isEmpty, "An alias table needs at least one weight")
    var total = 0.0
    for weight in weights {
      precondition(
        weight.isFinite && weight >= 0, "Alias table weights must be finite and >= 0: \(weight)")
      total += weight
    }
    precondition(total > 0 && total.isFinite, "Alias table weights must have a positive sum")
    probabilities = ContiguousArray(weights.lazy.map { $0 / total })
    storage = _AliasTableStorage(weights: weights)
  }

  /// The GSL table, for a caller that keeps this `AliasTable` alive and wants to draw without
  /// touching its reference count (the engine's per-event path: see ``draw(_:from:)``).
  @inlinable
  public var unsafeTable: UnsafePointer<gsl_ran_discrete_t> { UnsafePointer(storage.table) }

  /// Draws an index from a table obtained with ``unsafeTable`` while its `AliasTable` lives.
  ///
  /// - Complexity: O(1); no reference counting, no allocation.
  @inlinable
  public static func draw(
    _ stream: inout RandomStream, from table: UnsafePointer<gsl_ran_discrete_t>
  ) -> Int {
    if let tape = stream.tape {
      // A replayed draw (``_DrawTape``) is not drawn, so not counted.
      if let index = tape.pointee.replayDiscrete(table) { return index }
      stream.countVariate(.discrete)
      return tape.pointee.drawDiscrete(stream.generator, table)
    }
    stream.countVariate(.discrete)
    return Int(gsl_ran_discrete(stream.generator, table))
  }

  /// The number of indices (the number of weights, zeros included).
  public var count: Int { probabilities.count }

  /// Draws an index in `0..<count`.
  ///
  /// - Complexity: O(1).
  @inlinable
  public func draw(_ stream: inout RandomStream) -> Int {
    Self.draw(&stream, from: unsafeTable)
  }
}

/// Owns the GSL table; frees it when the last ``AliasTable`` sharing it goes away.
@usableFromInline
internal final class _AliasTableStorage: @unchecked Sendable {
  // @unchecked Sendable: the table is written once by `gsl_ran_discrete_preproc` and only read
  // afterwards (`gsl_ran_discrete` takes it as `const`).
  @usableFromInline
  internal let table: UnsafeMutablePointer<gsl_ran_discrete_t>

  internal init(weights: ContiguousArray<Double>) {
    let table = weights.withUnsafeBufferPointer { buffer in
      gsl_ran_discrete_preproc(buffer.count, buffer.baseAddress)
    }
    guard let table else {
      fatalError("GSL could not build an alias table of \(weights.count) weights")
    }
    self.table = table
  }

  deinit {
    gsl_ran_discrete_free(table)
  }
}
