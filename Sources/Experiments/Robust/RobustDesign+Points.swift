import CGSL
import Reports
import Simulation

extension RobustDesign {
  /// The most parameters GSL's Sobol generator takes.
  public static var sobolMaximumDimension: Int {
    Int(cgsl_qrng_sobol().pointee.max_dimension)
  }

  /// `count` points of `dimensions` coordinates in [0, 1), the same for the same arguments on
  /// every platform (the seed enters only the Latin hypercube).
  ///
  /// - Precondition: `count >= 1`, `dimensions >= 1`, and for Sobol `dimensions` at most
  ///   ``sobolMaximumDimension``.
  public func points(count: Int, dimensions: Int, seed: UInt64) -> [[Double]] {
    precondition(count >= 1 && dimensions >= 1, "a design needs points and dimensions")
    switch self {
    case .lhs: return Self.latinHypercube(count: count, dimensions: dimensions, seed: seed)
    case .sobol: return Self.sobol(count: count, dimensions: dimensions)
    }
  }

  /// A tag mixed into the seed so the design's stream is not any simulation stream.
  static let streamTag: UInt64 = 0x526F_6275_7374_4C48  // "RobustLH"

  static func latinHypercube(count: Int, dimensions: Int, seed: UInt64) -> [[Double]] {
    var stream = RandomStream(gslSeed: RandomStream.splitMix64Finalizer(seed ^ streamTag))
    var points = Array(repeating: Array(repeating: 0.0, count: dimensions), count: count)
    for dimension in 0..<dimensions {
      // Fisher-Yates: a uniform permutation of the strata.
      var strata = Array(0..<count)
      for index in stride(from: count - 1, to: 0, by: -1) {
        strata.swapAt(index, stream.uniformInt(index + 1))
      }
      for point in 0..<count {
        let u = (Double(strata[point]) + stream.uniform()) / Double(count)
        // Rounding could reach 1 only if uniform() did; keep the promise of [0, 1) anyway.
        points[point][dimension] = Swift.min(u, 1.0.nextDown)
      }
    }
    return points
  }

  static func sobol(count: Int, dimensions: Int) -> [[Double]] {
    precondition(dimensions <= sobolMaximumDimension, "GSL's Sobol takes at most 40 dimensions")
    guard let generator = gsl_qrng_alloc(cgsl_qrng_sobol(), UInt32(dimensions)) else {
      fatalError("gsl_qrng_alloc failed: out of memory")
    }
    defer { gsl_qrng_free(generator) }
    var buffer = Array(repeating: 0.0, count: dimensions)
    var points: [[Double]] = []
    points.reserveCapacity(count)
    for _ in 0..<count {
      _ = buffer.withUnsafeMutableBufferPointer { gsl_qrng_get(generator, $0.baseAddress) }
      points.append(buffer)
    }
    return points
  }
}
