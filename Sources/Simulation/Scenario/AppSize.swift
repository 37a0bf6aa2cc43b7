/// The app's own size (the optional `app` section of a scenario, scenarios/README.md, "The
/// app's size"): how many users and subscribers it has over a period, so that paired
/// differences can also be said as counts for this app ("18 more lapsed renewals over 30
/// days") instead of rates per 1000 simulated users.
///
/// A simulated user stands for `users / scenario.users` of the app's users. Counts of what
/// happens to subscribers (lapsed renewals, unresolved billing issues) are scaled by
/// `subscribers` when it is given, through the scenario's own share of subscribers among its
/// users (``Population/simulatedSubscriberShare``); the other counts by `users`. With only
/// one of the two, the other follows from that share. Counts are for `period` (default: the
/// scenario's horizon); a period other than the horizon scales them linearly, which assumes
/// the horizon is typical of the app's weeks.
public struct AppSize: Sendable, Equatable {
  /// The app's active users over the period (monthly active users for 30 days), if given.
  public var users: Double?
  /// The app's paying subscribers, if given.
  public var subscribers: Double?
  /// The period the counts are for, in seconds; `nil`: the scenario's horizon.
  public var period: Double?

  public init(users: Double? = nil, subscribers: Double? = nil, period: Double? = nil) {
    self.users = users
    self.subscribers = subscribers
    self.period = period
  }
}

extension Population {
  /// The share of simulated users who are subscribers: existing users × `subscriber_share`
  /// plus new installs × `returning_subscriber_share`.
  public var simulatedSubscriberShare: Double {
    (1 - newUserShare) * subscriberShare + newUserShare * returningSubscriberShare
  }
}

extension Scenario {
  /// How many of the app's users (`forSubscribers`: counted among subscribers) one simulated
  /// user per period stands for, given ``app``: `nil` without an `app` section (or when a
  /// subscriber count cannot be scaled because the scenario has no subscribers).
  public func appUsersPerSimulatedUser(forSubscribers: Bool) -> Double? {
    guard let app else { return nil }
    let share = population.simulatedSubscriberShare
    let appUsers: Double?
    if forSubscribers, let subscribers = app.subscribers {
      appUsers = share > 0 ? subscribers / share : nil
    } else if let users = app.users {
      appUsers = users
    } else if let subscribers = app.subscribers, share > 0 {
      appUsers = subscribers / share
    } else {
      appUsers = nil
    }
    return appUsers.map { $0 * (app.period ?? horizon) / horizon }
  }

  /// The period counts are for, in seconds.
  public var appPeriod: Double { app?.period ?? horizon }
}

extension _ScenarioDecoder {
  /// The optional `app` section: `users` and `subscribers` (numbers > 0, at least one) and
  /// `period` (a duration).
  mutating func readAppSize(_ node: JSONNode, at path: String) -> AppSize? {
    let keys: [_Key] = [.optional("users"), .optional("subscribers"), .optional("period")]
    guard let object = readObject(node, at: path, keys: keys, what: "the app's own size")
    else { return nil }
    var size = AppSize()
    var valid = true
    for key in ["users", "subscribers"] {
      guard let entry = object[key] else { continue }
      guard case .number(let number, _) = entry.value, number > 0, number.isFinite,
        number <= 1e12
      else {
        report(
          object.path(key), entry,
          "must be a number above 0 (how many the app has), got \(Self.shown(entry)); "
            + "for example 40000")
        valid = false
        continue
      }
      if key == "users" { size.users = number } else { size.subscribers = number }
    }
    if let entry = object["period"] {
      if let seconds = readDuration(entry, at: object.path("period"), minimum: .positive) {
        size.period = seconds
      } else {
        valid = false
      }
    }
    if valid, size.users == nil, size.subscribers == nil {
      report(
        path, node,
        "gives neither 'users' nor 'subscribers'; give at least one, for example "
          + "{\"users\": 40000, \"subscribers\": 6000}")
      valid = false
    }
    return valid ? size : nil
  }
}
