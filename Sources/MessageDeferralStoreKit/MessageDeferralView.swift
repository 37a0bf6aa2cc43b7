// SwiftUI reporting for apps that display through `DisplayMessageAction` (Apple recommends it
// for SwiftUI apps). Compiled only where SwiftUI, StoreKit and UIKit exist: not verified on
// this project's Linux CI.
#if canImport(SwiftUI) && canImport(StoreKit) && canImport(UIKit)
  import MessageDeferral
  import StoreKit
  import SwiftUI

  @available(iOS 16.0, macCatalyst 16.0, visionOS 1.0, *)
  struct _DeferralSceneModifier: ViewModifier {
    let controller: MessageDeferralController
    @Environment(\.displayStoreKitMessage) private var displayStoreKitMessage
    @Environment(\.scenePhase) private var scenePhase

    func body(content: Content) -> some View {
      content
        .onAppear {
          controller.displayAction = displayStoreKitMessage
          if scenePhase == .active { controller.sceneDidBecomeActive() }
        }
        .onChange(of: scenePhase) { phase in
          switch phase {
          case .active:
            controller.displayAction = displayStoreKitMessage
            controller.sceneDidBecomeActive()
          case .background: controller.sceneDidEnterBackground()
          default: break
          }
        }
    }
  }

  @available(iOS 16.0, macCatalyst 16.0, visionOS 1.0, *)
  struct _DeferralScreenModifier: ViewModifier {
    let controller: MessageDeferralController
    let kind: ScreenKind
    let name: String
    @Environment(\.displayStoreKitMessage) private var displayStoreKitMessage

    func body(content: Content) -> some View {
      content.onAppear {
        controller.displayAction = displayStoreKitMessage
        controller.screenAppeared(kind, name: name)
      }
    }
  }

  @available(iOS 16.0, macCatalyst 16.0, visionOS 1.0, *)
  extension View {
    /// Reports the scene's phase to `controller` and gives it SwiftUI's display action. Put it
    /// on the root view of the `WindowGroup`:
    ///
    ///     WindowGroup { ContentView().deferralScene(deferral) }
    public func deferralScene(_ controller: MessageDeferralController) -> some View {
      modifier(_DeferralSceneModifier(controller: controller))
    }

    /// Reports this screen's appearance (its kind decides what the policy may show over it):
    ///
    ///     HomeView().deferralScreen(.home, name: "home", controller: deferral)
    public func deferralScreen(
      _ kind: ScreenKind, name: String, controller: MessageDeferralController
    ) -> some View {
      modifier(_DeferralScreenModifier(controller: controller, kind: kind, name: name))
    }
  }
#endif
