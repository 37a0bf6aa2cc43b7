import MessageDeferral

extension UserSimulator {
  /// Whether the user is in `audience` (``Audience``).
  func isInAudience(_ audience: Audience) -> Bool {
    switch audience {
    case .subscribers: profile.subscriber
    case .lapsed: profile.lapsed
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
}
