import Simulation

extension BenchRun {
  /// The shared trunk's figures (issue #19), printed beside the engine's: its speedup over
  /// `--no-shared-trunk` (same work, one thread), the share of users whose life forked, the
  /// mean fork point as a share of the horizon, the branch simulations per forked user (one
  /// per group of policies that answered alike), and user-policy lives simulated per second.
  mutating func trunkHeadlines(_ result: EngineBench.Result, bench: EngineBench, days: Double) {
    let trunk = result.trunk
    let forkedShare = trunk.users > 0 ? Double(trunk.forked) / Double(trunk.users) : 0
    let horizon = days * 86_400
    let meanFork =
      trunk.forked > 0 ? Double(trunk.forkMilliseconds) / 1000 / Double(trunk.forked) / horizon : 0
    let lives = Double(bench.users * bench.replications * bench.policies.count)
    let sharedSeconds = Measure.median(result.jobs1.map(\.seconds))
    let unsharedSeconds = Measure.median(result.unshared.map(\.seconds))
    headline("shared_trunk_speedup", Format.significant(result.sharedTrunkSpeedup))
    headline("users_forked_share", Format.significant(forkedShare))
    headline("mean_fork_point_share_of_horizon", Format.significant(meanFork))
    headline("user_policy_lives_per_second_jobs1", Format.count(lives / sharedSeconds))
    headline(
      "user_policy_lives_per_second_jobs1_no_shared_trunk", Format.count(lives / unsharedSeconds))
    // Branches simulated per forked user: the policy count without groups, fewer with them.
    headline(
      "branch_simulations_per_forked_user",
      Format.significant(trunk.forked > 0 ? Double(trunk.branches) / Double(trunk.forked) : 0))
    // Of the draws the groups after a forked user's first made, the share taken from the first
    // group's tape (exact: the same state and parameters) instead of drawn by GSL.
    let taped = trunk.drawsReplayed + trunk.drawsMissed
    headline(
      "branch_draws_replayed_share",
      Format.significant(taped > 0 ? Double(trunk.drawsReplayed) / Double(taped) : 0))
    headline(
      "events_simulated_share",
      Format.significant(
        Double(trunk.trunkEvents + trunk.branchEvents) / Double(max(1, result.events))))
    table.add([
      "shared trunk: users forked, mean fork point",
      "\(Format.fixed(forkedShare * 100, 1))%, \(Format.fixed(meanFork * 100, 1))% of horizon", "",
      "",
    ])
  }
}
