import MessageDeferral

// Durations and distributions: `"45s"` or 45, and `{"lognormal": {"median": "40s", ...}}`.

/// The smallest value a duration field accepts.
enum _Minimum {
  /// 0 or more (a fixed delay, the start of a window).
  case zero
  /// More than 0 (a mean, a median, a scale, an interval).
  case positive
}

extension _ScenarioDecoder {
  /// The distribution kinds, in the order messages list them.
  static let distributionKinds = [
    "fixed", "exponential", "lognormal", "gamma", "weibull", "uniform", "empirical",
  ]

  /// A duration: a string with a unit (``DurationText``) or a plain number of seconds.
  mutating func readDuration(
    _ node: JSONNode, at path: String, minimum: _Minimum, example: String = "\"45s\""
  ) -> Double? {
    let value: Double
    switch node.value {
    case .number(let number, _):
      guard number >= 0 else {
        report(
          path, node,
          "must not be negative, got \(Self.shown(node)); give a duration such as "
            + "\(example) or a number of seconds")
        return nil
      }
      value = number
    case .string(let text):
      do {
        value = try DurationText.seconds(in: text)
      } catch {
        report(path, node, error.message)
        return nil
      }
    default:
      report(
        path, node,
        "must be a duration, got \(node.typeName); write a number and a unit "
          + "(\(DurationText.unitList)) such as \(example), or a number of seconds")
      return nil
    }
    if minimum == .positive && value == 0 {
      report(
        path, node,
        "must be > 0, got \(Self.shown(node)); give a positive duration such as \(example)")
      return nil
    }
    return value
  }

  /// A distribution of durations: an object with exactly one key naming the kind.
  mutating func readDistribution(
    _ node: JSONNode, at path: String, example: String
  ) -> DistributionSpec? {
    let kinds = Self.distributionKinds.joined(separator: ", ")
    guard case .object(let members) = node.value else {
      switch node.value {
      case .string, .number:
        report(
          path, node,
          "must be a distribution, got \(node.typeName); for a constant write "
            + "{\"fixed\": \(Self.shown(node))}, otherwise name a kind (\(kinds)) such as \(example)"
        )
      default:
        report(
          path, node,
          "must be a distribution (an object naming one kind: \(kinds)), got "
            + "\(node.typeName); write, for example, \(example)")
      }
      return nil
    }
    guard members.count == 1, let member = members.first else {
      if members.isEmpty {
        report(path, node, "empty distribution; name one kind (\(kinds)), such as \(example)")
      } else {
        report(
          path, node,
          "a distribution names exactly one kind, got \(members.count) keys ("
            + members.map(\.key).joined(separator: ", ") + "); keep one")
      }
      return nil
    }
    let kindPath = _JSONPath.member(path, member.key)
    guard Self.distributionKinds.contains(member.key) else {
      let suggestion =
        suggestion(for: member.key, in: Self.distributionKinds).map {
          "did you mean '\($0)'? "
        }
        ?? ""
      problems.append(
        ScenarioErrors.Problem(
          path: kindPath,
          message: "unknown distribution '\(member.key)'; \(suggestion)valid: \(kinds)",
          position: member.keyPosition))
      return nil
    }
    return readDistributionParameters(member.key, member.value, at: kindPath)
  }

  private mutating func readDistributionParameters(
    _ kind: String, _ node: JSONNode, at path: String
  ) -> DistributionSpec? {
    let what = "the parameters of \(kind)"
    switch kind {
    case "fixed":
      if case .object = node.value {
        guard let object = readObject(node, at: path, keys: [.required("value", "\"2s\"")]) else {
          return nil
        }
        return field(object, "value") { $0.readDuration($1, at: $2, minimum: .zero) }.map {
          .fixed($0)
        }
      }
      return readDuration(node, at: path, minimum: .zero).map { .fixed($0) }
    case "exponential":
      guard let object = readObject(node, at: path, keys: [.required("mean", "\"8h\"")], what: what)
      else { return nil }
      let mean = field(object, "mean") {
        $0.readDuration($1, at: $2, minimum: .positive, example: "\"8h\"")
      }
      return mean.map { .exponential(mean: $0) }
    case "lognormal":
      guard
        let object = readObject(
          node, at: path, keys: [.required("median", "\"40s\""), .required("sigma", "0.8")],
          what: what)
      else { return nil }
      let median = field(object, "median") {
        $0.readDuration($1, at: $2, minimum: .positive, example: "\"40s\"")
      }
      let sigma = field(object, "sigma") {
        $0.readPositiveNumber($1, at: $2, what: "sigma", example: "0.8")
      }
      guard let median, let sigma else { return nil }
      return .lognormal(median: median, sigma: sigma)
    case "gamma", "weibull":
      guard
        let object = readObject(
          node, at: path, keys: [.required("shape", "2"), .required("scale", "\"10s\"")], what: what
        )
      else { return nil }
      let shape = field(object, "shape") {
        $0.readPositiveNumber($1, at: $2, what: "shape", example: "2")
      }
      let scale = field(object, "scale") {
        $0.readDuration($1, at: $2, minimum: .positive, example: "\"10s\"")
      }
      guard let shape, let scale else { return nil }
      return kind == "gamma"
        ? .gamma(shape: shape, scale: scale) : .weibull(shape: shape, scale: scale)
    case "uniform":
      guard
        let object = readObject(
          node, at: path, keys: [.required("low", "\"1s\""), .required("high", "\"3s\"")],
          what: what)
      else { return nil }
      let low = field(object, "low") {
        $0.readDuration($1, at: $2, minimum: .zero, example: "\"1s\"")
      }
      let high = field(object, "high") {
        $0.readDuration($1, at: $2, minimum: .zero, example: "\"3s\"")
      }
      guard let low, let high else { return nil }
      guard low < high else {
        report(
          object.path("high"), object["high"],
          "high (\(DurationText.format(high))) must be greater than low (\(DurationText.format(low)))"
            + (low > high ? "; swap them" : "; for a constant use {\"fixed\": ...}"))
        return nil
      }
      return .uniform(low: low, high: high)
    default:
      return readEmpirical(node, at: path, what: what)
    }
  }

  private mutating func readEmpirical(
    _ node: JSONNode, at path: String, what: String
  ) -> DistributionSpec? {
    guard
      let object = readObject(
        node, at: path,
        keys: [.required("values", "[\"10s\", \"30s\"]"), .required("weights", "[3, 1]")],
        what: what)
    else { return nil }
    var values: [Double]?
    var weights: [Double]?
    if let valuesNode = object["values"] {
      let valuesPath = object.path("values")
      if case .array(let elements) = valuesNode.value, !elements.isEmpty {
        let read = elements.enumerated().map { index, element in
          readDuration(element, at: _JSONPath.element(valuesPath, index), minimum: .zero)
        }
        if read.allSatisfy({ $0 != nil }) { values = read.map { $0! } }
      } else {
        report(
          valuesPath, valuesNode,
          "must be a non-empty array of durations, got "
            + (valuesNode.typeName == "an array" ? "an empty one" : valuesNode.typeName)
            + "; such as [\"10s\", \"30s\"]")
      }
    }
    if let weightsNode = object["weights"] {
      let weightsPath = object.path("weights")
      if case .array(let elements) = weightsNode.value, !elements.isEmpty {
        var read: [Double] = []
        for (index, element) in elements.enumerated() {
          let elementPath = _JSONPath.element(weightsPath, index)
          guard case .number(let weight, _) = element.value, weight >= 0 else {
            report(
              elementPath, element,
              "must be a number ≥ 0, got \(Self.shown(element)); weights "
                + "are relative frequencies, such as 3 and 1")
            continue
          }
          read.append(weight)
        }
        if read.count == elements.count {
          // Each weight is finite, but their sum can overflow; the sampler needs it finite.
          let total = read.reduce(0, +)
          if total > 0 && total.isFinite {
            weights = read
          } else if total > 0 {
            report(
              weightsPath, weightsNode,
              "weights are too large: their sum exceeds about 1.8e308; scale them down, "
                + "only their ratios matter (such as 3 and 1)")
          } else {
            report(weightsPath, weightsNode, "weights sum to 0; give at least one positive weight")
          }
        }
      } else {
        report(
          weightsPath, weightsNode,
          "must be a non-empty array of numbers ≥ 0, got "
            + (weightsNode.typeName == "an array" ? "an empty one" : weightsNode.typeName)
            + "; such as [3, 1]")
      }
    }
    guard let values, let weights else { return nil }
    guard values.count == weights.count else {
      report(
        object.path("weights"), object["weights"],
        "has \(weights.count) weights for \(values.count) values; give one weight per value")
      return nil
    }
    return .empirical(values: values, weights: weights)
  }
}
