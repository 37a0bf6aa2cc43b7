import Reports

extension HTMLReport {
  /// The robustness study's page (``HTMLReport/renderRobust(name:scenarioFile:parameterCount:scenario:outcome:)``)
  /// for a plan and the worlds it drew.
  ///
  /// - Precondition: `worlds` is not empty (a study draws at least ``RobustPlan/worldBounds``'s
  ///   lower bound).
  public static func renderRobust(
    name: String, plan: RobustPlan, worlds: [RobustWorld], outcome: RobustOutcome
  ) -> String {
    renderRobust(
      name: name, scenarioFile: plan.scenarioFile, parameterCount: plan.parameters.count,
      scenario: worlds[0].scenario, outcome: outcome)
  }
}
