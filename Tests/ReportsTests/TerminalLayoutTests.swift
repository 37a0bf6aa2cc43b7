import Testing

@testable import Reports

/// ``TerminalLayout``: prose broken at spaces, tables split into blocks of columns or into
/// records, never a line wider than asked, and nothing lost on the way.
@Suite("terminal layout")
struct TerminalLayoutTests {
  static func words(_ text: String) -> [Substring] {
    text.split(whereSeparator: { $0 == " " || $0 == "\n" })
  }

  @Test(arguments: [40, 41, 57, 80])
  func wrapKeepsEveryWordAndFitsTheWidth(width: Int) {
    let text =
      "Recommendation: storekit-auto has the highest mean value, 1609 USD per 1,000 users, "
      + "but the data cannot separate it from screen-gate, screen-gate-ceiling and never.\n"
      + "\n  Wrote summary.csv, paired.csv to /tmp/a-folder-name-far-too-long-for-one-line-"
      + "of-any-terminal-that-is-narrow/"
    let wrapped = TerminalLayout.wrap(text, width: width, indent: 2)
    let lines = wrapped.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(lines.allSatisfy { $0.count <= width }, "\(wrapped)")
    // Only the cut word changes: joined back, the characters are the same.
    #expect(
      Self.words(wrapped).joined().filter { $0 != " " } == Self.words(text).joined())
    // The blank line stays, and continuation lines are indented past the line's own indent.
    #expect(lines.contains(""))
    #expect(lines.filter { $0.hasPrefix("    ") }.count >= 1)
  }

  @Test func wrapWithoutAWidthChangesNothing() {
    let text = String(repeating: "word ", count: 100)
    #expect(TerminalLayout.wrap(text, width: nil) == text)
  }

  static let header = ["policy", "metric_a", "metric_b", "metric_c"]
  static let rows = [
    ["storekit-auto", "0.7% [0.0%, 100.0%]*", "12.5h [7.2h, 17.8h] ", "1.0 [0.0, 13.7]*"],
    ["deadline-aware", "0.0% [0.0%, 0.0%]*", "11.9h [10.5h, 13.4h]*", "2.0 [2.0, 2.0] "],
  ]

  @Test func aTableThatFitsIsOneBlock() {
    let laid = TerminalLayout.table(header: Self.header, rows: Self.rows, width: 200)
    #expect(laid.blocks == 1)
    #expect(laid.lines.count == 2 + Self.rows.count)
    #expect(laid.lines[0].split(separator: " ").map(String.init) == Self.header)
    #expect(
      TerminalLayout.table(header: Self.header, rows: Self.rows, width: nil).lines
        == laid.lines)
  }

  @Test(arguments: [40, 45, 60, 70])
  func aWideTableIsSplitIntoBlocksThatEachRepeatTheFirstColumn(width: Int) {
    let laid = TerminalLayout.table(header: Self.header, rows: Self.rows, width: width)
    #expect(laid.blocks > 1)
    #expect(laid.lines.allSatisfy { $0.count <= width })
    // Every cell is there once, and every block names every policy.
    for cell in Self.rows.flatMap({ $0.dropFirst() }) {
      #expect(laid.lines.filter { $0.contains(cell.trimmingSpaces) }.count >= 1, "\(cell)")
    }
    let headers = laid.lines.filter { $0.hasPrefix("policy ") }
    #expect(headers.count == laid.blocks)
    for row in Self.rows {
      #expect(laid.lines.filter { $0.hasPrefix(row[0]) }.count == laid.blocks)
    }
  }

  @Test func aNameTooLongForAnyBlockGivesOneRecordPerRow() {
    let long = String(repeating: "n", count: 30)
    let laid = TerminalLayout.table(
      header: Self.header, rows: [[long] + Self.rows[0].dropFirst()], width: 40)
    #expect(laid.blocks == 0)
    #expect(laid.lines.first == long)
    #expect(laid.lines.contains("  metric_b: 12.5h [7.2h, 17.8h]"))
    #expect(laid.lines.allSatisfy { $0.count <= 40 })
  }
}

extension String {
  fileprivate var trimmingSpaces: String {
    String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
  }
}
