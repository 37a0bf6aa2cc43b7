/// Fitting the readable output of `run`, `sweep` and `merge` to a terminal's width: prose is
/// broken at spaces, and a table too wide for the width is split into stacked blocks of
/// columns, each repeating the first (name) column, or, when even one column beside the name
/// does not fit, printed as one record per row.
///
/// Widths count characters (`String.count`), which is the terminal's column count for the
/// text this tool prints (no wide East Asian characters, no combining marks of its own).
/// What does not hold: a single word longer than the width (a long path) is cut, not kept
/// whole, so a line never exceeds the width.
public enum TerminalLayout {
  /// The narrowest width laid out; a smaller one is treated as this.
  public static let minimumWidth = 40

  /// Every line of `text` broken at spaces into lines of at most `width` characters;
  /// continuation lines start with `indent` spaces. A word too long for a line is cut.
  /// `width` `nil` (wide): `text` unchanged.
  public static func wrap(_ text: String, width: Int?, indent: Int = 0) -> String {
    guard let width else { return text }
    let limit = max(width, minimumWidth)
    return text.split(separator: "\n", omittingEmptySubsequences: false).flatMap {
      wrapLine(String($0), limit: limit, indent: min(indent, limit / 2))
    }.joined(separator: "\n")
  }

  static func wrapLine(_ line: String, limit: Int, indent: Int) -> [String] {
    guard line.count > limit else { return [line] }
    // The line's own leading spaces are kept, and continuation lines indent past them.
    let lead = line.prefix { $0 == " " }.count
    let pad = String(repeating: " ", count: min(lead + indent, limit / 2))
    var lines: [String] = []
    var current = String(line.prefix(lead))
    var currentHasWord = false
    for word in line.dropFirst(lead).split(separator: " ") {
      var word = Substring(word)
      while true {
        let separator = currentHasWord ? 1 : 0
        if current.count + separator + word.count <= limit {
          current += (currentHasWord ? " " : "") + word
          currentHasWord = true
          break
        }
        if currentHasWord {
          lines.append(current)
          current = pad
          currentHasWord = false
          continue
        }
        // A word longer than a whole line: cut it.
        let room = limit - current.count
        lines.append(current + word.prefix(room))
        word = word.dropFirst(room)
        current = pad
        if word.isEmpty { break }
      }
    }
    if currentHasWord { lines.append(current) }
    return lines.isEmpty ? [""] : lines
  }

  /// A table laid out to fit `width`.
  public struct Table: Sendable {
    /// The lines, without a trailing line break.
    public var lines: [String]
    /// How many blocks of columns the table was split into (1: the whole table at once;
    /// 0: one record per row).
    public var blocks: Int
  }

  /// `header` and `rows` as aligned columns two spaces apart, with a rule under the header;
  /// the first column left-aligned, the others right-aligned. When the whole table is wider
  /// than `width`, the columns after the first are split into blocks that fit, in order,
  /// each block a table of its own with the first column repeated, separated by a blank
  /// line. When the first column and any other one do not fit side by side, each row is
  /// printed as its first cell followed by one indented `name: value` line per column.
  /// `width` `nil` (wide): one table whatever its width.
  public static func table(header: [String], rows: [[String]], width: Int?) -> Table {
    let widths = header.indices.map { column in
      ([header[column]] + rows.map { $0[column] }).map(\.count).max() ?? 0
    }
    func block(_ columns: [Int]) -> [String] {
      func line(_ cells: [String]) -> String {
        columns.map { column in
          column == 0
            ? cells[column].padded(to: widths[column])
            : cells[column].leftPadded(to: widths[column])
        }.joined(separator: "  ")
      }
      return [
        line(header),
        columns.map { String(repeating: "-", count: widths[$0]) }.joined(
          separator: "  "),
      ] + rows.map(line)
    }
    let all = Array(header.indices)
    let total = widths.reduce(0, +) + 2 * max(0, widths.count - 1)
    guard let width, total > width, header.count > 1 else {
      return Table(lines: block(all), blocks: 1)
    }
    let limit = max(width, minimumWidth)
    var groups: [[Int]] = []
    var current = [0]
    var used = widths[0]
    for column in all.dropFirst() {
      if used + 2 + widths[column] > limit, current.count > 1 {
        groups.append(current)
        current = [0]
        used = widths[0]
      }
      current.append(column)
      used += 2 + widths[column]
    }
    groups.append(current)
    if groups.contains(where: { group in
      group.map { widths[$0] }.reduce(0, +) + 2 * (group.count - 1) > limit
    }) {
      return Table(lines: records(header: header, rows: rows, limit: limit), blocks: 0)
    }
    var lines: [String] = []
    for (index, group) in groups.enumerated() {
      if index > 0 { lines.append("") }
      lines += block(group)
    }
    return Table(lines: lines, blocks: groups.count)
  }

  /// One record per row: the first cell, then `  name: value` per other column.
  static func records(header: [String], rows: [[String]], limit: Int) -> [String] {
    var lines: [String] = []
    for (index, row) in rows.enumerated() {
      if index > 0 { lines.append("") }
      lines += wrapLine(row[0], limit: limit, indent: 2)
      for column in header.indices.dropFirst() {
        var line = "  \(header[column]): \(row[column])"
        while line.last == " " { line.removeLast() }
        lines += wrapLine(line, limit: limit, indent: 2)
      }
    }
    return lines
  }
}
