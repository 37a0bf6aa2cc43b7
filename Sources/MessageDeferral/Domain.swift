/// Why the App Store wants to show a message (StoreKit 2 `Message.Reason`).
///
/// `unknown` stands for a reason an SDK does not recognise: a newer OS may send raw values
/// that an app's SDK predates. Adapty names them `storekit_<raw>`; RevenueCat cannot show
/// them at all.
public enum Reason: Hashable, Sendable, Comparable {
  case priceIncreaseConsent
  case billingIssue
  case winBackOffer
  case generic
  case unknown(rawValue: Int)

  /// The four reasons StoreKit names, in a fixed order (used for tables and reports).
  public static let known: [Reason] = [
    .priceIncreaseConsent, .billingIssue, .winBackOffer, .generic,
  ]

  /// The name used in scenario files, CSVs and reports: `price_increase_consent`,
  /// `billing_issue`, `win_back_offer`, `generic`, or `unknown_<raw>`.
  public var name: String {
    switch self {
    case .priceIncreaseConsent: "price_increase_consent"
    case .billingIssue: "billing_issue"
    case .winBackOffer: "win_back_offer"
    case .generic: "generic"
    case .unknown(let raw): "unknown_\(raw)"
    }
  }

  /// The name Adapty's SDK gives the reason (`AdaptyStoreMessageType`): unknown raw values
  /// become `storekit_<raw>`. Internal: only the tests that check the Adapty preset against
  /// Adapty's own naming read it; ``init(name:)`` accepts both spellings.
  var adaptyName: String {
    switch self {
    case .priceIncreaseConsent: "price_increase_consent"
    case .billingIssue: "billing_issue"
    case .winBackOffer: "win_back_offer"
    case .generic: "generic"
    case .unknown(let raw): "storekit_\(raw)"
    }
  }

  /// Reads a name as written by ``name`` (and accepts Adapty's `storekit_<raw>`).
  public init?(name: String) {
    switch name {
    case "price_increase_consent": self = .priceIncreaseConsent
    case "billing_issue": self = .billingIssue
    case "win_back_offer": self = .winBackOffer
    case "generic": self = .generic
    default:
      for prefix in ["unknown_", "storekit_"] where name.hasPrefix(prefix) {
        if let raw = Int(name.dropFirst(prefix.count)) {
          self = .unknown(rawValue: raw)
          return
        }
      }
      return nil
    }
  }

  /// Whether StoreKit names this reason (everything but `unknown`).
  public var isKnown: Bool {
    if case .unknown = self { return false }
    return true
  }

  /// The number of lanes ``laneIndex`` uses: one per known reason, one for every unknown one.
  public static let laneCount = 5

  /// A small dense index: 0...3 for the known reasons, 4 for every unknown one.
  public var laneIndex: Int {
    switch self {
    case .priceIncreaseConsent: 0
    case .billingIssue: 1
    case .winBackOffer: 2
    case .generic: 3
    case .unknown: 4
    }
  }

  public static func < (lhs: Reason, rhs: Reason) -> Bool {
    switch (lhs, rhs) {
    case (.unknown(let a), .unknown(let b)): a < b
    default: lhs.laneIndex < rhs.laneIndex
    }
  }
}

/// What kind of screen the user is looking at; decides whether a sheet would interrupt.
public enum ScreenKind: String, CaseIterable, Hashable, Sendable, Comparable {
  case launch
  case onboarding
  case paywall
  case checkout
  case immersive
  case home
  case settings
  case content

  /// A sheet over this kind of screen is an **interruption** (results/README.md, `by-screen.csv`).
  public var isInterruptible: Bool {
    switch self {
    case .launch, .onboarding, .paywall, .checkout, .immersive: true
    case .home, .settings, .content: false
    }
  }

  /// A dense index for tables indexed by kind.
  public var index: Int {
    switch self {
    case .launch: 0
    case .onboarding: 1
    case .paywall: 2
    case .checkout: 3
    case .immersive: 4
    case .home: 5
    case .settings: 6
    case .content: 7
    }
  }

  public static func < (lhs: ScreenKind, rhs: ScreenKind) -> Bool { lhs.index < rhs.index }
}

/// Identifies one message of one user; unique within a simulated user.
public typealias MessageID = Int32

/// A message StoreKit handed to the app: what a real app can know about it.
public struct Message: Hashable, Sendable {
  /// Identity, stable across redeliveries (the same App Store message delivered again).
  public var id: MessageID
  public var reason: Reason
  /// When the App Store first issued it, in seconds from the horizon start.
  public var firstIssuedAt: Double
  /// When StoreKit handed it to this process (this delivery).
  public var deliveredAt: Double
  /// The consent deadline (the subscription's renewal date, which StoreKit tells any app),
  /// for price-increase consent; `nil` for other reasons.
  public var deadline: Double?

  public init(
    id: MessageID, reason: Reason, firstIssuedAt: Double, deliveredAt: Double,
    deadline: Double? = nil
  ) {
    self.id = id
    self.reason = reason
    self.firstIssuedAt = firstIssuedAt
    self.deliveredAt = deliveredAt
    self.deadline = deadline
  }
}
