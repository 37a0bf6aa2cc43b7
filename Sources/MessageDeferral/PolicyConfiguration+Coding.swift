/// Reading a policy from a scenario file and writing one out (`deferral-sim policies --json`).
///
/// The keys, in the order ``PolicyConfiguration/configValue`` writes them, with their types:
/// `gate` (object: screen kind → `open` | `closed` | `unchanged`), `gate_at_launch` (bool),
/// `gate_overrides` (array of `{reason, kind, allowed}`), `triggers` (array of `delivery`,
/// `gate_assignment`, `screen_appearance`, `checkpoint`), `checkpoints` (array of kinds),
/// `reason_filter` (array of reasons, or null for all), `ordering` (`arrival` | `article` |
/// `priority` | `urgency`), `requires_active_scene`, `sequential_batch`,
/// `refuses_concurrent_show` (bools), `on_failure` (`keep_in_place` | `append_to_back`),
/// `stops_batch_without_scene`, `removes_displayed`, `retries_on_scene_activation` (bools),
/// `retry_backoff` (`{initial, maximum}` durations, or null), `ceilings` (object: reason →
/// duration or null), `ceiling_clock` (`in_process_arrival` | `first_delivery`), `forcing`
/// (`"immediate"` or `{"boundary_first": {"grace": duration}}`), `deadline_margin` (duration
/// or null), `deduplicates`, `shows_unknown_reasons` (bools), `sheets_per_break` (integer ≥ 1,
/// or null for all), `urgent_consent` (`{near_deadline, return_factor, remembered_opens,
/// spares}`, or null; ``UrgentConsent``).
extension PolicyConfiguration {
  /// Every key a policy object may have, besides `name` and `preset`.
  public static let keys = [
    "gate", "gate_at_launch", "gate_overrides", "triggers", "checkpoints", "reason_filter",
    "ordering", "requires_active_scene", "sequential_batch", "refuses_concurrent_show",
    "on_failure", "stops_batch_without_scene", "removes_displayed",
    "retries_on_scene_activation", "retry_backoff", "ceilings", "ceiling_clock", "forcing",
    "deadline_margin", "deduplicates", "shows_unknown_reasons", "sheets_per_break",
    "urgent_consent",
  ]

  /// The configuration as a JSON-shaped value with every key (the format policies are read in).
  public var configValue: ConfigValue {
    func strings(_ items: [String]) -> ConfigValue { .array(items.map { .string($0) }) }
    func duration(_ seconds: Double?) -> ConfigValue {
      seconds.map { .string(DurationText.format($0)) } ?? .null
    }
    let member = ConfigValue.Member.init(key:value:)
    var members: [ConfigValue.Member] = []
    members.append(
      member(
        "gate",
        .object(ScreenKind.allCases.map { member($0.rawValue, .string(gate(for: $0).rawValue)) })))
    members.append(member("gate_at_launch", .bool(gateAtLaunch)))
    members.append(
      member(
        "gate_overrides",
        .array(
          gateOverrides.map {
            .object([
              member("reason", .string($0.reason.name)), member("kind", .string($0.kind.rawValue)),
              member("allowed", .bool($0.allowed)),
            ])
          })))
    members.append(
      member(
        "triggers", strings(Triggers.named.filter { triggers.contains($0.trigger) }.map(\.name))))
    members.append(member("checkpoints", strings(checkpoints.sorted().map(\.rawValue))))
    members.append(
      member("reason_filter", reasonFilter.map { strings($0.sorted().map(\.name)) } ?? .null))
    members.append(member("ordering", .string(ordering.rawValue)))
    members.append(member("requires_active_scene", .bool(requiresActiveScene)))
    members.append(member("sequential_batch", .bool(sequentialBatch)))
    members.append(member("refuses_concurrent_show", .bool(refusesConcurrentShow)))
    members.append(member("on_failure", .string(onFailure.rawValue)))
    members.append(member("stops_batch_without_scene", .bool(stopsBatchWithoutScene)))
    members.append(member("removes_displayed", .bool(removesDisplayed)))
    members.append(member("retries_on_scene_activation", .bool(retriesOnSceneActivation)))
    members.append(
      member(
        "retry_backoff",
        retryBackoff.map {
          .object([
            member("initial", duration($0.initial)), member("maximum", duration($0.maximum)),
          ])
        } ?? .null))
    members.append(
      member(
        "ceilings",
        .object(ceilings.keys.sorted().map { member($0.name, duration(ceilings[$0])) })))
    members.append(member("ceiling_clock", .string(ceilingClock.rawValue)))
    switch forcing {
    case .immediate:
      members.append(member("forcing", .string("immediate")))
    case .boundaryFirst(let grace):
      members.append(
        member(
          "forcing",
          .object([member("boundary_first", .object([member("grace", duration(grace))]))])))
    }
    members.append(member("deadline_margin", duration(deadlineMargin)))
    members.append(member("deduplicates", .bool(deduplicates)))
    members.append(member("shows_unknown_reasons", .bool(showsUnknownReasons)))
    members.append(
      member("sheets_per_break", sheetsPerBreak.map { .number(Double($0)) } ?? .null))
    members.append(member("urgent_consent", urgentConsent?.configValue ?? .null))
    return .object(members)
  }

  /// Applies the keys of `object` (a policy definition) over `self`, collecting every problem
  /// in `reader`. Keys `name` and `preset` are skipped (the caller reads them).
  mutating func apply(_ object: [ConfigValue.Member], at path: String, reader: inout _ConfigReader)
  {
    for member in object {
      let here = "\(path).\(member.key)"
      let value = member.value
      switch member.key {
      case "name", "preset": continue
      case "gate":
        guard let entries = reader.object(value, at: here) else { continue }
        for entry in entries {
          let at = "\(here).\(entry.key)"
          guard
            let kind = reader.enumValue(
              ScreenKind.self, .string(entry.key), at: at, what: "screen kind"),
            let rule = reader.enumValue(GateRule.self, entry.value, at: at, what: "gate rule")
          else { continue }
          gate[kind.index] = rule
        }
      case "gate_at_launch": reader.bool(value, at: here).map { gateAtLaunch = $0 }
      case "gate_overrides":
        guard let items = reader.array(value, at: here) else { continue }
        var overrides: [GateOverride] = []
        for (index, item) in items.enumerated() {
          let at = "\(here)[\(index)]"
          guard reader.object(item, at: at, keys: ["reason", "kind", "allowed"]) != nil else {
            continue
          }
          let reason = reader.required(item, "reason", at: at).flatMap {
            reader.reason($0, at: "\(at).reason")
          }
          let kind = reader.required(item, "kind", at: at).flatMap {
            reader.enumValue(ScreenKind.self, $0, at: "\(at).kind", what: "screen kind")
          }
          let allowed = reader.required(item, "allowed", at: at).flatMap {
            reader.bool($0, at: "\(at).allowed")
          }
          if let reason, let kind, let allowed {
            overrides.append(GateOverride(reason: reason, kind: kind, allowed: allowed))
          }
        }
        gateOverrides = overrides
      case "triggers":
        guard let items = reader.array(value, at: here) else { continue }
        var result: Triggers = []
        let names = Triggers.named.map(\.name)
        for (index, item) in items.enumerated() {
          let at = "\(here)[\(index)]"
          guard let name = reader.string(item, at: at) else { continue }
          if let found = Triggers.named.first(where: { $0.name == name }) {
            result.insert(found.trigger)
          } else {
            reader.unknownName(name, at: at, what: "trigger", valid: names)
          }
        }
        triggers = result
      case "checkpoints":
        guard let items = reader.array(value, at: here) else { continue }
        checkpoints = Set(
          items.enumerated().compactMap { index, item in
            reader.enumValue(ScreenKind.self, item, at: "\(here)[\(index)]", what: "screen kind")
          })
      case "reason_filter":
        if value == .null {
          reasonFilter = nil
          continue
        }
        guard let items = reader.array(value, at: here) else { continue }
        reasonFilter = Set(
          items.enumerated().compactMap { index, item in
            reader.reason(item, at: "\(here)[\(index)]")
          })
      case "ordering":
        reader.enumValue(Ordering.self, value, at: here, what: "ordering").map { ordering = $0 }
      case "requires_active_scene": reader.bool(value, at: here).map { requiresActiveScene = $0 }
      case "sequential_batch": reader.bool(value, at: here).map { sequentialBatch = $0 }
      case "refuses_concurrent_show":
        reader.bool(value, at: here).map { refusesConcurrentShow = $0 }
      case "on_failure":
        reader.enumValue(FailureHandling.self, value, at: here, what: "failure handling").map {
          onFailure = $0
        }
      case "stops_batch_without_scene":
        reader.bool(value, at: here).map { stopsBatchWithoutScene = $0 }
      case "removes_displayed": reader.bool(value, at: here).map { removesDisplayed = $0 }
      case "retries_on_scene_activation":
        reader.bool(value, at: here).map { retriesOnSceneActivation = $0 }
      case "retry_backoff":
        if value == .null {
          retryBackoff = nil
          continue
        }
        guard reader.object(value, at: here, keys: ["initial", "maximum"]) != nil else { continue }
        let initial = reader.required(value, "initial", at: here).flatMap {
          reader.duration($0, at: "\(here).initial", positive: true)
        }
        let maximum = reader.required(value, "maximum", at: here).flatMap {
          reader.duration($0, at: "\(here).maximum", positive: true)
        }
        if let initial, let maximum {
          if maximum < initial {
            reader.issue(at: "\(here).maximum", "must not be shorter than initial; raise it")
          } else {
            retryBackoff = Backoff(initial: initial, maximum: maximum)
          }
        }
      case "ceilings":
        guard let entries = reader.object(value, at: here) else { continue }
        for entry in entries {
          let at = "\(here).\(entry.key)"
          guard let reason = reader.reason(.string(entry.key), at: at) else { continue }
          if entry.value == .null {
            ceilings[reason] = nil
          } else if let seconds = reader.duration(entry.value, at: at, positive: true) {
            ceilings[reason] = seconds
          }
        }
      case "ceiling_clock":
        reader.enumValue(CeilingClock.self, value, at: here, what: "ceiling clock").map {
          ceilingClock = $0
        }
      case "forcing":
        if value == .string("immediate") {
          forcing = .immediate
        } else if case .object = value, let inner = value["boundary_first"] {
          _ = reader.object(value, at: here, keys: ["boundary_first"])
          _ = reader.object(inner, at: "\(here).boundary_first", keys: ["grace"])
          if let grace = reader.required(inner, "grace", at: "\(here).boundary_first").flatMap({
            reader.duration($0, at: "\(here).boundary_first.grace", positive: false)
          }) {
            forcing = .boundaryFirst(grace: grace)
          }
        } else {
          reader.issue(
            at: here,
            "must be \"immediate\" or {\"boundary_first\": {\"grace\": \"6h\"}}, not \(value.typeName)"
          )
        }
      case "deadline_margin":
        if value == .null {
          deadlineMargin = nil
        } else if let seconds = reader.duration(value, at: here, positive: false) {
          deadlineMargin = seconds
        }
      case "deduplicates": reader.bool(value, at: here).map { deduplicates = $0 }
      case "shows_unknown_reasons": reader.bool(value, at: here).map { showsUnknownReasons = $0 }
      case "sheets_per_break":
        if value == .null {
          sheetsPerBreak = nil
        } else if let count = reader.integer(value, at: here, in: 1...1000) {
          sheetsPerBreak = count
        }
      case "urgent_consent": applyUrgentConsent(value, at: here, reader: &reader)
      default:
        reader.unknownName(
          member.key, at: here, what: "policy key", valid: ["name", "preset"] + Self.keys)
      }
    }
  }
}

/// Reads typed values out of a ``ConfigValue``, recording a problem for each mismatch.
struct _ConfigReader {
  var issues: [ConfigIssue]
  /// Candidate names left to compare against misspellings (see ``suggestion(for:in:)``).
  var suggestionBudget: Int

  mutating func issue(at path: String, _ message: String) {
    issues.append(ConfigIssue(path: path, message: message))
  }

  /// The closest valid name to a misspelled one (``Spelling/closest(to:in:)``).
  ///
  /// Bounded work on hostile input: names longer than 64 bytes get no suggestion (they are no
  /// typo, and comparing them costs their length times each candidate's), and once
  /// ``suggestionBudget`` comparisons are spent, none does.
  mutating func suggestion(for name: String, in candidates: [String]) -> String? {
    guard name.utf8.count <= 64, suggestionBudget >= candidates.count else { return nil }
    suggestionBudget -= candidates.count
    return Spelling.closest(to: name, in: candidates)
  }

  mutating func unknownName(_ name: String, at path: String, what: String, valid: [String]) {
    var message = "unknown \(what) '\(name)'"
    if let near = suggestion(for: name, in: valid) {
      message += "; did you mean '\(near)'?"
    } else {
      message += "; valid: " + valid.joined(separator: ", ")
    }
    issue(at: path, message)
  }

  mutating func object(
    _ value: ConfigValue, at path: String, keys: [String]? = nil
  )
    -> [ConfigValue.Member]?
  {
    guard case .object(let members) = value else {
      issue(at: path, "must be an object, not \(value.typeName)")
      return nil
    }
    if let keys {
      for member in members where !keys.contains(member.key) {
        unknownName(member.key, at: "\(path).\(member.key)", what: "key", valid: keys)
      }
    }
    return members
  }

  mutating func required(_ value: ConfigValue, _ key: String, at path: String) -> ConfigValue? {
    guard let found = value[key] else {
      issue(at: path, "missing key '\(key)'; add it")
      return nil
    }
    return found
  }

  mutating func array(_ value: ConfigValue, at path: String) -> [ConfigValue]? {
    guard case .array(let items) = value else {
      issue(at: path, "must be an array, not \(value.typeName)")
      return nil
    }
    return items
  }

  mutating func string(_ value: ConfigValue, at path: String) -> String? {
    guard case .string(let text) = value else {
      issue(at: path, "must be a string, not \(value.typeName)")
      return nil
    }
    return text
  }

  mutating func bool(_ value: ConfigValue, at path: String) -> Bool? {
    guard case .bool(let flag) = value else {
      issue(at: path, "must be true or false, not \(value.typeName)")
      return nil
    }
    return flag
  }

  mutating func integer(_ value: ConfigValue, at path: String, in range: ClosedRange<Int>) -> Int? {
    guard case .number(let number) = value, number == number.rounded(),
      number >= Double(range.lowerBound), number <= Double(range.upperBound)
    else {
      issue(at: path, "must be a whole number from \(range.lowerBound) to \(range.upperBound)")
      return nil
    }
    return Int(number)
  }

  mutating func duration(_ value: ConfigValue, at path: String, positive: Bool) -> Double? {
    let seconds: Double
    switch value {
    case .number(let number): seconds = number
    case .string(let text):
      do {
        seconds = try DurationText.seconds(in: text)
      } catch {
        issue(at: path, error.message)
        return nil
      }
    default:
      issue(
        at: path, "must be a duration such as \"12h\" or a number of seconds, not \(value.typeName)"
      )
      return nil
    }
    guard seconds.isFinite, positive ? seconds > 0 : seconds >= 0 else {
      issue(at: path, "must be \(positive ? "positive" : "zero or more"); give e.g. \"12h\"")
      return nil
    }
    return seconds
  }

  mutating func reason(_ value: ConfigValue, at path: String) -> Reason? {
    guard let name = string(value, at: path) else { return nil }
    if let reason = Reason(name: name) { return reason }
    unknownName(
      name, at: path, what: "reason", valid: Reason.known.map(\.name) + ["unknown_<raw value>"])
    return nil
  }

  mutating func enumValue<E: RawRepresentable & CaseIterable>(
    _ type: E.Type, _ value: ConfigValue, at path: String, what: String
  ) -> E? where E.RawValue == String {
    guard let name = string(value, at: path) else { return nil }
    if let found = E(rawValue: name) { return found }
    unknownName(name, at: path, what: what, valid: E.allCases.map(\.rawValue))
    return nil
  }
}
