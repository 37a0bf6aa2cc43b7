import Reports
import Simulation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Replication quantiles interpolated within their histogram bin: an interval over
/// replications covers the closed-form quantile at its nominal rate and never collapses to a
/// point, even when the sampling error (here about 1%) is below a bin's width (1.9%).
@Suite("Quantile intervals over replications")
struct QuantileIntervalTests {
  /// Exponential latencies (mean 60 s): median 60 ln 2. Per trial, 5 replications of 20,000
  /// values, each replication's median from its histogram, then the 95% Student-t interval.
  /// Over 150 trials the share of intervals covering the median is 0.95 within
  /// 4.5 · √(0.95 · 0.05 / 150) ≈ 0.08.
  @Test func medianIntervalsCoverAtTheNominalRate() throws {
    let trials = 150
    let replications = 5
    let values = 20_000
    let truth = 60 * log(2.0)
    let sampler = Sampler(.exponential(mean: 60))
    var covered = 0
    var collapsed = 0
    for trial in 0..<trials {
      var medians: [Double] = []
      for replication in 0..<replications {
        var stream = RandomStream(
          seed: 17, replication: trial * replications + replication, user: 0, purpose: .journey)
        var histogram = LatencyHistogram()
        for _ in 0..<values { histogram.record(sampler.draw(&stream)) }
        medians.append(try #require(histogram.quantile(0.5)))
      }
      let interval = try #require(MeanInterval(values: medians))
      if interval.low <= truth, truth <= interval.high { covered += 1 }
      if interval.low == interval.high { collapsed += 1 }
    }
    let rate = Double(covered) / Double(trials)
    let tolerance = 4.5 * (0.95 * 0.05 / Double(trials)).squareRoot()
    #expect(abs(rate - 0.95) < tolerance, "coverage \(rate) over \(trials) trials")
    #expect(collapsed == 0, "\(collapsed) intervals of zero width")
  }

  /// A hold of exactly 0 (shown the moment it was delivered) is reported as 0.
  @Test func zeroIsReportedAsZero() throws {
    var histogram = LatencyHistogram()
    for _ in 0..<6 { histogram.record(0) }
    for value in [0.000_4, 2, 30, 90] { histogram.record(value) }
    #expect(histogram.zeroCount == 6)
    #expect(histogram.quantile(0.5) == 0)
    #expect(histogram.quantile(0.6) == 0)
    let small = try #require(histogram.quantile(0.65))
    #expect(small > 0 && small < LatencyHistogram.lowerBound)
    #expect(try #require(histogram.quantile(0.99)) > 30)
  }

  /// Interpolation moves an estimate smoothly with p inside one bin, and never leaves the bin
  /// of the empirical quantile (the error bound, ``LatencyHistogram/maximumRelativeError``).
  @Test func interpolationStaysInTheBin() throws {
    // 10 s and 10.15 s share the bin [10, 10.196) s.
    var histogram = LatencyHistogram()
    for _ in 0..<50 { histogram.record(10) }
    for _ in 0..<50 { histogram.record(10.15) }
    let edges = LatencyHistogram.binEdges
    let bin = edges.lastIndex { $0 <= 10 }!
    #expect(edges[bin + 1] > 10.15)
    var estimates: [Double] = []
    for p in stride(from: 0.01, through: 0.99, by: 0.01) {
      let estimate = try #require(histogram.quantile(p))
      let exact = p <= 0.5 ? 10 : 10.15
      #expect(estimate >= edges[bin] && estimate <= edges[bin + 1])
      #expect(abs(estimate - exact) <= LatencyHistogram.maximumRelativeError * exact)
      estimates.append(estimate)
    }
    #expect(estimates == estimates.sorted())
    #expect(Set(estimates).count > 60, "estimates move with p inside the bin")
  }
}
