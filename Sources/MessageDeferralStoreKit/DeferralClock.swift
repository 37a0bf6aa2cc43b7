#if canImport(Foundation)
  import Foundation
#endif

/// The controller's time: seconds on one timeline across launches (the system clock's Unix
/// time on a device), and main-actor timers at given times.
@MainActor
public protocol DeferralClock: AnyObject {
  /// Now, in seconds.
  var now: Double { get }
  /// Calls `fire` on the main actor at `time` (at once if it has passed), unless cancelled.
  func schedule(at time: Double, _ fire: @escaping @MainActor () -> Void) -> any DeferralTimer
}

/// A timer from ``DeferralClock/schedule(at:_:)``.
@MainActor
public protocol DeferralTimer: AnyObject {
  /// Stops the timer from firing (nothing if it fired).
  func cancel()
}

#if canImport(Foundation)
  /// The clock of an app: Unix time from the system clock, timers as sleeping main-actor tasks.
  @MainActor
  public final class SystemDeferralClock: DeferralClock {
    public init() {}
    public var now: Double { Date().timeIntervalSince1970 }

    public func schedule(
      at time: Double, _ fire: @escaping @MainActor () -> Void
    )
      -> any DeferralTimer
    {
      let delay = max(0, time - now)
      let task = Task { @MainActor in
        try? await Task.sleep(nanoseconds: UInt64(min(delay, 1e9) * 1e9))
        guard !Task.isCancelled else { return }
        fire()
      }
      return _TaskTimer(task: task)
    }
  }

  @MainActor
  final class _TaskTimer: DeferralTimer {
    let task: Task<Void, Never>
    init(task: Task<Void, Never>) { self.task = task }
    func cancel() { task.cancel() }
  }
#endif

/// A clock a test or an example moves by hand: ``advance(to:)`` fires every timer due by then,
/// in time order (ties in the order they were set), each at its own time.
@MainActor
public final class ManualDeferralClock: DeferralClock {
  public private(set) var now: Double
  private var timers: [_ManualTimer] = []
  private var sequence = 0

  public init(now: Double = 0) { self.now = now }

  public func schedule(
    at time: Double, _ fire: @escaping @MainActor () -> Void
  )
    -> any DeferralTimer
  {
    sequence += 1
    let timer = _ManualTimer(time: max(time, now), sequence: sequence, fire: fire)
    timers.append(timer)
    return timer
  }

  /// The time of the earliest timer not cancelled, if any.
  public var nextTimer: Double? {
    var earliest: Double?
    for timer in timers where !timer.cancelled {
      earliest = min(earliest ?? timer.time, timer.time)
    }
    return earliest
  }

  /// Moves time to `time`, firing on the way every timer due strictly before it, or at it
  /// when `including` (the default).
  public func advance(to time: Double, including: Bool = true) {
    precondition(time >= now, "A manual clock only moves forward")
    while true {
      var first: Int?
      var index = 0
      while index < timers.count {
        let timer = timers[index]
        if timer.cancelled {
          timers.swapAt(index, timers.count - 1)
          timers.removeLast()
          continue
        }
        if including ? timer.time <= time : timer.time < time,
          first.map({ (timer.time, timer.sequence) < (timers[$0].time, timers[$0].sequence) })
            ?? true
        {
          first = index
        }
        index += 1
      }
      guard let first else { break }
      let timer = timers[first]
      timer.cancelled = true
      now = timer.time
      timer.fire()
    }
    now = time
  }
}

@MainActor
final class _ManualTimer: DeferralTimer {
  let time: Double
  let sequence: Int
  let fire: @MainActor () -> Void
  var cancelled = false
  init(time: Double, sequence: Int, fire: @escaping @MainActor () -> Void) {
    self.time = time
    self.sequence = sequence
    self.fire = fire
  }
  func cancel() { cancelled = true }
}
