import Reports
import Simulation

extension SweepPartial: MergeablePartial {
  public static let kind = "sweep"

  public func check(path: String) throws(PartialError) {
    func fail(_ field: String, _ what: String) -> PartialError {
      PartialError(message: "\(path): $.\(field): \(what)")
    }
    let rewrite = Self.rewrite
    try checkCoverage(path: path)
    guard PartialFile.isValidName(sweepName) else {
      throw fail(
        "sweep_name",
        "'\(sweepName.prefix(80))' is not a name (1 to 64 letters, digits, '_', "
          + "'-' or '.', starting with a letter or digit): it names the output folder "
          + "results/sweep-NAME; \(rewrite)")
    }
    guard blockSize >= 1, events >= 0 else {
      throw fail("block_size", "block size \(blockSize) or events \(events) out of range")
    }
    guard SHA256.hex(Array(sweepSource.utf8)) == sweepSHA256 else {
      throw fail(
        "sweep_sha256", "is not the SHA-256 of $.sweep_source (an edited sweep?); \(rewrite)")
    }
    guard SHA256.hex(Array(scenarioSource.utf8)) == scenarioSHA256 else {
      throw fail(
        "scenario_sha256",
        "is not the SHA-256 of $.scenario_source (an edited scenario?); "
          + rewrite)
    }
    guard !pointPolicies.isEmpty, tallies.count == pointPolicies.count else {
      throw fail(
        "tallies",
        "\(tallies.count) scenario points of tallies for \(pointPolicies.count) "
          + "in $.point_policies; \(rewrite)")
    }
    var total = 0
    for (point, pointTallies) in tallies.enumerated() {
      let replications = pointTallies.count
      let events = pointTallies.reduce(0) { sum, row in
        row.reduce(sum) { $0.addingReportingOverflow($1.events).partialValue }
      }
      try PartialResult.checkTallies(
        pointTallies, replications: replications, policies: pointPolicies[point].count,
        events: events, path: path, at: "$.tallies[\(point)]")
      total = total.addingReportingOverflow(events).partialValue
    }
    guard total == events else {
      throw fail("events", "the tallies hold \(total) events, not \(events); \(rewrite)")
    }
    guard (try? PartialFile.contentDigest(self)) == contentSHA256 else {
      throw fail(
        "content_sha256",
        "does not match the file's content: it was edited after it was "
          + "written (a count, a name, the shards?); \(rewrite)")
    }
  }

  public func disagreement(with first: SweepPartial) -> String? {
    let checks: [(ok: Bool, what: String)] = [
      (format == first.format, "one is a sweep's partial, the other a robustness study's"),
      (toolVersion == first.toolVersion, "tool version \(toolVersion) vs \(first.toolVersion)"),
      (sweepName == first.sweepName, "sweep name '\(sweepName)' vs '\(first.sweepName)'"),
      (sweepSHA256 == first.sweepSHA256, "a different sweep file (SHA-256 differs)"),
      (scenarioSHA256 == first.scenarioSHA256, "a different scenario (SHA-256 differs)"),
      (
        pointPolicies == first.pointPolicies && replications == first.replications
          && zip(tallies, first.tallies).allSatisfy {
            $0[0][0].screenVisits.count == $1[0][0].screenVisits.count
          },
        "different points"
      ),
      (blockSize == first.blockSize, "block size \(blockSize) vs \(first.blockSize)"),
      (shards == first.shards, "\(shards) shards vs \(first.shards)"),
    ]
    return checks.first { !$0.ok }?.what
  }

  public mutating func addTallies(_ other: SweepPartial) -> (tally: String, problem: Tally.Problem)?
  {
    for point in tallies.indices {
      if let failure = PartialFile.add(
        other.tallies[point], to: &tallies[point], at: "$.tallies[\(point)]")
      {
        return failure
      }
    }
    return nil
  }

  public func checkComplete(path: String) throws(PartialError) {
    for (point, pointTallies) in tallies.enumerated() {
      try PartialFile.checkWhole(pointTallies, users: nil, path: path, at: "$.tallies[\(point)]")
    }
  }
}
