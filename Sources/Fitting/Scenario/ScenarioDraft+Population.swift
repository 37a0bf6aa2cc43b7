import CGSL
import MessageDeferral
import Simulation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension _ScenarioDraft {
  /// Users, sessions and onboarding: estimated where the log shows them, else defaults.
  mutating func fitPopulation() {
    let template = defaultScenario
    let users = observations.users
    let newShare = users > 0 ? Double(observations.newUsers) / Double(users) : 0
    estimates.append(
      (
        "new-user share", Self.number(newShare),
        "\(ScenarioFit.share(observations.newUsers, users)) users are new (rule: "
          + "\(map.newUsers.rawValue))"
      ))
    var window = "{\"start\": \"0s\", \"end\": \(Self.duration(horizon))}"
    if let seen = observations.newUserFirstSeen {
      // Inside the horizon whatever the map's window: a window far wider than the log must
      // not make an install window past the horizon (or of 1e303 days).
      let start = min(max(0, seen.lowerBound - windowStart), max(0, horizon - 1))
      let end = min(horizon, max(seen.upperBound - windowStart, start + 1))
      let weights = installWeights(start: start, end: end)
      window =
        "{\"start\": \(Self.duration(start)), \"end\": \(Self.duration(end))"
        + (weights.map { ", \"weights\": [\($0.map(Self.number).joined(separator: ", "))]" } ?? "")
        + "}"
      estimates.append(
        (
          "install window", "\(Self.number(start)) s to \(Self.number(end)) s",
          "first and last new user's first event"
        ))
    }
    func shareOrDefault(
      _ counts: (yes: Int, known: Int), _ fallback: Double, _ what: String
    ) -> String {
      if counts.known > 0 {
        let value = Double(counts.yes) / Double(counts.known)
        estimates.append((what, Self.number(value), ScenarioFit.share(counts.yes, counts.known)))
        return Self.number(value)
      }
      self.defaults.append(
        "\(what) (\(Self.number(fallback))): the log carries no subscriber status")
      return Self.number(fallback)
    }
    let subscribers = shareOrDefault(
      observations.existingSubscribers, template.population.subscriberShare, "subscriber share")
    let returningSubscribers = shareOrDefault(
      observations.newSubscribers, template.population.returningSubscriberShare,
      "returning-subscriber share of new users")
    var onboarding = ""
    if observations.newUsers > 0 {
      let onboarded = logShowsNoOnboarding ? 0 : observations.newUsersOnboarding
      if onboarded < observations.newUsers {
        let share = Double(onboarded) / Double(observations.newUsers)
        onboarding = ", \"onboarding_share\": \(Self.number(share))"
        estimates.append(
          (
            "onboarding share of new users", Self.number(share),
            logShowsNoOnboarding
              ? "the log shows no onboarding screen: new users open where returning ones do"
              : "\(ScenarioFit.share(onboarded, observations.newUsers)) new users' first screen "
                + "after the splash is an onboarding screen"
          ))
      }
    }
    population =
      "{\"new_user_share\": \(Self.number(newShare)), \"install_window\": \(window), "
      + "\"subscriber_share\": \(subscribers), \"returning_subscriber_share\": "
      + "\(returningSubscribers)\(onboarding)}"

    let churn = fitChurn()
    selectPhaseGaps(churn: churn)
    let gapSpec = gap.chosen?.spec ?? template.sessions.gap
    if gap.chosen == nil {
      self.defaults.append("the gap between sessions: no user came back within the log")
    }
    var termination = template.sessions.backgroundTerminationProbability
    let resumed = observations.coldLaunches + observations.warmResumes
    if launchLogged, resumed > 0 {
      termination = Double(observations.coldLaunches) / Double(resumed)
      estimates.append(
        (
          "background termination probability", Self.number(termination),
          "\(ScenarioFit.share(observations.coldLaunches, resumed)) later sessions began with "
            + "the splash (a cold launch)"
        ))
    } else if let estimate = warmEstimate, estimate.decides {
      termination = 1 - estimate.share
      estimates.append(
        (
          "background termination probability", Self.number(termination),
          "\(ScenarioFit.share(estimate.matches, estimate.pairs)) later sessions opened on the "
            + "previous session's last screen, where chance alone gives "
            + "\(Self.number(estimate.chance * 100))%: warm share \(Self.number(estimate.share)) "
            + "± \(Self.number(estimate.standardError)) (no splash in the log)"
        ))
    } else {
      let why: String
      if let estimate = warmEstimate {
        why =
          estimate.pairs < _WarmEstimate.minimumPairs
          ? "only \(estimate.pairs) later sessions of onboarded users (under "
            + "\(_WarmEstimate.minimumPairs))"
          : estimate.spread < _WarmEstimate.minimumSpread
            ? "nearly every session ends on one screen, so reopening on it says nothing"
            : "the warm share's standard error is \(Self.number(estimate.standardError)) (over "
              + "\(Self.number(_WarmEstimate.maximumError)))"
      } else {
        why = "no user came back after onboarding"
      }
      self.defaults.append(
        "background termination probability (\(Self.number(termination))): the log has no "
          + "splash, and cannot tell warm resumes from cold launches: \(why)")
      warnings.append(
        "background termination probability left at \(Self.number(termination)): without a "
          + "logged splash the log cannot tell warm resumes from cold launches (\(why)); log "
          + "the splash, or set sessions.background_termination_probability by hand")
    }
    sessionsLines = [
      "\"gap\": \(Self.json(gapSpec))",
      "\"background_termination_probability\": \(Self.number(termination))",
      "\"delivery\": \"\(template.sessions.delivery.rawValue)\"",
      "\"fetch_delay\": \(Self.json(template.sessions.fetchDelay))",
    ]
    if let churn {
      sessionsLines.append("\"churn_probability\": \(Self.number(churn))")
    }
    if let rhythmLine { sessionsLines.append(rhythmLine) }
    if let odds = positionOdds {
      sessionsLines.append(
        "\"leave_odds_by_position\": ["
          + odds.factors.map { Self.number($0) }.joined(separator: ", ")
          + "]")
    }

    var neverReturn = template.onboarding.neverReturnAfterLeavingProbability
    let patience = gap.chosen.map { Self.quantile(0.99, of: $0) } ?? 7 * 86_400
    let eligible = observations.onboardingLeaves.items.filter {
      $0.leftAt <= windowEnd - patience
    }
    if eligible.count >= 10 {
      let gone = eligible.filter { !$0.returned }.count
      neverReturn = Double(gone) / Double(eligible.count)
      estimates.append(
        (
          "never return after leaving onboarding", Self.number(neverReturn),
          "\(ScenarioFit.share(gone, eligible.count)) users who left during onboarding at least "
            + "\(Self.durationText(patience)) (the gap's 99th "
            + "percentile) before the log ends never came back"
        ))
    } else {
      self.defaults.append(
        "never-return probability after leaving onboarding (\(Self.number(neverReturn))): "
          + "\(eligible.count) users left onboarding early enough in the window to tell")
    }
    let quit = template.onboarding.quitAfterSheetProbability
    self.defaults.append(
      "quit-after-sheet probability (\(Self.number(quit))): analytics do not see App Store sheets")
    onboardingLine =
      "{\"quit_after_sheet_probability\": \(Self.number(quit)), "
      + "\"never_return_after_leaving_probability\": \(Self.number(neverReturn))}"
  }

  /// The `p` quantile of a fitted distribution (bisection on its CDF in log time).
  static func quantile(_ p: Double, of fitted: FittedDuration) -> Double {
    var low = -10.0
    var high = 25.0
    for _ in 0..<80 {
      let middle = (low + high) / 2
      if fitted.cdf(exp(middle)) < p { low = middle } else { high = middle }
    }
    return exp(high)
  }
}

extension _ScenarioDraft {
  /// The part length `install_window.weights` is fitted on: 30 days.
  static let installPartSeconds = 30.0 * 86_400

  /// `install_window.weights` from the new users' first-seen times: the window [start, end)
  /// (scenario time) cut into n = round(length / 30 days) equal parts, each weighted by its
  /// share of arrivals (the maximum-likelihood piecewise-constant density). Written only when
  /// there are at least 2 parts and a chi-square test of equal shares rejects them at 5%
  /// (df n − 1; every expected count at least 5, else parts are not tested): flat arrivals
  /// keep the plain window, and a small log does not invent a trend.
  mutating func installWeights(start: Double, end: Double) -> [Double]? {
    let arrivals = observations.newUserArrivals.items.map { $0 - windowStart }
    let parts = Int((max(0, end - start) / Self.installPartSeconds).rounded())
    guard parts >= 2, arrivals.count >= 5 * parts else { return nil }
    var counts = [Int](repeating: 0, count: parts)
    let width = (end - start) / Double(parts)
    for time in arrivals {
      let part = min(parts - 1, max(0, Int((time - start) / width)))
      counts[part] += 1
    }
    let expected = Double(arrivals.count) / Double(parts)
    let statistic =
      counts.reduce(0) { $0 + (Double($1) - expected) * (Double($1) - expected) }
      / expected
    let p = gsl_cdf_chisq_Q(statistic, Double(parts - 1))
    let shares = counts.map { Double($0) / Double(arrivals.count) }
    let described = shares.map { Self.number(($0 * 1000).rounded() / 10) + "%" }.joined(
      separator: ", ")
    guard p < 0.05 else {
      estimates.append(
        (
          "install window weights", "none (flat)",
          "new users' first events per 30 days of the window, \(described), do not depart from "
            + "flat (chi-square \(Self.number(statistic)) on \(parts - 1) df, p = "
            + "\(Self.number(p)))"
        ))
      return nil
    }
    estimates.append(
      (
        "install window weights", described,
        "new users' first events per 30 days of the window (chi-square \(Self.number(statistic)) "
          + "on \(parts - 1) df against flat, p = \(Self.number(p)))"
      ))
    return shares.map { ($0 * 1e6).rounded() / 1e6 }
  }
}
