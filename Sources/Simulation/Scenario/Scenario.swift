import MessageDeferral

/// Everything a run needs to know about an app and its users: the validated, in-memory form
/// of a scenario file (format v1, `scenarios/README.md`). Times are seconds from the start of
/// the horizon; durations are seconds.
///
/// A `Scenario` is plain data. ``ScenarioLoader`` builds one from JSON and guarantees the
/// invariants documented on each field; code that builds one by hand (tests) must keep them.
public struct Scenario: Sendable {
  /// A short name, used for the default output folder (`results/<name>/`).
  public var name: String
  public var description: String
  /// Simulated time per user, in seconds (from 0).
  public var horizon: Double
  public var population: Population
  public var sessions: Sessions
  /// The screens; a screen's index in this array is its identity.
  public var screens: [Screen]
  public var entries: Entries
  public var onboarding: Onboarding
  public var scene: SceneModel
  /// Time a user spends on one message sheet.
  public var sheetDwell: DistributionSpec
  public var messages: MessageProcesses
  /// The policies to compare, in report order (names unique).
  public var policies: [NamedPolicy]
  /// The policy the others are compared against in `paired.csv` (one of `policies`).
  public var baseline: String
  public var replications: Int
  /// Users per replication.
  public var users: Int
  public var seed: UInt64
  /// What outcomes are worth (the optional `value` section); `nil` without one.
  public var value: ValueModel? = nil
  /// The app's own size (the optional `app` section), for counts in the app's units.
  public var app: AppSize? = nil
  /// What users do with a sheet (the optional `responses` section); `nil` without one, or run
  /// with `--responses off`: every consent shown by its deadline counts as kept.
  public var responses: ResponseModel? = nil
  /// Lifecycle phases by session index (the optional `lifecycle` section): transitions, entry
  /// screens and gaps that change as a user comes back. Empty: one behaviour for every session.
  public var phases: [LifecyclePhase] = []
  /// The phase an existing user is in at their first session of the horizon, by index in
  /// ``phases``; unused without phases. The loader sets the last unless one says
  /// `existing_users`; code that builds phases by hand sets it too.
  public var existingUsersPhase = 0

  public init(
    name: String, description: String, horizon: Double, population: Population,
    sessions: Sessions, screens: [Screen], entries: Entries, onboarding: Onboarding,
    scene: SceneModel, sheetDwell: DistributionSpec, messages: MessageProcesses,
    policies: [NamedPolicy], baseline: String, replications: Int, users: Int, seed: UInt64
  ) {
    self.name = name
    self.description = description
    self.horizon = horizon
    self.population = population
    self.sessions = sessions
    self.screens = screens
    self.entries = entries
    self.onboarding = onboarding
    self.scene = scene
    self.sheetDwell = sheetDwell
    self.messages = messages
    self.policies = policies
    self.baseline = baseline
    self.replications = replications
    self.users = users
    self.seed = seed
  }
}

/// Who the users are.
public struct Population: Sendable, Equatable {
  /// Share of users who install during the horizon (and must onboard); the rest are existing
  /// users who have onboarded before the horizon starts. In [0, 1].
  public var newUserShare: Double
  /// New users install at a time in [start, end) (seconds), inside the horizon: uniform, or
  /// with ``installWeights`` piecewise uniform.
  public var installWindow: ClosedRange<Double>
  /// Relative arrival rates of equal consecutive parts of ``installWindow`` (arrivals that
  /// grow or shrink over the horizon); empty: uniform over the window (one part). Set after
  /// `init`.
  public var installWeights: [Double] = []
  /// Share of new users who go through onboarding; the others open on the returning entry
  /// from their first launch (an app without onboarding, or a flow some installs skip). In
  /// [0, 1]; set after `init`.
  public var onboardingShare: Double = 1
  /// Share of existing users who are subscribers (the rest are lapsed). In [0, 1].
  public var subscriberShare: Double
  /// Share of new installs who are returning subscribers (a reinstall, a new device): they
  /// onboard while the App Store may already hold messages for them. In [0, 1]. Other new
  /// users are not subscribers.
  public var returningSubscriberShare: Double

  public init(
    newUserShare: Double, installWindow: ClosedRange<Double>, subscriberShare: Double,
    returningSubscriberShare: Double
  ) {
    self.newUserShare = newUserShare
    self.installWindow = installWindow
    self.subscriberShare = subscriberShare
    self.returningSubscriberShare = returningSubscriberShare
  }
}

/// When StoreKit hands messages to the app (`scenarios/README.md`, "Delivery", says why the
/// default is ``launchAndResume``).
///
/// In every mode a message issued while the app is in the foreground is delivered at once, and
/// a launch delivers, after the fetch delay, every pending message.
public enum DeliveryMode: String, Sendable, Equatable, CaseIterable {
  /// Launches only: a message issued while the app is away waits for the next cold launch,
  /// however many warm resumes come first (StoreKit 2 `Message`: StoreKit "retrieves any
  /// messages from the App Store each time your app launches").
  case launch
  /// As `launch`, and a warm resume also delivers (after the fetch delay) every pending
  /// message not yet delivered to this process (`SKPaymentQueueDelegate`: "when you add the
  /// first observer ... and any time the app comes to foreground"). The default.
  case launchAndResume = "launch_and_resume"
  /// As `launchAndResume`, and every pending message is delivered again at every return to
  /// the foreground, even one already delivered to this process (the article's description).
  case everyForeground = "every_foreground"

  /// The mode a scenario gets when it names none.
  public static let defaultMode = DeliveryMode.launchAndResume
}

/// How users come and go.
public struct Sessions: Sendable, Equatable {
  /// Time in the background between two sessions.
  public var gap: DistributionSpec
  /// Probability the OS terminates the process during one stay in the background, whatever
  /// its length. In [0, 1]. Used only when ``backgroundSurvival`` is `nil`.
  public var backgroundTerminationProbability: Double
  /// How long a suspended process survives in the background before iOS reclaims it: the
  /// next open is a warm resume iff the gap is shorter than a survival time drawn for that
  /// stay, so P(warm) = E[S(gap)] with S the survival function. `nil`: use
  /// ``backgroundTerminationProbability`` instead.
  public var backgroundSurvival: DistributionSpec?
  public var delivery: DeliveryMode
  /// When not empty (`sessions.leave_odds_by_position`): after the *k*-th screen of a session
  /// (the splash not counted; the screen a warm resume reopens is the first), the odds of the
  /// screen's background transition are multiplied by the *k*-th factor (the last for every
  /// later screen), and its other transitions keep their relative weights. A screen whose
  /// background probability is 0 or 1 is not changed. Factors positive and finite.
  public var leaveOddsByPosition: [Double] = []
  /// `churn_probability`: at each stay in the background, the chance the user never comes back
  /// (a lifetime counted in sessions, geometric); 0: every user returns until the horizon.
  /// In [0, 1); set after `init`.
  public var churnProbability: Double = 0
  /// When users open the app by local hour and weekday (`sessions.daily_rhythm`); `nil`: at
  /// any hour alike (the gap is drawn on the real clock).
  public var dailyRhythm: DailyRhythm? = nil
  /// Delay between a launch (or a resume at which StoreKit delivers, ``DeliveryMode``) and
  /// StoreKit delivering the messages it holds.
  public var fetchDelay: DistributionSpec

  /// An existing user's first open is drawn from the stationary forward-recurrence time of
  /// `gap` (``ForwardRecurrence``), so the run meets them in steady state.
  public init(
    gap: DistributionSpec, backgroundTerminationProbability: Double,
    backgroundSurvival: DistributionSpec? = nil, delivery: DeliveryMode,
    fetchDelay: DistributionSpec
  ) {
    self.gap = gap
    self.backgroundTerminationProbability = backgroundTerminationProbability
    self.backgroundSurvival = backgroundSurvival
    self.delivery = delivery
    self.fetchDelay = fetchDelay
  }
}

/// Where a transition leads.
public enum ScreenTarget: Sendable, Equatable, Hashable {
  /// Another screen, by index in ``Scenario/screens``.
  case screen(Int)
  /// The app goes to the background (the session ends).
  case background
}

/// One screen of the app.
public struct Screen: Sendable, Equatable {
  public var name: String
  public var kind: ScreenKind
  /// Time on the screen before moving on (paused while a sheet covers it).
  public var dwell: DistributionSpec
  /// Where the user goes next, with probabilities summing to 1. Empty for the launch screen
  /// (``Entries`` decides what follows it).
  public var transitions: [Transition]
  /// `transitions_after`: tables used instead of ``transitions`` when the screen shown just
  /// before this one in the same session (the splash not counted) was ``Context/previous``.
  /// A session's first screen (after a cold launch or at a warm resume) has no predecessor and
  /// uses ``transitions``. Empty: a first-order chain.
  public var transitionsAfter: [Context]

  /// Second-order transitions: where users go from this screen when they came from
  /// ``previous``.
  public struct Context: Sendable, Equatable {
    /// The screen shown before this one in the session, by index in ``Scenario/screens``.
    public var previous: Int
    /// Where the user goes next in that case, with probabilities summing to 1.
    public var transitions: [Transition]
    public init(previous: Int, transitions: [Transition]) {
      self.previous = previous
      self.transitions = transitions
    }
  }

  public struct Transition: Sendable, Equatable {
    public var target: ScreenTarget
    public var probability: Double
    public init(target: ScreenTarget, probability: Double) {
      self.target = target
      self.probability = probability
    }
  }

  public init(
    name: String, kind: ScreenKind, dwell: DistributionSpec, transitions: [Transition],
    transitionsAfter: [Context] = []
  ) {
    self.name = name
    self.kind = kind
    self.dwell = dwell
    self.transitions = transitions
    self.transitionsAfter = transitionsAfter
  }
}

/// One lifecycle phase (`lifecycle[]`): what changes for a user's sessions from the
/// ``fromSession``-th on (counting every session of the user in the horizon, cold or warm,
/// from 1), until the next phase's. Sessions before the first phase's use the scenario's own
/// tables; within a phase, whatever it does not set is the scenario's own.
public struct LifecyclePhase: Sendable, Equatable {
  public var name: String
  public var fromSession: Int
  /// Screens whose transitions differ in this phase, by index, each with its table (sum 1).
  /// A screen's `transitions_after` table, when it applies, is used in every phase.
  public var transitions: [Override]
  /// Where a user who has onboarded lands after the splash in this phase; empty: the
  /// scenario's `entries.returning` or `returning_mix`.
  public var returningMix: [Entries.Weighted]
  /// The time in the background after a session of this phase; `nil`: `sessions.gap`.
  public var gap: DistributionSpec?

  /// One screen's transitions in a phase.
  public struct Override: Sendable, Equatable {
    public var screen: Int
    public var transitions: [Screen.Transition]
    public init(screen: Int, transitions: [Screen.Transition]) {
      self.screen = screen
      self.transitions = transitions
    }
  }

  public init(
    name: String, fromSession: Int, transitions: [Override] = [],
    returningMix: [Entries.Weighted] = [], gap: DistributionSpec? = nil
  ) {
    self.name = name
    self.fromSession = fromSession
    self.transitions = transitions
    self.returningMix = returningMix
    self.gap = gap
  }
}

/// Which screens start a session.
public struct Entries: Sendable, Equatable {
  /// The splash screen shown at every cold launch (a screen of kind `launch`).
  public var coldLaunch: Int
  /// The screen after the splash for a user who has not completed onboarding (the first
  /// onboarding screen; equal to `returning` in a scenario without new users, which needs no
  /// onboarding screen).
  public var newUser: Int
  /// The screen after the splash otherwise (typically home).
  public var returning: Int
  /// When not empty: the screen after the splash for a user who has completed onboarding is
  /// drawn from these at every cold launch (`entries.returning_mix`), instead of
  /// ``returning``. Screens not of kind launch or onboarding; probabilities summing to 1.
  public var returningMix: [Weighted] = []

  /// A screen and its probability.
  public struct Weighted: Sendable, Equatable {
    public var screen: Int
    public var probability: Double
    public init(screen: Int, probability: Double) {
      self.screen = screen
      self.probability = probability
    }
  }

  public init(coldLaunch: Int, newUser: Int, returning: Int, returningMix: [Weighted] = []) {
    self.coldLaunch = coldLaunch
    self.newUser = newUser
    self.returning = returning
    self.returningMix = returningMix
  }
}

/// What an interruption costs during onboarding.
public struct Onboarding: Sendable, Equatable {
  /// Probability that a sheet shown over an onboarding screen makes the user quit the app
  /// (the app goes to the background at once). In [0, 1].
  public var quitAfterSheetProbability: Double
  /// Probability that a user who leaves the app during an onboarding run never opens it
  /// again. In [0, 1].
  public var neverReturnAfterLeavingProbability: Double

  public init(quitAfterSheetProbability: Double, neverReturnAfterLeavingProbability: Double) {
    self.quitAfterSheetProbability = quitAfterSheetProbability
    self.neverReturnAfterLeavingProbability = neverReturnAfterLeavingProbability
  }
}

/// The window scene.
public struct SceneModel: Sendable, Equatable {
  /// Delay after each launch or resume before the scene is foreground-active.
  public var activationDelay: DistributionSpec
  /// Probability that a display attempt with an active scene still fails (multi-window
  /// iPad). In [0, 1].
  public var displayFailureProbability: Double

  public init(activationDelay: DistributionSpec, displayFailureProbability: Double) {
    self.activationDelay = activationDelay
    self.displayFailureProbability = displayFailureProbability
  }
}

/// Who receives a recurring message.
public enum Audience: String, Sendable, Equatable, CaseIterable {
  case subscribers
  case lapsed
  case all
}

/// A message issued to each user of an audience as a Poisson process.
public struct RecurringMessages: Sendable, Equatable {
  public var reason: Reason
  public var audience: Audience
  /// Mean time between issuances per user (1 / rate), seconds.
  public var meanInterval: Double
  /// Time after issuance at which the message expires (the issue is resolved outside the
  /// app); `nil`: never.
  public var expiry: DistributionSpec?

  public init(
    reason: Reason, audience: Audience, meanInterval: Double, expiry: DistributionSpec?
  ) {
    self.reason = reason
    self.audience = audience
    self.meanInterval = meanInterval
    self.expiry = expiry
  }
}

/// A price-increase campaign: one consent message to a share of subscribers.
public struct ConsentCampaign: Sendable, Equatable {
  /// When the rollout starts (seconds).
  public var start: Double
  /// Each chosen subscriber is issued the message at a time uniform in
  /// [start, start + rolloutWindow).
  public var rolloutWindow: Double
  /// Share of subscribers who receive it. In [0, 1].
  public var audienceShare: Double
  /// Time from issuance to the consent deadline (the renewal date).
  public var deadline: DistributionSpec
  /// Time after issuance at which it expires (consent given elsewhere); `nil`: never.
  public var expiry: DistributionSpec?
  /// When set (`local_time`), as ``MessageCampaign/localTime``: issued at the next such local
  /// time of day from the drawn time; the deadline counts from then.
  public var localTime: Double? = nil

  public init(
    start: Double, rolloutWindow: Double, audienceShare: Double, deadline: DistributionSpec,
    expiry: DistributionSpec?
  ) {
    self.start = start
    self.rolloutWindow = rolloutWindow
    self.audienceShare = audienceShare
    self.deadline = deadline
    self.expiry = expiry
  }
}

/// A campaign at a fixed time: one message of `reason` to a share of an audience (a win-back
/// offer on day 10).
public struct MessageCampaign: Sendable, Equatable {
  public var reason: Reason
  public var audience: Audience
  /// Each chosen user is issued the message at a time uniform in
  /// [start, start + rolloutWindow) (at `start` exactly when the window is 0).
  public var start: Double
  public var rolloutWindow: Double
  /// Share of the audience who receive it. In [0, 1].
  public var audienceShare: Double
  /// Time after issuance at which it expires; `nil`: never.
  public var expiry: DistributionSpec?
  /// When set (`local_time`, seconds after local midnight): each message is issued at the
  /// first moment at or after its drawn time whose local time of day is this, on the clock of
  /// `sessions.daily_rhythm` (without one, simulated time 0 is local midnight).
  public var localTime: Double? = nil

  public init(
    reason: Reason, audience: Audience, start: Double, rolloutWindow: Double,
    audienceShare: Double, expiry: DistributionSpec?
  ) {
    self.reason = reason
    self.audience = audience
    self.start = start
    self.rolloutWindow = rolloutWindow
    self.audienceShare = audienceShare
    self.expiry = expiry
  }
}

/// Billing issues tied to renewal dates: each subscriber renews every `period` (from a
/// uniform phase); a renewal fails with `failureProbability`, which issues a billing-issue
/// message; the App Store then retries at `retryTimes` after the failure, each retry
/// succeeding with `retrySuccessProbability`. The first success resolves the issue (the
/// message expires then); if none succeeds the message expires at the last retry and the
/// subscription lapses (no more renewals).
public struct BillingRenewals: Sendable, Equatable {
  public var period: Double
  public var failureProbability: Double
  /// Times after the failed renewal, increasing, all > 0 (non-empty).
  public var retryTimes: [Double]
  public var retrySuccessProbability: Double

  public init(
    period: Double, failureProbability: Double, retryTimes: [Double],
    retrySuccessProbability: Double
  ) {
    self.period = period
    self.failureProbability = failureProbability
    self.retryTimes = retryTimes
    self.retrySuccessProbability = retrySuccessProbability
  }
}

/// Every way the App Store issues messages in a scenario.
public struct MessageProcesses: Sendable, Equatable {
  public var consent: ConsentCampaign?
  /// Billing issues, win-back offers, generic and unknown reasons (any number of each).
  public var recurring: [RecurringMessages]
  /// Fixed-time campaigns of any reason but consent, in file order.
  public var campaigns: [MessageCampaign]
  /// Billing issues at failed renewals (in addition to any Poisson `billing_issue`).
  public var billingRenewals: BillingRenewals?

  public init(
    consent: ConsentCampaign?, recurring: [RecurringMessages], campaigns: [MessageCampaign] = [],
    billingRenewals: BillingRenewals? = nil
  ) {
    self.consent = consent
    self.recurring = recurring
    self.campaigns = campaigns
    self.billingRenewals = billingRenewals
  }
}
