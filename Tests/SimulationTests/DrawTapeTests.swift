import Testing

@testable import Simulation

/// The draw tape (``_DrawTape``) that a forked user's later branch groups replay: a
/// replayed draw is the draw GSL would have made, the stream is left where GSL would have left
/// it, and a draw that does not match (another state, other parameters) is drawn by GSL.
@Suite("draw tape")
struct DrawTapeTests {
  static let short = Sampler(.lognormal(median: 6, sigma: 0.6))
  static let long = Sampler(.lognormal(median: 7 * 3600, sigma: 1.1))
  static let other = Sampler(.lognormal(median: 6, sigma: 0.61))

  /// A life-like sequence: lognormal draws of two samplers with uniforms between them, the
  /// `extra`-th step drawing one more uniform, the `changed`-th lognormal from `other`. Returns
  /// every value drawn, bit patterns, then one uniform after the sequence (where it left the
  /// stream).
  static func sequence(
    _ stream: inout RandomStream, extra: Int = -1, changed: Int = -1
  ) -> [UInt64] {
    var values: [UInt64] = []
    for step in 0..<300 {
      let sampler = step == changed ? other : step % 7 == 3 ? long : short
      values.append(sampler.draw(&stream, at: Double(step)).bitPattern)
      if step % 5 == 0 { values.append(stream.uniform().bitPattern) }
      if step == extra { values.append(stream.uniform().bitPattern) }
    }
    values.append(stream.uniform().bitPattern)
    return values
  }

  /// The same sequence from a stream without a tape.
  static func untaped(seed: UInt64, extra: Int = -1, changed: Int = -1) -> [UInt64] {
    var stream = RandomStream(gslSeed: seed)
    return sequence(&stream, extra: extra, changed: changed)
  }

  @Test(arguments: [UInt64(1), 42, 0xDEAD_BEEF])
  func aReplayDrawsWhatGSLWouldHaveDrawn(seed: UInt64) {
    var stream = RandomStream(gslSeed: seed)
    stream.recordTape()
    let recorded = Self.sequence(&stream)
    #expect(recorded == Self.untaped(seed: seed))
    #expect(stream.tape!.pointee.entries.count == 300)

    stream.reseed(gslSeed: seed)
    stream.tape!.pointee.replay()
    #expect(Self.sequence(&stream) == recorded)
    let counts = stream.tape!.pointee.takeCounts()
    #expect(counts.replayed == 300)
    #expect(counts.missed == 0)
  }

  /// One more uniform drawn part-way (the life took another path): from there on every
  /// lognormal is drawn, and the values are those of a stream without a tape.
  @Test(arguments: [0, 57, 298])
  func aSequenceThatPartsIsDrawnFromWhereItParts(extra: Int) {
    let seed: UInt64 = 77
    var stream = RandomStream(gslSeed: seed)
    stream.recordTape()
    _ = Self.sequence(&stream)
    stream.reseed(gslSeed: seed)
    stream.tape!.pointee.replay()
    #expect(Self.sequence(&stream, extra: extra) == Self.untaped(seed: seed, extra: extra))
    let counts = stream.tape!.pointee.takeCounts()
    #expect(counts.replayed == extra + 1)
    #expect(counts.missed == 300 - extra - 1)
  }

  /// Other parameters from the same state are not the recorded draw: drawn, as without a tape.
  @Test func otherParametersAreDrawn() {
    let seed: UInt64 = 5
    var stream = RandomStream(gslSeed: seed)
    stream.recordTape()
    _ = Self.sequence(&stream)
    stream.reseed(gslSeed: seed)
    stream.tape!.pointee.replay()
    #expect(Self.sequence(&stream, changed: 10) == Self.untaped(seed: seed, changed: 10))
    let counts = stream.tape!.pointee.takeCounts()
    // The draws up to the changed one replay; the changed one leaves the stream where the
    // recorded one did only if both rejection loops took as many uniforms, so the rest may
    // replay again or not: never wrongly (the values are equal above).
    #expect(counts.replayed >= 10)
    #expect(counts.missed >= 1)
  }

  /// A stopped tape and a stream counting variates: replayed draws are not GSL's work, so not
  /// counted; drawn ones are.
  @Test func replayedDrawsAreNotCountedAndAStoppedTapeDrawsEverything() {
    let seed: UInt64 = 9
    var stream = RandomStream(gslSeed: seed)
    stream.variateCounts = VariateCounts()
    stream.recordTape()
    _ = Self.sequence(&stream)
    #expect(stream.variateCounts![.lognormal] == 300)
    stream.variateCounts = VariateCounts()
    stream.reseed(gslSeed: seed)
    stream.tape!.pointee.replay()
    _ = Self.sequence(&stream)
    #expect(stream.variateCounts![.lognormal] == 0)
    stream.variateCounts = VariateCounts()
    stream.reseed(gslSeed: seed)
    stream.tape!.pointee.stop()
    #expect(Self.sequence(&stream) == Self.untaped(seed: seed))
    #expect(stream.variateCounts![.lognormal] == 300)
    #expect(stream.tape!.pointee.takeCounts().replayed == 300)
  }

  /// Alias-table draws (screen transitions) replay too, keyed by their table: the same
  /// sequence replays whole; a draw from another table is drawn, as without a tape.
  @Test func aliasTableDrawsReplayAndAnotherTableIsDrawn() {
    let transitions = AliasTable(weights: [0.5, 0.3, 0.2])
    let otherTable = AliasTable(weights: [0.5, 0.3, 0.2])
    func life(_ stream: inout RandomStream, swapAt: Int) -> [UInt64] {
      var values: [UInt64] = []
      for step in 0..<200 {
        let table = step == swapAt ? otherTable : transitions
        values.append(UInt64(table.draw(&stream)))
        values.append(Self.short.draw(&stream, at: 0).bitPattern)
      }
      values.append(stream.uniform().bitPattern)
      return values
    }
    let seed: UInt64 = 11
    var plain = RandomStream(gslSeed: seed)
    let expected = life(&plain, swapAt: -1)
    var stream = RandomStream(gslSeed: seed)
    stream.recordTape()
    #expect(life(&stream, swapAt: -1) == expected)
    stream.reseed(gslSeed: seed)
    stream.tape!.pointee.replay()
    #expect(life(&stream, swapAt: -1) == expected)
    #expect(stream.tape!.pointee.takeCounts().replayed == 400)
    stream.reseed(gslSeed: seed)
    stream.tape!.pointee.replay()
    // Another table with the same weights draws the same index from the same state: the values
    // agree, but the draw is GSL's, not the tape's; the next entry then matches again.
    #expect(life(&stream, swapAt: 50) == expected)
    let counts = stream.tape!.pointee.takeCounts()
    #expect(counts.missed == 1)
    #expect(counts.replayed == 399)
  }
}
