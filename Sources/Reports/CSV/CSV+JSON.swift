import MessageDeferral

/// CSV tables as JSON, for `--format json`: one object per row, keyed by the header.
extension CSVTable {
  /// The rows as a JSON array of objects. A cell that reads as a finite number is a JSON
  /// number (written as in the CSV, so no precision is lost), an empty cell is `null`, any
  /// other cell a string.
  public var jsonText: String {
    var lines = ["["]
    for (index, row) in rows.enumerated() {
      let members = zip(header, row).map { key, cell in
        "\(Self.jsonString(key)): \(Self.jsonValue(cell))"
      }
      let comma = index == rows.count - 1 ? "" : ","
      lines.append("  {" + members.joined(separator: ", ") + "}" + comma)
    }
    lines.append("]")
    return lines.joined(separator: "\n")
  }

  static func jsonValue(_ cell: String) -> String {
    if cell.isEmpty { return "null" }
    if let number = Double(cell), number.isFinite,
      cell.allSatisfy({ "0123456789.-+eE".contains($0) })
    {
      return cell
    }
    return jsonString(cell)
  }

  /// `text` as a JSON string literal (RFC 8259 escaping, as every JSON the tool writes).
  public static func jsonString(_ text: String) -> String {
    ConfigValue.quoted(text)
  }
}
