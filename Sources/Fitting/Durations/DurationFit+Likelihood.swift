import CGSL
import Simulation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Durations prepared for the likelihoods: exact complete ones with their sufficient
/// statistics, right-censored ones as they are, and interval-censored ones (a timestamp
/// resolution) grouped by interval with their counts.
struct _FitData {
  var complete: [Double] = []
  var censored: [Double] = []
  /// Each censored duration's ``DurationSample/weight``.
  var censoredWeights: [Double] = []
  /// (low, high, how many): the true duration is in (low, high); `high` infinite for a
  /// right-censored duration read with a resolution.
  var intervals: [(low: Double, high: Double, count: Double)] = []
  var intervalCount = 0
  var sumX = 0.0
  var sumLogX = 0.0
  var sumLogX2 = 0.0
  var totalTime = 0.0
  /// Moments for the starting point: of the exact durations and the intervals' midpoints.
  var start = (n: 0.0, sum: 0.0, sumLog: 0.0, sumLog2: 0.0, values: [Double]())

  init(_ samples: [DurationSample]) {
    var grouped: [Double: [Double: Double]] = [:]
    for sample in samples {
      if sample.resolution > 0 {
        let (low, high) = sample.bounds
        if sample.censored {
          guard low > 0 else { continue }
        } else {
          intervalCount += 1
          addStart(max((low + high) / 2, DurationFit.resolution))
        }
        grouped[low, default: [:]][high, default: 0] += sample.censored ? sample.weight : 1
      } else if sample.censored {
        guard sample.seconds > 0 else { continue }
        censored.append(sample.seconds)
        censoredWeights.append(sample.weight)
        totalTime += sample.weight * sample.seconds
      } else {
        let x = max(sample.seconds, DurationFit.resolution)
        complete.append(x)
        sumX += x
        sumLogX += log(x)
        sumLogX2 += log(x) * log(x)
        totalTime += x
        addStart(x)
      }
    }
    for low in grouped.keys.sorted() {
      for (high, count) in grouped[low]!.sorted(by: { $0.key < $1.key }) {
        intervals.append((low, high, count))
      }
    }
  }

  mutating func addStart(_ x: Double) {
    start.n += 1
    start.sum += x
    start.sumLog += log(x)
    start.sumLog2 += log(x) * log(x)
    start.values.append(x)
  }

  /// Complete durations, exact or interval-censored (what a fit needs at least one of).
  var completeCount: Int { complete.count + intervalCount }

  var n: Double { Double(complete.count) }

  /// Starting log-parameters from the complete durations' moments (intervals at their
  /// midpoints).
  func start(_ family: DurationFamily) -> [Double] {
    let n = start.n
    let meanLog = start.sumLog / n
    let sdLog = max(0.05, (max(0, start.sumLog2 / n - meanLog * meanLog)).squareRoot())
    let mean = start.sum / n
    var variance = 0.0
    for x in start.values { variance += (x - mean) * (x - mean) }
    variance = max(variance / n, mean * mean * 1e-4)
    if family == .exponential { return [log(mean)] }
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
    let b = point.count > 1 ? exp(point[1]) : 1
    guard a.isFinite, b.isFinite, a > 0, b > 0 else { return .infinity }
    let exact = exactNegativeLogLikelihood(family, point, a, b)
    guard !intervals.isEmpty else { return exact }
    var value = exact
    for interval in intervals {
      let mass = Self.probability(family, a, b, point[0], interval.low, interval.high)
      guard mass > 0 else { return .infinity }
      value -= interval.count * log(mass)
    }
    return value
  }

  /// P(low < X < high) under `family` with parameters `a`, `b` (lognormal: `logA` the log
  /// median, `b` σ; exponential: `a` the mean), from the tail that keeps precision.
  static func probability(
    _ family: DurationFamily, _ a: Double, _ b: Double, _ logA: Double, _ low: Double,
    _ high: Double
  ) -> Double {
    func cdf(_ x: Double) -> (p: Double, q: Double) {
      guard x > 0 else { return (0, 1) }
      guard x.isFinite else { return (1, 0) }
      switch family {
      case .exponential: return (-expm1(-x / a), exp(-x / a))
      case .lognormal:
        let z = (log(x) - logA) / b
        return (gsl_cdf_ugaussian_P(z), gsl_cdf_ugaussian_Q(z))
      case .gamma: return (gsl_cdf_gamma_P(x, a, b), gsl_cdf_gamma_Q(x, a, b))
      case .weibull:
        let power = pow(x / b, a)
        return (-expm1(-power), exp(-power))
      }
    }
    let lower = cdf(low)
    let upper = cdf(high)
    return lower.p < 0.5 ? upper.p - lower.p : lower.q - upper.q
  }

  /// −log L of the exact and right-censored durations alone.
  func exactNegativeLogLikelihood(
    _ family: DurationFamily, _ point: [Double], _ a: Double, _ b: Double
  ) -> Double {
    switch family {
    case .lognormal:
      let mu = point[0]
      let sigma = b
      let squares = sumLogX2 - 2 * mu * sumLogX + n * mu * mu
      var value =
        sumLogX + n * log(sigma) + 0.5 * n * log(2 * Double.pi) + squares / (2 * sigma * sigma)
      for (c, w) in zip(censored, censoredWeights) {
        value -= w * Self.logNormalTail((log(c) - mu) / sigma)
      }
      return value
    case .gamma:
      let (shape, scale) = (a, b)
      var value =
        -((shape - 1) * sumLogX - sumX / scale - n * lgamma(shape) - n * shape * log(scale))
      for (c, w) in zip(censored, censoredWeights) {
        value -= w * log(gsl_cdf_gamma_Q(c, shape, scale))
      }
      return value
    case .weibull:
      let (shape, scale) = (a, b)
      var powers = 0.0
      for x in complete { powers += pow(x / scale, shape) }
      for (c, w) in zip(censored, censoredWeights) { powers += w * pow(c / scale, shape) }
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
