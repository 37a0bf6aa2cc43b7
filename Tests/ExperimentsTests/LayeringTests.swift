import Foundation
import Testing

/// Reports formats results and never runs the engine: running is the Experiments layer's
/// (Sources/Experiments/README.md). Reads the sources, so a new call fails here, not in review.
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
}
