/// How long after a cold launch the policy's listener exists (the SDK's `configure`,
/// `activate` or `initConnection` has run and it iterates `Message.messages`).
///
/// A message StoreKit delivers before then has no listener: StoreKit shows it itself, as
/// `storekit-auto` does (at once with an active scene, else when the scene next becomes
/// active), over whatever screen. The engine draws one delay per process; the policy never
/// sees those messages. The shapes are those of a scenario's distributions (same keys), in
/// seconds.
public enum ListenerDelay: Sendable, Equatable {
  /// Always this many seconds; `.fixed(0)`: listening from process start.
  case fixed(Double)
  /// Exponential with this mean.
  case exponential(mean: Double)
  /// Lognormal given as its median and the σ of the underlying normal.
  case lognormal(median: Double, sigma: Double)
  /// Uniform on [low, high).
  case uniform(low: Double, high: Double)

  /// No delay: the listener exists from process start.
  public static let none = ListenerDelay.fixed(0)

  /// Whether the delay is always zero (then no draw is ever made).
  public var isZero: Bool { self == .fixed(0) }

  /// The kinds, in the order messages list them.
  public static let kinds = ["fixed", "exponential", "lognormal", "uniform"]
}
