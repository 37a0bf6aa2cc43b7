import MessageDeferral
import Simulation

extension _ScenarioDraft {
  /// The returning entry: the screen most often after a cold launch for users who had
  /// onboarded (``coldEntryCounts``), else the most frequent first screen of their sessions,
  /// else the first home screen.
  func returningScreen(among candidates: [Int]) -> Int? {
    let screens = map.screens
    let eligible = candidates.filter {
      screens[$0].kind != .launch && screens[$0].kind != .onboarding
    }
    for counts in [coldEntryCounts, observations.firstScreenReturning.map(Double.init)] {
      if let best = eligible.max(by: {
        counts[$0] != counts[$1] ? counts[$0] < counts[$1] : $0 > $1
      }),
        counts[best] > 0
      {
        return best
      }
    }
    return eligible.first { screens[$0].kind == .home } ?? eligible.first
  }

  /// Transition probabilities from counts (maximum likelihood: count over the screen's exits),
  /// with rare transitions pooled (``ScenarioFit/pooledCount``), and every screen reachable.
  mutating func fitTransitions() {
    let screens = map.screens
    let background = screens.count
    var included = Set(seen.filter { screens[$0].kind != .launch })
    var pooled = Set<[Int]>()
    for from in included {
      let row = observations.transitions[from]
      let total = row.reduce(0, +)
      for to in 0..<background where row[to] > 0 {
        if row[to] < ScenarioFit.pooledCount,
          Double(row[to]) < ScenarioFit.pooledShare * Double(total)
        {
          pooled.insert([from, to])
        }
      }
    }
    var returning = returningScreen(among: Array(included))
    // Restore pooled transitions (or drop screens) until every included screen is reachable.
    while true {
      let newUser = map.screenIndex[newUserName]
      var reachable = Set(
        [newUser, returning].compactMap { $0 } + entryMix(among: included).map(\.screen))
      var stack = Array(reachable)
      while let screen = stack.popLast() {
        for to in 0..<background
        where observations.transitions[screen][to] > 0 && !pooled.contains([screen, to])
          && included.contains(to) && !reachable.contains(to)
        {
          reachable.insert(to)
          stack.append(to)
        }
      }
      let unreachable = included.subtracting(reachable).sorted()
      guard let lost = unreachable.first else { break }
      let restorable = pooled.filter { $0[1] == lost && reachable.contains($0[0]) }
        .max { observations.transitions[$0[0]][$0[1]] < observations.transitions[$1[0]][$1[1]] }
      if let restorable {
        pooled.remove(restorable)
      } else {
        included.remove(lost)
        warnings.append(
          "screen '\(screens[lost].name)' left out: no transition into it was seen from a screen "
            + "users reach (it only starts sessions)")
        if returning == lost { returning = returningScreen(among: Array(included)) }
      }
    }
    returningMix = entryMix(among: included)
    if let returning {
      returningName = screens[returning].name
    } else {
      // A name of its own: the map may already call an onboarding screen `home`.
      let taken = Set(screens.map(\.name) + [launchName, newUserName])
      var name = "home"
      var suffix = 2
      while taken.contains(name) {
        name = "home-\(suffix)"
        suffix += 1
      }
      returningName = name
      screenLines.append(
        "    {\"name\": \(Self.quoted(name)), \"kind\": \"home\", \"dwell\": {\"lognormal\": "
          + "{\"median\": \"10s\", \"sigma\": 0.8}}, \"transitions\": {\"background\": 1}}")
      defaults.append(
        "a home screen '\(name)': the log shows no screen of another kind than onboarding")
    }
    if logShowsNoOnboarding {
      newUserName = returningName
    } else if map.screenIndex[newUserName] == nil {
      screenLines.append(
        "    {\"name\": \(Self.quoted(newUserName)), \"kind\": \"onboarding\", \"dwell\": "
          + "{\"fixed\": \"1s\"}, \"transitions\": {\(Self.quoted(returningName)): 1}}")
    }
    // Phases first: a new user's first session (after onboarding) would otherwise read as
    // memory ('home after the last onboarding screen'). A screen with phase tables gets no
    // `transitions_after` table.
    selectPhases(included: included, pooled: pooled)
    selectMemory(included: included, pooled: pooled)
    fitPositionOdds(included: included, pooled: pooled)
    for (index, summary) in summaries {
      let kind = screens[index].kind
      guard kind == .launch || included.contains(index) else { continue }
      let dwell =
        summary.chosen.map { Self.json($0.spec) } ?? Self.json(.lognormal(median: 10, sigma: 0.8))
      var line =
        "    {\"name\": \(Self.quoted(screens[index].name)), \"kind\": \"\(kind.rawValue)\", "
        + "\"dwell\": \(dwell)"
      if kind != .launch {
        // With `transitions_after` or phase tables the screen's own row is what they leave.
        let firstPlace =
          phaseFirstPlace(index, included, pooled)
          ?? positionOdds?.background[ScreenTriple(previous: noScreen, screen: index, next: 0)]
        line +=
          ", \"transitions\": {"
          + transitionText(
            from: index, row: phaseRest(defaultRow(index).counts, index),
            label: screens[index].name,
            firstPlace: firstPlace, included, pooled) + "}" + memoryText(index, included, pooled)
      }
      screenLines.append(line + "}")
    }
    keptScreens = (included, pooled)
  }

  /// `"target": probability, ...` for one row of screen `from` (its own, or a
  /// `transitions_after` table's), `row` its exits by target, and the report's table rows
  /// under `label`. `firstPlace`: with position odds, the row's background probability at the
  /// first place.
  mutating func transitionText(
    from: Int, row: [Int], label: String, firstPlace: Double?, _ included: Set<Int>,
    _ pooled: Set<[Int]>
  ) -> String {
    let screens = map.screens
    // The targets are the screen's own row's, whichever row is written: every table of a
    // screen has the same support, so `transitions_after` adds no edge and no trap.
    let support = observations.transitions[from]
    let kept = keptTargets(from, included, pooled)
    // The report lists every target seen (pooled ones at 0) and the kept ones.
    let targets = Set((0...screens.count).filter { support[$0] > 0 }).union(kept)
    let keptTotal = Double(kept.reduce(0) { $0 + max(1, row[$1]) })
    var raw: [Int: Double] = [:]
    for to in kept { raw[to] = Double(max(1, row[to])) / keptTotal }
    // With position odds, the background probability is the first place's (σ(a_s)).
    if let first = firstPlace, kept.count > 1, kept.contains(screens.count) {
      let others = kept.filter { $0 != screens.count }.reduce(0) { $0 + raw[$1]! }
      for to in kept where to != screens.count { raw[to]! *= (1 - first) / others }
      raw[screens.count] = first
    }
    var probabilities: [Int: Double] = [:]
    for to in kept { probabilities[to] = (raw[to]! * 1e6).rounded() / 1e6 }
    // The largest absorbs the rounding, so the probabilities sum to 1.
    let largest = kept.max { probabilities[$0]! < probabilities[$1]! }!
    let rest = kept.filter { $0 != largest }.reduce(0) { $0 + probabilities[$1]! }
    probabilities[largest] = ((1 - rest) * 1e6).rounded() / 1e6
    let parts = kept.map { to in
      let name = to == screens.count ? "background" : screens[to].name
      return "\(Self.quoted(name)): \(probabilities[to]!)"
    }
    for to in targets.sorted() {
      transitionRows.append(
        FittedTransition(
          from: label, to: to == screens.count ? "background" : screens[to].name,
          count: to <= screens.count ? row[to] : 0, probability: probabilities[to] ?? 0,
          pooled: probabilities[to] == nil))
    }
    return parts.joined(separator: ", ")
  }
}
