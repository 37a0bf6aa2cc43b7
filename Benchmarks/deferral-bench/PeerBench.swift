import CGSL
import Foundation
import MessageDeferral
import Reports
import Simulation

/// The SimPy peer (Benchmarks/peers/): the same world from the same scenario file, run by
/// SimPy with its own random numbers. Each repetition runs both sides on the same users count,
/// replications, seed and policies, in alternating order; the repetitions' replications are
/// pooled for the statistical check (each repetition uses its own seed), and the speed ratio
/// is the median over repetitions of SimPy's time ÷ ours (both timed around the simulation
/// only: no interpreter start, no file parsing; ours on one thread, like SimPy).
struct PeerBench {
  var world: CompiledScenario
  var scenarioPath: String
  var policies: [String] = ["storekit-auto", "screen-gate-ceiling"]
  var users: Int
  var replications: Int
  var repetitions: Int
  var runner = "Benchmarks/peers/run.sh"

  /// The reported metrics the peer computes too, under their CSV names.
  static let sharedMetrics: [MetricID] = [
    .onboardingInterruptionRate, .onboardingCompletionRate, .consentLatencyMean,
    .consentLatencyP50, .consentDeadlineMissRate, .fallbackFiredPer1kUsers,
  ]

  /// The metrics both sides report, per replication.
  static let metrics =
    sharedMetrics.map(\.name) + [
      "messages_issued_per_1k_users", "messages_displayed_per_1k_users",
      "messages_pending_per_1k_users", "display_attempts_per_1k_users", "events_per_user",
    ]

  struct Comparison {
    var policy: String
    var metric: String
    var ours: [Double]
    var simpy: [Double]
    var oursInterval: MeanInterval?
    var simpyInterval: MeanInterval?
    var difference: Double
    /// Half-width of the Welch interval of the difference of the two means, at the
    /// family-wise 95% level (Bonferroni over the run's comparisons).
    var halfWidth: Double
    var agrees: Bool
  }

  struct Result {
    var comparisons: [Comparison]
    var oursSeconds: [Double]
    var simpySeconds: [Double]
    var oursEvents: Int
    var simpyEvents: Int
    var speedup: Double
    var simpyVersion: String
    var userRuns: Int
  }

  /// One replication's metrics from our tally, named as the peer names them.
  func metrics(_ tally: Tally) -> [String: Double] {
    var values: [String: Double] = [:]
    for id in Self.sharedMetrics {
      if let value = id.metric.value(tally, world.scenario) { values[id.name] = value }
    }
    let perThousand = 1000 / Double(tally.users)
    values["messages_issued_per_1k_users"] = Double(tally.issued.reduce(0, +)) * perThousand
    values["messages_displayed_per_1k_users"] = Double(tally.displayed.reduce(0, +)) * perThousand
    values["messages_pending_per_1k_users"] = Double(tally.pending.reduce(0, +)) * perThousand
    values["display_attempts_per_1k_users"] = Double(tally.displayAttempts) * perThousand
    values["events_per_user"] = Double(tally.events) / Double(tally.users)
    return values
  }

  func run(log: (String) -> Void) throws -> Result {
    let setup = try ChildProcess.run(executable: "/bin/bash", arguments: [runner, "--setup-only"])
    let simpyVersion = setup.split(separator: " ").dropFirst().first.map(String.init) ?? "?"
    let named = BenchScenario.policies(world.scenario, policies)
    var ours: [String: [String: [Double]]] = [:]
    var theirs: [String: [String: [Double]]] = [:]
    var oursSeconds: [Double] = []
    var simpySeconds: [Double] = []
    var ratios: [Double] = []
    var oursEvents = 0
    var simpyEvents = 0
    for repetition in 0..<repetitions {
      let seed = world.scenario.seed &+ UInt64(repetition)
      var mine = 0.0
      var peer = 0.0
      for side in repetition % 2 == 0 ? [0, 1] : [1, 0] {
        if side == 0 {
          var result: RunResult?
          mine = try Measure.seconds {
            result = try Engine.run(
              world, policies: named,
              options: RunOptions(users: users, replications: replications, seed: seed, jobs: 1))
          }
          oursEvents += result!.events
          for row in result!.tallies {
            for (index, tally) in row.enumerated() {
              for (metric, value) in metrics(tally) {
                ours[named[index].name, default: [:]][metric, default: []].append(value)
              }
            }
          }
        } else {
          let output = try ChildProcess.run(
            executable: "/bin/bash",
            arguments: [
              runner, "--scenario", scenarioPath, "--users", String(users), "--replications",
              String(replications), "--seed", String(seed), "--policies",
              policies.joined(separator: ","),
            ])
          guard
            let document = try JSONSerialization.jsonObject(with: Data(output.utf8))
              as? [String: Any],
            let seconds = document["seconds"] as? Double,
            let events = document["events"] as? Int,
            let byPolicy = document["policies"] as? [String: [[String: Any]]]
          else { throw BenchError("the SimPy peer printed no result: \(output.prefix(500))") }
          peer = seconds
          simpyEvents += events
          for (policy, rows) in byPolicy {
            for row in rows {
              for (metric, value) in row {
                if let number = value as? Double {
                  theirs[policy, default: [:]][metric, default: []].append(number)
                } else if let number = value as? Int {
                  theirs[policy, default: [:]][metric, default: []].append(Double(number))
                }
              }
            }
          }
        }
      }
      oursSeconds.append(mine)
      simpySeconds.append(peer)
      ratios.append(peer / mine)
      log(
        "peer repetition \(repetition + 1)/\(repetitions): ours \(Format.significant(mine)) s, "
          + "SimPy \(Format.significant(peer)) s (\(Format.ratio(peer / mine)))")
    }
    var comparisons: [Comparison] = []
    for policy in policies {
      for metric in Self.metrics {
        let a = ours[policy]?[metric] ?? []
        let b = theirs[policy]?[metric] ?? []
        comparisons.append(
          Self.compare(
            policy: policy, metric: metric, ours: a, simpy: b,
            family: policies.count * Self.metrics.count))
      }
    }
    return Result(
      comparisons: comparisons, oursSeconds: oursSeconds, simpySeconds: simpySeconds,
      oursEvents: oursEvents, simpyEvents: simpyEvents, speedup: Measure.median(ratios),
      simpyVersion: simpyVersion, userRuns: users * replications * policies.count * repetitions)
  }

  /// Welch's comparison of two means: they agree when their difference lies within the
  /// interval t(1 − 0.05 / (2k), ν) · √(s₁²/n₁ + s₂²/n₂), ν by Welch–Satterthwaite, where k is
  /// the `family` of comparisons made in one run (Bonferroni): all k agree with probability at
  /// least 95% when the two models are the same, so one disagreement is a finding, not the
  /// one-in-twenty a 95% level gives each of 22 metrics. Two sides with no spread at all (a
  /// count that is always zero) agree only when equal.
  static func compare(
    policy: String, metric: String, ours: [Double], simpy: [Double], family: Int = 1
  )
    -> Comparison
  {
    func meanAndVariance(_ values: [Double]) -> (Double, Double) {
      let mean = values.reduce(0, +) / Double(values.count)
      let squares = values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) }
      return (mean, values.count > 1 ? squares / Double(values.count - 1) : 0)
    }
    guard ours.count > 1, simpy.count > 1 else {
      return Comparison(
        policy: policy, metric: metric, ours: ours, simpy: simpy,
        oursInterval: MeanInterval(values: ours), simpyInterval: MeanInterval(values: simpy),
        difference: .nan, halfWidth: .nan, agrees: false)
    }
    let (meanA, varianceA) = meanAndVariance(ours)
    let (meanB, varianceB) = meanAndVariance(simpy)
    let termA = varianceA / Double(ours.count)
    let termB = varianceB / Double(simpy.count)
    let standardError = (termA + termB).squareRoot()
    let difference = meanA - meanB
    var halfWidth = 0.0
    if standardError > 0 {
      let denominator =
        termA * termA / Double(ours.count - 1) + termB * termB / Double(simpy.count - 1)
      let freedom = (termA + termB) * (termA + termB) / denominator
      let level = 1 - 0.05 / (2 * Double(max(1, family)))
      halfWidth = gsl_cdf_tdist_Pinv(level, freedom) * standardError
    }
    return Comparison(
      policy: policy, metric: metric, ours: ours, simpy: simpy,
      oursInterval: MeanInterval(values: ours), simpyInterval: MeanInterval(values: simpy),
      difference: difference, halfWidth: halfWidth,
      agrees: abs(difference) <= halfWidth)
  }
}

/// The scenario as the SimPy peer models it: a temporary copy without the top-level keys the
/// peer does not model (`responses`: what a user does with a shown sheet; the peer shows
/// sheets, it does not model the answer; `app`: the app's own units, which only scale
/// reports). Both sides run this copy, so the comparison is of one world.
struct PeerScenario {
  /// Top-level keys left out of the copy.
  static let unmodelled: Set<String> = ["responses", "app"]

  let path: String
  private let folder: URL

  init(path source: String) throws {
    let data: Data
    do {
      data = try Data(contentsOf: URL(fileURLWithPath: source))
    } catch {
      throw BenchError("\(source): cannot read the scenario for the peer: \(error)")
    }
    guard var object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
      throw BenchError("\(source): the scenario is not a JSON object")
    }
    for key in Self.unmodelled { object.removeValue(forKey: key) }
    folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "deferral-bench-peer-\(ProcessInfo.processInfo.processIdentifier)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let copy = folder.appendingPathComponent(URL(fileURLWithPath: source).lastPathComponent)
    try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys])
      .write(to: copy)
    path = copy.path
  }

  func remove() { try? FileManager.default.removeItem(at: folder) }
}
