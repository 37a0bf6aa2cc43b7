/// One place in the app that calls the SDK's `showStoreMessages(for:)`: the screen kind whose
/// appearance makes the call, and the types that call passes.
///
/// Both RevenueCat (`Purchases.showStoreMessages(for:)`) and Adapty
/// (`Adapty.showStoreMessages(for:)`) take the types per call, so an app can show billing
/// issues at `home` and consent at `settings`. Written in a policy as
/// `{"screen": "home", "reasons": ["billing_issue"]}`, or just `"home"` for every reason.
public struct Checkpoint: Sendable, Equatable, Hashable {
  /// The screen kind whose appearance makes the call.
  public var kind: ScreenKind
  /// The reasons this call shows; `nil`: every reason (Adapty's `for: nil`). Unknown reasons
  /// are shown only when named here or when this is `nil`, and never by a policy with
  /// ``PolicyConfiguration/showsUnknownReasons`` `false`.
  public var reasons: Set<Reason>?

  public init(_ kind: ScreenKind, reasons: Set<Reason>? = nil) {
    self.kind = kind
    self.reasons = reasons
  }

  /// Whether this call shows messages of `reason`.
  public func shows(_ reason: Reason) -> Bool {
    reasons?.contains(reason) ?? true
  }
}
