import CGSL
import Simulation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

@Suite("LatencyHistogram")
struct LatencyHistogramTests {
  static let probabilities = [0.01, 0.05, 0.25, 0.5, 0.75, 0.9, 0.99, 0.999]

  /// 100 000 lognormal latencies (median 30 s, σ 1.2: from a fraction of a second to hours).
  static func latencies(user: Int = 0) -> [Double] {
    let sampler = Sampler(.lognormal(median: 30, sigma: 1.2))
    var stream = RandomStream(seed: 77, replication: 0, user: user, purpose: .appStore)
    return (0..<100_000).map { _ in sampler.draw(&stream) }
  }

  static func histogram(of values: some Sequence<Double>) -> LatencyHistogram {
    var histogram = LatencyHistogram()
    for value in values { histogram.record(value) }
    return histogram
  }

  @Test func binLayout() {
    let edges = LatencyHistogram.binEdges
    #expect(edges.count == LatencyHistogram.binCount + 1)
    #expect(edges.first == LatencyHistogram.lowerBound)
    #expect(edges.last == LatencyHistogram.upperBound)
    for index in 1..<edges.count {
      let ratio = edges[index] / edges[index - 1]
      #expect(abs(ratio - LatencyHistogram.binRatio) < 1e-12, "edge \(index)")
    }
    #expect(LatencyHistogram.maximumRelativeError <= 0.02)
  }

  @Test func emptyHistogram() {
    let histogram = LatencyHistogram()
    #expect(histogram.isEmpty)
    #expect(histogram.count == 0)
    #expect(histogram.mean == nil)
    #expect(histogram.quantile(0.5) == nil)
    #expect(histogram.minimum == nil && histogram.maximum == nil)
  }

  /// The documented guarantee, checked exactly: every estimate within maximumRelativeError of
  /// the empirical quantile x₍ₖ₎, k = ⌈p·n⌉ (the sorted sample's k-th value).
  @Test func quantilesWithinOnePercentOfTheEmpiricalQuantile() {
    let values = Self.latencies()
    let histogram = Self.histogram(of: values)
    var sorted = values
    sorted.withUnsafeMutableBufferPointer { gsl_sort($0.baseAddress, 1, $0.count) }
    for p in Self.probabilities {
      let rank = Int((p * Double(sorted.count)).rounded(.up))
      let exact = sorted[rank - 1]
      let estimate = histogram.quantile(p)!
      #expect(
        abs(estimate - exact) <= LatencyHistogram.maximumRelativeError * exact,
        "p = \(p): \(estimate) vs \(exact)")
    }
    #expect(histogram.quantile(0) == sorted.first)
    #expect(histogram.quantile(1) == sorted.last)
  }

  /// Against the closed-form quantile q = exp(ln 30 + 1.2 Φ⁻¹(p)): the bin error (at most
  /// maximumRelativeError of x₍ₖ₎) plus five standard errors of the sample quantile,
  /// sqrt(p(1 − p)/n) / f(q) with f the lognormal density, the second widened by the first.
  @Test func quantilesMatchTheClosedForm() {
    let values = Self.latencies(user: 1)
    let histogram = Self.histogram(of: values)
    let zeta = log(30.0)
    let sigma = 1.2
    let n = Double(values.count)
    let error = LatencyHistogram.maximumRelativeError
    for p in Self.probabilities {
      let exact = gsl_cdf_lognormal_Pinv(p, zeta, sigma)
      let standardError =
        (p * (1 - p) / n).squareRoot() / gsl_ran_lognormal_pdf(exact, zeta, sigma)
      let tolerance = error * exact + (1 + error) * 5 * standardError
      let estimate = histogram.quantile(p)!
      #expect(abs(estimate - exact) <= tolerance, "p = \(p): \(estimate) vs \(exact)")
    }
    let mean = values.reduce(0, +) / n
    #expect(abs(histogram.mean! - mean) <= 1e-9 * mean)
  }

  /// Merging the two halves gives the whole exactly (counts, extremes, every quantile), in
  /// either order; only the floating-point sum may differ in its last bits.
  @Test func mergeOfHalvesEqualsTheWhole() {
    let values = Self.latencies(user: 2)
    let whole = Self.histogram(of: values)
    let first = Self.histogram(of: values[..<40_000])
    let second = Self.histogram(of: values[40_000...])
    var forward = first
    forward.merge(second)
    var backward = second
    backward.merge(first)
    for merged in [forward, backward] {
      #expect(merged.binCounts == whole.binCounts)
      #expect(merged.count == whole.count)
      #expect(merged.belowRangeCount == whole.belowRangeCount)
      #expect(merged.aboveRangeCount == whole.aboveRangeCount)
      #expect(merged.minimum == whole.minimum)
      #expect(merged.maximum == whole.maximum)
      #expect(abs(merged.sum - whole.sum) <= 1e-12 * whole.sum)
      for p in Self.probabilities + [0, 1] {
        #expect(merged.quantile(p) == whole.quantile(p), "p = \(p)")
      }
    }
    #expect(first.count == 40_000, "merging must not change the operands")
  }

  /// Four parts merged in every one of the 24 orders give identical counts and quantiles.
  @Test func mergeIsOrderIndependent() {
    let values = Self.latencies(user: 3)
    let parts = (0..<4).map { part in
      Self.histogram(of: values[(part * 25_000)..<((part + 1) * 25_000)])
    }
    func permutations(_ items: [Int]) -> [[Int]] {
      guard items.count > 1 else { return [items] }
      return items.indices.flatMap { index in
        var rest = items
        let head = rest.remove(at: index)
        return permutations(rest).map { [head] + $0 }
      }
    }
    var reference: LatencyHistogram?
    for order in permutations([0, 1, 2, 3]) {
      var merged = LatencyHistogram()
      for part in order { merged.merge(parts[part]) }
      guard let reference else {
        reference = merged
        continue
      }
      #expect(merged.binCounts == reference.binCounts, "order \(order)")
      #expect(merged.minimum == reference.minimum && merged.maximum == reference.maximum)
      #expect(merged.quantile(0.9) == reference.quantile(0.9), "order \(order)")
    }
  }

  @Test func mergingWithEmptyChangesNothing() {
    let values = Self.latencies(user: 4).prefix(1000)
    let histogram = Self.histogram(of: values)
    var left = histogram
    left.merge(LatencyHistogram())
    #expect(left == histogram)
    var right = LatencyHistogram()
    right.merge(histogram)
    #expect(right == histogram)
  }

  @Test func valuesOutsideTheRange() {
    var histogram = LatencyHistogram()
    for value in [0, 0.0004, 0.000_999_9, 1, 1e8, 5e8] { histogram.record(value) }
    #expect(histogram.count == 6)
    #expect(histogram.belowRangeCount == 3)
    #expect(histogram.aboveRangeCount == 2)
    #expect(histogram.binCounts.reduce(0, +) == 1)
    #expect(histogram.quantile(0) == 0)
    #expect(histogram.quantile(1) == 5e8)
    let low = histogram.quantile(0.5)!  // rank 3: below the range
    #expect(low >= 0 && low < LatencyHistogram.lowerBound)
    let middle = histogram.quantile(4.0 / 6)!  // rank 4: the 1 s value
    #expect(abs(middle - 1) <= LatencyHistogram.maximumRelativeError)
    let high = histogram.quantile(5.0 / 6)!  // rank 5: at or above the range
    #expect(high >= LatencyHistogram.upperBound && high <= 5e8)
    histogram.withUnsafeGSLHistogram { gslHistogram in
      #expect(gsl_histogram_sum(gslHistogram) == 1)
    }
  }

  /// A value exactly on an edge belongs to the bin that starts there.
  @Test func edgesBelongToTheBinAbove() {
    var histogram = LatencyHistogram()
    let edges = LatencyHistogram.binEdges
    histogram.record(edges[0])
    histogram.record(edges[600])
    histogram.record(edges[LatencyHistogram.binCount].nextDown)
    let counts = histogram.binCounts
    #expect(counts[0] == 1)
    #expect(counts[600] == 1)
    #expect(counts[LatencyHistogram.binCount - 1] == 1)
    #expect(histogram.belowRangeCount == 0 && histogram.aboveRangeCount == 0)
  }

  @Test func copiesAreIndependent() {
    var original = LatencyHistogram()
    original.record(1)
    var copy = original
    copy.record(2)
    copy.merge(copy)
    #expect(original.count == 1)
    #expect(original.binCounts.reduce(0, +) == 1)
    #expect(copy.count == 4)
    #expect(copy.binCounts.reduce(0, +) == 4)
    #expect(original != copy)
  }
}
