import MessageDeferral

// Screens, entries and the checks on the screen graph: targets exist, probabilities sum to
// 1, every screen is reachable, `background` is reachable from every screen, onboarding can
// be completed.

/// A screen as read, before its transitions are resolved; `nil` fields were invalid.
struct _ScreenDraft {
  var node: JSONNode
  var path: String
  var name: String?
  var kind: ScreenKind?
  var dwell: DistributionSpec?
  /// `nil` when absent or unreadable.
  var transitions: [_TransitionDraft]?
  var transitionsPath: String
  /// `transitions_after`, in file order (empty without the key); `nil` when unreadable.
  var contexts: [_ContextDraft]? = []
}

/// One table of `transitions_after`: where users go when they came from `previous`.
struct _ContextDraft {
  var previous: String
  var path: String
  var node: JSONNode
  var position: SourcePosition
  /// `nil` when unreadable.
  var transitions: [_TransitionDraft]?
  var resolvedPrevious: Int?
  var isResolved: Bool {
    resolvedPrevious != nil && transitions?.allSatisfy { $0.resolved != nil } == true
  }
}

struct _TransitionDraft {
  var target: String
  var probability: Double?
  var path: String
  var position: SourcePosition
  var resolved: ScreenTarget?
}

extension _ScenarioDecoder {
  static let screenKinds = ScreenKind.allCases.map(\.rawValue)
  /// The transition target that ends a session.
  static let background = "background"

  /// Reads `screens` and `entries` and checks the graph they form.
  mutating func readScreens(
    _ screensNode: JSONNode?, screensPath: String, entriesNode: JSONNode?, entriesPath: String,
    phasesNode: JSONNode? = nil, phasesPath: String = "$.lifecycle"
  ) -> (screens: [Screen], entries: Entries, phases: [LifecyclePhase], existingPhase: Int)? {
    var drafts: [_ScreenDraft] = []
    var screensRead = false
    if let screensNode {
      if case .array(let elements) = screensNode.value, !elements.isEmpty {
        screensRead = true
        for (index, element) in elements.enumerated() {
          if let draft = readScreen(element, at: _JSONPath.element(screensPath, index)) {
            drafts.append(draft)
          } else {
            screensRead = false
          }
        }
      } else {
        report(
          screensPath, screensNode,
          "must be a non-empty array of screens, got "
            + (screensNode.typeName == "an array" ? "an empty one" : screensNode.typeName)
            + "; such as [{\"name\": \"splash\", \"kind\": \"launch\", \"dwell\": ...}, ...]")
      }
    }
    let namesRead = screensRead && drafts.allSatisfy { $0.name != nil }
    var index: [String: Int] = [:]
    for (position, draft) in drafts.enumerated() {
      guard let name = draft.name else { continue }
      if name == Self.background {
        report(
          _JSONPath.member(draft.path, "name"), draft.node["name"],
          "'background' is reserved for leaving the app; name the screen something else")
      } else if let first = index[name] {
        report(
          _JSONPath.member(draft.path, "name"), draft.node["name"],
          "duplicate screen name '\(name)' (also \(drafts[first].path)); give each screen a "
            + "unique name")
      } else {
        index[name] = position
      }
    }
    let namesUnique = namesRead && index.count == drafts.count
    if namesUnique { resolveTransitions(&drafts, index: index) }
    let entries = readEntries(
      entriesNode, at: entriesPath, drafts: drafts, index: namesUnique ? index : nil)
    let phases = phasesNode.map {
      readLifecycle($0, at: phasesPath, drafts: drafts, index: namesUnique ? index : nil)
    }

    let graphReady =
      namesUnique && entries != nil
      && drafts.allSatisfy { draft in
        draft.kind != nil
          && (draft.kind == .launch || draft.transitions?.allSatisfy { $0.resolved != nil } == true)
          && draft.contexts?.allSatisfy(\.isResolved) == true
      }
      && phases.map { $0?.allSatisfy(\.isResolved) == true } != false
    if graphReady, let entries {
      checkGraph(
        drafts, entries: entries, entriesPath: entriesPath, newUserNode: entriesNode?["new_user"],
        phases: (phases ?? []) ?? [])
    }

    guard let entries, namesUnique else { return nil }
    var resolvedPhases: (phases: [LifecyclePhase], existing: Int) = ([], 0)
    if let phases {
      guard let drafted = phases, let read = Self.resolvedPhases(drafted) else { return nil }
      resolvedPhases = read
    }
    var screens: [Screen] = []
    for draft in drafts {
      guard let name = draft.name, let kind = draft.kind, let dwell = draft.dwell else {
        return nil
      }
      guard let transitions = Self.resolved(draft.transitions ?? []), let drafted = draft.contexts
      else { return nil }
      var contexts: [Screen.Context] = []
      for context in drafted {
        guard let previous = context.resolvedPrevious,
          let table = Self.resolved(context.transitions ?? [])
        else { return nil }
        contexts.append(Screen.Context(previous: previous, transitions: table))
      }
      screens.append(
        Screen(
          name: name, kind: kind, dwell: dwell, transitions: transitions,
          transitionsAfter: contexts))
    }
    return (screens, entries, resolvedPhases.phases, resolvedPhases.existing)
  }

  /// The transitions of a draft, `nil` if one is unresolved or its probability unreadable.
  static func resolved(_ drafts: [_TransitionDraft]) -> [Screen.Transition]? {
    var transitions: [Screen.Transition] = []
    for transition in drafts {
      guard let target = transition.resolved, let probability = transition.probability else {
        return nil
      }
      transitions.append(Screen.Transition(target: target, probability: probability))
    }
    return transitions
  }

  /// Reads one screen object; `nil` only if it is not an object.
  mutating func readScreen(_ node: JSONNode, at path: String) -> _ScreenDraft? {
    let keys: [_Key] = [
      .required("name", "\"home\""),
      .required("kind", "one of " + Self.screenKinds.joined(separator: ", ")),
      .required("dwell", "{\"lognormal\": {\"median\": \"30s\", \"sigma\": 0.8}}"),
      .optional("transitions"), .optional("transitions_after"),
    ]
    guard let object = readObject(node, at: path, keys: keys, what: "a screen") else { return nil }
    var draft = _ScreenDraft(node: node, path: path, transitionsPath: object.path("transitions"))
    draft.name = field(object, "name") { $0.readName($1, at: $2, example: "home") }
    draft.kind = field(object, "kind") {
      $0.readEnumeration($1, at: $2, cases: Self.screenKinds, what: "screen kind")
    }.flatMap(ScreenKind.init(rawValue:))
    draft.dwell = field(object, "dwell") {
      $0.readDistribution(
        $1, at: $2, example: "{\"lognormal\": {\"median\": \"30s\", \"sigma\": 0.8}}")
    }
    if let transitionsNode = object["transitions"] {
      if draft.kind == .launch {
        // `{}` is harmless; anything else suggests a misunderstanding worth correcting.
        if transitionsNode.value != .object([]) {
          report(
            draft.transitionsPath, transitionsNode,
            "the launch screen has no transitions of its own: after the splash, "
              + "entries.new_user or entries.returning decides what follows; remove 'transitions'")
        }
      } else {
        draft.transitions = readTransitions(transitionsNode, at: draft.transitionsPath)
      }
    } else if let kind = draft.kind, kind != .launch {
      report(
        path, node,
        "missing key 'transitions'; add where users go next, such as \"transitions\": "
          + "{\"home\": 0.7, \"background\": 0.3}")
    }
    if draft.kind == .launch, draft.transitions == nil { draft.transitions = [] }
    if let afterNode = object["transitions_after"] {
      let afterPath = object.path("transitions_after")
      if draft.kind == .launch {
        report(
          afterPath, afterNode,
          "the launch screen has no transitions of its own: after the splash, "
            + "entries.new_user or entries.returning decides what follows; remove "
            + "'transitions_after'")
      } else {
        draft.contexts = readContexts(afterNode, at: afterPath)
      }
    }
    return draft
  }

  /// Reads `transitions_after`: `{"previous screen": {"target": probability, ...}, ...}`.
  mutating func readContexts(_ node: JSONNode, at path: String) -> [_ContextDraft]? {
    guard case .object(let members) = node.value, !members.isEmpty else {
      report(
        path, node,
        "must be a non-empty object mapping the screen shown just before this one to a "
          + "transitions table, got \(node.value == .object([]) ? "an empty one" : node.typeName); "
          + "such as {\"cart\": {\"payment\": 0.6, \"background\": 0.4}}")
      return nil
    }
    var contexts: [_ContextDraft] = []
    let distinct = distinctMembers(members, at: path) {
      "duplicate previous screen '\($0)'; keep only one table for it"
    }
    for (member, memberPath) in distinct {
      contexts.append(
        _ContextDraft(
          previous: member.key, path: memberPath, node: member.value,
          position: member.keyPosition,
          transitions: readTransitions(member.value, at: memberPath)))
    }
    return contexts
  }

  /// An object's members in file order with their paths, each key once: a repeated key is
  /// reported (`duplicate` writes the message for it) and left out.
  mutating func distinctMembers(
    _ members: [JSONNode.Member], at path: String, duplicate: (String) -> String
  ) -> [(member: JSONNode.Member, path: String)] {
    var seen: Set<String> = []
    var distinct: [(member: JSONNode.Member, path: String)] = []
    for member in members {
      let memberPath = _JSONPath.member(path, member.key)
      guard seen.insert(member.key).inserted else {
        problems.append(
          ScenarioErrors.Problem(
            path: memberPath, message: duplicate(member.key), position: member.keyPosition))
        continue
      }
      distinct.append((member, memberPath))
    }
    return distinct
  }

  /// Reads `{"target": probability, ...}` in file order and checks the sum.
  mutating func readTransitions(_ node: JSONNode, at path: String) -> [_TransitionDraft]? {
    guard case .object(let members) = node.value else {
      report(
        path, node,
        "must be an object mapping screen names (or \"background\") to probabilities, got "
          + "\(node.typeName); such as {\"home\": 0.7, \"background\": 0.3}")
      return nil
    }
    var transitions: [_TransitionDraft] = []
    let distinct = distinctMembers(members, at: path) {
      "duplicate target '\($0)'; keep only one of them"
    }
    for (member, memberPath) in distinct {
      transitions.append(
        _TransitionDraft(
          target: member.key, probability: readProbability(member.value, at: memberPath),
          path: memberPath, position: member.keyPosition))
    }
    let probabilities = transitions.compactMap(\.probability)
    if transitions.isEmpty {
      report(
        path, node,
        "must list at least one transition; a screen needs somewhere to go, such as "
          + "{\"home\": 0.7, \"background\": 0.3}")
      return nil  // as if unreadable: the graph checks would only repeat the problem
    } else if probabilities.count == members.count {
      let sum = probabilities.reduce(0, +)
      if abs(sum - 1) > 1e-9 {
        let gap = 1 - sum
        report(
          path, node,
          "transition probabilities sum to \(Self.rounded(sum)), not 1; "
            + (gap > 0
              ? "add \(Self.rounded(gap)) to one of them (to 'background', for example)"
              : "take \(Self.rounded(-gap)) from one of them"))
      }
    }
    return transitions
  }

  /// A sum or a difference of probabilities for messages, to 9 decimals (the tolerance).
  static func rounded(_ value: Double) -> String {
    DurationText.plainNumber((value * 1e9).rounded() / 1e9)
  }

  /// At most `limit` names, then `...`: messages stay short for files with many screens.
  static func list(_ names: [String], limit: Int = 12) -> String {
    names.prefix(limit).joined(separator: ", ") + (names.count > limit ? ", ..." : "")
  }

  /// Resolves each target to a screen index or `background`, reporting unknown targets and
  /// transitions into a launch screen; and each `transitions_after` key to a screen.
  mutating func resolveTransitions(_ drafts: inout [_ScreenDraft], index: [String: Int]) {
    let names = drafts.compactMap(\.name)
    // Once, not per unknown target: a file with many of them would take quadratic time.
    let screenList = Self.list(names)
    let targets = names + [Self.background]
    for screen in drafts.indices {
      if var transitions = drafts[screen].transitions {
        resolve(&transitions, drafts, index: index, targets: targets, screenList: screenList)
        drafts[screen].transitions = transitions
      }
      guard var contexts = drafts[screen].contexts else { continue }
      for position in contexts.indices {
        if var transitions = contexts[position].transitions {
          resolve(&transitions, drafts, index: index, targets: targets, screenList: screenList)
          contexts[position].transitions = transitions
        }
        let previous = contexts[position].previous
        let problem: String
        if let found = index[previous] {
          guard drafts[found].kind == .launch else {
            contexts[position].resolvedPrevious = found
            continue
          }
          problem =
            "the splash is not counted as a previous screen: the first screen after it uses "
            + "'transitions'; remove '\(previous)'"
        } else if previous == Self.background {
          problem =
            "'background' is not a screen: a session's first screen has no previous one and "
            + "uses 'transitions'; remove 'background'"
        } else {
          let near = suggestion(for: previous, in: names).map { "did you mean '\($0)'? " } ?? ""
          problem =
            "unknown screen '\(previous)'; \(near)a key of transitions_after names the screen "
            + "shown just before this one (screens: \(screenList))"
        }
        problems.append(
          ScenarioErrors.Problem(
            path: contexts[position].path, message: problem,
            position: contexts[position].position))
      }
      drafts[screen].contexts = contexts
    }
  }

  /// Resolves one table's targets (``resolveTransitions(_:index:)``).
  mutating func resolve(
    _ transitions: inout [_TransitionDraft], _ drafts: [_ScreenDraft], index: [String: Int],
    targets: [String], screenList: String
  ) {
    for position in transitions.indices {
      let transition = transitions[position]
      if transition.target == Self.background {
        transitions[position].resolved = .background
      } else if let target = index[transition.target] {
        if drafts[target].kind == .launch {
          problems.append(
            ScenarioErrors.Problem(
              path: transition.path,
              message: "a transition cannot lead to the launch screen '\(transition.target)': "
                + "the splash only appears at a cold launch; go to 'background' instead",
              position: transition.position))
        } else {
          transitions[position].resolved = .screen(target)
        }
      } else {
        let suggestion =
          suggestion(for: transition.target, in: targets).map { "did you mean '\($0)'? " } ?? ""
        problems.append(
          ScenarioErrors.Problem(
            path: transition.path,
            message: "unknown screen '\(transition.target)'; \(suggestion)a transition leads to "
              + "a screen name or \"background\" (screens: \(screenList))",
            position: transition.position))
      }
    }
  }

  /// Reads `entries`; checks names only when `index` is known (all screen names valid).
  mutating func readEntries(
    _ node: JSONNode?, at path: String, drafts: [_ScreenDraft], index: [String: Int]?
  ) -> Entries? {
    guard let node else { return nil }
    let keys: [_Key] = [
      .required("cold_launch", "\"splash\""), .optional("new_user"),
      .required("returning", "\"home\""), .optional("returning_mix"),
    ]
    guard let object = readObject(node, at: path, keys: keys, what: "the first screens") else {
      return nil
    }
    func entry(_ decoder: inout _ScenarioDecoder, _ key: String) -> Int? {
      guard let valueNode = object[key] else { return nil }
      let entryPath = object.path(key)
      guard let name = decoder.readString(valueNode, at: entryPath, example: "\"home\"") else {
        return nil
      }
      guard let index else { return nil }
      guard let screen = index[name] else {
        let suggestion =
          decoder.suggestion(for: name, in: drafts.compactMap(\.name)).map {
            "did you mean '\($0)'? "
          }
          ?? ""
        decoder.report(
          entryPath, valueNode,
          "unknown screen '\(name)'; \(suggestion)screens: "
            + Self.list(drafts.compactMap(\.name)))
        return nil
      }
      guard let kind = drafts[screen].kind else { return nil }
      let problem: String? =
        switch key {
        case "cold_launch" where kind != .launch:
          "must name the splash screen (kind launch); '\(name)' is of kind \(kind.rawValue)"
        case "new_user" where kind != .onboarding:
          "must name the first onboarding screen (kind onboarding); '\(name)' is of kind "
            + "\(kind.rawValue)"
        case "returning" where kind == .launch || kind == .onboarding:
          "must name the screen users who have onboarded see after the splash (typically home), "
            + "not one of kind \(kind.rawValue)"
        default: nil
        }
      if let problem {
        decoder.report(entryPath, valueNode, problem)
        return nil
      }
      return screen
    }
    let coldLaunch = entry(&self, "cold_launch")
    var newUser = entry(&self, "new_user")
    let returning = entry(&self, "returning")
    if !object.has("new_user") {
      if newUserShare == 0 {
        // No user onboards: the entry is never used; the splash leads to `returning`.
        newUser = returning
      } else if newUserShare != nil {
        report(
          path, node,
          "missing key 'new_user'; add \"new_user\": \"onboarding_1\" (the first onboarding "
            + "screen), or set population.new_user_share to 0 if no user onboards")
      }
    }
    var mix: [Entries.Weighted] = []
    if let mixNode = object["returning_mix"] {
      guard let read = readReturningMix(mixNode, at: object.path("returning_mix"), drafts, index)
      else { return nil }
      mix = read
    }
    guard let coldLaunch, let newUser, let returning else { return nil }
    return Entries(
      coldLaunch: coldLaunch, newUser: newUser, returning: returning, returningMix: mix)
  }

  /// Reads `entries.returning_mix`: `{"home": 0.6, "feed": 0.4}`, screens a returning user may
  /// land on after the splash (not of kind launch or onboarding), probabilities summing to 1.
  mutating func readReturningMix(
    _ node: JSONNode, at path: String, _ drafts: [_ScreenDraft], _ index: [String: Int]?
  ) -> [Entries.Weighted]? {
    guard case .object(let members) = node.value, !members.isEmpty else {
      report(
        path, node,
        "must be a non-empty object mapping screen names to probabilities, such as "
          + "{\"home\": 0.6, \"feed\": 0.4}")
      return nil
    }
    var mix: [Entries.Weighted] = []
    var failed = false
    var seen: Set<String> = []
    for member in members {
      let memberPath = _JSONPath.member(path, member.key)
      let probability = readProbability(member.value, at: memberPath)
      guard seen.insert(member.key).inserted else {
        report(memberPath, member.value, "duplicate screen '\(member.key)'; keep only one of them")
        failed = true
        continue
      }
      guard let index else {
        failed = true
        continue
      }
      guard let screen = index[member.key] else {
        let near =
          suggestion(for: member.key, in: drafts.compactMap(\.name)).map {
            "did you mean '\($0)'? "
          } ?? ""
        report(
          memberPath, member.value,
          "unknown screen '\(member.key)'; \(near)screens: \(Self.list(drafts.compactMap(\.name)))")
        failed = true
        continue
      }
      if let kind = drafts[screen].kind, kind == .launch || kind == .onboarding {
        report(
          memberPath, member.value,
          "a returning user lands on a screen of another kind than \(kind.rawValue) after the "
            + "splash; remove '\(member.key)' from returning_mix")
        failed = true
        continue
      }
      guard let probability else {
        failed = true
        continue
      }
      mix.append(Entries.Weighted(screen: screen, probability: probability))
    }
    guard !failed else { return nil }
    let sum = mix.reduce(0) { $0 + $1.probability }
    if abs(sum - 1) > 1e-9 {
      report(
        path, node,
        "returning_mix probabilities sum to \(Self.rounded(sum)), not 1; make them sum to 1")
      return nil
    }
    return mix
  }

  /// Reachability, leaving and onboarding completion, on transitions with a positive
  /// probability (a transition of probability 0 never happens).
  mutating func checkGraph(
    _ drafts: [_ScreenDraft], entries: Entries, entriesPath: String, newUserNode: JSONNode?,
    phases: [_PhaseDraft] = []
  ) {
    let count = drafts.count
    var successors = [[Int]](repeating: [], count: count)
    var leaves = [Bool](repeating: false, count: count)
    for (screen, draft) in drafts.enumerated() {
      if draft.kind == .launch {
        successors[screen] = [entries.newUser, entries.returning]
        let mixes = [entries.returningMix] + phases.map { $0.returningMix ?? [] }
        for mix in mixes {
          for entry in mix where entry.probability > 0 && !successors[screen].contains(entry.screen)
          {
            successors[screen].append(entry.screen)
          }
        }
        continue
      }
      // `transitions_after` tables and phases' tables add their edges: the checks below run on
      // the union, ``checkContexts`` on the chain with memory, ``checkPhaseTraps`` per phase.
      let tables =
        [draft.transitions ?? []] + (draft.contexts ?? []).map { $0.transitions ?? [] }
        + phases.flatMap { phase in
          phase.overrides.filter { $0.screen == screen }.map { $0.transitions ?? [] }
        }
      for table in tables {
        for transition in table where (transition.probability ?? 1) > 0 {
          switch transition.resolved {
          case .screen(let target):
            if !successors[screen].contains(target) { successors[screen].append(target) }
          case .background: leaves[screen] = true
          case nil: break
          }
        }
      }
    }
    let names = drafts.map { $0.name ?? "?" }
    checkInstantCycles(drafts, successors: successors, names: names)
    if drafts.contains(where: { $0.contexts?.isEmpty == false }) {
      checkContexts(drafts, successors: successors, names: names)
    }
    checkPhaseTraps(drafts, phases: phases, names: names)

    let reachable = Set(
      Self.closure(
        from: [entries.coldLaunch, entries.newUser, entries.returning]
          + entries.returningMix.map(\.screen)
          + phases.flatMap { ($0.returningMix ?? []).map(\.screen) }
      ) {
        successors[$0]
      })
    for screen in 0..<count where !reachable.contains(screen) {
      report(
        drafts[screen].path, drafts[screen].node,
        "screen '\(names[screen])' can never be shown: no transition with a positive "
          + "probability leads to it from the entries ('\(names[entries.coldLaunch])', "
          + "'\(names[entries.newUser])', '\(names[entries.returning])'); add a transition to it "
          + "or remove it")
    }

    var predecessors = [[Int]](repeating: [], count: count)
    for (screen, targets) in successors.enumerated() {
      for target in targets { predecessors[target].append(screen) }
    }
    let canLeave = Set(Self.closure(from: (0..<count).filter { leaves[$0] }) { predecessors[$0] })
    for screen in 0..<count where !canLeave.contains(screen) && drafts[screen].kind != .launch {
      // The first few screens the user can reach from here, none of which leads out.
      let trapped = Self.closure(from: [screen], limit: 7) { successors[$0] }.map {
        "'\(names[$0])'"
      }
      let shown = Self.list(trapped, limit: 6)
      report(
        drafts[screen].transitionsPath, drafts[screen].node["transitions"] ?? drafts[screen].node,
        "from screen '\(names[screen])' the app can never go to the background: every path stays "
          + "among \(shown); add a transition to \"background\" or to a screen that leads there")
    }

    // Without new users (`new_user` left out) there is no onboarding to complete.
    var completes = entries.newUser == entries.returning
    _ = Self.closure(from: [entries.newUser]) { screen in
      var next: [Int] = []
      for target in successors[screen] {
        if drafts[target].kind == .onboarding { next.append(target) } else { completes = true }
      }
      return next
    }
    if !completes {
      report(
        _JSONPath.member(entriesPath, "new_user"), newUserNode,
        "onboarding can never be completed: no path from '\(names[entries.newUser])' along "
          + "onboarding screens reaches a screen of another kind; give the last onboarding "
          + "screen a transition to, for example, a paywall or home")
    }
  }

  /// With `transitions_after`: every table is used (its previous screen leads to its screen),
  /// and the chain with memory can always reach the background. The union of the tables
  /// (``checkGraph``) cannot see a trap a table makes: 'cart' leaves from its own table, but
  /// after 'offer' goes only to 'offer', which goes only to 'cart'. So the states here are
  /// pairs (screen, the screen before it in the session), at most one per edge.
  mutating func checkContexts(_ drafts: [_ScreenDraft], successors: [[Int]], names: [String]) {
    for (screen, draft) in drafts.enumerated() {
      for context in draft.contexts ?? [] {
        guard let previous = context.resolvedPrevious, !successors[previous].contains(screen)
        else { continue }
        report(
          context.path, context.node,
          "never used: no transition from '\(names[previous])' leads to '\(names[screen])'; "
            + "remove this table or add a transition from '\(names[previous])' to "
            + "'\(names[screen])'")
      }
    }
    checkMemoryTraps(drafts, names: names, phase: nil) { _ in nil }
  }

  /// Walks the chain on states (screen, the screen before it in the session), at most one per
  /// edge, and reports the first state that can never reach the background. The table used on
  /// a screen is its `transitions_after` table for the previous screen, else `own` (a phase's
  /// table, with its path and node), else its `transitions`. `phase` names the phase whose
  /// tables these are (`nil`: the scenario's own).
  mutating func checkMemoryTraps(
    _ drafts: [_ScreenDraft], names: [String], phase: String?,
    own: (Int) -> (table: [_TransitionDraft], path: String, node: JSONNode)?
  ) {
    let count = drafts.count
    /// The table used on `screen` after `previous` (``noScreen``: a session's first screen).
    func table(_ screen: Int, after previous: Int) -> [_TransitionDraft] {
      drafts[screen].contexts?.first { $0.resolvedPrevious == previous }?.transitions
        ?? own(screen)?.table ?? drafts[screen].transitions ?? []
    }
    // A state is screen × (count + 1) + previous + 1. A session's first screen can be any
    // screen a warm resume reopens, so every screen starts a state without a predecessor.
    let starts = (0..<count).filter { drafts[$0].kind != .launch }.map { $0 * (count + 1) }
    var next: [Int: [Int]] = [:]
    var leaving: [Int] = []
    let states = Self.closure(from: starts) { state in
      let screen = state / (count + 1)
      let previous = state % (count + 1) - 1
      var targets: [Int] = []
      for transition in table(screen, after: previous) where (transition.probability ?? 1) > 0 {
        switch transition.resolved {
        case .screen(let target): targets.append(target * (count + 1) + screen + 1)
        case .background: leaving.append(state)
        case nil: break
        }
      }
      next[state] = targets
      return targets
    }
    var before: [Int: [Int]] = [:]
    for (state, targets) in next {
      for target in targets { before[target, default: []].append(state) }
    }
    let canLeave = Set(Self.closure(from: leaving) { before[$0] ?? [] })
    guard let trapped = states.first(where: { !canLeave.contains($0) }) else { return }
    let screen = trapped / (count + 1)
    let previous = trapped % (count + 1) - 1
    let among = Self.closure(from: [trapped], limit: 7) { next[$0] ?? [] }
    let shown = Self.list(
      Array(Set(among.map { "'\(names[$0 / (count + 1)])'" })).sorted(), limit: 6)
    let context = drafts[screen].contexts?.first { $0.resolvedPrevious == previous }
    let phaseTable = context == nil ? own(screen) : nil
    let memory = drafts.contains { $0.contexts?.isEmpty == false }
    report(
      context?.path ?? phaseTable?.path ?? drafts[screen].transitionsPath,
      context?.node ?? phaseTable?.node ?? drafts[screen].node["transitions"]
        ?? drafts[screen].node,
      (phase.map { "in phase '\($0)', " } ?? "")
        + (previous >= 0 && memory
          ? "after '\(names[previous])', screen '\(names[screen])'"
          : "screen '\(names[screen])'" + (memory ? ", first in a session," : ""))
        + " can never lead to the background: "
        + (phase != nil ? "with this phase's tables" : "with transitions_after")
        + " every path stays among \(shown); add a transition to "
        + "\"background\" to this table or to one it leads to")
  }

  /// Every node reachable from `starts` (starts included), in discovery order; with a
  /// `limit`, only the first `limit` found.
  ///
  /// - Complexity: O(*V* + *E*); O(`limit` × out-degree) with a limit.
  static func closure(
    from starts: [Int], limit: Int = .max, next: (Int) -> [Int]
  ) -> [Int] {
    var seen = Set(starts)
    var order = starts
    var queue = starts[...]
    while let node = queue.popFirst(), order.count < limit {
      for target in next(node) where seen.insert(target).inserted {
        order.append(target)
        queue.append(target)
      }
    }
    return Array(order.prefix(limit))
  }
}
