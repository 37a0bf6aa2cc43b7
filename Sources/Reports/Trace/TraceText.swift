import Simulation

/// Times in traces as day and clock (`d3 14:05:09.250`).
public enum TraceFormat {
  /// `seconds` since the start of the simulation as `d<day> hh:mm:ss.mmm`.
  public static func clock(_ seconds: Double) -> String {
    let day = Int(seconds / 86400)
    var rest = seconds - Double(day) * 86400
    let hours = Int(rest / 3600)
    rest -= Double(hours) * 3600
    let minutes = Int(rest / 60)
    rest -= Double(minutes) * 60
    let whole = Int(rest)
    let millis = min(999, Int(((rest - Double(whole)) * 1000).rounded()))
    func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
    let ms = millis < 10 ? "00\(millis)" : millis < 100 ? "0\(millis)" : "\(millis)"
    return "d\(day) \(two(hours)):\(two(minutes)):\(two(whole)).\(ms)"
  }
}

extension TraceDecision {
  /// What was decided, in a few words: `display #2, #3 (forced)`, `hold 1`, `nothing held`,
  /// `StoreKit holds it`; a wake-up request appended as `; wake at d0 00:05:00.000`.
  public var text: String {
    var text: String
    switch choice {
    case .display(let displays):
      text =
        "display "
        + displays.map { "#\($0.message)" + ($0.forced ? " (forced)" : "") }
        .joined(separator: ", ")
    case .hold(let count, _):
      text = count == 0 ? "nothing held" : "hold \(count)"
    case .storeKit(let displays, _):
      text = displays ? "StoreKit displays it" : "StoreKit holds it"
    }
    if let wakeAt { text += "; wake at \(TraceFormat.clock(wakeAt))" }
    return text
  }

  /// Why, in a few words (for holds: the gate, the scene, the trigger it waits for); empty
  /// when there is nothing to explain.
  public var why: String {
    switch choice {
    case .display: ""
    case .hold(_, let reason): reason
    case .storeKit(_, let listenerReadyAt):
      "no listener until \(TraceFormat.clock(listenerReadyAt))"
    }
  }
}
