extension Decision {
  /// At most this many "indistinguishable" pairs are spelled out; the rest are counted.
  static let pairLimit = 4

  /// The Pareto front on onboarding interruptions against consent deadlines missed, in words.
  ///
  /// The front is taken on the means; a policy is said to beat another only where the paired
  /// 95% intervals show it lower on both metrics (or identical on one and lower on the
  /// other), and pairs the intervals cannot separate on either metric are called
  /// indistinguishable, with the largest difference the intervals allow.
  public static func frontSentences(_ report: RunReport) -> [String] {
    let metrics = frontMetrics.map(\.index)
    let names = report.result.policies.map(\.name)
    let front = frontIndices(report)
    let label = "Pareto front (onboarding interruptions vs consent deadlines missed)"
    guard !front.isEmpty else {
      return [
        "\(label): not enough data (no onboarding run or no consent deadline in the horizon)."
      ]
    }
    let withData = names.indices.filter { policy in
      metrics.allSatisfy { report.interval(policy: policy, metric: $0) != nil }
    }
    let others = withData.filter { !front.contains($0) }
    var sentences: [String] = []
    if front.count == 1 {
      let leader = front[0]
      let shown = others.filter { report.shownDominating(leader, $0, metrics: metrics) }
      let unshown = others.filter { !shown.contains($0) }
      if !others.isEmpty && unshown.isEmpty {
        sentences.append(
          "\(label): \(names[leader]) beats every other policy on both (paired 95% intervals).")
      } else {
        var sentence = "\(label): \(names[leader]) alone, with the lowest means on both"
        if !shown.isEmpty {
          sentence +=
            "; paired 95% intervals show it better on both than \(list(shown.map { names[$0] }))"
        }
        if !unshown.isEmpty {
          sentence += "; they do not show it better on both than \(list(unshown.map { names[$0] }))"
        }
        sentences.append(sentence + ".")
      }
    } else {
      sentences.append(
        "\(label): \(list(front.map { names[$0] })); no other policy has lower means on both.")
    }
    var pairs: [String] = []
    for a in front {
      for b in withData where b != a && (!front.contains(b) || b > a) {
        if let text = indistinguishable(report, a, b, metrics: metrics, names: names) {
          pairs.append(text)
        }
      }
    }
    sentences += pairs.prefix(pairLimit)
    if pairs.count > pairLimit {
      sentences.append("\(pairs.count - pairLimit) more pairs are indistinguishable here.")
    }
    return sentences
  }

  /// Why the recommendation (value basis) is not on the front, when it is not: the front
  /// counts two outcomes, the value weighs every priced one.
  public static func offFrontSentence(_ report: RunReport, decision: Decision) -> String? {
    guard let model = report.scenario.value else { return nil }
    guard let best = decision.rows.first(where: { $0.rank == 1 })?.policy,
      let index = report.result.policies.firstIndex(where: { $0.name == best }),
      case let front = frontIndices(report), !front.isEmpty, !front.contains(index)
    else { return nil }
    let responses = report.scenario.responses != nil
    let weighed = [
      (model.onboardingCompleted, "completed onboardings"),
      responses
        ? (model.renewalLostAmount, "renewals lost (declined or not agreed by the deadline)")
        : (model.consentDeadlineMissed, "consent deadlines missed"),
      (model.billingIssueUnresolved, "unresolved billing issues"),
      (model.checkoutInterrupted, "interrupted checkouts"),
      (model.immersiveInterrupted, "sheets over immersive screens"),
      (responses ? model.winBackRedeemed : 0, "win-backs redeemed"),
    ].filter { $0.0 > 0 }.map(\.1)
    return "\(best) is recommended on value but is not on the front: the front compares only "
      + "onboarding interruptions and consent deadlines missed, while value weighs "
      + "\(list(weighed)) at the amounts of the scenario's value section."
  }

  /// "a and b: indistinguishable here, ..." when neither front metric separates them.
  static func indistinguishable(
    _ report: RunReport, _ a: Int, _ b: Int, metrics: [Int], names: [String]
  ) -> String? {
    let orders = metrics.map { report.pairedOrder(a, b, metric: $0) }
    var within: [Double] = []
    for order in orders {
      switch order {
      case .identical: within.append(0)
      case .notSeparated(let distance): within.append(distance)
      default: return nil
      }
    }
    let pair = "\(names[a]) and \(names[b]): indistinguishable here"
    if within.allSatisfy({ $0 == 0 }) { return pair + ", identical on both in every replication." }
    func points(_ value: Double) -> String {
      value * 100 < 0.005
        ? "±0.01 points"
        : "±" + TerminalTable.fixed(value * 100, value * 100 < 1 ? 2 : 1) + " points"
    }
    return pair + ", differences within \(points(within[0])) of onboarding interruptions and "
      + "\(points(within[1])) of consent deadlines missed."
  }
}
