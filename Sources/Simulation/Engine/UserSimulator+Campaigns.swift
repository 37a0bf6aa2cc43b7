import MessageDeferral

extension UserSimulator {
  /// Whether the user is in `audience` (``Audience``).
  func isInAudience(_ audience: Audience) -> Bool {
    switch audience {
    case .subscribers: life.profile.subscriber
    case .lapsed: life.profile.lapsed
    case .all: true
    }
  }

  /// Issues the fixed-time campaigns (``MessageCampaign``) to this user, from the App Store
  /// stream: a message at start + U · window to a chosen share of each campaign's audience,
  /// if the account exists by then and it falls within the horizon.
  mutating func issueCampaigns(accountStart: Double) {
    let horizon = world.scenario.horizon
    for (index, campaign) in world.scenario.messages.campaigns.enumerated() {
      guard isInAudience(campaign.audience) else { continue }
      let chosen = appStore.bernoulli(campaign.audienceShare)
      let offset = campaign.rolloutWindow > 0 ? appStore.uniform() * campaign.rolloutWindow : 0
      let expiry = world.campaignExpiry[index]?.draw(&appStore) ?? .infinity
      let issuedAt = campaign.start + offset
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
    guard let billing = world.scenario.messages.billingRenewals, life.profile.subscriber else {
      return
    }
    let horizon = world.scenario.horizon
    var renewal = appStore.uniform() * billing.period
    while renewal < horizon {
      if appStore.bernoulli(billing.failureProbability) {
        var resolvedAfter: Double?
        for retry in billing.retryTimes where appStore.bernoulli(billing.retrySuccessProbability) {
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
