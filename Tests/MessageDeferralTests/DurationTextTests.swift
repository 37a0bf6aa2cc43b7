import MessageDeferral
import Testing

@Suite("Durations")
struct DurationTextTests {
  @Test(arguments: [
    ("250ms", 0.25), ("45s", 45), ("3m", 180), ("12h", 43_200), ("3d", 259_200), ("1.5h", 5400),
    ("0s", 0), ("0.5s", 0.5), ("100ms", 0.1), ("3650d", 315_360_000), ("007s", 7),
  ])
  func parses(text: String, seconds: Double) throws {
    #expect(try DurationText.seconds(in: text) == seconds)
  }

  @Test(arguments: [
    ("10", "missing unit in \"10\"; add one of ms, s, m, h, d"),
    ("-3d", "is negative"),
    ("3w", "write weeks, months and years in days"),
    ("2months", "write weeks, months and years in days"),
    ("3days", "write \"3d\""),
    ("5 min", "unexpected space in \"5 min\""),
    ("5min", "write \"5m\""),
    ("3x", "unknown unit 'x' in \"3x\"; valid units: ms, s, m, h, d"),
    ("", "empty duration"),
    ("abc", "is not a duration"),
    ("1.h", "is not a duration"),
    (".5h", "is not a duration"),
    ("nan", "is not a duration"),
    ("inf", "is not a duration"),
    ("1e3s", "unknown unit 'e3s'"),
    (String(repeating: "9", count: 400) + "d", "too large"),
  ])
  func rejects(text: String, fragment: String) {
    #expect {
      try DurationText.seconds(in: text)
    } throws: { error in
      (error as? DurationTextError)?.message.contains(fragment) == true
    }
  }

  @Test(
    arguments: [
      (259_200.0, "3d"), (5400, "1.5h"), (0.25, "250ms"), (45, "45s"), (0, "0s"), (90, "1.5m"),
      (86_400 * 3650, "3650d"), (0.001, "1ms"),
    ] as [(Double, String)])
  func formats(seconds: Double, text: String) throws {
    #expect(DurationText.format(seconds) == text)
    #expect(try DurationText.seconds(in: text) == seconds)
  }
}
