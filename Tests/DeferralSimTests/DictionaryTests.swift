import Foundation
import TestSupport
import Testing

@testable import Reports

/// Issue #20: results/README.md's column dictionary matches what the tool writes. The tool
/// runs `run` (with both logs, and sharded), `merge`, `sweep` and `robust` (and sharded), `fit` and
/// `trace` at small sizes; every file they write has a section, every CSV header column and
/// every top-level key of the JSON files a row in it, and no row names a column the file
/// lacks.
@Suite("results/README.md documents every column")
struct DictionaryTests {
  /// One `### ...` section of the dictionary: its heading and the first cell of each row of
  /// its table (the column or key, a placeholder in capitals for a family).
  struct Section {
    var heading: String
    var names: [String]
  }

  static func sections() throws -> [Section] {
    let text = try String(
      contentsOf: RunEndToEndTests.root.appendingPathComponent("results/README.md"),
      encoding: .utf8)
    var sections: [Section] = []
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      if line.hasPrefix("### ") {
        sections.append(Section(heading: String(line.dropFirst(4)), names: []))
      } else if line.hasPrefix("## ") {
        sections.append(Section(heading: "", names: []))
      } else if line.hasPrefix("| `"), !sections.isEmpty {
        // The first cell names one column or several (`` `a`, `b` ``).
        let cell = line.split(separator: "|", omittingEmptySubsequences: true).first ?? ""
        let names = cell.split(separator: "`", omittingEmptySubsequences: false)
        for index in stride(from: 1, to: names.count, by: 2) {
          sections[sections.count - 1].names.append(String(names[index]))
        }
      }
    }
    return sections.filter { !$0.heading.isEmpty }
  }

  /// The section whose heading starts with `` `name` `` and mentions `qualifier`.
  static func section(
    _ name: String, _ qualifier: String = "", in sections: [Section]
  )
    -> Section?
  {
    sections.first {
      $0.heading.hasPrefix("`\(name)`") && (qualifier.isEmpty || $0.heading.contains(qualifier))
    }
  }

  /// Whether the documented `pattern` names `column`: `METRIC` any metric, `policy.KEY`,
  /// `scenario.PATH` and `value.KEY` any grid or uncertainty parameter, else the name itself.
  static func matches(_ pattern: String, _ column: String) -> Bool {
    if pattern == "METRIC" { return Metric.named(column) != nil }
    for (prefix, placeholder) in [("policy.", "KEY"), ("scenario.", "PATH"), ("value.", "KEY")]
    where pattern == prefix + placeholder {
      return column.hasPrefix(prefix) && column.count > prefix.count
    }
    return pattern == column
  }

  static func check(_ names: [String], of file: String, against section: Section?) {
    guard let section else {
      Issue.record("results/README.md has no section for \(file)")
      return
    }
    for name in names where !section.names.contains(where: { matches($0, name) }) {
      Issue.record("\(file): column '\(name)' is not in the section \(section.heading)")
    }
    for documented in section.names where !names.contains(where: { matches(documented, $0) }) {
      Issue.record("\(file): the section documents '\(documented)', which the file lacks")
    }
  }

  static func topLevelKeys(_ url: URL) throws -> [String] {
    let object = try JSONSerialization.jsonObject(with: Data(contentsOf: url))
    return try #require(object as? [String: Any]).keys.sorted()
  }

  /// Checks every visible file of `folder`; JSON keys only for `keyedJSON`.
  static func checkFolder(_ folder: URL, keyedJSON: Set<String>, sections: [Section]) throws {
    let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
      .filter { !$0.hasPrefix(".") }.sorted()
    #expect(!files.isEmpty, "\(folder.path)")
    for file in files {
      let url = folder.appendingPathComponent(file)
      if file.hasPrefix("partial-") {
        let text = try String(contentsOf: url, encoding: .utf8)
        let kind =
          text.contains("deferral-sim-sweep-partial")
          ? "sweep --shard"
          : text.contains("deferral-sim-robust-partial") ? "robust --shard" : "run --shard"
        check(
          try topLevelKeys(url), of: file,
          against: section("partial-K-of-N.json", kind, in: sections))
      } else if file.hasSuffix(".csv") {
        let text = try String(contentsOf: url, encoding: .utf8)
        let header = text.prefix { $0 != "\n" }.split(separator: ",").map(String.init)
        check(header, of: file, against: section(file, in: sections))
      } else if keyedJSON.contains(file) {
        check(try topLevelKeys(url), of: file, against: section(file, in: sections))
      } else {
        #expect(section(file, in: sections) != nil, "results/README.md has no section for \(file)")
      }
    }
  }

  @Test func everyFileAndColumnTheToolWritesIsDocumented() throws {
    let sections = try Self.sections()
    let folder = RunEndToEndTests.temporaryFolder()
    func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
    func tool(_ arguments: [String]) throws -> ToolRunner.Result {
      let result = try ToolRunner.run(arguments)
      #expect(result.status == 0, "\(arguments): \(result.stderr)")
      return result
    }
    let small = [
      "-u", "100", "-r", "2", "-q", "--policies", "storekit-auto,never,deadline-aware-value",
    ]
    _ = try tool(["run", "-o", path("run"), "--messages-log", "--events-log"] + small)
    for shard in 0..<2 {
      _ = try tool(["run", "-o", path("shards"), "--shard", "\(shard)/2"] + small)
    }
    _ = try tool(["merge", path("shards"), "-o", path("merged")])
    let sweep = folder.appendingPathComponent("tiny.json")
    try SweepEndToEndTests.tinySweep.write(to: sweep, atomically: true, encoding: .utf8)
    _ = try tool(["sweep", sweep.path, "-o", path("sweep"), "-q"])
    _ = try tool(["sweep", sweep.path, "-o", path("sweep-shards"), "-q", "--shard", "0/1"])
    _ = try tool(["merge", path("sweep-shards"), "-o", path("sweep-merged")])
    let study = folder.appendingPathComponent("study.json")
    try RobustEndToEndTests.tinyStudy.write(to: study, atomically: true, encoding: .utf8)
    _ = try tool(["robust", study.path, "-o", path("robust"), "-q"])
    _ = try tool(["robust", study.path, "-o", path("robust-shards"), "-q", "--shard", "0/1"])
    _ = try tool([
      "fit", path("run/events.csv"), "--map", path("run/events-map.json"), "--out",
      path("fit/scenario.json"),
    ])
    let runJSON: Set<String> = ["manifest.json", "events-map.json"]
    for name in ["run", "merged"] {
      try Self.checkFolder(
        folder.appendingPathComponent(name), keyedJSON: runJSON, sections: sections)
    }
    for name in ["shards", "sweep-shards", "robust", "robust-shards", "fit"] {
      try Self.checkFolder(folder.appendingPathComponent(name), keyedJSON: [], sections: sections)
    }
    // A sweep's manifest has keys of its own: checked against its own section.
    for name in ["sweep", "sweep-merged"] {
      let sweepFolder = folder.appendingPathComponent(name)
      try Self.checkFolder(sweepFolder, keyedJSON: [], sections: sections)
      Self.check(
        try Self.topLevelKeys(sweepFolder.appendingPathComponent("manifest.json")),
        of: "\(name)/manifest.json", against: Self.section("manifest.json", "(sweep)", in: sections)
      )
    }
    // What trace prints as CSV is documented the same way.
    let trace = try tool(["trace", "--policy", "never", "--user", "0", "--format", "csv"])
    let found = try tool([
      "trace", "--find", "interrupted", "--limit", "1", "--policy", "storekit-auto", "--format",
      "csv",
    ])
    for (output, name) in [(trace, "trace --format csv"), (found, "trace --find --format csv")] {
      let header = output.stdout.prefix { $0 != "\n" }.split(separator: ",").map(String.init)
      Self.check(
        header, of: name,
        against: sections.first { $0.heading == "`\(name)`" })
    }
  }

  /// The placeholders match what they stand for and nothing else.
  @Test func placeholdersMatchTheirFamilyOnly() {
    #expect(Self.matches("METRIC", "consent_latency_p99_s"))
    #expect(!Self.matches("METRIC", "policy"))
    #expect(Self.matches("policy.KEY", "policy.sheets_per_break"))
    #expect(!Self.matches("policy.KEY", "policy"))
    #expect(!Self.matches("scenario.PATH", "policy.sheets_per_break"))
    #expect(Self.matches("mean", "mean") && !Self.matches("mean", "mean_diff"))
  }
}
