/// The member `value` of the policy key `urgent_consent`: `null`, or an object with any of
/// `renewal` (a number ≥ 0), `costs` (an object: screen kind → number ≥ 0, merged over the
/// current costs) and `fresh_no_return` (a number from 0 to 1). Keys left out keep the current
/// value, or ``ConsentValue/defaults`` when there was none.
extension ConsentValue {
  /// The members of a `value` object, in the order they are written.
  public static let keys = ["renewal", "costs", "fresh_no_return"]

  /// What a key left out means when the rule had no `value`: the `deadline-aware-value`
  /// preset's amounts.
  public static let defaults = ConsentValue(
    renewal: 25, costs: [.onboarding: 1.8, .paywall: 0.6, .checkout: 6, .immersive: 3],
    freshNoReturn: 0.1)

  /// The test as a JSON-shaped value with every key (every kind in `costs`).
  var configValue: ConfigValue {
    let member = ConfigValue.Member.init(key:value:)
    return .object([
      member("renewal", .number(renewal)),
      member(
        "costs",
        .object(ScreenKind.allCases.map { member($0.rawValue, .number(costs[$0.index])) })),
      member("fresh_no_return", .number(freshNoReturn)),
    ])
  }
}

extension UrgentConsent {
  /// Reads `value` over the current one, recording every problem in `reader`; returns whether
  /// it was valid (and then applied).
  mutating func applyValue(
    _ node: ConfigValue, at path: String, reader: inout _ConfigReader
  ) -> Bool {
    if node == .null {
      value = nil
      return true
    }
    guard let members = reader.object(node, at: path, keys: ConsentValue.keys) else {
      return false
    }
    var result = value ?? .defaults
    var valid = true
    func amount(_ node: ConfigValue, at here: String, upTo limit: Double) -> Double? {
      if case .number(let number) = node, number.isFinite, number >= 0, number <= limit {
        return number
      }
      let range = limit == 1 ? "from 0 to 1, e.g. 0.1" : "at least 0, e.g. 25"
      reader.issue(at: here, "must be a number \(range)")
      return nil
    }
    for member in members {
      let here = "\(path).\(member.key)"
      switch member.key {
      case "renewal":
        if let number = amount(member.value, at: here, upTo: .greatestFiniteMagnitude) {
          result.renewal = number
        } else {
          valid = false
        }
      case "fresh_no_return":
        if let number = amount(member.value, at: here, upTo: 1) {
          result.freshNoReturn = number
        } else {
          valid = false
        }
      case "costs":
        let kinds = ScreenKind.allCases.map(\.rawValue)
        guard let entries = reader.object(member.value, at: here, keys: kinds) else {
          valid = false
          continue
        }
        for entry in entries {
          guard let kind = ScreenKind(rawValue: entry.key) else {
            valid = false  // reported by `reader.object` as an unknown key
            continue
          }
          let at = "\(here).\(entry.key)"
          if let number = amount(entry.value, at: at, upTo: .greatestFiniteMagnitude) {
            result.costs[kind.index] = number
          } else {
            valid = false
          }
        }
      default:
        valid = false  // reported by `reader.object` as an unknown key
      }
    }
    if valid { value = result }
    return valid
  }
}
