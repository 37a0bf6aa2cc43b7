import CGSL

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Durations prepared for the likelihoods: complete ones with their sufficient statistics,
/// censored ones as they are.
struct _FitData {
  var complete: [Double] = []
  var censored: [Double] = []
  var sumX = 0.0
  var sumLogX = 0.0
  var sumLogX2 = 0.0
  var totalTime = 0.0

  init(_ samples: [DurationSample]) {
    for sample in samples {
      if sample.censored {
        guard sample.seconds > 0 else { continue }
        censored.append(sample.seconds)
        totalTime += sample.seconds
      } else {
        let x = max(sample.seconds, DurationFit.resolution)
        complete.append(x)
        sumX += x
        sumLogX += log(x)
        sumLogX2 += log(x) * log(x)
        totalTime += x
      }
    }
  }

  var n: Double { Double(complete.count) }

  /// Starting log-parameters from the complete durations' moments.
  func start(_ family: DurationFamily) -> [Double] {
    let meanLog = sumLogX / n
    let sdLog = max(0.05, (max(0, sumLogX2 / n - meanLog * meanLog)).squareRoot())
    let mean = sumX / n
    var variance = 0.0
    for x in complete { variance += (x - mean) * (x - mean) }
    variance = max(variance / n, mean * mean * 1e-4)
    switch family {
    case .lognormal: return [meanLog, log(sdLog)]
    case .gamma: return [log(mean * mean / variance), log(variance / mean)]
    default:
      let shape = max(0.1, Double.pi / (sdLog * 6.0.squareRoot()))
      return [log(shape), meanLog + 0.5772 / shape]
    }
  }

  /// −log L at log-parameters `point` (lognormal: log median, log σ; gamma and Weibull:
  /// log shape, log scale).
  func negativeLogLikelihood(_ family: DurationFamily, _ point: [Double]) -> Double {
    let a = exp(point[0])
    let b = exp(point[1])
    guard a.isFinite, b.isFinite, a > 0, b > 0 else { return .infinity }
    switch family {
    case .lognormal:
      let mu = point[0]
      let sigma = b
      let squares = sumLogX2 - 2 * mu * sumLogX + n * mu * mu
      var value =
        sumLogX + n * log(sigma) + 0.5 * n * log(2 * Double.pi) + squares / (2 * sigma * sigma)
      for c in censored { value -= Self.logNormalTail((log(c) - mu) / sigma) }
      return value
    case .gamma:
      let (shape, scale) = (a, b)
      var value =
        -((shape - 1) * sumLogX - sumX / scale - n * lgamma(shape) - n * shape * log(scale))
      for c in censored { value -= log(gsl_cdf_gamma_Q(c, shape, scale)) }
      return value
    case .weibull:
      let (shape, scale) = (a, b)
      var powers = 0.0
      for x in complete { powers += pow(x / scale, shape) }
      for c in censored { powers += pow(c / scale, shape) }
      return -n * log(shape) + n * shape * log(scale) - (shape - 1) * sumLogX + powers
    case .exponential:
      return n * log(a) + totalTime / a
    }
  }

  /// log Q(z) for the standard normal, accurate far in the upper tail.
  static func logNormalTail(_ z: Double) -> Double {
    if z < 30 { return log(gsl_cdf_ugaussian_Q(z)) }
    return -0.5 * z * z - log(z * (2 * Double.pi).squareRoot()) + log1p(-1 / (z * z))
  }
}
