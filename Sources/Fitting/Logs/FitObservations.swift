import Simulation

/// A duration seen in a log: complete (the screen was left, the user came back) or
/// right-censored (only a lower bound is known: the session ended there unseen, or the log's
/// window closed).
///
/// With a timestamp resolution *r* (the map's `timestamp_resolution`: timestamps cut to whole
/// seconds, say), the difference *d* of two timestamps says only that the true duration lies
/// in (max(0, *d* − *r*), *d* + *r*): a complete duration is interval-censored, and a
/// right-censored one is at least max(0, *d* − *r*).
public struct DurationSample: Sendable, Equatable {
  public var seconds: Double
  public var censored: Bool
  /// The timestamps' resolution (0: exact).
  public var resolution: Double
  /// How much a censored duration counts in a likelihood (1: fully). Below 1 when it may not
  /// be a duration of this kind at all: a user's last gap that may be a departure for good
  /// (`fit`'s churn estimate weighs it by the chance the user is still coming back).
  /// Complete durations always count 1.
  public var weight: Double = 1

  public init(seconds: Double, censored: Bool, resolution: Double = 0) {
    self.seconds = seconds
    self.censored = censored
    self.resolution = resolution
  }

  /// The interval the true duration lies in: (`low`, `high`), `high` infinite when censored.
  public var bounds: (low: Double, high: Double) {
    (max(0, seconds - resolution), censored ? .infinity : seconds + resolution)
  }
}

/// A uniform random sample of at most `capacity` items of a stream of any length (reservoir
/// sampling, Vitter's Algorithm R), with a fixed seed so a fit is reproducible. This is what
/// keeps `fit`'s memory bounded: counts stay exact, distributions are fitted on the sample.
public struct Reservoir<Element: Sendable>: Sendable {
  public let capacity: Int
  public private(set) var items: [Element] = []
  /// Items offered so far.
  public private(set) var seen = 0
  var state: UInt64

  public init(capacity: Int, seed: UInt64) {
    precondition(capacity > 0, "A reservoir holds at least one item")
    self.capacity = capacity
    state = seed
  }

  public mutating func add(_ item: Element) {
    seen += 1
    if items.count < capacity {
      items.append(item)
      return
    }
    let slot = Int(next() % UInt64(seen))
    if slot < capacity { items[slot] = item }
  }

  /// SplitMix64.
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

/// What the predictive check compares between the log and a simulation of the fitted
/// scenario: mergeable counts.
public struct JourneyStats: Sendable, Equatable {
  /// Users with at least one session.
  public var users = 0
  /// Number of users by their count of sessions.
  public var sessionsPerUser: [Int: Int] = [:]
  /// Number of sessions by their count of screen views.
  public var screensPerSession: [Int: Int] = [:]
  /// Sessions by path: their first ``pathLength`` screens (indices), then -1 if longer.
  public var paths: [[Int]: Int] = [:]
  /// Sessions whose path was not counted because ``pathCapacity`` distinct paths were held.
  public var uncountedPaths = 0
  /// Sessions by their first three screen views, by name (`"splash → home → feed"`; a shorter
  /// session by all of its views), at most ``pathCapacity`` distinct paths (the rest in
  /// ``uncountedPaths``).
  public var threeScreenPaths: [String: Int] = [:]
  /// Sessions by their length in whole seconds (first event to the session's end).
  public var sessionSeconds: [Int: Int] = [:]
  /// Complete gaps between a user's sessions, in whole minutes.
  public var gapMinutes: [Int: Int] = [:]
  /// Sessions by the name of their first screen other than the splash.
  public var firstScreens: [String: Int] = [:]
  /// Sessions that showed a screen of kind checkout.
  public var checkoutSessions = 0
  /// Sessions by the hour of day (UTC, or the map's `utc_offset`) of their first event.
  public var startHours = [Int](repeating: 0, count: 24)
  /// Sessions after a user's first, and those of them whose first screen other than the
  /// splash is the previous session's last screen (a warm resume, or chance).
  public var laterSessions = 0
  public var openedOnLastScreen = 0
  /// New users by the 30-day month of the window their first event falls in (0: the first):
  /// how arrivals grow or shrink over the window.
  public var arrivalMonths: [Int: Int] = [:]
  /// ``threeScreenPaths`` by the session's lifecycle class (``FitObservations/phaseClasses``:
  /// a new user's 1st, 2nd, 3rd, 4th and later sessions; other users' in the last), each
  /// class at most ``pathCapacity`` paths (the rest in ``uncountedPaths``).
  public var phasePaths: [Int: [String: Int]] = [:]

  public static let pathLength = 6
  /// The length of a month in ``arrivalMonths``, in seconds.
  public static let monthLength = 30 * 86_400.0
  public static let pathCapacity = 50_000

  public init() {}

  public var sessions: Int { screensPerSession.values.reduce(0, +) }

  public mutating func merge(_ other: JourneyStats) {
    users += other.users
    sessionsPerUser.merge(other.sessionsPerUser, uniquingKeysWith: +)
    screensPerSession.merge(other.screensPerSession, uniquingKeysWith: +)
    for (path, count) in other.paths { countPath(path, count) }
    for (path, count) in other.threeScreenPaths { countThreeScreenPath(path, count) }
    uncountedPaths += other.uncountedPaths
    sessionSeconds.merge(other.sessionSeconds, uniquingKeysWith: +)
    gapMinutes.merge(other.gapMinutes, uniquingKeysWith: +)
    firstScreens.merge(other.firstScreens, uniquingKeysWith: +)
    checkoutSessions += other.checkoutSessions
    for hour in 0..<24 { startHours[hour] += other.startHours[hour] }
    laterSessions += other.laterSessions
    openedOnLastScreen += other.openedOnLastScreen
    arrivalMonths.merge(other.arrivalMonths, uniquingKeysWith: +)
    for (phase, paths) in other.phasePaths {
      for (path, count) in paths { countPhasePath(path, phase: phase, count) }
    }
  }

  mutating func countPhasePath(_ path: String, phase: Int, _ count: Int = 1) {
    if phasePaths[phase]?[path] != nil || phasePaths[phase, default: [:]].count < Self.pathCapacity
    {
      phasePaths[phase, default: [:]][path, default: 0] += count
    } else {
      uncountedPaths += count
    }
  }

  mutating func countThreeScreenPath(_ path: String, _ count: Int = 1) {
    if threeScreenPaths[path] != nil || threeScreenPaths.count < Self.pathCapacity {
      threeScreenPaths[path, default: 0] += count
    } else {
      uncountedPaths += count
    }
  }

  mutating func countPath(_ path: [Int], _ count: Int = 1) {
    if paths[path] != nil || paths.count < Self.pathCapacity {
      paths[path, default: 0] += count
    } else {
      uncountedPaths += count
    }
  }

  /// The `count` most frequent paths (ties by path order), with their share of sessions.
  public func topPaths(_ count: Int) -> [(path: [Int], share: Double)] {
    let total = Double(max(1, sessions))
    return paths.sorted {
      $0.value != $1.value ? $0.value > $1.value : $0.key.lexicographicallyPrecedes($1.key)
    }
    .prefix(count).map { ($0.key, Double($0.value) / total) }
  }
}

/// Everything `fit` learns from a log in one pass: exact counts, and bounded samples of
/// durations.
public struct FitObservations: Sendable {
  public static let dwellCapacity = 40_000
  public static let gapCapacity = 100_000

  /// Per screen (map order): a sample of its dwells, and exact counts.
  public var dwell: [Reservoir<DurationSample>]
  public var completeDwells: [Int]
  /// Right-censored dwells with a lower bound above 0 (the session's last screen, with a later
  /// event); ``emptyDwells`` are those that say nothing (nothing followed the screen view).
  public var censoredDwells: [Int]
  public var emptyDwells: [Int]
  /// The timestamps' resolution every duration is read with (the map's
  /// `timestamp_resolution`; 0: exact).
  public var resolution = 0.0
  /// Complete dwells of exactly 0 s, and whether every timestamp was a whole second (the
  /// resolution the map may have to state).
  public var zeroDwells = 0
  public var wholeSecondTimes = true
  /// Sessions that ended (unseen) on an event other than a screen view, by its name: an
  /// event that ends most sessions is likely logged at backgrounding.
  public var endingEvents: [String: Int] = [:]
  /// CSV columns no field read.
  public var unreadColumns: [String] = []
  /// `transitions[from][to]`; `to == screenCount` is the background.
  public var transitions: [[Int]]
  /// The screen after the splash, for users who had (`returning`) or had not completed
  /// onboarding.
  public var afterLaunchNew: [Int]
  public var afterLaunchReturning: [Int]
  /// Time between sessions (the last one of a user censored at the window's end).
  public var gaps = Reservoir<DurationSample>(capacity: gapCapacity, seed: 7)
  /// When each gap in ``gaps`` began (the previous session's end), item for item: the same
  /// capacity and seed, offered alongside, so the two reservoirs keep the same slots.
  public var gapStarts = Reservoir<Double>(capacity: gapCapacity, seed: 7)
  /// Session starts by local hour of the week (the map's `utc_offset`), Monday 00:00–01:00
  /// first: what `daily_rhythm` is fitted from.
  public var startsByWeekHour = [Int](repeating: 0, count: 168)
  /// New users' time in the log by local hour of the week, from their first event to the
  /// window's end, in seconds (an existing user's is the whole window's): the exposure the
  /// rhythm's starts are weighed against, so that a growing population is not read as a
  /// rhythm.
  public var newUserExposure = [Double](repeating: 0, count: 168)
  public var users = 0
  public var newUsers = 0
  /// New users whose first screen after the splash was an onboarding screen (all of them under
  /// the map's `starts_onboarding` rule; under `first_open`, the share that onboards).
  public var newUsersOnboarding = 0
  /// Subscriber status where the log carries it: (subscribers, users with a status).
  public var existingSubscribers = (yes: 0, known: 0)
  public var newSubscribers = (yes: 0, known: 0)
  /// First-seen times of new users (for the install window).
  public var newUserFirstSeen: ClosedRange<Double>?
  /// Each new user's first-seen time (a uniform sample when there are more): how arrivals
  /// spread over the install window (`install_window.weights`).
  public var newUserArrivals = Reservoir<Double>(capacity: 200_000, seed: 11)
  /// Sessions after a user's first: those that began with the splash (cold) or not (warm).
  public var coldLaunches = 0
  public var warmResumes = 0
  /// Leaves during onboarding: whether the user came back, and when they left.
  public var onboardingLeaves = Reservoir<(returned: Bool, leftAt: Double)>(
    capacity: 100_000, seed: 11)
  /// The first screen of sessions that did not start with the splash, for users who had
  /// completed onboarding (the returning entry when the log has no splash).
  public var firstScreenReturning: [Int]
  /// `resumePairs[last][first]`: for each session after a user's first (the user onboarded
  /// before it began), the previous session's last screen and this session's first screen
  /// other than the splash. A warm resume reopens on the last screen; a cold launch lands on
  /// an entry screen whatever the last one was: what ``ScenarioFit`` reads the warm share from
  /// when the log has no splash.
  public var resumePairs: [[Int]]
  /// `positionExits[screen][k - 1]`: how often a view of `screen` at place *k* in its session
  /// (the splash not counted) was left, and how often for the background (places from
  /// ``positionCap`` on pooled into the last).
  public var positionExits: [[Int]]
  public var positionLeaves: [[Int]]
  public static let positionCap = 60
  /// Second-order exits, sparse (one entry per triple seen): how often `screen` was left for
  /// `next` (`screenCount`: the background) when `previous` was shown just before it in the
  /// same session (the splash not counted; a session's first screen has none).
  public var secondOrder: [ScreenTriple: Int] = [:]
  /// The same exits by `screen`'s place in its session (`next` holds the place, 1 ...
  /// ``positionCap``): how many, and how many for the background. What a `transitions_after`
  /// table's chance of leaving is refitted from under position odds.
  public var secondOrderPlaces: [ScreenTriple: (exits: Int, leaves: Int)] = [:]
  /// A session's lifecycle class (``phaseClasses`` of them): a new user's 1st, 2nd, 3rd, and
  /// 4th and later sessions; every session of a user not known to be new is in the last
  /// (as the fitted scenario's existing users are in its last phase).
  public static let phaseClasses = 4
  /// ``transitions`` by the session's class, sparse: `previous` holds the class (0 ...
  /// ``phaseClasses`` − 1), `screen` the screen left, `next` where to (`screenCount`: the
  /// background).
  public var phaseTransitions: [ScreenTriple: Int] = [:]
  /// ``afterLaunchReturning`` by the session's class: `phaseEntries[class][screen]`.
  public var phaseEntries: [[Int]]
  /// ``gaps`` by the class of the session before the gap, each with when it began (a uniform
  /// sample of at most ``phaseGapCapacity`` per class).
  public var phaseGaps: [Reservoir<PhaseGap>]
  public static let phaseGapCapacity = 25_000
  /// A gap and when it began (the previous session's end).
  public struct PhaseGap: Sendable {
    public var sample: DurationSample
    public var start: Double
  }
  public var journeys = JourneyStats()
  /// Rows read, screen views among them, and the span of their timestamps.
  public var rows = 0
  /// Whether the log named its sessions, and marked their ends (the check simulates alike).
  public var namedSessions = false
  public var markedSessionEnds = false
  /// Whether events other than screen views extended a session (Firebase's `user_engagement`
  /// at backgrounding): the check then logs each simulated backgrounding as such an event.
  public var activityAfterScreens = false
  public var screenViews = 0
  public var firstTime = Double.infinity
  public var lastTime = -Double.infinity

  public init(screenCount: Int) {
    dwell = (0..<screenCount).map { Reservoir(capacity: Self.dwellCapacity, seed: UInt64($0) + 1) }
    completeDwells = Array(repeating: 0, count: screenCount)
    censoredDwells = Array(repeating: 0, count: screenCount)
    emptyDwells = Array(repeating: 0, count: screenCount)
    transitions = Array(repeating: Array(repeating: 0, count: screenCount + 1), count: screenCount)
    afterLaunchNew = Array(repeating: 0, count: screenCount)
    afterLaunchReturning = Array(repeating: 0, count: screenCount)
    phaseEntries = Array(
      repeating: Array(repeating: 0, count: screenCount), count: Self.phaseClasses)
    phaseGaps = (0..<Self.phaseClasses).map {
      Reservoir(capacity: Self.phaseGapCapacity, seed: UInt64(21 + $0))
    }
    firstScreenReturning = Array(repeating: 0, count: screenCount)
    resumePairs = Array(repeating: Array(repeating: 0, count: screenCount), count: screenCount)
    positionExits = Array(
      repeating: Array(repeating: 0, count: Self.positionCap), count: screenCount)
    positionLeaves = positionExits
  }

  mutating func addDwell(_ screen: Int, _ seconds: Double, censored: Bool) {
    let seconds = max(0, seconds)
    let sample = DurationSample(seconds: seconds, censored: censored, resolution: resolution)
    if censored {
      // A dwell censored at 0 says nothing: only that the screen was shown. It is not counted
      // as censored.
      guard sample.bounds.low > 0 else {
        emptyDwells[screen] += 1
        return
      }
      censoredDwells[screen] += 1
      dwell[screen].add(sample)
    } else {
      completeDwells[screen] += 1
      if seconds == 0 { zeroDwells += 1 }
      dwell[screen].add(sample)
    }
  }
}

/// Three screen indices: a screen, the one before it in the session, and the next (or a
/// place, ``FitObservations/secondOrderPlaces``).
public struct ScreenTriple: Hashable, Sendable {
  public var previous: Int32
  public var screen: Int32
  public var next: Int32
  public init(previous: Int, screen: Int, next: Int) {
    self.previous = Int32(previous)
    self.screen = Int32(screen)
    self.next = Int32(next)
  }
}
