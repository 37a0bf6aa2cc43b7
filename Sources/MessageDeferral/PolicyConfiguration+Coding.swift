/// Reading a policy from a scenario file and writing one out (`deferral-sim policies --json`).
///
/// The keys are ``PolicyConfiguration/keys``, in the order ``PolicyConfiguration/configValue``
/// writes them; `scenarios/README.md` ("Policy keys") gives each one's values, default, meaning
/// and the presets that set it, and `scenarios/schema.json` its shape.
extension PolicyConfiguration {
  /// Every key a policy object may have, besides `name` and `preset`.
  public static let keys = [
    "gate", "gate_at_launch", "gate_overrides", "triggers", "checkpoints", "reason_filter",
    "ordering", "requires_active_scene", "sequential_batch", "refuses_concurrent_show",
    "displays_one_at_a_time", "on_failure", "stops_batch_without_scene", "removes_displayed",
    "removes_every_copy", "clears_after_call", "retries_on_scene_activation", "retry_backoff",
    "ceilings", "ceiling_clock", "forcing", "deadline_margin", "knows_deadlines", "deduplicates",
    "shows_unknown_reasons", "sheets_per_break", "listener_delay", "urgent_consent",
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
    members.append(member("checkpoints", checkpointsValue))
    members.append(
      member("reason_filter", reasonFilter.map { strings($0.sorted().map(\.name)) } ?? .null))
    members.append(member("ordering", .string(ordering.rawValue)))
    members.append(member("requires_active_scene", .bool(requiresActiveScene)))
    members.append(member("sequential_batch", .bool(sequentialBatch)))
    members.append(member("refuses_concurrent_show", .bool(refusesConcurrentShow)))
    members.append(member("displays_one_at_a_time", .bool(displaysOneAtATime)))
    members.append(member("on_failure", .string(onFailure.rawValue)))
    members.append(member("stops_batch_without_scene", .bool(stopsBatchWithoutScene)))
    members.append(member("removes_displayed", .bool(removesDisplayed)))
    members.append(member("removes_every_copy", .bool(removesEveryCopy)))
    members.append(member("clears_after_call", .bool(clearsAfterCall)))
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
    members.append(member("knows_deadlines", .bool(knowsDeadlines)))
    members.append(member("deduplicates", .bool(deduplicates)))
    members.append(member("shows_unknown_reasons", .bool(showsUnknownReasons)))
    members.append(
      member("sheets_per_break", sheetsPerBreak.map { .number(Double($0)) } ?? .null))
    members.append(member("listener_delay", listenerDelay.configValue))
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
        if let read = Self.readCheckpoints(value, at: here, reader: &reader) { checkpoints = read }
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
      case "displays_one_at_a_time":
        reader.bool(value, at: here).map { displaysOneAtATime = $0 }
      case "refuses_concurrent_show":
        reader.bool(value, at: here).map { refusesConcurrentShow = $0 }
      case "on_failure":
        reader.enumValue(FailureHandling.self, value, at: here, what: "failure handling").map {
          onFailure = $0
        }
      case "stops_batch_without_scene":
        reader.bool(value, at: here).map { stopsBatchWithoutScene = $0 }
      case "removes_displayed": reader.bool(value, at: here).map { removesDisplayed = $0 }
      case "removes_every_copy": reader.bool(value, at: here).map { removesEveryCopy = $0 }
      case "clears_after_call": reader.bool(value, at: here).map { clearsAfterCall = $0 }
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
      case "knows_deadlines": reader.bool(value, at: here).map { knowsDeadlines = $0 }
      case "deduplicates": reader.bool(value, at: here).map { deduplicates = $0 }
      case "shows_unknown_reasons": reader.bool(value, at: here).map { showsUnknownReasons = $0 }
      case "sheets_per_break":
        if value == .null {
          sheetsPerBreak = nil
        } else if let count = reader.integer(value, at: here, in: 1...1000) {
          sheetsPerBreak = count
        }
      case "listener_delay":
        if let delay = ListenerDelay.read(value, at: here, reader: &reader) {
          listenerDelay = delay
        }
      case "urgent_consent": applyUrgentConsent(value, at: here, reader: &reader)
      default:
        reader.unknownName(
          member.key, at: here, what: "policy key", valid: ["name", "preset"] + Self.keys)
      }
    }
  }
}
