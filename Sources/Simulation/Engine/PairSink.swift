/// Two optional sinks fed together, so one run can write several logs (`--messages-log` and
/// `--events-log`). A missing sink is skipped; the pair records whatever either records.
public struct PairSink<First: SimulationSink, Second: SimulationSink>: SimulationSink {
  public var first: First?
  public var second: Second?

  public init(_ first: First?, _ second: Second?) {
    self.first = first
    self.second = second
  }

  public static var recordsSteps: Bool { First.recordsSteps || Second.recordsSteps }
  public static var recordsOutcomes: Bool { First.recordsOutcomes || Second.recordsOutcomes }
  public static var recordsJourney: Bool { First.recordsJourney || Second.recordsJourney }

  public mutating func begin(replication: Int, user: Int, policy: Int) {
    first?.begin(replication: replication, user: user, policy: policy)
    second?.begin(replication: replication, user: user, policy: policy)
  }

  public mutating func step(_ step: TraceStep) {
    if First.recordsSteps || (First.recordsJourney && step.what.isJourney) {
      first?.step(step)
    }
    if Second.recordsSteps || (Second.recordsJourney && step.what.isJourney) {
      second?.step(step)
    }
  }

  public mutating func outcome(_ outcome: MessageOutcome, policy: Int, replication: Int, user: Int)
  {
    if First.recordsOutcomes {
      first?.outcome(outcome, policy: policy, replication: replication, user: user)
    }
    if Second.recordsOutcomes {
      second?.outcome(outcome, policy: policy, replication: replication, user: user)
    }
  }
}
