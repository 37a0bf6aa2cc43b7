// The few StoreKit and UIKit declarations MessageDeferralStoreKit uses, with Apple's documented
// signatures, for platforms that lack them (Linux, macOS). Where StoreKit's `Message` API and
// UIKit exist (iOS, Mac Catalyst, visionOS) this module is empty and the library imports the
// real frameworks. Each declaration cites the documentation page it mirrors; what is added for
// scripting (initializers, the message bus, display handlers) is marked "Shim only".
#if !(canImport(StoreKit) && canImport(UIKit))

  // MARK: UIKit

  /// Mirrors UIKit's `UIScene`: <https://developer.apple.com/documentation/uikit/uiscene>.
  /// Only `activationState` is declared.
  @MainActor
  open class UIScene {
    /// Mirrors `UIScene.ActivationState`
    /// (<https://developer.apple.com/documentation/uikit/uiscene/activationstate-swift.enum>):
    /// `unattached`, `foregroundActive`, `foregroundInactive`, `background` (raw values as
    /// the Objective-C `UISceneActivationState`).
    @available(iOS 13.0, macCatalyst 13.1, tvOS 13.0, visionOS 1.0, *)
    public enum ActivationState: Int, Sendable {
      /// <https://developer.apple.com/documentation/uikit/uiscene/activationstate-swift.enum/unattached>
      case unattached = -1
      /// <https://developer.apple.com/documentation/uikit/uiscene/activationstate-swift.enum/foregroundactive>
      case foregroundActive = 0
      /// <https://developer.apple.com/documentation/uikit/uiscene/activationstate-swift.enum/foregroundinactive>
      case foregroundInactive = 1
      /// <https://developer.apple.com/documentation/uikit/uiscene/activationstate-swift.enum/background>
      case background = 2
    }

    /// Mirrors `var activationState: UIScene.ActivationState { get }`
    /// (<https://developer.apple.com/documentation/uikit/uiscene/activationstate-swift.property>).
    /// Shim only: settable, so a test scripts the scene's life.
    @available(iOS 13.0, macCatalyst 13.1, tvOS 13.0, visionOS 1.0, *)
    public var activationState: ActivationState

    /// Shim only (UIKit creates scenes itself, `init(session:connectionOptions:)`).
    public init(activationState: ActivationState = .unattached) {
      self.activationState = activationState
    }
  }

  /// Mirrors UIKit's `UIWindowScene`
  /// (<https://developer.apple.com/documentation/uikit/uiwindowscene>): the scene a message is
  /// displayed in.
  @MainActor
  open class UIWindowScene: UIScene {
    /// Shim only: what `Message.display(in:)` does in this scene: throw (a failed
    /// presentation) or return. Default: record the message in ``shownMessages``.
    public var displayHandler: (@MainActor (Message) throws -> Void)?
    /// Shim only: the messages displayed in this scene by the default handler, in order.
    public private(set) var shownMessages: [Message] = []

    /// Shim only.
    public override init(activationState: ActivationState = .unattached) {
      super.init(activationState: activationState)
    }

    func present(_ message: Message) throws {
      if let displayHandler {
        try displayHandler(message)
      } else {
        shownMessages.append(message)
      }
    }
  }

  // MARK: StoreKit

  /// Mirrors StoreKit's `struct Message`
  /// (<https://developer.apple.com/documentation/storekit/message>): an App Store message the
  /// app may display now, later, or never. Available iOS 16.0, Mac Catalyst 16.0, visionOS 1.0.
  ///
  /// Shim only: `Hashable` identity is ``shimIdentity`` (the same App Store message delivered
  /// again compares equal), and ``init(reason:shimIdentity:)``.
  /// Apple's `Message` is compared by identity the way RevenueCat (`hashValue`) and Adapty
  /// (`==`) do, so it is declared `Hashable` here too.
  @available(iOS 16.0, macCatalyst 16.0, visionOS 1.0, *)
  public struct Message: Hashable, Sendable {
    /// Mirrors `let reason: Message.Reason`
    /// (<https://developer.apple.com/documentation/storekit/message/reason-swift.property>).
    public let reason: Message.Reason
    /// Shim only: which App Store message this is (a test's own numbering).
    public let shimIdentity: Int

    /// Shim only: StoreKit creates messages itself.
    public init(reason: Message.Reason, shimIdentity: Int) {
      self.reason = reason
      self.shimIdentity = shimIdentity
    }

    /// Mirrors `struct Message.Reason`
    /// (<https://developer.apple.com/documentation/storekit/message/reason-swift.struct>).
    /// The raw values are the shim's own (negative, so a test's unknown raw values 0 and up
    /// never collide): code must compare with the static members.
    public struct Reason: RawRepresentable, Hashable, Sendable {
      /// Mirrors `let rawValue: Int`.
      public let rawValue: Int
      /// Mirrors `init(rawValue: Int)`.
      public init(rawValue: Int) { self.rawValue = rawValue }

      /// Mirrors `static let generic: Message.Reason`
      /// (<https://developer.apple.com/documentation/storekit/message/reason-swift.struct/generic>),
      /// iOS 16.0.
      public static let generic = Reason(rawValue: -1)
      /// Mirrors `static let priceIncreaseConsent: Message.Reason`
      /// (<https://developer.apple.com/documentation/storekit/message/reason-swift.struct/priceincreaseconsent>),
      /// iOS 16.0.
      public static let priceIncreaseConsent = Reason(rawValue: -2)
      /// Mirrors `static let billingIssue: Message.Reason`
      /// (<https://developer.apple.com/documentation/storekit/message/reason-swift.struct/billingissue>),
      /// iOS 16.4.
      @available(iOS 16.4, macCatalyst 16.4, visionOS 1.0, *)
      public static let billingIssue = Reason(rawValue: -3)
      /// Mirrors `static let winBackOffer: Message.Reason`
      /// (<https://developer.apple.com/documentation/storekit/message/reason-swift.struct/winbackoffer>),
      /// iOS 18.0, visionOS 2.0.
      @available(iOS 18.0, macCatalyst 18.0, visionOS 2.0, *)
      public static let winBackOffer = Reason(rawValue: -4)
    }

    /// Mirrors `static var messages: Message.Messages { get }`
    /// (<https://developer.apple.com/documentation/storekit/message/messages-swift.type.property>):
    /// the messages the App Store sends while the app iterates it. A message sent while no
    /// iteration waits is shown by StoreKit itself, as without a listener.
    ///
    /// Shim only: the sequence reads the task's ``ShimStoreKit/appStore``.
    public static var messages: Message.Messages { Messages(store: ShimStoreKit.appStore) }

    /// Mirrors `struct Message.Messages`
    /// (<https://developer.apple.com/documentation/storekit/message/messages-swift.struct>):
    /// `AsyncSequence` of `Message`.
    public struct Messages: AsyncSequence, Sendable {
      /// Mirrors `typealias Element = Message`.
      public typealias Element = Message
      let store: ShimAppStore

      /// Mirrors `func makeAsyncIterator() -> Message.Messages.AsyncIterator`.
      public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(store: store) }

      /// Mirrors `struct Message.Messages.AsyncIterator`: `mutating func next() async ->
      /// Message.Messages.Element?`.
      public struct AsyncIterator: AsyncIteratorProtocol, Sendable {
        let store: ShimAppStore
        public mutating func next() async -> Message? { await store.nextMessage() }
      }
    }

    /// Mirrors `@MainActor func display(in scene: UIWindowScene) throws`
    /// (<https://developer.apple.com/documentation/storekit/message/display(in:)>).
    ///
    /// Shim only: runs the scene's ``UIWindowScene/displayHandler``; a scene that is not
    /// foreground-active throws ``ShimDisplayError/sceneNotActive``.
    @MainActor
    public func display(in scene: UIWindowScene) throws {
      guard scene.activationState == .foregroundActive else {
        throw ShimDisplayError.sceneNotActive
      }
      try scene.present(self)
    }
  }

  /// Mirrors `@MainActor struct DisplayMessageAction`
  /// (<https://developer.apple.com/documentation/storekit/displaymessageaction>), which SwiftUI
  /// gives as `EnvironmentValues.displayStoreKitMessage`
  /// (<https://developer.apple.com/documentation/swiftui/environmentvalues/displaystorekitmessage>).
  @available(iOS 16.0, macCatalyst 16.0, visionOS 1.0, *)
  @MainActor
  public struct DisplayMessageAction {
    let handler: @MainActor (Message) throws -> Void

    /// Shim only: SwiftUI provides the action through the environment.
    public init(_ handler: @escaping @MainActor (Message) throws -> Void) {
      self.handler = handler
    }

    /// Mirrors `@MainActor func callAsFunction(_ message: Message) throws`
    /// (<https://developer.apple.com/documentation/storekit/displaymessageaction/callasfunction(_:)>).
    public func callAsFunction(_ message: Message) throws { try handler(message) }
  }

  // MARK: Shim only: scripting

  /// Shim only: why a scripted display failed.
  public enum ShimDisplayError: Error, Equatable, Sendable {
    /// `display(in:)` was called on a scene that is not foreground-active.
    case sceneNotActive
    /// A test's scripted presentation failure.
    case presentationFailed
  }

  /// Shim only: the App Store `Message.messages` reads in this task and the tasks it creates
  /// (a task-local, so tests running in parallel do not share messages):
  /// `ShimStoreKit.$appStore.withValue(store) { ... }`.
  public enum ShimStoreKit {
    @TaskLocal public static var appStore = ShimAppStore()
  }

  /// Shim only: the App Store's side of `Message.messages`, which a test drives.
  @MainActor
  public final class ShimAppStore {
    /// The iteration waiting for the next message, if one waits.
    private var waiting: CheckedContinuation<Message?, Never>?
    /// Senders waiting for the iteration to come back for the next message.
    private var returns: [CheckedContinuation<Void, Never>] = []
    /// Messages sent while no iteration waited: StoreKit shows them itself.
    public private(set) var shownByStoreKit: [Message] = []

    public nonisolated init() {}

    /// Whether an iteration of `Message.messages` is waiting for a message.
    public var hasListener: Bool { waiting != nil }

    /// Sends `message` as the App Store does. With a listener, returns once the listener has
    /// handled it and waits for the next one (`true`); without one, StoreKit shows it
    /// (`false`; recorded in ``shownByStoreKit``).
    @discardableResult
    public func send(_ message: Message) async -> Bool {
      guard let listener = waiting else {
        shownByStoreKit.append(message)
        return false
      }
      waiting = nil
      await withCheckedContinuation { (back: CheckedContinuation<Void, Never>) in
        returns.append(back)
        listener.resume(returning: message)
      }
      return true
    }

    /// Ends the waiting iteration, as the process's death does (its `for await` loop ends).
    public func endListening() {
      waiting?.resume(returning: nil)
      waiting = nil
    }

    func nextMessage() async -> Message? {
      await withCheckedContinuation { (next: CheckedContinuation<Message?, Never>) in
        // A second iteration replaces the first, which ends (one listener per process).
        waiting?.resume(returning: nil)
        waiting = next
        let senders = returns
        returns = []
        for sender in senders { sender.resume() }
      }
    }
  }
#endif
