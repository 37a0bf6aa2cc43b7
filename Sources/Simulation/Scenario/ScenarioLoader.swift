import Foundation
import MessageDeferral

/// Reads scenario files (format v1, JSON; `scenarios/README.md`) into a validated
/// ``Scenario``.
///
/// Guarantees: a returned scenario satisfies every invariant documented on ``Scenario`` and
/// its parts (probabilities in [0, 1], transitions summing to 1 within 1e-9 and leading to
/// existing screens, every screen reachable from the entries, `background` reachable from
/// every screen, onboarding completable, names unique, bounds kept). Otherwise the thrown
/// ``ScenarioErrors`` lists every problem found, each with its JSON path and a fix; nothing
/// is ever trapped on bad input.
///
/// What is *not* checked: whether the numbers are realistic, and the screen-graph checks run
/// only once the screens and entries are otherwise valid, so one typo in a name is reported
/// once rather than as a cascade of unreachable screens.
public enum ScenarioLoader {
  /// The format version this build reads (`"schema": 1`).
  public static let formatVersion = 1
  /// Users per replication a file (or the command line) may ask for.
  public static let userBounds = 1...10_000_000
  /// Replications a file may ask for: at least 2, for a confidence interval.
  public static let replicationBounds = 2...10_000
  /// The longest horizon, in seconds: 3650 days.
  public static let maximumHorizon: Double = 3650 * 86_400
  /// The largest file read, in bytes (16 MiB); bundled scenarios are a few KiB.
  public static let maximumFileSize = 16 << 20
  /// Used when a file has no `users`, `replications` or `seed`.
  public static let defaultUsers = 20_000
  public static let defaultReplications = 10
  public static let defaultSeed: UInt64 = 1

  /// Reads and validates the scenario file at `path`.
  ///
  /// Errors name the file as `path` was written.
  public static func load(contentsOf path: String) throws(ScenarioErrors) -> Scenario {
    func fail(_ message: String) -> ScenarioErrors {
      ScenarioErrors(file: path, problems: [ScenarioErrors.Problem(path: "", message: message)])
    }
    let bytes: [UInt8]
    switch readRegularFile(path, limit: maximumFileSize) {
    case .success(let read): bytes = read
    case .failure(let problem): throw fail(problem.message)
    }
    return try load(json: bytes, file: path)
  }

  /// Reads and validates a scenario from UTF-8 JSON bytes; `file` names it in errors.
  ///
  /// - Complexity: O(*n*) in the size of the input, plus O(*s* + *t*) for the screen graph
  ///   (*s* screens, *t* transitions).
  public static func load(json: [UInt8], file: String) throws(ScenarioErrors) -> Scenario {
    let root: JSONNode
    do {
      root = try JSONReader.parse(json)
    } catch {
      throw ScenarioErrors(
        file: file,
        problems: [
          ScenarioErrors.Problem(
            path: "", message: error.message,
            position: error.position)
        ])
    }
    return try load(root, file: file)
  }

  /// Reads and validates a scenario from JSON text.
  public static func load(json: String, file: String) throws(ScenarioErrors) -> Scenario {
    try load(json: Array(json.utf8), file: file)
  }

  /// Validates an already parsed document.
  public static func load(_ root: JSONNode, file: String) throws(ScenarioErrors) -> Scenario {
    // A scenario has neither key: a sweep (`grid`) or a robustness study (`parameters`) given
    // where a scenario belongs gets one line naming the command that runs it, not a list of
    // every scenario key it lacks.
    for (key, kind, command) in [
      ("grid", "a sweep file", "sweep"), ("parameters", "an uncertainty file", "robust"),
    ] where root[key] != nil && root["screens"] == nil {
      throw ScenarioErrors(
        file: file,
        problems: [
          ScenarioErrors.Problem(
            path: "$.\(key)",
            message: "this is \(kind), not a scenario; run it with 'deferral-sim \(command) "
              + "\(file)' (or check it with 'deferral-sim validate')")
        ])
    }
    var decoder = _ScenarioDecoder()
    let scenario = decoder.readScenario(root)
    if let scenario, decoder.problems.isEmpty { return scenario }
    var problems = decoder.problems
    if problems.isEmpty {
      // Unreachable when every failing read records a problem; never fail silently.
      problems = [ScenarioErrors.Problem(path: "$", message: "the scenario is incomplete")]
    }
    throw ScenarioErrors(file: file, problems: sortedByPosition(problems))
  }

  /// Problems in file order; those without a position keep their order, after the others.
  static func sortedByPosition(_ problems: [ScenarioErrors.Problem]) -> [ScenarioErrors.Problem] {
    problems.enumerated().sorted { left, right in
      switch (left.element.position, right.element.position) {
      case (let a?, let b?): (a, left.offset) < (b, right.offset)
      case (.some, nil): true
      case (nil, .some): false
      case (nil, nil): left.offset < right.offset
      }
    }.map(\.element)
  }

  /// The default scenario, `indie-subscription`, from the copy embedded in the binary, so
  /// `deferral-sim run` works from any folder.
  ///
  /// Traps only if the embedded text is invalid, which the test suite rules out.
  public static func embeddedDefault() -> Scenario {
    do {
      return try load(json: embeddedDefaultJSON, file: "<embedded indie-subscription.json>")
    } catch {
      preconditionFailure("The embedded default scenario is invalid:\n\(error)")
    }
  }
}
