/// Kinds of ``PolicyEvent``, as a set of bits: what a listener heeds (``PolicyListener/heeds``).
public struct PolicyEventKinds: OptionSet, Sendable, Equatable {
  public let rawValue: UInt16
  public init(rawValue: UInt16) { self.rawValue = rawValue }

  public static let processLaunched = PolicyEventKinds(rawValue: 1 << 0)
  public static let processTerminated = PolicyEventKinds(rawValue: 1 << 1)
  public static let delivered = PolicyEventKinds(rawValue: 1 << 2)
  public static let screenAppeared = PolicyEventKinds(rawValue: 1 << 3)
  public static let sceneActivated = PolicyEventKinds(rawValue: 1 << 4)
  public static let sceneDeactivated = PolicyEventKinds(rawValue: 1 << 5)
  public static let displaySucceeded = PolicyEventKinds(rawValue: 1 << 6)
  public static let displayFailed = PolicyEventKinds(rawValue: 1 << 7)
  public static let timerFired = PolicyEventKinds(rawValue: 1 << 8)
  /// Every kind: a listener that must hear everything.
  public static let all = PolicyEventKinds(rawValue: 0x1FF)

  /// The kind of `event`.
  @inline(__always)
  public init(_ event: PolicyEvent) {
    switch event {
    case .processLaunched: self = .processLaunched
    case .processTerminated: self = .processTerminated
    case .delivered: self = .delivered
    case .screenAppeared: self = .screenAppeared
    case .sceneActivated: self = .sceneActivated
    case .sceneDeactivated: self = .sceneDeactivated
    case .displaySucceeded: self = .displaySucceeded
    case .displayFailed: self = .displayFailed
    case .timerFired: self = .timerFired
    }
  }
}

/// What a run of events did to the part of a listener's state that every listener derives
/// alike from the events themselves (the screen, the scene, launches, breaks), kept once for
/// many listeners, so that a listener that was not asked about some of them
/// (``PolicyListener/heeds``) is brought up to date when it is next asked
/// (``PolicyListener/catchUp(with:since:)``) instead of hearing each.
///
/// Events are numbered from 1 as they are recorded; a listener keeps the ``count`` after the
/// last event it heard (its mark) and is caught up from it.
///
/// - Complexity: ``record(_:)`` O(1), no allocation after ``init()``.
public struct PolicyEventDigest: Sendable {
  /// How many events were recorded since the last ``reset()``: the mark after the latest.
  public private(set) var count: UInt64 = 0
  /// The number of the last launch or termination (0: none).
  private(set) var lastReset: UInt64 = 0
  /// The number of the last event that began a break for the per-break allowance (a screen
  /// appearing, a scene activation, a launch or a termination).
  private(set) var lastBreak: UInt64 = 0
  /// The same for a listener told no screen appearance (StoreKit's own handling while a late
  /// listener routes events): the last scene activation, launch or termination.
  private(set) var lastSceneBreak: UInt64 = 0
  /// The number of the last event that set the current screen kind (a screen, a launch, a
  /// termination).
  private(set) var lastScreen: UInt64 = 0
  /// The number of the last event that set the scene state (an activation, a deactivation, a
  /// launch, a termination).
  private(set) var lastScene: UInt64 = 0
  /// For each screen kind (``ScreenKind/index``), the number of its last appearance (0: none).
  private(set) var lastAppearance = _KindMarks()
  /// The current screen kind, as a listener that heard everything has it (`nil` after a launch).
  private(set) var currentKind: ScreenKind?
  /// Whether the scene is foreground-active, as a listener that heard everything has it.
  private(set) var sceneActive = false

  public init() {}

  /// Forgets every event (a new run of events), keeping the storage.
  public mutating func reset() {
    count = 0
    lastReset = 0
    lastBreak = 0
    lastSceneBreak = 0
    lastScreen = 0
    lastScene = 0
    lastAppearance = _KindMarks()
    currentKind = nil
    sceneActive = false
  }

  /// Records `event`, the next one (numbered ``count`` + 1).
  public mutating func record(_ event: PolicyEvent) {
    count &+= 1
    switch event {
    case .processLaunched, .processTerminated:
      lastReset = count
      lastBreak = count
      lastSceneBreak = count
      lastScreen = count
      lastScene = count
      currentKind = nil
      sceneActive = false
    case .screenAppeared(let kind):
      lastBreak = count
      lastScreen = count
      lastAppearance[kind.index] = count
      currentKind = kind
    case .sceneActivated:
      lastBreak = count
      lastSceneBreak = count
      lastScene = count
      sceneActive = true
    case .sceneDeactivated:
      lastScene = count
      sceneActive = false
    case .delivered, .displaySucceeded, .displayFailed, .timerFired:
      break
    }
  }
}

/// One number per screen kind (``ScreenKind/index``), stored inline: the digest records a
/// screen's appearance on every screen event of every group, and an array there costs a
/// uniqueness check and a bounds check per event (``PolicyEventDigest/record(_:)``).
struct _KindMarks: Sendable {
  private var marks: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) =
    (0, 0, 0, 0, 0, 0, 0, 0)

  /// The kinds' indices, `0 ..< ScreenKind.allCases.count`.
  var indices: Range<Int> { 0..<8 }

  subscript(index: Int) -> UInt64 {
    get {
      precondition(indices.contains(index), "A screen kind's index is 0 to 7")
      return withUnsafeBytes(of: marks) { $0.load(fromByteOffset: index * 8, as: UInt64.self) }
    }
    set {
      precondition(indices.contains(index), "A screen kind's index is 0 to 7")
      withUnsafeMutableBytes(of: &marks) {
        $0.storeBytes(of: newValue, toByteOffset: index * 8, as: UInt64.self)
      }
    }
  }
}
