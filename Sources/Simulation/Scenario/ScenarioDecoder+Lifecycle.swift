import MessageDeferral

// `lifecycle`: lifecycle phases by session index. Each phase may give some screens other
// transitions, returning users another entry mix, and the gap after its sessions another
// distribution. Read with the screens (its tables name them) and checked with their graph.

/// One phase as read; `nil` fields were invalid.
struct _PhaseDraft {
  var node: JSONNode
  var path: String
  var name: String?
  var fromSession: Int?
  var existingUsers = false
  /// Per screen named under `transitions`: the screen (when known) and its table.
  var overrides: [_OverrideDraft] = []
  /// `nil` when unreadable; empty without `returning_mix`.
  var returningMix: [Entries.Weighted]? = []
  var gap: DistributionSpec?
  /// Whether `gap` was given (a given one that is unreadable leaves ``gap`` `nil`).
  var hasGap = false
  var isResolved: Bool {
    name != nil && fromSession != nil && returningMix != nil && (!hasGap || gap != nil)
      && overrides.allSatisfy(\.isResolved)
  }
}

/// A screen's table in a phase.
struct _OverrideDraft {
  var screenName: String
  var path: String
  var node: JSONNode
  var position: SourcePosition
  var screen: Int?
  var transitions: [_TransitionDraft]?
  var isResolved: Bool {
    screen != nil && transitions?.allSatisfy { $0.resolved != nil } == true
  }
}

extension _ScenarioDecoder {
  /// At most this many phases: each one is a row of tables per screen in the engine.
  static let maximumPhases = 100
  /// The largest `from_session` (a user with more sessions than this in a horizon is an error
  /// in the file, not a phase).
  static let maximumPhaseSession = 1_000_000

  /// Reads `lifecycle`: a non-empty array of phases, `from_session` strictly increasing, names
  /// unique, at most one with `existing_users`. `index` is `nil` when the screens' names are
  /// not usable (then tables are read but not resolved).
  mutating func readLifecycle(
    _ node: JSONNode, at path: String, drafts: [_ScreenDraft], index: [String: Int]?
  ) -> [_PhaseDraft]? {
    let got: String
    if case .array(let elements) = node.value {
      got = elements.isEmpty ? "an empty one" : "\(elements.count) of them"
    } else {
      got = node.typeName
    }
    guard case .array(let elements) = node.value, !elements.isEmpty,
      elements.count <= Self.maximumPhases
    else {
      report(
        path, node,
        "must be a non-empty array of at most \(Self.maximumPhases) phases, got \(got)"
          + "; such as [{\"name\": \"returning\", \"from_session\": 2, \"transitions\": "
          + "{\"browse\": {\"cart\": 0.05, \"background\": 0.95}}}]")
      return nil
    }
    var phases: [_PhaseDraft] = []
    for (position, element) in elements.enumerated() {
      guard
        let phase = readPhase(
          element, at: _JSONPath.element(path, position), drafts: drafts, index: index)
      else { return nil }
      phases.append(phase)
    }
    var names: [String: Int] = [:]
    for (position, phase) in phases.enumerated() {
      if let name = phase.name {
        if let first = names[name] {
          report(
            _JSONPath.member(phase.path, "name"), phase.node["name"],
            "duplicate phase name '\(name)' (also \(phases[first].path)); give each phase a "
              + "unique name")
        } else {
          names[name] = position
        }
      }
      guard position > 0, let from = phase.fromSession,
        let before = phases[position - 1].fromSession, from <= before
      else { continue }
      report(
        _JSONPath.member(phase.path, "from_session"), phase.node["from_session"],
        "must be greater than the previous phase's from_session (\(before)), got \(from); list "
          + "phases in the order users reach them, each from a later session")
    }
    let existing = phases.indices.filter { phases[$0].existingUsers }
    for extra in existing.dropFirst() {
      report(
        _JSONPath.member(phases[extra].path, "existing_users"),
        phases[extra].node["existing_users"],
        "only one phase holds existing users (also \(phases[existing[0]].path)); remove "
          + "'existing_users' from all but one")
    }
    return phases
  }

  mutating func readPhase(
    _ node: JSONNode, at path: String, drafts: [_ScreenDraft], index: [String: Int]?
  ) -> _PhaseDraft? {
    let keys: [_Key] = [
      .required("name", "\"returning\""), .required("from_session", "2"),
      .optional("transitions"), .optional("returning_mix"), .optional("gap"),
      .optional("existing_users"),
    ]
    guard let object = readObject(node, at: path, keys: keys, what: "a lifecycle phase") else {
      return nil
    }
    var phase = _PhaseDraft(node: node, path: path)
    phase.name = field(object, "name") { $0.readName($1, at: $2, example: "returning") }
    phase.fromSession = field(object, "from_session") {
      $0.readInteger(
        $1, at: $2, bounds: 1...Self.maximumPhaseSession,
        what: "the user's session (1: the first) from which this phase applies")
    }
    if let flag = object["existing_users"] {
      if case .bool(let value) = flag.value {
        phase.existingUsers = value
      } else {
        report(
          object.path("existing_users"), flag,
          "must be true or false, got \(flag.typeName); true puts existing users in this "
            + "phase at their first session of the horizon")
      }
    }
    if let gapNode = object["gap"] {
      phase.hasGap = true
      phase.gap = readDistribution(
        gapNode, at: object.path("gap"),
        example: "{\"lognormal\": {\"median\": \"20h\", "
          + "\"sigma\": 1.0}}")
    }
    if let mixNode = object["returning_mix"] {
      phase.returningMix = readReturningMix(
        mixNode, at: object.path("returning_mix"), drafts, index)
    }
    if let tablesNode = object["transitions"] {
      phase.overrides = readOverrides(
        tablesNode, at: object.path("transitions"), drafts: drafts, index: index)
    }
    return phase
  }

  /// A phase's `transitions`: `{"screen": {"target": probability, ...}, ...}`, each screen
  /// once, not the launch screen.
  mutating func readOverrides(
    _ node: JSONNode, at path: String, drafts: [_ScreenDraft], index: [String: Int]?
  ) -> [_OverrideDraft] {
    guard case .object(let members) = node.value, !members.isEmpty else {
      report(
        path, node,
        "must be a non-empty object mapping screen names to transitions tables, got "
          + (node.value == .object([]) ? "an empty one" : node.typeName)
          + "; such as {\"browse\": {\"cart\": 0.075, \"background\": 0.925}}")
      return [_OverrideDraft(screenName: "", path: path, node: node, position: node.position)]
    }
    let names = drafts.compactMap(\.name)
    let screenList = Self.list(names)
    var overrides: [_OverrideDraft] = []
    for (member, memberPath) in distinctMembers(
      members, at: path,
      duplicate: {
        "duplicate screen '\($0)'; keep only one table for it"
      })
    {
      var override = _OverrideDraft(
        screenName: member.key, path: memberPath, node: member.value,
        position: member.keyPosition)
      override.transitions = readTransitions(member.value, at: memberPath)
      if let index {
        if let screen = index[member.key] {
          if drafts[screen].kind == .launch {
            problems.append(
              ScenarioErrors.Problem(
                path: memberPath,
                message: "the launch screen has no transitions: after the splash, the entries "
                  + "decide (a phase sets them with 'returning_mix'); remove '\(member.key)'",
                position: member.keyPosition))
          } else {
            override.screen = screen
          }
        } else {
          let near = suggestion(for: member.key, in: names).map { "did you mean '\($0)'? " } ?? ""
          problems.append(
            ScenarioErrors.Problem(
              path: memberPath,
              message: "unknown screen '\(member.key)'; \(near)a key of a phase's transitions "
                + "names the screen whose table changes (screens: \(screenList))",
              position: member.keyPosition))
        }
        if var transitions = override.transitions {
          resolve(
            &transitions, drafts, index: index, targets: names + [Self.background],
            screenList: screenList)
          override.transitions = transitions
        }
      }
      overrides.append(override)
    }
    return overrides
  }

  /// Every phase that changes a table: from every state a session can reach in it, the
  /// background stays reachable (a phase's table can trap a user where the scenario's own
  /// tables would not).
  mutating func checkPhaseTraps(_ drafts: [_ScreenDraft], phases: [_PhaseDraft], names: [String]) {
    for phase in phases where !phase.overrides.isEmpty {
      var own: [Int: _OverrideDraft] = [:]
      for override in phase.overrides {
        if let screen = override.screen { own[screen] = override }
      }
      checkMemoryTraps(
        drafts, names: names, phase: phase.name ?? "?",
        own: { screen in
          own[screen].map { ($0.transitions ?? [], $0.path, $0.node) }
        })
    }
  }

  /// The scenario's phases, resolved (``Scenario/phases``), and the index of the one holding
  /// existing users; `nil` when one is unresolved.
  static func resolvedPhases(_ drafts: [_PhaseDraft]) -> (phases: [LifecyclePhase], existing: Int)?
  {
    var phases: [LifecyclePhase] = []
    for draft in drafts {
      guard let name = draft.name, let from = draft.fromSession, let mix = draft.returningMix
      else { return nil }
      var overrides: [LifecyclePhase.Override] = []
      for override in draft.overrides {
        guard let screen = override.screen, let table = resolved(override.transitions ?? [])
        else { return nil }
        overrides.append(LifecyclePhase.Override(screen: screen, transitions: table))
      }
      phases.append(
        LifecyclePhase(
          name: name, fromSession: from, transitions: overrides, returningMix: mix,
          gap: draft.gap))
    }
    let existing = drafts.firstIndex { $0.existingUsers } ?? max(0, drafts.count - 1)
    return (phases, existing)
  }
}
