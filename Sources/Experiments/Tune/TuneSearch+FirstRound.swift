import MessageDeferral
import Reports
import Simulation

/// The first round's settings (`search.first_round` in a tune file): a Latin hypercube of
/// `candidates` points (the default), or every distinct setting of a small discrete space.
///
/// Why every setting is offered: when every knob is discrete (choices and integers) the knobs'
/// space is finite, and when it is small (at most ``TuneSearch/maximumSettingsScreened``
/// settings) a first round can hold all of it: the candidates of a round are the policies of
/// one run on the same users, sharing each user's life until it first differs, so a round of
/// 243 settings runs far faster than 243 runs (its lives, users × replications per setting,
/// are counted in full all the same). A Latin hypercube of `candidates` points only samples
/// such a space (its levels are stratified knob by knob, not its combinations, so it may
/// repeat a setting), while a random search with the tune's budget meets nearly every setting.
/// With every setting, the halving keeps the better half on new users of the first round's
/// size until `candidates` are left, then runs as from a first round of `candidates`: one
/// noisy round is too few to cut 243 settings to 16 (measured: on two of 20 seeds the tune
/// then ended 64 and 77 USD per 1,000 users below random search's pick).
///
/// The settings are numbered in an order drawn from the seed, not the grid's: at the first
/// round's size many settings tie exactly (on the bundled tune, 10 distinct means among 246
/// policies on 500 users × 4), the halving ranks ties by number, and the grid's order would
/// hand on the first-listed values of the first knobs whenever a tie straddles a cut.
///
/// Why it is not the default: on the bundled tune it beat random search on 13 of 20 seeds
/// against the Latin hypercube's 15 at the benchmark's size (5 times the user lives), 15
/// against 14 at the file's (2.4 times) (docs/benchmarks.md, "Tune against random search"):
/// there the best settings form a class whose members differ by less than 1 USD per 1,000
/// users, far inside δ, and both searches find the class.
///
/// What does not hold: settings that act alike are not merged (settings tied on a round's
/// users may differ on more: measured, 7 wins of 20 against random search with the merge,
/// 12 without it).
extension TuneSearch {
  /// How the first round picks its settings.
  public enum FirstRound: String, Sendable, CaseIterable {
    /// `candidates` points of a Latin hypercube from the seed (discrete knobs may repeat a
    /// setting): the default.
    case latinHypercube = "latin_hypercube"
    /// Every distinct setting of the knobs, once each (every knob must be discrete, and the
    /// settings at most ``TuneSearch/maximumSettingsScreened``).
    case everySetting = "every_setting"
  }

  /// The most settings a first round screens (the widest first round a tune file may ask
  /// for: `search.candidates` at most).
  public static let maximumSettingsScreened = 512

  /// The number of distinct settings of `knobs` when every knob is discrete (the choices
  /// listed, the integers of a range), or `nil` when a knob is continuous (`number`,
  /// `duration`) or the settings are more than ``maximumSettingsScreened``.
  public static func settingsCount(of knobs: [TuneKnob]) -> Int? {
    var count = 1
    for knob in knobs {
      guard let levels = knob.levels, levels <= maximumSettingsScreened else { return nil }
      count *= levels
      if count > maximumSettingsScreened { return nil }
    }
    return count
  }

  /// Whether the first round is every distinct setting: ``firstRound`` asks for it and the
  /// knobs allow it (a tune file asking for it over knobs that do not is refused; a search
  /// built in code falls back to the Latin hypercube).
  public var screensEverySetting: Bool {
    firstRound == .everySetting && Self.settingsCount(of: knobs) != nil
  }

  /// The first round's settings: every distinct setting, or the Latin hypercube's
  /// `candidates`.
  public var firstRoundSize: Int { candidatePoints().count }

  /// Every distinct setting of the knobs as points of the unit cube (each level at the middle
  /// of its share of [0, 1), as ``neighbours(of:)`` places them), in an order drawn from the
  /// seed; a setting whose knob values read as another's (a choice listed twice) once.
  ///
  /// - Precondition: ``settingsCount(of:)`` is not `nil`.
  func settingPoints() -> [[Double]] {
    guard let count = Self.settingsCount(of: knobs) else {
      preconditionFailure("every setting needs discrete knobs, at most 512 settings")
    }
    let levels = knobs.map { $0.levels! }
    var points: [[Double]] = []
    var seen: Set<[String]> = []
    for index in 0..<count {
      var rest = index
      var point = [Double](repeating: 0, count: knobs.count)
      for position in knobs.indices.reversed() {
        point[position] = (Double(rest % levels[position]) + 0.5) / Double(levels[position])
        rest /= levels[position]
      }
      let texts = zip(knobs, point).map { SweepPlan.text($0.value(at: $1)) }
      if seen.insert(texts).inserted { points.append(point) }
    }
    // In an order drawn from the seed (Fisher and Yates), as a Latin hypercube's points are:
    // candidates that tie are ranked by number, and the grid's own order would favour the
    // first-listed values whenever a round cannot tell settings apart.
    var stream = RandomStream(
      gslSeed: RandomStream.splitMix64Finalizer(seed ^ Self.settingOrderTag))
    for last in points.indices.reversed() where last > 0 {
      points.swapAt(last, stream.uniformInt(last + 1))
    }
    return points
  }

  /// A tag mixed into the seed so the order of every setting is no other stream's
  /// ("TUNEGRID").
  static let settingOrderTag: UInt64 = 0x5455_4E45_4752_4944
}

extension TuneKnob {
  /// The values a discrete knob takes (its choices, the integers of its range); `nil` for a
  /// continuous one.
  var levels: Int? {
    switch domain {
    case .choices(let values): values.count
    case .integer(let low, let high): high - low + 1
    case .number, .duration: nil
    }
  }
}
