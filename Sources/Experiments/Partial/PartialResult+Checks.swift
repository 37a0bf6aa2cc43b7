import Reports
import Simulation

extension PartialResult: MergeablePartial {
  public static let kind = "run"

  public func check(path: String) throws(PartialError) {
    func fail(_ field: String, _ what: String) -> PartialError {
      PartialError(message: "\(path): $.\(field): \(what)")
    }
    let rewrite = Self.rewrite
    try checkCoverage(path: path)
    guard ScenarioFields.seed(digits: seed) != nil else {
      throw fail("seed", "'\(seed)' is not a seed (digits, below 2^64); \(rewrite)")
    }
    guard ScenarioLoader.userBounds.contains(users),
      ScenarioLoader.replicationBounds.contains(replications), blockSize >= 1, events >= 0
    else {
      throw fail(
        "users",
        "users \(users), replications \(replications), block size \(blockSize) or "
          + "events \(events) out of range; \(rewrite)")
    }
    guard !policies.isEmpty, Set(policies).count == policies.count, policies.contains(baseline)
    else {
      throw fail("policies", "policy names must be unique and include the baseline; \(rewrite)")
    }
    guard SHA256.hex(Array(scenarioSource.utf8)) == scenarioSHA256 else {
      throw fail(
        "scenario_sha256",
        "is not the SHA-256 of $.scenario_source (an edited scenario?); "
          + rewrite)
    }
    try PartialResult.checkTallies(
      tallies, replications: replications, policies: policies.count, events: events, path: path,
      at: "$.tallies")
    guard (try? PartialFile.contentDigest(self)) == contentSHA256 else {
      throw fail(
        "content_sha256",
        "does not match the file's content: it was edited after it was "
          + "written (a count, a name, the shards?); \(rewrite)")
    }
  }

  /// Checks that `tallies` is `replications` × `policies`, every tally of one shape, every one
  /// free of ``Tally/problem()``, and that their events add up to `events`.
  static func checkTallies(
    _ tallies: [[Tally]], replications: Int, policies: Int, events: Int, path: String,
    at prefix: String
  ) throws(PartialError) {
    guard PartialFile.hasShape(tallies, replications: replications, policies: policies) else {
      throw PartialError(
        message: "\(path): \(prefix): not \(replications) replication(s) × \(policies) "
          + "policies of tallies for one scenario (an edited or truncated file?); write it "
          + "again with the same command")
    }
    var total = 0
    for (replication, row) in tallies.enumerated() {
      for (policy, tally) in row.enumerated() {
        if let problem = tally.problem() {
          throw PartialError(
            message: "\(path): \(prefix)[\(replication)][\(policy)].\(problem.field): "
              + "\(problem.message) (an edited file?); write it again with the same command")
        }
        total = total.addingReportingOverflow(tally.events).partialValue
      }
    }
    guard total == events else {
      throw PartialError(
        message: "\(path): \(prefix): the tallies hold \(total) events, not the \(events) the "
          + "file says (an edited file?); write it again with the same command")
    }
  }

  public func disagreement(with first: PartialResult) -> String? {
    let checks: [(ok: Bool, what: String)] = [
      (toolVersion == first.toolVersion, "tool version \(toolVersion) vs \(first.toolVersion)"),
      (scenarioSHA256 == first.scenarioSHA256, "a different scenario (SHA-256 differs)"),
      (seed == first.seed, "seed \(seed) vs \(first.seed)"),
      (users == first.users, "users \(users) vs \(first.users)"),
      (
        replications == first.replications,
        "replications \(replications) vs \(first.replications)"
      ),
      (policies == first.policies && baseline == first.baseline, "different policies"),
      (blockSize == first.blockSize, "block size \(blockSize) vs \(first.blockSize)"),
      (shards == first.shards, "\(shards) shards vs \(first.shards)"),
      (
        tallies[0][0].screenVisits.count == first.tallies[0][0].screenVisits.count,
        "tallies of a different scenario"
      ),
    ]
    return checks.first { !$0.ok }?.what
  }

  public mutating func addTallies(
    _ other: PartialResult
  ) -> (tally: String, problem: Tally.Problem)? {
    PartialFile.add(other.tallies, to: &tallies, at: "$.tallies")
  }

  public func checkComplete(path: String) throws(PartialError) {
    try PartialFile.checkWhole(tallies, users: users, path: path, at: "$.tallies")
  }
}

extension PartialFile {
  /// Whether `tallies` is `replications` × `policies`, every tally of one scenario's shape.
  static func hasShape(_ tallies: [[Tally]], replications: Int, policies: Int) -> Bool {
    guard tallies.count == replications, let screens = tallies.first?.first?.screenVisits.count
    else { return false }
    return tallies.allSatisfy { row in
      row.count == policies && row.allSatisfy { $0.hasShape(screens: screens) }
    }
  }

  /// Adds `other[replication][policy]` into `tallies` (the same shape), checked.
  static func add(
    _ other: [[Tally]], to tallies: inout [[Tally]], at prefix: String
  ) -> (tally: String, problem: Tally.Problem)? {
    for replication in tallies.indices {
      for policy in tallies[replication].indices {
        if let problem = tallies[replication][policy].mergeChecked(other[replication][policy]) {
          return ("\(prefix)[\(replication)][\(policy)]", problem)
        }
      }
    }
    return nil
  }

  /// Checks a whole run's (or sweep point's) tallies: every tally counts `users` users (when
  /// given), and each policy's tallies add up over the replications (as the reports add them)
  /// without overflow.
  static func checkWhole(
    _ tallies: [[Tally]], users: Int?, path: String, at prefix: String
  ) throws(PartialError) {
    for policy in tallies[0].indices {
      var pooled = Tally(screenCount: tallies[0][policy].screenVisits.count)
      for (replication, row) in tallies.enumerated() {
        let at = "\(prefix)[\(replication)][\(policy)]"
        if let users, row[policy].users != users {
          throw PartialError(
            message: "\(path): \(at).users: the merged shards simulated \(row[policy].users) "
              + "users, not \(users) (a partial of other shards?); write the shards again")
        }
        if let problem = pooled.mergeChecked(row[policy]) {
          throw PartialError(
            message: "\(path): \(at).\(problem.field): over all replications, \(problem.message)")
        }
      }
    }
  }
}
