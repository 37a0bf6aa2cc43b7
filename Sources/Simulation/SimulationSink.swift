import MessageDeferral

/// What happened at one step of a traced user's life.
public enum TraceWhat: String, Sendable {
  case coldLaunch = "cold launch"
  case warmResume = "warm resume"
  case sceneActivated = "scene active"
  case screenAppeared = "screen"
  case background = "background"
  case terminated = "process terminated"
  case churned = "never returns"
  case issued = "issued"
  case delivered = "delivered"
  case expired = "expired"
  case displayed = "displayed"
  case displayedForced = "displayed (forced)"
  case displayFailed = "display failed"
  case displayFailedNoScene = "display failed: no active scene"
  case displayNoOp = "display: nothing shown"
  case sheetsDismissed = "sheets dismissed"
  case quitAfterSheet = "quits after sheet"
}

/// One row of a trace.
public struct TraceStep: Sendable {
  public var time: Double
  /// The current screen (index), or -1 before the first.
  public var screen: Int
  public var what: TraceWhat
  /// The message concerned (index within the user), or -1.
  public var message: Int
  public var reason: Reason?
  /// Messages the policy holds after this step.
  public var policyPending: Int
}

/// What became of one message at the horizon: a row of `messages.csv`.
public struct MessageOutcome: Sendable {
  public var message: Int
  public var reason: Reason
  public var issuedAt: Double
  public var deliveredAt: Double?
  public var displayedAt: Double?
  /// Screen it was shown over (index).
  public var screen: Int?
  public var forced: Bool
  public var attempts: Int
  /// `displayed`, `expired` or `pending`.
  public var outcome: String
}

/// Receives what a simulated user does. The engine is generic over it, so a sink whose
/// ``isRecording`` is `false` costs nothing.
public protocol SimulationSink {
  /// Whether steps and outcomes are wanted at all (checked before building them).
  static var isRecording: Bool { get }
  mutating func step(_ step: TraceStep)
  mutating func outcome(_ outcome: MessageOutcome)
}

/// The sink of a plain run: records nothing.
public struct NoSink: SimulationSink {
  public init() {}
  public static var isRecording: Bool { false }
  public mutating func step(_ step: TraceStep) {}
  public mutating func outcome(_ outcome: MessageOutcome) {}
}

extension UserSimulator {
  @inline(__always)
  mutating func trace(_ what: TraceWhat, message: Int) {
    guard Sink.isRecording else { return }
    sink.step(
      TraceStep(
        time: now, screen: currentScreen, what: what, message: message,
        reason: message >= 0 ? messages[message].reason : nil,
        policyPending: coordinator.pending.count))
  }
}
