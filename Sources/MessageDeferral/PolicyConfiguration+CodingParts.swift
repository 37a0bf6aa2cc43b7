/// The policy keys with a structure of their own: `checkpoints` and `listener_delay`.
extension PolicyConfiguration {
  /// `checkpoints` as written: one `{"screen", "reasons"}` object per call, in screen order
  /// (`reasons` null for every reason).
  var checkpointsValue: ConfigValue {
    let member = ConfigValue.Member.init(key:value:)
    return .array(
      checkpoints.sorted { $0.kind < $1.kind }.map { checkpoint in
        .object([
          member("screen", .string(checkpoint.kind.rawValue)),
          member(
            "reasons",
            checkpoint.reasons.map { .array($0.sorted().map { .string($0.name) }) } ?? .null),
        ])
      })
  }

  /// Reads `checkpoints`: an array whose items are a screen kind (a call for every reason) or
  /// `{"screen": kind, "reasons": [reason, ...] or null}`; one call per screen kind.
  static func readCheckpoints(
    _ value: ConfigValue, at path: String, reader: inout _ConfigReader
  ) -> [Checkpoint]? {
    guard let items = reader.array(value, at: path) else { return nil }
    var result: [Checkpoint] = []
    var valid = true
    for (index, item) in items.enumerated() {
      let at = "\(path)[\(index)]"
      var checkpoint: Checkpoint?
      if case .object = item {
        checkpoint = readCheckpointObject(item, at: at, reader: &reader)
      } else if let kind = reader.enumValue(ScreenKind.self, item, at: at, what: "screen kind") {
        checkpoint = Checkpoint(kind)
      }
      guard let checkpoint else {
        valid = false
        continue
      }
      if result.contains(where: { $0.kind == checkpoint.kind }) {
        reader.issue(
          at: at,
          "screen '\(checkpoint.kind.rawValue)' already has a checkpoint; give each screen kind "
            + "one call and list all its reasons there")
        valid = false
      } else {
        result.append(checkpoint)
      }
    }
    return valid ? result : nil
  }

  private static func readCheckpointObject(
    _ item: ConfigValue, at path: String, reader: inout _ConfigReader
  ) -> Checkpoint? {
    guard reader.object(item, at: path, keys: ["screen", "reasons"]) != nil else { return nil }
    let kind = reader.required(item, "screen", at: path).flatMap {
      reader.enumValue(ScreenKind.self, $0, at: "\(path).screen", what: "screen kind")
    }
    var reasons: Set<Reason>?
    var reasonsValid = true
    if let value = item["reasons"], value != .null {
      if let list = reader.array(value, at: "\(path).reasons") {
        let read = list.enumerated().map { index, element in
          reader.reason(element, at: "\(path).reasons[\(index)]")
        }
        reasonsValid = read.allSatisfy { $0 != nil }
        reasons = Set(read.compactMap { $0 })
      } else {
        reasonsValid = false
      }
    }
    guard let kind, reasonsValid else { return nil }
    return Checkpoint(kind, reasons: reasons)
  }
}

extension ListenerDelay {
  /// The delay as a policy file writes it: `{"fixed": "0s"}`, `{"lognormal": {"median": …,
  /// "sigma": …}}`, and so on (the shapes of a scenario's distributions).
  public var configValue: ConfigValue {
    let member = ConfigValue.Member.init(key:value:)
    func duration(_ seconds: Double) -> ConfigValue { .string(DurationText.format(seconds)) }
    switch self {
    case .fixed(let seconds):
      return .object([member("fixed", duration(seconds))])
    case .exponential(let mean):
      return .object([member("exponential", .object([member("mean", duration(mean))]))])
    case .lognormal(let median, let sigma):
      return .object([
        member(
          "lognormal",
          .object([member("median", duration(median)), member("sigma", .number(sigma))]))
      ])
    case .uniform(let low, let high):
      return .object([
        member("uniform", .object([member("low", duration(low)), member("high", duration(high))]))
      ])
    }
  }

  /// Reads a `listener_delay` value, recording every problem in `reader`.
  static func read(
    _ value: ConfigValue, at path: String, reader: inout _ConfigReader
  )
    -> ListenerDelay?
  {
    let example = "{\"lognormal\": {\"median\": \"300ms\", \"sigma\": 0.5}} or {\"fixed\": \"0s\"}"
    guard case .object(let members) = value, members.count == 1, let kind = members.first else {
      reader.issue(
        at: path,
        "must be a distribution naming one kind (\(kinds.joined(separator: ", "))), such as "
          + example)
      return nil
    }
    let at = "\(path).\(kind.key)"
    let parameters = kind.value
    switch kind.key {
    case "fixed":
      return reader.duration(parameters, at: at, positive: false).map { .fixed($0) }
    case "exponential":
      guard reader.object(parameters, at: at, keys: ["mean"]) != nil else { return nil }
      return reader.required(parameters, "mean", at: at)
        .flatMap { reader.duration($0, at: "\(at).mean", positive: true) }
        .map { .exponential(mean: $0) }
    case "lognormal":
      guard reader.object(parameters, at: at, keys: ["median", "sigma"]) != nil else { return nil }
      let median = reader.required(parameters, "median", at: at).flatMap {
        reader.duration($0, at: "\(at).median", positive: true)
      }
      let sigma = reader.required(parameters, "sigma", at: at).flatMap {
        reader.positiveNumber($0, at: "\(at).sigma")
      }
      guard let median, let sigma else { return nil }
      return .lognormal(median: median, sigma: sigma)
    case "uniform":
      guard reader.object(parameters, at: at, keys: ["low", "high"]) != nil else { return nil }
      let low = reader.required(parameters, "low", at: at).flatMap {
        reader.duration($0, at: "\(at).low", positive: false)
      }
      let high = reader.required(parameters, "high", at: at).flatMap {
        reader.duration($0, at: "\(at).high", positive: false)
      }
      guard let low, let high else { return nil }
      guard low < high else {
        reader.issue(
          at: "\(at).high", "must be greater than low; for a constant use {\"fixed\": …}")
        return nil
      }
      return .uniform(low: low, high: high)
    default:
      reader.unknownName(kind.key, at: at, what: "listener delay kind", valid: kinds)
      return nil
    }
  }
}
