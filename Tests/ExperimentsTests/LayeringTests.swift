import Foundation
import Testing

/// Reports formats results and never runs the engine: running is the Experiments layer's
/// (Sources/Experiments/README.md), the fit's predictive check included, and Fitting sits
/// between Simulation and Reports. Reads the sources, so a new call fails here, not in review.
@Suite("Layering")
struct LayeringTests {
  /// The repository's root, from this file's path (Tests/ExperimentsTests/...).
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  /// Every Swift file under `folder`, relative path and text.
  static func sources(in folder: String) throws -> [(path: String, text: String)] {
    let base = root.appendingPathComponent(folder)
    guard let walker = FileManager.default.enumerator(atPath: base.path) else { return [] }
    var files: [(String, String)] = []
    for case let path as String in walker where path.hasSuffix(".swift") {
      let text = try String(contentsOf: base.appendingPathComponent(path), encoding: .utf8)
      files.append(("\(folder)/\(path)", text))
    }
    return files.sorted { $0.0 < $1.0 }
  }

  /// The engine's API a formatting layer must not use.
  static let engineAPI = ["Engine.", "RunOptions", "UserSimulator", "CompiledScenario"]

  @Test func reportsUseNoEngine() throws {
    let files = try Self.sources(in: "Sources/Reports")
    #expect(files.count > 20, "Sources/Reports not found from \(Self.root.path)")
    var uses: [String] = []
    for file in files {
      for (number, line) in file.text.split(separator: "\n", omittingEmptySubsequences: false)
        .enumerated()
      {
        let code = line.split(separator: "//", maxSplits: 1, omittingEmptySubsequences: false)[0]
        for name in Self.engineAPI where code.contains(name) {
          uses.append("\(file.path):\(number + 1): \(name)")
        }
      }
    }
    #expect(uses.isEmpty, "Reports runs no engine; move this to Experiments: \(uses)")
  }

  @Test func reportsImportNoExperimentsOrTool() throws {
    for file in try Self.sources(in: "Sources/Reports") {
      #expect(!file.text.contains("import Experiments"), "\(file.path)")
      #expect(!file.text.contains("import deferral_sim"), "\(file.path)")
    }
  }

  @Test func simulationKnowsNoFlag() throws {
    // Simulation speaks of scenario fields, never of the command line's flags.
    for file in try Self.sources(in: "Sources/Simulation") {
      for flag in ["--users", "--replications", "--seed", "--policies", "--baseline"] {
        #expect(!file.text.contains("\"\(flag)"), "\(file.path) names \(flag)")
      }
    }
  }

  /// The code of a line: what comes before a `//` comment.
  static func code(_ line: Substring) -> Substring {
    line.split(separator: "//", maxSplits: 1, omittingEmptySubsequences: false)[0]
  }

  /// The folders under Sources/, each a module.
  static func modules() throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("Sources").path)
      .filter { !$0.hasPrefix(".") }.sorted()
  }

  /// Only Experiments runs experiments: no source outside it (and outside the engine's own
  /// folder, which defines it) calls `Engine.run`. The fit's predictive check and the
  /// `--precision` search run through Experiments too.
  @Test func onlyExperimentsCallsTheEngine() throws {
    let modules = try Self.modules()
    #expect(modules.contains("Experiments") && modules.contains("Fitting"), "\(modules)")
    var calls: [String] = []
    for module in modules where module != "Experiments" {
      for file in try Self.sources(in: "Sources/\(module)")
      where !file.path.hasPrefix("Sources/Simulation/Engine/") {
        for (number, line) in file.text.split(separator: "\n", omittingEmptySubsequences: false)
          .enumerated() where Self.code(line).contains("Engine.run")
        {
          calls.append("\(file.path):\(number + 1)")
        }
      }
    }
    #expect(calls.isEmpty, "only Experiments calls Engine.run; run this through it: \(calls)")
  }

  @Test func fittingImportsNoExperimentsReportsOrTool() throws {
    let files = try Self.sources(in: "Sources/Fitting")
    #expect(files.count > 20, "Sources/Fitting not found from \(Self.root.path)")
    for file in files {
      for (number, line) in file.text.split(separator: "\n", omittingEmptySubsequences: false)
        .enumerated()
      {
        let code = Self.code(line)
        for module in ["Experiments", "Reports", "deferral_sim"]
        where code.contains("import \(module)") {
          Issue.record("\(file.path):\(number + 1) imports \(module): Fitting sits below them")
        }
      }
    }
  }

  @Test func simulationImportsNoFitting() throws {
    let files = try Self.sources(in: "Sources/Simulation")
    #expect(files.count > 20, "Sources/Simulation not found from \(Self.root.path)")
    for file in files {
      for (number, line) in file.text.split(separator: "\n", omittingEmptySubsequences: false)
        .enumerated() where Self.code(line).contains("import Fitting")
      {
        Issue.record("\(file.path):\(number + 1) imports Fitting: Fitting sits above Simulation")
      }
    }
  }
}
