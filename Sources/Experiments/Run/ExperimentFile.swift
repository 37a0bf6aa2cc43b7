import MessageDeferral
import Simulation

/// Reading the files of sweeps, robustness studies and tunes: one rule for all of them.
enum ExperimentFile {
  /// The text of the file at `path`: a regular file of at most the scenario size limit, in
  /// UTF-8; otherwise the reason, as a problem of that file.
  static func text(contentsOf path: String) throws(ScenarioErrors) -> String {
    switch readRegularFile(path, limit: ScenarioLoader.maximumFileSize) {
    case .success(let bytes):
      guard let source = String(validating: bytes, as: UTF8.self) else {
        throw ScenarioErrors(
          file: path, problems: [.init(path: "", message: "not UTF-8 text; save it as UTF-8")])
      }
      return source
    case .failure(let problem):
      throw ScenarioErrors(file: path, problems: [.init(path: "", message: problem.message)])
    }
  }

  /// The top-level value of the JSON file at `path`, `nil` when it is not readable JSON (for
  /// telling kinds of files apart; ``text(contentsOf:)`` reports why).
  static func topLevel(contentsOf path: String) -> ConfigValue? {
    guard case .success(let data) = readRegularFile(path, limit: ScenarioLoader.maximumFileSize),
      let root = try? JSONReader.parse(data)
    else { return nil }
    return root.configValue
  }
}
