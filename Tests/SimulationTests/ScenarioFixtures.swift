import Foundation

/// Where the package's files are, for tests that read the bundled scenarios.
enum ScenarioFixtures {
  /// The package root, found from this file's path (`Tests/SimulationTests/`).
  static let root = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  static let scenariosFolder = root.appendingPathComponent("scenarios")

  /// The bundled scenarios, by file name.
  static let bundled = [
    "indie-subscription.json", "mobile-game.json", "video-streaming.json", "paywall-heavy.json",
    "ipad-multiwindow.json",
  ]

  static func path(of name: String) -> String {
    scenariosFolder.appendingPathComponent(name).path
  }

  static func bytes(of name: String) throws -> [UInt8] {
    [UInt8](try Data(contentsOf: scenariosFolder.appendingPathComponent(name)))
  }
}
