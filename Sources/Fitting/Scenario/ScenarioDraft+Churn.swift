import Simulation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension _ScenarioDraft {
  /// Returns and last gaps a churn estimate needs at least (each).
  static let churnMinimumReturns = 30
  static let churnMinimumLastGaps = 30
  /// The likelihood-ratio statistic above which churn is kept: χ² with 1 degree of freedom
  /// at 5% (conservative: q = 0 is on the boundary, where the statistic's law is a 50:50
  /// mixture of 0 and χ²₁).
  static let churnCriticalValue = 3.841

  /// `sessions.churn_probability` fitted together with the gap: after each session the user
  /// leaves for good with probability q, else comes back after a gap G. A return after g
  /// contributes (1 − q) f(g); a user's last gap, still open after c when the log ends,
  /// q + (1 − q) S(c): it is a return not seen yet or a departure, not a censored return for
  /// certain. Maximized by EM (Dempster, Laird and Rubin 1977; the mixture cure model): each
  /// last gap weighs in G's fit by the chance it is a return, w = (1 − q) S(c) / (q + (1 − q)
  /// S(c)), and q is the expected share of departures among session ends; run in every family
  /// the plain fit tried, the least AIC (one parameter more) taken. Kept when its likelihood
  /// ratio against the best plain fit exceeds ``churnCriticalValue``; then ``gap`` is its
  /// weighted fit. Returns q, or `nil`.
  mutating func fitChurn() -> Double? {
    let samples = gapSamples
    let returns = samples.filter { !$0.censored }.count
    let last = samples.filter(\.censored)
    guard returns >= Self.churnMinimumReturns, last.count >= Self.churnMinimumLastGaps,
      let plain = gap.chosen
    else { return nil }
    // The score at q = 0 (the plain fit maximizes the rest, so this is the score test's
    // statistic): d/dq [n_r log(1 − q) + Σ log(q + (1 − q) S(c))] = Σ (1 − S)/S − n_r. Not
    // positive: no departure improves on none, and the EM (slow toward a boundary) is skipped.
    let score =
      last.reduce(0.0) { sum, sample in
        let s = max(1e-300, 1 - plain.cdf(sample.seconds))
        return sum + (1 - s) / s
      } - Double(returns)
    guard score > 0 else {
      estimates.append(
        (
          "churn probability", "none",
          "leaving for good after a session does not explain the \(last.count) users' last gaps "
            + "better than returns not seen yet (the likelihood falls from no churn on: score "
            + "\(Self.number(score)))"
        ))
      return nil
    }
    // Each family with churn (a departure mimics a long gap, so the family the plain fit chose
    // for its heavy tail may not be the one that fits once departures are allowed).
    var best: (q: Double, fitted: FittedDuration, logLikelihood: Double)?
    for family in gap.fits.map(\.family) {
      guard let candidate = Self.churnEM(samples, returns: returns, family: family) else {
        continue
      }
      let aic = 2 * Double(family.parameterCount + 1) - 2 * candidate.logLikelihood
      let bestAIC = best.map {
        2 * Double($0.fitted.family.parameterCount + 1) - 2 * $0.logLikelihood
      }
      if bestAIC.map({ aic < $0 }) ?? true { best = candidate }
    }
    guard let best else { return nil }
    let statistic = 2 * (best.logLikelihood - plain.logLikelihood)
    guard statistic > Self.churnCriticalValue else {
      estimates.append(
        (
          "churn probability", "none",
          "leaving for good after a session does not explain the \(last.count) users' last gaps "
            + "better than returns not seen yet (likelihood ratio \(Self.number(statistic)), "
            + "under \(Self.number(Self.churnCriticalValue)))"
        ))
      return nil
    }
    gap.chosen = best.fitted
    gap.fits = gap.fits.map { $0.family == best.fitted.family ? best.fitted : $0 }
    gap.ks = gap.empirical.distance(to: best.fitted.cdf)
    estimates.append(
      (
        "churn probability", Self.number(best.q),
        "a session is the user's last with this chance, fitted with the gap (\(best.fitted.family.rawValue), "
          + "EM over \(returns) returns and \(last.count) last gaps; likelihood ratio "
          + "\(Self.number(statistic)) against none)"
      ))
    return best.q
  }

  /// EM for churn with the gap in `family`: q, the weighted gap fit, and the mixture's
  /// log-likelihood; `nil` when a fit fails or q leaves (0, 1).
  static func churnEM(
    _ samples: [DurationSample], returns: Int, family: DurationFamily
  ) -> (q: Double, fitted: FittedDuration, logLikelihood: Double)? {
    let last = samples.filter(\.censored)
    let ends = Double(returns + last.count)
    func survival(_ fitted: FittedDuration, _ c: Double) -> Double {
      max(1e-300, 1 - fitted.cdf(c))
    }
    guard var fitted = DurationFit.fit(samples, family: family) else { return nil }
    var q = 0.5
    var weights = [Double](repeating: 1, count: last.count)
    for _ in 0..<100 {
      weights = last.map { sample in
        let s = survival(fitted, sample.seconds)
        return (1 - q) * s / (q + (1 - q) * s)
      }
      let next = weights.reduce(0) { $0 + (1 - $1) } / ends
      var weighted: [DurationSample] = []
      weighted.reserveCapacity(samples.count)
      var index = 0
      for sample in samples {
        var copy = sample
        if sample.censored {
          copy.weight = weights[index]
          index += 1
        }
        weighted.append(copy)
      }
      guard let refit = DurationFit.fit(weighted, family: family) else { return nil }
      fitted = refit
      let converged = abs(next - q) < 1e-6
      q = next
      if converged { break }
    }
    guard q > 0, q < 1 else { return nil }
    // The mixture's log-likelihood: the weighted fit's, less its weighted last-gap terms, plus
    // the returns' (1 − q) and each last gap's q + (1 − q) S(c).
    var mixture = fitted.logLikelihood + Double(returns) * log(1 - q)
    for (sample, w) in zip(last, weights) {
      let s = survival(fitted, sample.seconds)
      mixture += log(q + (1 - q) * s) - w * log(s)
    }
    return (q, fitted, mixture)
  }
}
