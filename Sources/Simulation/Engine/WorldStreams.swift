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

  /// How many streams there are: the bank slots a fork uses (``save(to:from:)``).
  static let count = 6

  init() {
    journey = RandomStream(seed: 0, replication: 0, user: 0, purpose: .journey)
    appStore = RandomStream(seed: 0, replication: 0, user: 0, purpose: .appStore)
    population = RandomStream(seed: 0, replication: 0, user: 0, purpose: .population)
    scene = RandomStream(seed: 0, replication: 0, user: 0, purpose: .scene)
    sheet = RandomStream(seed: 0, replication: 0, user: 0, purpose: .sheet)
    response = RandomStream(seed: 0, replication: 0, user: 0, purpose: .response)
  }

  /// Makes every stream draw what a fresh stream of (`seed`, `replication`, `user`) would.
  mutating func reseed(seed: UInt64, replication: Int, user: Int) {
    journey.reseed(seed: seed, replication: replication, user: user, purpose: .journey)
    appStore.reseed(seed: seed, replication: replication, user: user, purpose: .appStore)
    population.reseed(seed: seed, replication: replication, user: user, purpose: .population)
    scene.reseed(seed: seed, replication: replication, user: user, purpose: .scene)
    sheet.reseed(seed: seed, replication: replication, user: user, purpose: .sheet)
    response.reseed(seed: seed, replication: replication, user: user, purpose: .response)
  }

  /// Whether the streams count the variates they draw (``startCountingVariates()``).
  var countsVariates: Bool { journey.variateCounts != nil }

  /// Makes every stream count the variates it draws (see ``RunOptions/countsVariates``).
  mutating func startCountingVariates() {
    journey.variateCounts = VariateCounts()
    appStore.variateCounts = VariateCounts()
    population.variateCounts = VariateCounts()
    scene.variateCounts = VariateCounts()
    sheet.variateCounts = VariateCounts()
    response.variateCounts = VariateCounts()
  }

  /// Adds what every stream counted into `counts`, and starts counting from zero.
  mutating func drainVariateCounts(into counts: inout VariateCounts) {
    journey.drainVariateCounts(into: &counts)
    appStore.drainVariateCounts(into: &counts)
    population.drainVariateCounts(into: &counts)
    scene.drainVariateCounts(into: &counts)
    sheet.drainVariateCounts(into: &counts)
    response.drainVariateCounts(into: &counts)
  }

  /// Makes every stream keep its lognormal and alias-table draws from now on (``_DrawTape``),
  /// dropping what it kept before; a stream's tape is made the first time and reused.
  mutating func recordTapes() {
    Self.record(&journey)
    Self.record(&appStore)
    Self.record(&population)
    Self.record(&scene)
    Self.record(&sheet)
    Self.record(&response)
  }

  /// Makes every stream replay what it kept since ``recordTapes()``, from the first draw.
  func replayTapes() {
    journey.tape?.pointee.replay()
    appStore.tape?.pointee.replay()
    population.tape?.pointee.replay()
    scene.tape?.pointee.replay()
    sheet.tape?.pointee.replay()
    response.tape?.pointee.replay()
  }

  /// Makes every stream draw everything again (its tape kept, off).
  func stopTapes() {
    journey.tape?.pointee.stop()
    appStore.tape?.pointee.stop()
    population.tape?.pointee.stop()
    scene.tape?.pointee.stop()
    sheet.tape?.pointee.stop()
    response.tape?.pointee.stop()
  }

  /// Adds the draws every stream's tape replayed and missed since the last call.
  func takeTapeCounts(into statistics: inout TrunkStatistics) {
    Self.take(journey.tape, into: &statistics)
    Self.take(appStore.tape, into: &statistics)
    Self.take(population.tape, into: &statistics)
    Self.take(scene.tape, into: &statistics)
    Self.take(sheet.tape, into: &statistics)
    Self.take(response.tape, into: &statistics)
  }

  private static func take(
    _ tape: UnsafeMutablePointer<_DrawTape>?, into statistics: inout TrunkStatistics
  ) {
    guard let counts = tape?.pointee.takeCounts() else { return }
    statistics.drawsReplayed += counts.replayed
    statistics.drawsMissed += counts.missed
  }

  private static func record(_ stream: inout RandomStream) {
    stream.recordTape()
  }

  /// Saves every stream's state into `bank`, in slots `first ..< first + count`.
  func save(to bank: _GeneratorBank, from first: Int) {
    bank.save(journey, to: first)
    bank.save(appStore, to: first + 1)
    bank.save(population, to: first + 2)
    bank.save(scene, to: first + 3)
    bank.save(sheet, to: first + 4)
    bank.save(response, to: first + 5)
  }

  /// Gives every stream the state ``save(to:from:)`` kept in `bank` from slot `first`.
  mutating func restore(from bank: _GeneratorBank, from first: Int) {
    bank.restore(&journey, from: first)
    bank.restore(&appStore, from: first + 1)
    bank.restore(&population, from: first + 2)
    bank.restore(&scene, from: first + 3)
    bank.restore(&sheet, from: first + 4)
    bank.restore(&response, from: first + 5)
  }
}
