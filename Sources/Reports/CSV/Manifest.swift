import Foundation
import MessageDeferral
import Simulation

/// `manifest.json`: what produced a run or sweep folder, so it can be reproduced and audited.
///
/// A sweep's adds `sweep` (the sweep file's name), `sweep_sha256` (of its text) and `points`
/// (how many point and policy combinations it ran); its `users`, `replications`, `seed` and
/// `policies` are those of its first scenario point (a grid can vary them).
public struct Manifest: Sendable {
  public var toolVersion: String
  public var commandLine: [String]
  public var scenarioName: String
  public var scenarioSHA256: String
  public var seed: UInt64
  public var users: Int
  public var replications: Int
  public var jobs: Int
  public var policies: [String]
  public var baseline: String
  public var started: Date
  public var finished: Date
  public var events: Int
  /// A sweep's file name, the SHA-256 of its text and its number of points; `nil` for a run.
  public var sweep: (name: String, sha256: String, points: Int)?
  /// What each value-aware policy of the run weighs (``Scenario/pricingNote(for:)``), by
  /// policy name, in run order; written as `value_amounts` when not empty.
  public var valueAmounts: [(policy: String, note: String)] = []

  public init(
    toolVersion: String, commandLine: [String], scenarioName: String, scenarioSHA256: String,
    seed: UInt64, users: Int, replications: Int, jobs: Int, policies: [String], baseline: String,
    started: Date, finished: Date, events: Int
  ) {
    self.toolVersion = toolVersion
    self.commandLine = commandLine
    self.scenarioName = scenarioName
    self.scenarioSHA256 = scenarioSHA256
    self.seed = seed
    self.users = users
    self.replications = replications
    self.jobs = jobs
    self.policies = policies
    self.baseline = baseline
    self.started = started
    self.finished = finished
    self.events = events
  }

  public var wallSeconds: Double { finished.timeIntervalSince(started) }

  /// The manifest as pretty-printed JSON.
  public var json: String {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    let member = ConfigValue.Member.init(key:value:)
    return ConfigValue.object(
      [
        member("tool", .string("deferral-sim")),
        member("version", .string(toolVersion)),
        member("command", .array(commandLine.map { .string($0) })),
        member("scenario", .string(scenarioName)),
        member("scenario_sha256", .string(scenarioSHA256)),
      ] + sweepMembers + [
        member("seed", .string(String(seed))),
        member("users", .number(Double(users))),
        member("replications", .number(Double(replications))),
        member("jobs", .number(Double(jobs))),
        member("policies", .array(policies.map { .string($0) })),
        member("baseline", .string(baseline)),
        member("started", .string(formatter.string(from: started))),
        member("finished", .string(formatter.string(from: finished))),
        member("wall_seconds", .number((wallSeconds * 1000).rounded() / 1000)),
        member("events", .number(Double(events))),
      ] + pricingMembers
    ).jsonText() + "\n"
  }

  private var pricingMembers: [ConfigValue.Member] {
    guard !valueAmounts.isEmpty else { return [] }
    return [
      ConfigValue.Member(
        key: "value_amounts",
        value: .object(
          valueAmounts.map { ConfigValue.Member(key: $0.policy, value: .string($0.note)) }))
    ]
  }

  private var sweepMembers: [ConfigValue.Member] {
    guard let sweep else { return [] }
    return [
      ConfigValue.Member(key: "sweep", value: .string(sweep.name)),
      ConfigValue.Member(key: "sweep_sha256", value: .string(sweep.sha256)),
      ConfigValue.Member(key: "points", value: .number(Double(sweep.points))),
    ]
  }
}
