/// The policy key `urgent_consent`: `null`, or an object with any of `near_deadline`
/// (duration ≥ 0), `return_factor` (number from 0 to 1000), `remembered_opens` (integer 2 to
/// 64), `minimum_opens` (integer from 0 to `remembered_opens`), `spares` (array of screen
/// kinds) and `value` (``ConsentValue``: `null` or an object, read by ``applyValue(_:at:reader:)``). Keys left out keep the policy's current value (the
/// preset's, so a sweep can vary one), or ``UrgentConsent/defaults`` when it had none.
extension UrgentConsent {
  /// The members of an `urgent_consent` object, in the order they are written.
  public static let keys = [
    "near_deadline", "return_factor", "remembered_opens", "minimum_opens", "spares", "value",
  ]

  /// What a key left out of an `urgent_consent` object means when the policy had none: the
  /// values of the `deadline-aware` preset.
  public static let defaults = UrgentConsent(
    nearDeadline: 2 * 86400, returnFactor: 3, rememberedOpens: 8, minimumOpens: 2,
    spares: [.onboarding, .paywall, .checkout])

  /// The rule as a JSON-shaped value with every key.
  var configValue: ConfigValue {
    let member = ConfigValue.Member.init(key:value:)
    return .object([
      member("near_deadline", .string(DurationText.format(nearDeadline))),
      member("return_factor", .number(returnFactor)),
      member("remembered_opens", .number(Double(rememberedOpens))),
      member("minimum_opens", .number(Double(minimumOpens))),
      member("spares", .array(spares.sorted().map { .string($0.rawValue) })),
      member("value", value?.configValue ?? .null),
    ])
  }
}

extension PolicyConfiguration {
  /// Reads `urgent_consent` over the current value, recording every problem in `reader`.
  mutating func applyUrgentConsent(
    _ value: ConfigValue, at path: String, reader: inout _ConfigReader
  ) {
    if value == .null {
      urgentConsent = nil
      return
    }
    guard let members = reader.object(value, at: path, keys: UrgentConsent.keys) else { return }
    var rule = urgentConsent ?? .defaults
    var valid = true
    for member in members {
      let here = "\(path).\(member.key)"
      switch member.key {
      case "near_deadline":
        if let seconds = reader.duration(member.value, at: here, positive: false) {
          rule.nearDeadline = seconds
        } else {
          valid = false
        }
      case "return_factor":
        if case .number(let factor) = member.value, factor.isFinite, factor >= 0, factor <= 1000 {
          rule.returnFactor = factor
        } else {
          reader.issue(at: here, "must be a number from 0 to 1000, e.g. 3")
          valid = false
        }
      case "remembered_opens":
        let range = UrgentConsent.rememberedOpensRange
        if let count = reader.integer(member.value, at: here, in: range) {
          rule.rememberedOpens = count
        } else {
          valid = false
        }
      case "minimum_opens":
        if let count = reader.integer(member.value, at: here, in: 0...64) {
          rule.minimumOpens = count
        } else {
          valid = false
        }
      case "spares":
        guard let items = reader.array(member.value, at: here) else {
          valid = false
          continue
        }
        var spares: Set<ScreenKind> = []
        for (index, item) in items.enumerated() {
          let at = "\(here)[\(index)]"
          if let kind = reader.enumValue(ScreenKind.self, item, at: at, what: "screen kind") {
            spares.insert(kind)
          } else {
            valid = false
          }
        }
        rule.spares = spares
      case "value":
        if !rule.applyValue(member.value, at: here, reader: &reader) { valid = false }
      default:
        valid = false  // reported by `reader.object` as an unknown key
      }
    }
    if valid, rule.minimumOpens > rule.rememberedOpens {
      reader.issue(
        at: "\(path).minimum_opens",
        "must not exceed remembered_opens (\(rule.rememberedOpens)); lower it or remember more")
      valid = false
    }
    if valid { urgentConsent = rule }
  }
}
