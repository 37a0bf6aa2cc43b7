import Foundation

/// Maps a numeric domain linearly onto a range of positions (SVG user units), and back.
///
/// The range may run backwards (a y axis maps the domain's low end to the bottom, the larger
/// coordinate). Values outside the domain map outside the range: nothing is clamped unless
/// ``clamped(_:)`` is asked for.
public struct LinearScale: Sendable, Equatable {
  /// The domain's two ends (`domainStart` maps to `rangeStart`).
  public var domainStart: Double
  public var domainEnd: Double
  /// The positions the domain's ends map to.
  public var rangeStart: Double
  public var rangeEnd: Double

  /// A scale from `domain` onto `range`, each given as (start, end).
  ///
  /// - Precondition: the domain's ends differ and are finite.
  public init(domain: (Double, Double), range: (Double, Double)) {
    precondition(
      domain.0.isFinite && domain.1.isFinite && domain.0 != domain.1,
      "A linear scale needs a domain of two different finite values, not \(domain)")
    domainStart = domain.0
    domainEnd = domain.1
    rangeStart = range.0
    rangeEnd = range.1
  }

  /// The position of `value`.
  public func callAsFunction(_ value: Double) -> Double {
    rangeStart + (value - domainStart) / (domainEnd - domainStart) * (rangeEnd - rangeStart)
  }

  /// The value at `position`: the inverse of ``callAsFunction(_:)`` (for a range of nonzero
  /// width).
  public func invert(_ position: Double) -> Double {
    domainStart + (position - rangeStart) / (rangeEnd - rangeStart) * (domainEnd - domainStart)
  }

  /// The position of `value` kept inside the range.
  public func clamped(_ value: Double) -> Double {
    let position = self(value)
    return Swift.min(
      Swift.max(position, Swift.min(rangeStart, rangeEnd)), Swift.max(rangeStart, rangeEnd))
  }

  /// About `count` round ticks inside the domain (``Chart/niceTicks(min:max:count:)``).
  public func ticks(count: Int = 5) -> [Double] {
    Chart.niceTicks(
      min: Swift.min(domainStart, domainEnd), max: Swift.max(domainStart, domainEnd), count: count)
  }
}

/// Maps a positive domain onto a range of positions logarithmically (base 10), and back: equal
/// ratios take equal distances.
///
/// Values at or below zero have no position; ``callAsFunction(_:)`` maps them to the range's
/// start side beyond any positive value (−∞ in log space, clamped to a finite position one
/// range-width out), so a caller never draws NaN.
public struct LogScale: Sendable, Equatable {
  public var domainStart: Double
  public var domainEnd: Double
  public var rangeStart: Double
  public var rangeEnd: Double

  /// A scale from `domain` (both ends positive and different) onto `range`.
  ///
  /// - Precondition: both ends of the domain are finite, positive and different.
  public init(domain: (Double, Double), range: (Double, Double)) {
    precondition(
      domain.0 > 0 && domain.1 > 0 && domain.0.isFinite && domain.1.isFinite
        && domain.0 != domain.1,
      "A log scale needs a domain of two different finite positive values, not \(domain)")
    domainStart = domain.0
    domainEnd = domain.1
    rangeStart = range.0
    rangeEnd = range.1
  }

  /// The position of `value`.
  public func callAsFunction(_ value: Double) -> Double {
    guard value > 0 else { return rangeStart - (rangeEnd - rangeStart) }
    let fraction = log10(value / domainStart) / log10(domainEnd / domainStart)
    return rangeStart + fraction * (rangeEnd - rangeStart)
  }

  /// The value at `position`: the inverse of ``callAsFunction(_:)`` for positive values.
  public func invert(_ position: Double) -> Double {
    let fraction = (position - rangeStart) / (rangeEnd - rangeStart)
    return domainStart * pow(domainEnd / domainStart, fraction)
  }

  /// The position of `value` kept inside the range.
  public func clamped(_ value: Double) -> Double {
    let position = self(value)
    return Swift.min(
      Swift.max(position, Swift.min(rangeStart, rangeEnd)), Swift.max(rangeStart, rangeEnd))
  }

  /// Powers of ten inside the domain, with 2 and 5 times them when few decades are covered
  /// (``Chart/logTicks(min:max:count:)``).
  public func ticks(count: Int = 8) -> [Double] {
    Chart.logTicks(
      min: Swift.min(domainStart, domainEnd), max: Swift.max(domainStart, domainEnd), count: count)
  }
}
