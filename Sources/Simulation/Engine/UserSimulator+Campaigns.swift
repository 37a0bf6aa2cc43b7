import MessageDeferral

extension UserSimulator {
  /// Whether the user is in `audience` (``Audience``).
  func isInAudience(_ audience: Audience) -> Bool {
    switch audience {
    case .subscribers: world.profile.subscriber
    case .lapsed: world.profile.lapsed
    case .all: true
    }
  }

  /// Issues the fixed-time campaigns (``MessageCampaign``) to this user, from the App Store
  /// stream: a message at start + U · window to a chosen share of each campaign's audience,
  /// if the account exists by then and it falls within the horizon; with a `local_time`, at
  /// the next such local time of day from there.
  mutating func issueCampaigns(accountStart: Double) {
    let horizon = compiled.scenario.horizon
    for (index, campaign) in compiled.scenario.messages.campaigns.enumerated() {
      guard isInAudience(campaign.audience) else { continue }
      let chosen = streams.appStore.bernoulli(campaign.audienceShare)
      let offset =
        campaign.rolloutWindow > 0 ? streams.appStore.uniform() * campaign.rolloutWindow : 0
      let expiry =
        compiled.campaignExpiry[index]?.draw(&streams.appStore, at: campaign.start + offset)
        ?? .infinity
      var issuedAt = campaign.start + offset
      if let localTime = campaign.localTime {
        issuedAt = RhythmClock.next(
          localTime, atOrAfter: issuedAt, shift: compiled.rhythm?.shift ?? 0)
      }
      if chosen, issuedAt >= accountStart, issuedAt < horizon {
        addMessage(campaign.reason, at: issuedAt, deadline: .infinity, expiry: expiry)
      }
    }
  }

  /// Issues billing issues at failed renewals (``BillingRenewals``) to a subscriber, from the
  /// App Store stream: renewals every period from a uniform phase; a failure issues a message
  /// that expires at the first successful retry, or at the last retry, when the subscription
  /// lapses and renewals stop.
  mutating func issueBillingRenewals(accountStart: Double) {
    guard let billing = compiled.scenario.messages.billingRenewals, world.profile.subscriber else {
      return
    }
    let horizon = compiled.scenario.horizon
    var renewal = streams.appStore.uniform() * billing.period
    while renewal < horizon {
      if streams.appStore.bernoulli(billing.failureProbability) {
        var resolvedAfter: Double?
        for retry in billing.retryTimes
        where streams.appStore.bernoulli(billing.retrySuccessProbability) {
          resolvedAfter = retry
          break
        }
        if renewal >= accountStart {
          let expiry = resolvedAfter ?? billing.retryTimes.last!
          addMessage(.billingIssue, at: renewal, deadline: .infinity, expiry: expiry)
        }
        if resolvedAfter == nil { return }  // lapsed: no more renewals
      }
      renewal += billing.period
    }
  }
}
