import Foundation
import MessageDeferral
import Reports
import Simulation

/// One uncertain parameter of a robustness study (`deferral-sim robust`): where it goes in the
/// scenario, the range or distribution of its plausible values, and where that range comes
/// from. Format in the README, "Robustness".
public struct RobustParameter: Sendable {
  /// How the parameter's plausible values are spread. Bounds are numbers, or durations in
  /// seconds when the file wrote them as duration strings (`"7h"`).
  public enum Distribution: Sendable, Equatable {
    /// Every value in [min, max] equally plausible.
    case uniform(min: Double, max: Double)
    /// Every ratio equally plausible: the logarithm is uniform on [log min, log max].
    case logUniform(min: Double, max: Double)
    /// Most plausible at `mode`, falling linearly to 0 at `min` and `max`.
    case triangular(min: Double, mode: Double, max: Double)
    /// One of a list, each equally plausible.
    case values([ConfigValue])
  }

  /// As written: `scenario.population.new_user_share` or `value.onboarding_completed`.
  public var name: String
  public var distribution: Distribution
  /// Whether the bounds were durations (`"7h"`): the drawn value is written back as one.
  public var isDuration: Bool
  /// Where the range comes from, or `assumption`.
  public var source: String

  /// The path in the scenario document: `value.KEY` is the scenario's `value` section.
  var path: [String] {
    let parts = name.split(separator: ".").map(String.init)
    return parts.first == "value" ? parts : Array(parts.dropFirst())
  }

  /// Whether the values have no order: a list not all numbers (`["launch", "launch_and_resume"]`),
  /// described by level, never by "larger".
  public var isCategorical: Bool {
    guard case .values(let items) = distribution else { return false }
    return items.contains { if case .number = $0 { false } else { true } }
  }

  /// Whether the path may be created (a `value.KEY` amount the scenario leaves out).
  var createsPath: Bool { name.hasPrefix("value.") }

  /// The value at quantile `u` (in [0, 1)): the number it stands for (seconds for durations,
  /// the value itself for numbers in a list, the item's index for other lists), and the JSON
  /// value written into the scenario.
  public func draw(_ u: Double) -> (number: Double, value: ConfigValue) {
    let u = Swift.min(Swift.max(u, 0), 1)
    let number: Double
    switch distribution {
    case .uniform(let low, let high):
      number = low + u * (high - low)
    case .logUniform(let low, let high):
      number = exp(log(low) + u * (log(high) - log(low)))
    case .triangular(let low, let mode, let high):
      let split = (mode - low) / (high - low)
      number =
        u < split
        ? low + ((u * (high - low) * (mode - low)).squareRoot())
        : high - (((1 - u) * (high - low) * (high - mode)).squareRoot())
    case .values(let items):
      let index = Swift.min(Int(u * Double(items.count)), items.count - 1)
      if case .number(let value) = items[index] { return (value, items[index]) }
      return (Double(index), items[index])
    }
    guard isDuration else { return (number, .number(number)) }
    // Whole milliseconds: the scenario's finest unit, and a tidy duration string.
    let seconds = (number * 1000).rounded() / 1000
    return (seconds, .string(DurationText.format(seconds)))
  }

  /// The CSV text of a drawn value: numbers (durations in seconds) as numbers, other list
  /// items as their text.
  static func label(_ drawn: (number: Double, value: ConfigValue), isDuration: Bool) -> String {
    if isDuration { return CSVField.format(drawn.number) }
    return SweepPlan.text(drawn.value)
  }
}

extension RobustParameter {
  /// Reads one entry of `parameters`, appending every problem (at `at`, the entry's JSON
  /// path) to `problems`.
  static func read(
    name: String, _ value: ConfigValue, at: String, problems: inout [ScenarioErrors.Problem]
  ) -> RobustParameter? {
    func fail(_ path: String, _ message: String) -> RobustParameter? {
      problems.append(.init(path: path, message: message))
      return nil
    }
    let parts = name.split(separator: ".", omittingEmptySubsequences: false)
    let amounts = ValueModel.amountKeys.map(\.key)
    if parts.first == "value" {
      guard parts.count == 2, amounts.contains(String(parts[1])) else {
        let near = parts.count == 2 ? Spelling.closest(to: String(parts[1]), in: amounts) : nil
        return fail(
          at,
          "'\(name)' is not a value amount"
            + (near.map { "; did you mean 'value.\($0)'?" } ?? "; the amounts are "
              + amounts.map { "value.\($0)" }.joined(separator: ", ")))
      }
    } else if parts.first != "scenario" || parts.count < 2 || parts.contains(where: \.isEmpty) {
      return fail(
        at,
        "a parameter is 'scenario.PATH' (as in sweeps, e.g. 'scenario.population.new_user_share') "
          + "or 'value.KEY' (e.g. 'value.onboarding_completed')")
    }
    guard case .object(let members) = value else {
      return fail(
        at,
        "must be an object such as {\"uniform\": {\"min\": 0.2, \"max\": 0.4}, \"source\": "
          + "\"...\"}")
    }
    let kinds = ["uniform", "log_uniform", "triangular", "values"]
    for member in members where !kinds.contains(member.key) && member.key != "source" {
      let near = Spelling.closest(to: member.key, in: kinds + ["source"])
      problems.append(
        .init(
          path: "\(at).\(member.key)",
          message: "unknown key '\(member.key)'"
            + (near.map { "; did you mean '\($0)'?" }
              ?? "; use one of \(kinds.joined(separator: ", "))"
              + " and 'source'")))
    }
    let given = members.filter { kinds.contains($0.key) }
    guard given.count == 1, let entry = given.first else {
      return fail(
        at,
        "give exactly one of \(kinds.joined(separator: ", ")) (found \(given.count))")
    }
    // A missing source is reported with the distribution's own problems, not instead of them.
    var source = ""
    if case .string(let text)? = value["source"],
      !text.trimmingCharacters(in: .whitespaces).isEmpty
    {
      source = text
    } else {
      problems.append(
        .init(
          path: "\(at).source",
          message: "missing: say where the range comes from (a study, your dashboard), or "
            + "write \"assumption\""))
    }
    let path = "\(at).\(entry.key)"
    if entry.key == "values" {
      guard case .array(let items) = entry.value, !items.isEmpty, items.count <= 1000 else {
        return fail(path, "must be a non-empty array of the values to try (at most 1000)")
      }
      return source.isEmpty
        ? nil
        : RobustParameter(
          name: name, distribution: .values(items), isDuration: false, source: source)
    }
    let bounds = entry.key == "triangular" ? ["min", "mode", "max"] : ["min", "max"]
    guard case .object(let boundMembers) = entry.value,
      Set(boundMembers.map(\.key)) == Set(bounds), boundMembers.count == bounds.count
    else {
      let example = bounds.map { "\"\($0)\": …" }.joined(separator: ", ")
      return fail(path, "must be an object with exactly {\(example)}")
    }
    var numbers: [Double] = []
    var durations = 0
    for bound in bounds {
      switch entry.value[bound] {
      case .number(let number)? where number.isFinite:
        numbers.append(number)
      case .string(let text)?:
        do {
          numbers.append(try DurationText.seconds(in: text))
          durations += 1
        } catch {
          return fail("\(path).\(bound)", error.message)
        }
      default:
        return fail("\(path).\(bound)", "must be a number or a duration such as \"7h\"")
      }
    }
    guard durations == 0 || durations == bounds.count else {
      return fail(path, "write every bound as a duration (\"2h\") or every one as a number")
    }
    let low = numbers[0]
    let high = numbers[numbers.count - 1]
    guard low < high else {
      return fail(path, "min \(CSVField.format(low)) must be below max \(CSVField.format(high))")
    }
    let distribution: Distribution
    switch entry.key {
    case "uniform": distribution = .uniform(min: low, max: high)
    case "log_uniform":
      guard low > 0 else {
        return fail("\(path).min", "must be above 0 (a log-uniform range has no 0); use uniform")
      }
      distribution = .logUniform(min: low, max: high)
    default:
      guard numbers[1] >= low, numbers[1] <= high else {
        return fail("\(path).mode", "must lie between min and max")
      }
      distribution = .triangular(min: low, mode: numbers[1], max: high)
    }
    return source.isEmpty
      ? nil
      : RobustParameter(
        name: name, distribution: distribution, isDuration: durations > 0, source: source)
  }
}
