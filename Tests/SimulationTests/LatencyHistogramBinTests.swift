import CGSL
import Testing

@testable import Simulation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// ``LatencyHistogram/bin(of:)`` (a guess from `log10`, corrected against the edges) finds the
/// bin GSL's own search (`gsl_histogram_find`) finds, so recording without GSL's search fills
/// the same bins: at every edge, just below and above it, and at seeded random values.
@Suite("LatencyHistogram bins against GSL's search")
struct LatencyHistogramBinTests {
  @Test func binOfIsGSLFind() {
    let edges = LatencyHistogram.binEdges
    let histogram = gsl_histogram_alloc(LatencyHistogram.binCount)!
    defer { gsl_histogram_free(histogram) }
    let status = edges.withUnsafeBufferPointer {
      gsl_histogram_set_ranges(histogram, $0.baseAddress, $0.count)
    }
    #expect(status == GSL_SUCCESS)
    var values: [Double] = []
    for edge in edges { values += [edge.nextDown, edge, edge.nextUp] }
    var state: UInt64 = 36
    for _ in 0..<20_000 {
      // SplitMix64, then a log-uniform value over the histogram's range.
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      z ^= z >> 31
      let unit = Double(z >> 11) / Double(1 << 53)
      values.append(LatencyHistogram.lowerBound * pow(10, 11 * unit))
    }
    var mismatches = 0
    for value in values
    where value >= LatencyHistogram.lowerBound && value < LatencyHistogram.upperBound {
      var found = 0
      #expect(gsl_histogram_find(histogram, value, &found) == GSL_SUCCESS)
      if LatencyHistogram.bin(of: value) != found {
        mismatches += 1
        if mismatches <= 3 {
          Issue.record("\(value): bin \(LatencyHistogram.bin(of: value)), GSL \(found)")
        }
      }
    }
    #expect(mismatches == 0)
  }
}
