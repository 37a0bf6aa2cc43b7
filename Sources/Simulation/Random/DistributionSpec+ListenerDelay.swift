import MessageDeferral

extension DistributionSpec {
  /// The distribution a policy's listener delay names (the same kinds and parameters).
  public init(_ delay: ListenerDelay) {
    switch delay {
    case .fixed(let seconds): self = .fixed(seconds)
    case .exponential(let mean): self = .exponential(mean: mean)
    case .lognormal(let median, let sigma): self = .lognormal(median: median, sigma: sigma)
    case .uniform(let low, let high): self = .uniform(low: low, high: high)
    }
  }
}
