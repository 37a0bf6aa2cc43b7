import MessageDeferral
import Simulation

extension Metric {
  /// The value metrics, from the scenario's `value` section (``ValueModel``), per 1000 users
  /// in the section's unit: the total and its parts (worth positive, costs negative). No data
  /// (empty in the CSVs) when the scenario has no `value` section. This is the total.
  static func valueTotal(_ id: MetricID) -> Metric {
    Metric(
      id: id, name: "value_per_1k_users",
      definition: "what the outcomes are worth per 1000 users: the sum of the "
        + "value_*_per_1k_users parts below", unit: .valuePer1kUsers,
      lowerIsBetter: false
    ) { tally, scenario in
      scenario.value.map { model in
        parts(tally, scenario, model).reduce(0, +)
      }
    }
  }

  static func valuePart(
    _ id: MetricID, _ name: String, _ definition: String, index: Int,
    needsResponses: Bool = false
  ) -> Metric {
    Metric(
      id: id, name: name, definition: definition, unit: .valuePer1kUsers,
      lowerIsBetter: false,
      value: { tally, scenario in
        scenario.value.map { parts(tally, scenario, $0)[index] }
      }, needsResponses: needsResponses)
  }

  /// Visits to the scenario's screens of `kind` with a sheet over them, in one tally.
  static func interruptedVisits(_ tally: Tally, _ scenario: Scenario, kind: ScreenKind) -> Int {
    var total = 0
    for (index, screen) in scenario.screens.enumerated() where screen.kind == kind {
      total += tally.screenInterrupted[index]
    }
    return total
  }

  /// The six parts of the value per 1000 users (onboarding, consent, billing, checkout,
  /// immersive, win-back); 0 for a replication without users.
  ///
  /// Without a response model (``Scenario/responses``), consent is priced by deadlines missed,
  /// billing by messages still pending, and win-backs are worth nothing (no redemption is
  /// drawn). With one, consent is priced by renewals lost (declined, or not agreed by the
  /// deadline) at ``ValueModel/renewalLostAmount``, billing by issues not recovered, and each
  /// win-back redeemed is worth ``ValueModel/winBackRedeemed``.
  static func parts(_ tally: Tally, _ scenario: Scenario, _ model: ValueModel) -> [Double] {
    guard tally.users > 0 else { return [0, 0, 0, 0, 0, 0] }
    let checkout = interruptedVisits(tally, scenario, kind: .checkout)
    let immersive = interruptedVisits(tally, scenario, kind: .immersive)
    let scale = 1000 / Double(tally.users)
    let consent: Double
    let billing: Double
    let winBack: Double
    if scenario.responses != nil {
      consent =
        -model.renewalLostAmount * Double(tally.consentDeadlinesDue - tally.consentKept) * scale
      billing =
        -model.billingIssueUnresolved * Double(tally.issued[.billingIssue] - tally.billingRecovered)
        * scale
      winBack = model.winBackRedeemed * Double(tally.winBackRedeemed) * scale
    } else {
      consent = -model.consentDeadlineMissed * Double(tally.consentDeadlineMisses) * scale
      billing = -model.billingIssueUnresolved * Double(tally.pending[.billingIssue]) * scale
      winBack = 0
    }
    return [
      model.onboardingCompleted * Double(tally.newUsersCompleted) * scale, consent, billing,
      -model.checkoutInterrupted * Double(checkout) * scale,
      -model.immersiveInterrupted * Double(immersive) * scale, winBack,
    ]
  }
}
