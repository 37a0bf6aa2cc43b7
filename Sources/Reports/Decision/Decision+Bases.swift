import MessageDeferral
import Simulation

extension Decision {
  /// The front's metrics: onboarding interruptions against consent deadlines missed.
  static let frontMetrics: [MetricID] = [.onboardingInterruptionRate, .consentDeadlineMissRate]

  /// The value basis: rank by mean value per 1000 users, compare each with the best on the
  /// same users, bootstrap the probability of being best.
  static func byValue(
    _ report: RunReport, _ model: ValueModel
  ) -> (
    rows: [Row], sentences: [String]
  ) {
    let metric = MetricID.valuePer1kUsers.index
    let names = report.result.policies.map(\.name)
    let means = names.indices.map { report.interval(policy: $0, metric: metric) }
    let order = names.indices.sorted { a, b in
      let left = means[a]?.mean ?? -.infinity
      let right = means[b]?.mean ?? -.infinity
      return left != right ? left > right : a < b
    }
    let best = order[0]
    let probability = bootstrapBest(report, metric: metric, seed: report.scenario.seed)
    var rows: [Row] = []
    var tied: [Int] = []
    var widest = 0.0
    for (position, policy) in order.enumerated() {
      guard policy != best else {
        rows.append(
          Row(
            policy: names[policy], rank: 1, mean: means[policy], differenceToBest: nil,
            probabilityBest: probability[policy], verdict: .recommended))
        continue
      }
      let difference = report.pairedInterval(policy, best, metric: metric)
      let separated = difference.map { $0.high < 0 || $0.low > 0 } ?? false
      if !separated {
        tied.append(policy)
        if let difference { widest = max(widest, abs(difference.low), abs(difference.high)) }
      }
      rows.append(
        Row(
          policy: names[policy], rank: position + 1, mean: means[policy],
          differenceToBest: difference, probabilityBest: probability[policy],
          verdict: separated ? .worse : .indistinguishable))
    }
    let unit = "\(model.unit) per 1,000 users"
    let replications = report.result.tallies.count
    var sentences: [String] = []
    let bestText = means[best].map { "\(amount($0.mean, unit)) \(bracket($0))" } ?? "no data"
    sentences.append(
      tied.isEmpty
        ? "Recommendation: \(names[best]), the highest expected value: \(bestText)."
        : "Recommendation: \(names[best]) has the highest mean value, \(bestText), but the data "
          + "cannot separate it from \(list(tied.map { names[$0] }))."
    )
    if order.count > 1, let difference = report.pairedInterval(best, order[1], metric: metric) {
      // The runner-up is the next-highest mean, the same rule that names the recommendation.
      let clear = difference.low > 0
      var sentence =
        "Runner-up (the next-highest mean): \(names[order[1]]), "
        + "\(amount(difference.mean, unit)) \(bracket(difference)) below it, paired over "
        + "\(replications) replications on the same users"
      if clear, !tied.isEmpty {
        sentence +=
          ": clearly lower; \(list(tied.map { names[$0] })) \(tied.count == 1 ? "has" : "have") "
          + "lower means but noisier differences, which is why the data cannot rule "
          + "\(tied.count == 1 ? "it" : "them") out"
      } else if !clear {
        sentence += ": not separated"
      }
      sentences.append(sentence + ".")
    }
    let method =
      "share of \(resamples) paired bootstrap resamples of the \(replications) replications in "
      + "which it has the highest mean value"
    if tied.isEmpty {
      sentences.append(
        "Probability \(names[best]) is best: \(percent(probability[best])) (\(method)).")
    } else {
      let group = tied.reduce(probability[best]) { $0 + probability[$1] }
      sentences.append(
        "How often each leads: \(names[best]) has the highest mean in "
          + "\(percent(probability[best])) of resamples, one of "
          + "\(list(([best] + tied).map { names[$0] })) in \(percent(group)) (\(method); ties "
          + "share a resample). That says which is more likely ahead, not that the lead is "
          + "real: the paired interval is the test, and it does not separate them.")
      sentences.append(
        "\(list(([best] + tied).map { names[$0] })): indistinguishable here, "
          + (widest == 0
            ? "identical value in every replication (no difference)."
            : "difference within ±\(amount(widest, unit)); either is a sound choice."))
    }
    // What choosing it is worth: against the baseline, or (when it is the baseline) against
    // the best policy it is shown better than.
    let base = names.firstIndex(of: report.baseline)
    let other =
      base.flatMap { tied.contains($0) || $0 == best ? nil : $0 }
      ?? order.first { $0 != best && !tied.contains($0) }
    if let other {
      let label = other == base ? "the baseline" : "the best separated alternative"
      sentences.append(
        costSentence(report, best: best, other: other, label: label, model: model))
    }
    if let base, base != best, let counts = appSentence(report, best, against: base) {
      sentences.append(counts)
    }
    sentences.append(shippingSentence(names[best], report: report))
    return (rows, sentences)
  }

  /// What the recommendation is worth against `other`, and its parts.
  static func costSentence(
    _ report: RunReport, best: Int, other base: Int, label: String, model: ValueModel
  ) -> String {
    let names = report.result.policies.map(\.name)
    let unit = "\(model.unit) per 1,000 users"
    let total = report.pairedInterval(
      best, base, metric: .valuePer1kUsers)
    let responses = report.scenario.responses != nil
    var parts: [(label: String, metric: MetricID, amount: Double)] = [
      ("onboarding", .valueOnboardingPer1kUsers, model.onboardingCompleted),
      responses
        ? ("renewals", .valueConsentPer1kUsers, model.renewalLostAmount)
        : ("consent deadlines", .valueConsentPer1kUsers, model.consentDeadlineMissed),
      ("billing issues", .valueBillingPer1kUsers, model.billingIssueUnresolved),
      ("checkout", .valueCheckoutPer1kUsers, model.checkoutInterrupted),
      ("immersive screens", .valueImmersivePer1kUsers, model.immersiveInterrupted),
    ]
    if responses { parts.append(("win-backs", .valueWinBackPer1kUsers, model.winBackRedeemed)) }
    let pieces = parts.filter { $0.amount > 0 }.compactMap { part -> String? in
      report.pairedInterval(best, base, metric: part.metric).map {
        "\(part.label) \(amount($0.mean, model.unit, signed: true))"
      }
    }
    guard let total else { return "Against \(label) \(names[base]): no data." }
    return "Against \(label) \(names[base]): \(amount(total.mean, unit, signed: true)) "
      + "\(bracket(total))" + (pieces.isEmpty ? "" : " (\(pieces.joined(separator: ", ")))")
      + "."
  }

  /// The front basis: the policies not dominated on the means of the two front metrics;
  /// dominance claimed only where paired intervals show it.
  static func byFront(_ report: RunReport) -> (rows: [Row], sentences: [String]) {
    let metrics = frontMetrics.map(\.index)
    let names = report.result.policies.map(\.name)
    let front = frontIndices(report)
    var rows: [Row] = []
    for policy in front {
      rows.append(
        Row(
          policy: names[policy], rank: 1, mean: report.interval(policy: policy, metric: metrics[0]),
          differenceToBest: nil, probabilityBest: nil, verdict: .front))
    }
    for policy in names.indices where !front.contains(policy) {
      let hasData = metrics.allSatisfy { report.interval(policy: policy, metric: $0) != nil }
      let dominated = front.contains { report.shownDominating($0, policy, metrics: metrics) }
      rows.append(
        Row(
          policy: names[policy], rank: rows.count + 1,
          mean: report.interval(policy: policy, metric: metrics[0]), differenceToBest: nil,
          probabilityBest: nil,
          verdict: !hasData ? .noData : dominated ? .dominated : .notSeparated))
    }
    var sentences = [
      front.isEmpty
        ? "Recommendation: not enough data (no onboarding run or no consent deadline in the "
          + "horizon); add a `value` section to weigh outcomes (scenarios/README.md, \"Value\")."
        : "Recommendation (no `value` section, so outcomes are not weighed): not dominated on "
          + "onboarding interruptions and consent deadlines missed: "
          + "\(list(front.map { names[$0] })). Add a `value` section to pick one "
          + "(scenarios/README.md, \"Value\")."
    ]
    sentences += frontSentences(report)
    let base = names.firstIndex(of: report.baseline)
    if let first = front.first {
      if let base, base != first, let counts = appSentence(report, first, against: base) {
        sentences.append(counts)
      }
      sentences.append(shippingSentence(names[first], report: report))
    }
    return (rows, sentences)
  }

  /// "In your app's numbers, over 30 days, for your 40,000 users: X against B: 18 [15, 22]
  /// more lapsed renewals; ..." (``AppCounts``), `nil` without an `app` section.
  static func appSentence(_ report: RunReport, _ policy: Int, against base: Int) -> String? {
    guard let audience = AppCounts.audience(report.scenario),
      let counts = AppCounts.sentence(report, policy, against: base)
    else { return nil }
    let names = report.result.policies.map(\.name)
    return "In your app's numbers, \(audience): \(names[policy]) against \(names[base]): "
      + "\(counts) (paired 95% intervals)."
  }

  /// How an app runs `name` (``PolicyCatalog/Shipping``): nothing, an SDK's mode, or this
  /// project's library with the policy file.
  static func shippingSentence(_ name: String, report: RunReport) -> String {
    "To ship \(name): \(shipping(name).summary)"
      + (shipping(name) == .library
        ? "; the run folder's recommended-policy.json is that file" : "")
      + " (README, \"Ship it\"). A setting no preset has may do better for this app: "
      + "deferral-sim tune searches the knobs and writes the winner as a policy file for this "
      + "project's library (README, \"Tune\")."
  }

  /// A preset's way of shipping; a custom policy needs this project's library.
  public static func shipping(_ name: String) -> PolicyCatalog.Shipping {
    PolicyCatalog.preset(named: name)?.shipping ?? .library
  }

  /// Indices of the policies on the front of the two metrics' means, in report order.
  static func frontIndices(_ report: RunReport) -> [Int] {
    report.paretoFront(x: frontMetrics[0], y: frontMetrics[1])
  }
}

extension PolicyCatalog.Shipping {
  /// `decision.csv`'s `ships_as`: `as_is`, `sdk_mode` or `library`.
  public var kind: String {
    switch self {
    case .asIs: "as_is"
    case .sdkMode: "sdk_mode"
    case .library: "library"
    }
  }
}
