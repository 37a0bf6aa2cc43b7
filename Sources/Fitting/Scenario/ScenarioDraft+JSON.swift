import MessageDeferral
import Simulation

extension _ScenarioDraft {
  /// The parts of the embedded default scenario (`indie-subscription`) kept as they are:
  /// the window scene, the sheet dwell, the App Store's messages (the campaign moved inside a
  /// short horizon) and the policies.
  func templateSection(_ key: String) -> String {
    guard let root = try? JSONReader.parse(ScenarioLoader.embeddedDefaultJSON),
      var value = root[key]?.configValue
    else { return "null" }
    if key == "messages", case .object(var members) = value {
      for index in members.indices where members[index].key == "price_increase_consent" {
        var campaign = members[index].value.objectMembers
        for field in campaign.indices {
          let limit = horizon * 0.1
          if campaign[field].key == "campaign_start" || campaign[field].key == "rollout_window",
            case .string(let text) = campaign[field].value,
            let seconds = try? DurationText.seconds(in: text), seconds > limit
          {
            campaign[field].value = .string(Self.durationText(limit))
          }
        }
        members[index].value = .object(campaign)
      }
      value = .object(members)
    }
    return value.jsonText(indentation: "  ")
  }

  /// The whole scenario file.
  mutating func json() -> String {
    defaults.append(
      "the window scene (activation delay, display failures), the sheet dwell, StoreKit's "
        + "delivery and fetch delay, the App Store's messages and the policies: those of the "
        + "embedded indie-subscription scenario (analytics do not see them)")
    let users = min(max(observations.users, 100), 100_000)
    let description =
      "Fitted by deferral-sim fit from \(observations.rows) events (\(observations.screenViews) "
      + "screen views) of \(observations.users) users over \(Self.durationText(horizon)). "
      + "Fitted from the log: screens, transitions, dwells, the gap between sessions, "
      + estimates.map(\.name).joined(separator: ", ") + ". Left at stated defaults: "
      + defaults.joined(separator: "; ") + "."
    var lines: [String] = []
    lines.append("  \"schema\": 1")
    lines.append("  \"name\": \(Self.quoted(map.name))")
    lines.append("  \"description\": \(Self.quoted(description))")
    lines.append("  \"horizon\": \(Self.duration(horizon))")
    lines.append("  \"users\": \(users)")
    lines.append("  \"replications\": 10")
    lines.append("  \"seed\": 42")
    lines.append("  \"population\": \(population)")
    lines.append("  \"sessions\": {\n    " + sessionsLines.joined(separator: ",\n    ") + "\n  }")
    lines.append("  \"screens\": [\n" + screenLines.joined(separator: ",\n") + "\n  ]")
    // Before the entries: the phases' entry tables leave the scenario's own mix.
    let lifecycle = lifecycleLine(keptScreens.included, keptScreens.pooled)
    let mix =
      returningMix.isEmpty
      ? ""
      : ", \"returning_mix\": {"
        + returningMix.map { "\(Self.quoted(map.screens[$0.screen].name)): \($0.probability)" }
        .joined(separator: ", ") + "}"
    lines.append(
      "  \"entries\": {\"cold_launch\": \(Self.quoted(launchName)), "
        + (logShowsNoOnboarding ? "" : "\"new_user\": \(Self.quoted(newUserName)), ")
        + "\"returning\": \(Self.quoted(returningName))\(mix)}")
    if let lifecycle { lines.append(lifecycle) }
    lines.append("  \"onboarding\": \(onboardingLine)")
    for key in ["scene", "sheet_dwell", "messages", "policies", "baseline"] {
      lines.append("  \"\(key)\": \(templateSection(key))")
    }
    return "{\n" + lines.joined(separator: ",\n") + "\n}\n"
  }
}
