import Foundation
import MessageDeferral

/// What users do with a sheet once it is up, by reason and by moment: the optional `responses`
/// section of a scenario file (scenarios/README.md, "Responses").
///
/// Each chance is a logistic form on the moment the sheet appears:
///
///     logit P = logit(probability) + strength × Σ ln(odds ratio) × feature
///
/// with `probability` the chance at the reference moment (a calm screen: not an interruptible
/// kind, past the first seconds of a visit to the foreground, shown as soon as delivered) and
/// one odds ratio per feature: the sheet covers an interruptible screen (``ScreenKind/isInterruptible``:
/// launch, onboarding, paywall, checkout, immersive), it comes in the first seconds after the
/// app came to the foreground, each day the app held the message since its delivery, and the
/// screen's kind. `strength` (``momentStrength``, default 1) scales every effect: 0 makes the
/// response independent of the moment, which a sweep uses to find where a recommendation turns.
///
/// A price-increase consent is a choice made (accepted or declined) or the sheet closed without
/// one: P(accepted) = P(choice) × P(accept | choice), P(declined) = P(choice) × (1 − P(accept |
/// choice)), closed otherwise. A billing issue is fixed from the sheet or not; a win-back offer
/// redeemed or not; a generic message is seen.
///
/// **The channel outside the app** is the consent campaign's `expiry` (scenarios/README.md):
/// the time after issuance at which the subscriber agrees outside the app (Apple's email and
/// notification, the subscription settings); an exponential expiry with mean m is a constant
/// hazard 1/m. Before a sheet is shown it withdraws the message, as without responses; after a
/// sheet closed without a choice it still keeps the renewal when it comes by the deadline
/// (unless ``afterClose`` is ``AfterClose/renewalLost``). A decline is final.
///
/// **What is not modelled**: StoreKit may show a message the user has seen again; here a sheet
/// shown is the message's last in-app display, and a closed consent can only be kept outside
/// the app. A response does not change what the App Store issues later (a declined subscriber
/// still receives the other messages of the horizon).
///
/// Without the section, or run with `--responses off`, no response is drawn and every output
/// is what it was before responses existed: a consent shown by its deadline counts as kept.
public struct ResponseModel: Sendable, Equatable {
  /// Odds ratios by feature of the moment (1: no effect).
  public struct Odds: Sendable, Equatable {
    /// When the sheet covers an interruptible screen.
    public var interrupting = 1.0
    /// When the sheet comes within ``ResponseModel/firstSeconds`` of the app coming to the
    /// foreground.
    public var firstSeconds = 1.0
    /// Per day the app held the message since its delivery (a fraction of a day counts as that
    /// fraction).
    public var perDayWaited = 1.0
    /// By the kind of the screen under the sheet (``ScreenKind/index``).
    public var screenKinds = [Double](repeating: 1, count: ScreenKind.allCases.count)

    public init() {}

    /// Whether every ratio is 1: the chance does not depend on the moment.
    public var isNeutral: Bool {
      interrupting == 1 && firstSeconds == 1 && perDayWaited == 1
        && screenKinds.allSatisfy { $0 == 1 }
    }
  }

  /// One chance: its probability at the reference moment and its odds ratios.
  public struct Chance: Sendable, Equatable {
    public var probability: Double
    public var odds = Odds()

    public init(probability: Double, odds: Odds = Odds()) {
      self.probability = probability
      self.odds = odds
    }

    /// The chance at a moment: `kind` the screen under the sheet, `interrupting` whether it is
    /// of an interruptible kind, `early` within the first seconds, `waitedDays` the hold.
    /// Exactly `probability` when it is 0 or 1, or when `strength` is 0.
    @inlinable
    public func probability(
      kind: ScreenKind, early: Bool, waitedDays: Double, strength: Double
    ) -> Double {
      guard probability > 0, probability < 1, strength != 0 else { return probability }
      var shift = log(odds.screenKinds[kind.index])
      if kind.isInterruptible { shift += log(odds.interrupting) }
      if early { shift += log(odds.firstSeconds) }
      if waitedDays > 0, odds.perDayWaited != 1 { shift += waitedDays * log(odds.perDayWaited) }
      guard shift != 0 else { return probability }
      let logit = log(probability / (1 - probability)) + strength * shift
      return 1 / (1 + exp(-logit))
    }
  }

  /// What a consent closed without a choice becomes.
  public enum AfterClose: String, Sendable, CaseIterable {
    /// The renewal is kept when the subscriber agrees outside the app by the deadline.
    case outsideChannel = "outside_channel"
    /// The renewal is lost (a pessimistic reading: a closed sheet is a lost chance).
    case renewalLost = "renewal_lost"
  }

  /// Price-increase consent: a choice made rather than the sheet closed.
  public var consentChoice: Chance
  /// Price-increase consent: accepted, given a choice.
  public var consentAccept: Chance
  /// Billing issue: the payment fixed from the sheet.
  public var billingFixed: Chance
  /// Win-back offer: redeemed from the sheet.
  public var winBackRedeemed: Chance
  /// The window after the app comes to the foreground that counts as its first seconds.
  public var firstSeconds = 10.0
  /// Scales every moment effect (0: the response does not depend on the moment).
  public var momentStrength = 1.0
  public var afterClose = AfterClose.outsideChannel

  public init(
    consentChoice: Chance, consentAccept: Chance, billingFixed: Chance, winBackRedeemed: Chance
  ) {
    self.consentChoice = consentChoice
    self.consentAccept = consentAccept
    self.billingFixed = billingFixed
    self.winBackRedeemed = winBackRedeemed
  }

  /// The keys of the section's per-reason blocks and the chances they hold.
  static var blocks: [(reason: String, chances: [(key: String, chance: _ChancePath)])] {
    [
      ("price_increase_consent", [("choice", \.consentChoice), ("accept", \.consentAccept)]),
      ("billing_issue", [("fixed", \.billingFixed)]),
      ("win_back_offer", [("redeemed", \.winBackRedeemed)]),
    ]
  }
}

typealias _ChancePath = WritableKeyPath<ResponseModel, ResponseModel.Chance>

/// What a user did with a sheet (``ResponseModel``): stored per message, `none` when the
/// scenario has no response model or the message was not shown.
public enum SheetResponse: UInt8, Sendable {
  case none
  case accepted
  case declined
  case closed
  case fixed
  case notFixed
  case redeemed
  case notRedeemed
  case seen

  /// Whether the user did what the message asks (accepted, fixed, redeemed, seen).
  public var isPositive: Bool {
    switch self {
    case .accepted, .fixed, .redeemed, .seen: true
    case .none, .declined, .closed, .notFixed, .notRedeemed: false
    }
  }

  /// The word `trace` and `messages.csv` use.
  public var name: String {
    switch self {
    case .none: ""
    case .accepted: "accepted"
    case .declined: "declined"
    case .closed: "closed"
    case .fixed: "fixed"
    case .notFixed: "not fixed"
    case .redeemed: "redeemed"
    case .notRedeemed: "not redeemed"
    case .seen: "seen"
    }
  }
}

extension ResponseModel {
  /// The response to a sheet of `reason` at a moment, from the message's own uniform draw `u`
  /// (drawn at issuance, so that every policy meets the same user: a better moment turns the
  /// same draw into a choice or an acceptance, never the reverse).
  public func response(
    to reason: Reason, u: Double, kind: ScreenKind, early: Bool, waitedDays: Double
  ) -> SheetResponse {
    func chance(_ value: Chance) -> Double {
      value.probability(kind: kind, early: early, waitedDays: waitedDays, strength: momentStrength)
    }
    switch reason {
    case .priceIncreaseConsent:
      let choice = chance(consentChoice)
      let accepted = choice * chance(consentAccept)
      if u < accepted { return .accepted }
      return u < choice ? .declined : .closed
    case .billingIssue:
      return u < chance(billingFixed) ? .fixed : .notFixed
    case .winBackOffer:
      return u < chance(winBackRedeemed) ? .redeemed : .notRedeemed
    default:
      return .seen
    }
  }
}

extension _ScenarioDecoder {
  /// The optional `responses` section (``ResponseModel``).
  mutating func readResponses(_ node: JSONNode, at path: String) -> ResponseModel? {
    let keys: [_Key] =
      ResponseModel.blocks.map { .required($0.reason, Self.responseExample($0.reason)) }
      + [
        .optional("first_seconds"), .optional("moment_strength"), .optional("after_close"),
        .optional("sources"),
      ]
    guard let object = readObject(node, at: path, keys: keys, what: "what users do with a sheet")
    else { return nil }
    var model = ResponseModel(
      consentChoice: .init(probability: 1), consentAccept: .init(probability: 1),
      billingFixed: .init(probability: 1), winBackRedeemed: .init(probability: 1))
    var valid = true
    for (reason, chances) in ResponseModel.blocks {
      guard let blockNode = object[reason] else {
        valid = false
        continue
      }
      let blockPath = object.path(reason)
      guard
        let block = readObject(
          blockNode, at: blockPath,
          keys: chances.map { .required($0.key, "{\"probability\": 0.8}") },
          what: "the chances of a \(reason) sheet")
      else {
        valid = false
        continue
      }
      for (key, chance) in chances {
        guard let chanceNode = block[key] else {
          valid = false
          continue
        }
        if let read = readChance(chanceNode, at: block.path(key)) {
          model[keyPath: chance] = read
        } else {
          valid = false
        }
      }
    }
    if let entry = object["first_seconds"] {
      if let seconds = readDuration(
        entry, at: object.path("first_seconds"), minimum: .positive, example: "\"10s\"")
      {
        model.firstSeconds = seconds
      } else {
        valid = false
      }
    }
    if let entry = object["moment_strength"] {
      guard case .number(let number, _) = entry.value, number >= 0, number <= 100,
        number.isFinite
      else {
        report(
          object.path("moment_strength"), entry,
          "must be a number from 0 to 100 (1: the odds ratios as written; 0: no effect of the "
            + "moment), got \(Self.shown(entry))")
        return nil
      }
      model.momentStrength = number
    }
    if let entry = object["after_close"] {
      guard
        let text = readEnumeration(
          entry, at: object.path("after_close"),
          cases: ResponseModel.AfterClose.allCases.map(\.rawValue),
          what: "what a consent closed without a choice becomes")
      else { return nil }
      model.afterClose = ResponseModel.AfterClose(rawValue: text)!
    }
    if let sources = object["sources"], sources.typeName != "an object" {
      report(
        object.path("sources"), sources,
        "must be an object of notes by key, got \(sources.typeName); for example "
          + "{\"price_increase_consent\": \"our dashboard, 2026-Q3\"}")
      valid = false
    }
    return valid ? model : nil
  }

  static func responseExample(_ reason: String) -> String {
    switch reason {
    case "price_increase_consent":
      "{\"choice\": {\"probability\": 0.8}, \"accept\": {\"probability\": 0.9}}"
    case "billing_issue": "{\"fixed\": {\"probability\": 0.4}}"
    default: "{\"redeemed\": {\"probability\": 0.15}}"
    }
  }

  /// One chance: `probability` (0 to 1) and optional `odds` (ratios > 0 by feature).
  mutating func readChance(_ node: JSONNode, at path: String) -> ResponseModel.Chance? {
    guard
      let object = readObject(
        node, at: path, keys: [.required("probability", "0.8"), .optional("odds")],
        what: "a chance and its odds ratios")
    else { return nil }
    guard let probabilityNode = object["probability"],
      let probability = readProbability(probabilityNode, at: object.path("probability"))
    else { return nil }
    var chance = ResponseModel.Chance(probability: probability)
    guard let oddsNode = object["odds"] else { return chance }
    let oddsPath = object.path("odds")
    let featureKeys = ["interrupting", "first_seconds", "per_day_waited", "screen_kinds"]
    guard
      let odds = readObject(
        oddsNode, at: oddsPath, keys: featureKeys.map { .optional($0) },
        what: "odds ratios by feature of the moment")
    else { return nil }
    var valid = true
    func ratio(_ entry: JSONNode, at entryPath: String) -> Double? {
      guard case .number(let number, _) = entry.value, number > 0, number <= 1e6,
        number.isFinite
      else {
        report(
          entryPath, entry,
          "must be an odds ratio above 0 (1: no effect; 0.5 halves the odds; 2 doubles them), "
            + "got \(Self.shown(entry))")
        return nil
      }
      return number
    }
    let scalars: [(String, WritableKeyPath<ResponseModel.Odds, Double>)] = [
      ("interrupting", \.interrupting), ("first_seconds", \.firstSeconds),
      ("per_day_waited", \.perDayWaited),
    ]
    for (key, field) in scalars {
      guard let entry = odds[key] else { continue }
      if let value = ratio(entry, at: odds.path(key)) {
        chance.odds[keyPath: field] = value
      } else {
        valid = false
      }
    }
    if let kindsNode = odds["screen_kinds"] {
      let kindsPath = odds.path("screen_kinds")
      if let kinds = readObject(
        kindsNode, at: kindsPath, keys: ScreenKind.allCases.map { .optional($0.rawValue) },
        what: "odds ratios by screen kind")
      {
        for kind in ScreenKind.allCases {
          guard let entry = kinds[kind.rawValue] else { continue }
          if let value = ratio(entry, at: kinds.path(kind.rawValue)) {
            chance.odds.screenKinds[kind.index] = value
          } else {
            valid = false
          }
        }
      } else {
        valid = false
      }
    }
    return valid ? chance : nil
  }
}
