#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A kiosk's own navigation rules, decided before its chain: no handler, configured or
/// built in, can let these through.
///
/// - Its top-level document is never an `about:`, `data:`, `blob:` or `javascript:` one
///   (a blank, a page written into a URL, a page a script made): such a page would replace
///   the app for good. Frames keep `about:blank` and `about:srcdoc` (judged by the chain
///   with their parent's origin). WebKitGTK 4.1 tells a request's frame only for new
///   windows and responses (`NavigationAction.isTopLevel`); an `about:blank` the top frame
///   takes anyway is caught as it commits (`refusesTopLevelDocument(at:)`).
/// - A `window.open` without a user gesture is refused, as browsers' popup blockers do:
///   in a kiosk it would replace the app in its one view.
extension Configuration {
    /// The handler name the events log shows for a refused top-level document.
    public static let kioskTopLevelHandler = "kiosk-top-level"
    /// The handler name the events log shows for a refused gesture-less `window.open`.
    public static let popupBlockerHandler = "popup-blocker"
    /// The schemes of documents a kiosk never shows top-level.
    public static let kioskRefusedTopLevelSchemes: Set<String> = ["about", "data", "blob", "javascript"]

    /// The kiosk's refusal of `action`, or nil: the chain decides.
    public func kioskRefusal(of action: NavigationAction) -> NavigationDecision? {
        guard kiosk != nil else { return nil }
        if action.target == .newWindow, action.response == nil, !action.isUserGesture {
            return NavigationDecision(policy: .cancel, handler: Self.popupBlockerHandler)
        }
        guard action.isTopLevel == true, refusesTopLevelDocument(at: action.url) else { return nil }
        // A response WebKit cannot show becomes a download, not the page: the chain decides it.
        if let response = action.response, !response.canShowMIMEType { return nil }
        return NavigationDecision(policy: .cancel, handler: Self.kioskTopLevelHandler)
    }

    /// Whether a kiosk's top-level document may not be at `url`.
    public func refusesTopLevelDocument(at url: URL) -> Bool {
        kiosk != nil && Self.kioskRefusedTopLevelSchemes.contains(url.scheme?.lowercased() ?? "")
    }

    /// The verdict on `action`: the kiosk's refusal, else the chain's.
    @MainActor
    public func decide(_ action: NavigationAction, context: NavigationContext) async -> NavigationDecision {
        if let refusal = kioskRefusal(of: action) { return refusal }
        return await navigationChain.decide(action, context: context)
    }
}
