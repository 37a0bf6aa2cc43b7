import Reports
import Simulation
import Testing

/// The engine records decisions as data (times in seconds); Reports writes the words a trace
/// shows. These pin the words `deferral-sim trace` printed when the engine wrote them itself.
@Suite("Trace records rendered as text")
struct TraceTextTests {
  @Test("A clock is day, hours, minutes, seconds and milliseconds")
  func clock() {
    #expect(TraceFormat.clock(0) == "d0 00:00:00.000")
    #expect(TraceFormat.clock(3 * 86400 + 14 * 3600 + 5 * 60 + 9.25) == "d3 14:05:09.250")
    #expect(TraceFormat.clock(59.9996) == "d0 00:00:59.999")
  }

  @Test("A display names each message, forced ones marked, and the wake-up time")
  func display() {
    let decision = TraceDecision(
      .display([TracedDisplay(message: 2, forced: false), TracedDisplay(message: 3, forced: true)]),
      wakeAt: 300)
    #expect(decision.text == "display #2, #3 (forced); wake at d0 00:05:00.000")
    #expect(decision.why.isEmpty)
  }

  @Test("A hold says how many and why; nothing held says so with no reason")
  func hold() {
    let held = TraceDecision(.hold(count: 1, reason: "gate closed on paywall"))
    #expect(held.text == "hold 1")
    #expect(held.why == "gate closed on paywall")
    let none = TraceDecision(.hold(count: 0, reason: ""), wakeAt: 90)
    #expect(none.text == "nothing held; wake at d0 00:01:30.000")
    #expect(none.why.isEmpty)
  }

  @Test("Before the listener is ready StoreKit's default answers, and says until when")
  func storeKit() {
    let holds = TraceDecision(.storeKit(displays: false, listenerReadyAt: 2.5))
    #expect(holds.text == "StoreKit holds it")
    #expect(holds.why == "no listener until d0 00:00:02.500")
    #expect(
      TraceDecision(.storeKit(displays: true, listenerReadyAt: 0)).text == "StoreKit displays it")
  }
}
