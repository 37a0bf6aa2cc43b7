import Foundation
import TestSupport
import Testing

/// Issue #20: a trace's reasons match what happened. A hold row that says "already N
/// sheet(s) this break" follows N displayed sheets in that break, and one that names failed
/// displays follows that many failures; a failed display is never counted as a shown sheet.
@Suite("trace reasons, end to end")
struct TraceReasonTests {
  /// What starts a break (``PolicyConfiguration/sheetsPerBreak``): a screen appearance, a
  /// scene activation, a launch.
  static let breakStarts: Set<String> = ["screen", "scene active", "cold launch"]

  static func number(before marker: String, in text: String) -> Int? {
    guard let range = text.range(of: marker) else { return nil }
    let digits = text[..<range.lowerBound].reversed().drop { $0 == " " }.prefix {
      $0.isNumber
    }
    return Int(String(digits.reversed()))
  }

  @Test func holdReasonsCountShownSheetsAndFailedDisplaysApart() throws {
    let find = try ToolRunner.run([
      "trace", "--find", "failed", "--policy", "deadline-aware", "--limit", "4", "--format",
      "csv",
    ])
    #expect(find.status == 0, "\(find.stderr)")
    let users = find.stdout.split(separator: "\n").dropFirst().compactMap {
      $0.split(separator: ",").first.map(String.init)
    }
    #expect(users.count == 4)
    var failedReasons = 0
    for user in users {
      let trace = try ToolRunner.run([
        "trace", "--policy", "deadline-aware", "--user", user, "--format", "csv",
      ])
      #expect(trace.status == 0)
      var shown = 0
      var failed = 0
      for row in RunEndToEndTests.rows(trace.stdout).dropFirst() where row.count == 10 {
        let what = row[5]
        let why = row[9]
        if Self.breakStarts.contains(what) { (shown, failed) = (0, 0) }
        // "displayed", "displayed (forced)", and "display: nothing shown" (StoreKit had
        // nothing left to show: a success to the policy) spend the break; failures too.
        if what.hasPrefix("display failed") {
          failed += 1
        } else if what.hasPrefix("display") {
          shown += 1
        }
        if let count = Self.number(before: "sheet(s) this break", in: why)
          ?? Self.number(before: "sheet(s) and", in: why)
        {
          #expect(count == shown, "user \(user): '\(why)' after \(shown) shown")
        }
        if let count = Self.number(before: "failed display(s)", in: why) {
          failedReasons += 1
          #expect(count == failed, "user \(user): '\(why)' after \(failed) failed")
        }
      }
    }
    // The users were found for their failed displays: some hold says so.
    #expect(failedReasons > 0)
  }
}
