import Simulation

/// How often sessions reopen on the previous session's last screen, against chance: the warm
/// share of a log without a splash.
///
/// Model: a later session is a warm resume with probability *w* (it reopens on the previous
/// session's last screen) or a cold launch (its first screen drawn from an entry law *E*,
/// whatever the last screen was). With *L* and *f* the shares of last and first screens over
/// the pairs, *f* = *w L* + (1 − *w*) *E*, and the share of pairs that match is
/// *m* = *w* + Σ *L f* − *w* Σ *L*², so *w* = (*m* − Σ *L f*) / (1 − Σ *L*²): the excess of
/// matches over their chance level Σ *L f*, scaled by how often two screens differ at all.
struct _WarmEstimate {
  var pairs: Int
  var matches: Int
  /// Σ *L f*: the share of matches if first and last screens were independent.
  var chance: Double
  /// 1 − Σ *L*²: 0 when every session ends on one screen (warm and cold then look alike).
  var spread: Double
  var share: Double
  /// √(*m*(1 − *m*)/*n*) / (1 − Σ *L*²), the binomial error of *m* carried through.
  var standardError: Double

  /// Fewer pairs, less spread or a larger error than these: the log cannot tell.
  static let minimumPairs = 30
  static let minimumSpread = 0.05
  static let maximumError = 0.1

  init?(pairs table: [[Int]]) {
    let n = table.reduce(0) { $0 + $1.reduce(0, +) }
    guard n > 0 else { return nil }
    let total = Double(n)
    let last = table.map { Double($0.reduce(0, +)) / total }
    let first = table.indices.map { column in
      Double(table.reduce(0) { $0 + $1[column] }) / total
    }
    let matches = table.indices.reduce(0) { $0 + table[$1][$1] }
    let m = Double(matches) / total
    pairs = n
    self.matches = matches
    chance = zip(last, first).reduce(0) { $0 + $1.0 * $1.1 }
    spread = 1 - last.reduce(0) { $0 + $1 * $1 }
    share = spread > 0 ? min(1, max(0, (m - chance) / spread)) : 0
    standardError = spread > 0 ? (m * (1 - m) / total).squareRoot() / spread : .infinity
  }

  /// Whether the log tells warm from cold (enough pairs, spread and precision).
  var decides: Bool {
    pairs >= Self.minimumPairs && spread >= Self.minimumSpread
      && standardError <= Self.maximumError
  }
}

extension _ScenarioDraft {
  /// Whether the log shows the splash (a screen of kind launch that was seen).
  var launchLogged: Bool {
    map.screens.contains { $0.kind == .launch && $0.name == launchName }
  }

  /// The warm share from the log's session pairs, when the log has no splash.
  var warmEstimate: _WarmEstimate? {
    launchLogged ? nil : _WarmEstimate(pairs: observations.resumePairs)
  }

  /// Per screen, how many cold launches of onboarded users landed on it: counted after the
  /// splash when the log shows one; else the first screens of later sessions less the warm
  /// resumes' share of them (*f* − *w L*, in counts, at least 0), when the log tells warm from
  /// cold; else every later session's first screen.
  var coldEntryCounts: [Double] {
    if launchLogged { return observations.afterLaunchReturning.map(Double.init) }
    let pairs = observations.resumePairs
    if let estimate = warmEstimate, estimate.decides, estimate.share < 0.999 {
      return pairs.indices.map { screen in
        let first = Double(pairs.reduce(0) { $0 + $1[screen] })
        let last = Double(pairs[screen].reduce(0, +))
        return max(0, first - estimate.share * last)
      }
    }
    return observations.firstScreenReturning.map(Double.init)
  }

  /// The cold-launch entry mix over `included` screens (not launch or onboarding), as
  /// `"name": probability` parts, when more than one screen has a share of at least
  /// ``ScenarioFit/entryMinimumShare`` (others pooled into the rest); empty otherwise.
  func entryMix(among included: Set<Int>) -> [(screen: Int, probability: Double)] {
    let counts = coldEntryCounts
    let eligible = included.filter {
      map.screens[$0].kind != .launch && map.screens[$0].kind != .onboarding && counts[$0] > 0
    }
    let total = eligible.reduce(0) { $0 + counts[$1] }
    guard total > 0 else { return [] }
    let kept = eligible.filter { counts[$0] / total >= ScenarioFit.entryMinimumShare }.sorted()
    guard kept.count > 1 else { return [] }
    let keptTotal = kept.reduce(0) { $0 + counts[$1] }
    var mix = kept.map { ($0, (counts[$0] / keptTotal * 1e6).rounded() / 1e6) }
    let largest = mix.indices.max { mix[$0].1 < mix[$1].1 }!
    let rest = mix.indices.filter { $0 != largest }.reduce(0) { $0 + mix[$1].1 }
    mix[largest].1 = ((1 - rest) * 1e6).rounded() / 1e6
    return mix.map { (screen: $0.0, probability: $0.1) }
  }
}
