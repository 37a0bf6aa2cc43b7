import MessageDeferral

extension HTMLReport {
  /// Column headings for the headline metrics, in plain words.
  static let headings: [MetricID: String] = [
    .onboardingInterruptionRate: "Onboarding runs interrupted",
    .consentLatencyP50: "Consent latency, median",
    .consentLatencyP99: "Consent latency, p99",
    .consentDeadlineMissRate: "Consent deadlines missed",
    .fallbackFiredPer1kUsers: "Fallbacks per 1,000 users",
    .messagesPendingAtEnd: "Messages pending at the end",
    .checkoutInterruptionRate: "Checkout visits interrupted",
    .immersiveInterruptionRate: "Immersive visits interrupted",
    .valueBillingPer1kUsers: "Value of billing issues per 1,000 users",
  ]

  /// The headline table: ``Metric/headline`` per policy, the best mean in each column marked
  /// (as in the terminal table), the baseline row labelled.
  static func headlineSection(_ data: _ReportData) -> String {
    let metrics = Metric.headline(for: data.report).filter { $0 != .valuePer1kUsers }
    var best: [MetricID: Double] = [:]
    for name in metrics {
      let means = data.names.indices.compactMap { data.interval($0, name)?.mean }
      let lowerIsBetter = name.metric.lowerIsBetter
      if let extreme = lowerIsBetter ? means.min() : means.max() { best[name] = extreme }
    }
    var html = "<section class=\"panel\" id=\"headline\">\n<h2>Headline metrics</h2>\n"
    html += "<div class=\"table-wrap\"><table class=\"headline\">\n<thead><tr><th scope=\"col\">"
    html += "Policy</th>"
    for name in metrics {
      html += "<th scope=\"col\" title=\"\(Chart.escape(name.name)) in summary.csv\">"
      html += "\(Chart.escape(headings[name] ?? name.name))</th>"
    }
    html += "</tr></thead>\n<tbody>\n"
    for (policy, name) in data.names.enumerated() {
      let isBaseline = policy == data.baseline
      html += "<tr\(isBaseline ? " class=\"baseline\"" : "")><th scope=\"row\">"
      html +=
        "<span class=\"swatch \(data.styles[policy].classes)\" aria-hidden=\"true\">"
        + "\(data.styles[policy].marker.glyph)</span>"
      html += Chart.escape(name)
      if isBaseline { html += " <span class=\"tag\">baseline</span>" }
      html += "</th>"
      for metric in metrics {
        guard let interval = data.interval(policy, metric) else {
          html += "<td class=\"empty\" title=\"no data\">—</td>"
          continue
        }
        let text = valueText(interval, unit: metric.metric.unit)
        let isBest = best[metric] == interval.mean
        html += isBest ? "<td class=\"best\">" : "<td>"
        html += "<span class=\"mean\">\(isBest ? "★ " : "")\(text.mean)</span>"
        html += "<span class=\"ci\">\(text.range)</span></td>"
      }
      html += "</tr>\n"
    }
    html += "</tbody>\n</table></div>\n"
    html += "<p class=\"note\">★ best in column (ties all marked). Brackets: 95% interval over "
    html += "\(data.replications) replications, clipped to the possible range. — : no data "
    html += "(for example no consent message displayed).</p>\n</section>"
    return html
  }

  /// "In short": a few sentences generated from the numbers.
  static func summarySection(_ data: _ReportData) -> String {
    let sentences = summarySentences(data)
    guard !sentences.isEmpty else { return "" }
    return "<section class=\"panel summary\" id=\"summary\">\n<h2>In short</h2>\n<p>"
      + sentences.joined(separator: " ") + "</p>\n</section>"
  }

  /// The summary's sentences, as HTML (names escaped, policy names in `<strong>`).
  static func summarySentences(_ data: _ReportData) -> [String] {
    let onboarding = MetricID.onboardingInterruptionRate
    let hold = MetricID.consentHoldP99
    let miss = MetricID.consentDeadlineMissRate
    func name(_ policy: Int) -> String { "<strong>\(Chart.escape(data.names[policy]))</strong>" }
    func value(_ policy: Int, _ metric: MetricID) -> String? {
      data.interval(policy, metric).map {
        "<span class=\"value\">\(inlineValue($0, unit: metric.metric.unit))</span>"
      }
    }
    var sentences: [String] = []
    let front = data.paretoFront(x: onboarding, y: miss)
    // The policy to talk about: on the front, fewest onboarding interruptions, not the baseline.
    // (When the baseline is alone on the front, compare it with the best of the others.)
    let others = front.filter { $0 != data.baseline }
    let candidates = (others.isEmpty ? Array(data.names.indices) : others).filter {
      $0 != data.baseline && data.interval($0, onboarding) != nil
    }
    // With a value section, the recommended policy (unless it is the baseline).
    let decision = Decision(data.report)
    let recommended =
      decision.basis == .value
      ? decision.rows.first.flatMap { data.names.firstIndex(of: $0.policy) }
      : nil
    let fallback = candidates.min { a, b in
      let left = data.interval(a, onboarding)!.mean
      let right = data.interval(b, onboarding)!.mean
      if left != right { return left < right }
      return (data.interval(a, miss)?.mean ?? .infinity)
        < (data.interval(b, miss)?.mean ?? .infinity)
    }
    let focus = recommended.flatMap { $0 == data.baseline ? nil : $0 } ?? fallback
    if let focus, let base = data.baseline, let focusRate = value(focus, onboarding),
      let baseRate = value(base, onboarding)
    {
      var sentence =
        "\(name(focus)) interrupts onboarding in \(focusRate) of runs against "
        + "\(baseRate) for \(name(base))"
      if let focusHold = value(focus, hold), let baseHold = value(base, hold) {
        sentence +=
          ", with a 99th-percentile consent hold (the wait the policy adds) of \(focusHold) "
          + "against \(baseHold)"
      }
      sentences.append(sentence + ".")
      if let difference = data.paired(focus, onboarding), difference.count > 1 {
        let points = { (value: Double) in Chart.fixed(value * 100, 1) }
        let shown = [difference.mean, difference.low, difference.high].map(points)
        if shown.allSatisfy({ $0 == "0.0" || $0 == "-0.0" }) {
          sentences.append(
            "On the same users: no difference (under 0.05 percentage points either way).")
        } else if difference.high < 0 || difference.low > 0 {
          sentences.append(
            "On the same users the difference is \(points(difference.mean)) percentage points "
              + "[\(points(difference.low)), \(points(difference.high))], clear of zero.")
        } else {
          sentences.append(
            "On the same users the difference, \(points(difference.mean)) percentage points "
              + "[\(points(difference.low)), \(points(difference.high))], is within the noise "
              + "of \(data.replications) replications.")
        }
      }
      if let focusMiss = value(focus, miss), let baseMiss = value(base, miss) {
        sentences.append(
          "It misses the consent deadline for \(focusMiss) of consent messages due within the "
            + "horizon (\(Chart.escape(data.names[base])): \(baseMiss)).")
      }
    }
    sentences += Decision.frontSentences(data.report).map(Chart.escape)
    let silent = data.names.indices.filter {
      data.pooled[$0].issued[.priceIncreaseConsent] > 0
        && data.pooled[$0].displayed[.priceIncreaseConsent] == 0
    }
    for policy in silent {
      var sentence = "\(name(policy)) displayed no consent message"
      if let missed = value(policy, miss) { sentence += " and misses \(missed) of deadlines" }
      sentences.append(sentence + ".")
    }
    let fallbacks = data.names.indices.compactMap { policy -> (Int, Double)? in
      guard let mean = data.interval(policy, .fallbackFiredPer1kUsers)?.mean, mean > 0 else {
        return nil
      }
      return (policy, mean)
    }
    if let most = fallbacks.max(by: { $0.1 < $1.1 }) {
      sentences.append(
        "Fallbacks (messages forced after waiting past a ceiling) fire most under "
          + "\(name(most.0)): \(Chart.number(most.1)) per 1,000 users.")
    }
    return sentences
  }
}
