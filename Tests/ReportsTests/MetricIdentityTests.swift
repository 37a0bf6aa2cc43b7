import Foundation
import Testing

@testable import Reports

/// Metrics are named in code by ``MetricID``; their CSV names are written once, in the
/// definition files.
@Suite("metric identities")
struct MetricIdentityTests {
  /// The files that define the metrics and so hold their names.
  static let definitionFiles: Set<String> = [
    "Reports/Statistics/Metrics.swift", "Reports/Statistics/ValueMetrics.swift",
  ]

  static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Sources")

  /// Every `.swift` file under `Sources`, by path relative to it.
  static func swiftFiles() throws -> [(path: String, text: String)] {
    let root = sources.standardizedFileURL.path
    let walker = try #require(FileManager.default.enumerator(atPath: root))
    var files: [(String, String)] = []
    while let relative = walker.nextObject() as? String {
      guard relative.hasSuffix(".swift") else { continue }
      files.append((relative, try String(contentsOfFile: root + "/" + relative, encoding: .utf8)))
    }
    return files
  }

  @Test func everyIdentityNamesItsOwnEntry() {
    #expect(Metric.all.count == MetricID.allCases.count)
    for id in MetricID.allCases {
      #expect(Metric.all[id.index].id == id)
      #expect(MetricID(name: id.name) == id)
    }
    #expect(Set(Metric.all.map(\.name)).count == Metric.all.count, "names are unique")
    #expect(MetricID(name: "no_such_metric") == nil)
    #expect(MetricID(name: "") == nil)
  }

  /// No metric name appears as a string literal (`"name"`) in code outside the definition
  /// files; the names are read from ``Metric/all``, so a new metric is covered at once.
  @Test func noMetricNameLiteralOutsideTheDefinitions() throws {
    let files = try Self.swiftFiles()
    #expect(files.count > 50, "found the sources")
    #expect(
      files.contains { Self.definitionFiles.contains($0.path) }, "found the definition files")
    let quoted = Metric.all.map { "\"\($0.name)\"" }
    var offenders: [String] = []
    for file in files where !Self.definitionFiles.contains(file.path) {
      for (number, line) in file.text.split(separator: "\n", omittingEmptySubsequences: false)
        .enumerated()
      {
        let code = line.trimmingCharacters(in: .whitespaces)
        guard !code.hasPrefix("//") else { continue }
        for literal in quoted where code.contains(literal) {
          offenders.append("\(file.path):\(number + 1): \(literal)")
        }
      }
    }
    #expect(offenders.isEmpty, "use MetricID: \(offenders.joined(separator: "; "))")
  }

}
