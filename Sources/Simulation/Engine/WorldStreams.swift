/// A user's random streams, one per purpose of the world (``StreamPurpose``), reseeded for every
/// (replication, user). The one place that lists them: reseeding, counting variates and the
/// fork (saving them into a ``_GeneratorBank`` and restoring them) go through this type, so a
/// stream added here is reseeded, counted and forked with the others.
///
/// The policy's own stream (``StreamPurpose/policy``) is not here: it belongs to the policy
/// being simulated, and a fork gives every policy its own.
///
/// Non-copyable because each stream owns a GSL generator; a fork copies their states into bank
/// slots (`gsl_rng_memcpy`, no allocation).
struct _WorldStreams: ~Copyable {
  /// Screen dwell times, transitions, background gaps, termination, quitting.
  var journey: RandomStream
  /// Issuances, deadlines and expiry of messages.
  var appStore: RandomStream
  /// Who the user is (new or existing, subscriber, install time): a stream of its own, so a
  /// sweep over message rates keeps the very same users.
  var population: RandomStream
  /// Scene activation and fetch delays, display failures.
  var scene: RandomStream
  /// Time spent on message sheets.
  var sheet: RandomStream
  /// Each message's response draw (``ResponseModel``), only with a `responses` section.
  var response: RandomStream

  /// How many streams there are: the bank slots a fork uses (``save(to:from:)``). Checked
  /// against ``forEach(_:)`` by `WorldStreamsTests`.
  static let count = 6

  init() {
    journey = RandomStream(seed: 0, replication: 0, user: 0, purpose: .journey)
    appStore = RandomStream(seed: 0, replication: 0, user: 0, purpose: .appStore)
    population = RandomStream(seed: 0, replication: 0, user: 0, purpose: .population)
    scene = RandomStream(seed: 0, replication: 0, user: 0, purpose: .scene)
    sheet = RandomStream(seed: 0, replication: 0, user: 0, purpose: .sheet)
    response = RandomStream(seed: 0, replication: 0, user: 0, purpose: .response)
  }

  /// Calls `body` on every stream with its purpose and its slot (0 ..< ``count``), in slot
  /// order: with the stored properties and ``init()``, the one list of the streams. Everything
  /// done to all streams goes through it (or ``forEachStream(_:)``), so a stream added here is
  /// reseeded, counted, taped and forked with the others.
  @inline(__always)
  mutating func forEach(_ body: (inout RandomStream, StreamPurpose, Int) -> Void) {
    body(&journey, .journey, 0)
    body(&appStore, .appStore, 1)
    body(&population, .population, 2)
    body(&scene, .scene, 3)
    body(&sheet, .sheet, 4)
    body(&response, .response, 5)
  }

  /// ``forEach(_:)`` for what only reads the streams.
  @inline(__always)
  func forEachStream(_ body: (borrowing RandomStream, Int) -> Void) {
    body(journey, 0)
    body(appStore, 1)
    body(population, 2)
    body(scene, 3)
    body(sheet, 4)
    body(response, 5)
  }

  /// Makes every stream draw what a fresh stream of (`seed`, `replication`, `user`) would.
  mutating func reseed(seed: UInt64, replication: Int, user: Int) {
    forEach { stream, purpose, _ in
      stream.reseed(seed: seed, replication: replication, user: user, purpose: purpose)
    }
  }

  /// Whether the streams count the variates they draw (``startCountingVariates()``).
  var countsVariates: Bool { journey.variateCounts != nil }

  /// Makes every stream count the variates it draws (see ``RunOptions/countsVariates``).
  mutating func startCountingVariates() {
    forEach { stream, _, _ in stream.variateCounts = VariateCounts() }
  }

  /// Adds what every stream counted into `counts`, and starts counting from zero.
  mutating func drainVariateCounts(into counts: inout VariateCounts) {
    forEach { stream, _, _ in stream.drainVariateCounts(into: &counts) }
  }

  /// Makes every stream keep its lognormal and alias-table draws from now on (``_DrawTape``),
  /// dropping what it kept before; a stream's tape is made the first time and reused.
  mutating func recordTapes() {
    forEach { stream, _, _ in stream.recordTape() }
  }

  /// Makes every stream replay what it kept since ``recordTapes()``, from the first draw.
  func replayTapes() {
    forEachStream { stream, _ in stream.tape?.pointee.replay() }
  }

  /// Makes every stream draw everything again (its tape kept, off).
  func stopTapes() {
    forEachStream { stream, _ in stream.tape?.pointee.stop() }
  }

  /// Adds the draws every stream's tape replayed and missed since the last call.
  func takeTapeCounts(into statistics: inout TrunkStatistics) {
    forEachStream { stream, _ in
      guard let counts = stream.tape?.pointee.takeCounts() else { return }
      statistics.drawsReplayed += counts.replayed
      statistics.drawsMissed += counts.missed
    }
  }

  /// Saves every stream's state into `bank`, in slots `first ..< first + count`.
  func save(to bank: _GeneratorBank, from first: Int) {
    forEachStream { stream, slot in bank.save(stream, to: first + slot) }
  }

  /// Gives every stream the state ``save(to:from:)`` kept in `bank` from slot `first`.
  mutating func restore(from bank: _GeneratorBank, from first: Int) {
    forEach { stream, _, slot in bank.restore(&stream, from: first + slot) }
  }
}
