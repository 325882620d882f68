#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What a page (or the user) is trying to do: a plain value the GTK adapter builds from a
/// `WebKitNavigationAction` or a `WebKitResponsePolicyDecision`, so handlers never see C.
public struct NavigationAction: Sendable, Equatable {
    /// How the navigation started, after WebKit's `WebKitNavigationType`.
    public enum NavigationType: String, Sendable {
        case linkActivated, formSubmitted, backForward, reload, formResubmitted, other
    }

    /// Where the navigation would land.
    public enum Target: String, Sendable {
        /// The container's own view (its main frame or one of its frames).
        case currentView
        /// A new window (`window.open`, `target=_blank`).
        case newWindow
    }

    /// The phase of the decision: WebKit asks once before the request and once when the
    /// response arrives.
    public enum Phase: Sendable, Equatable {
        case request
        case response(NavigationResponse)
    }

    public var url: URL
    public var navigationType: NavigationType
    public var target: Target
    public var isUserGesture: Bool
    public var isRedirect: Bool
    public var httpMethod: String
    public var phase: Phase
    /// The origin an `about:blank` or `about:srcdoc` frame's document inherits: the origin of
    /// the page the view shows. WebKitGTK 4.1 names neither the navigating frame nor its
    /// parent; every frame of a page is either of an origin the chain allowed or inherits
    /// one, so the page's origin stands for the parent's. Nil: no page yet, or an opaque one.
    public var parentOrigin: Origin?

    public init(
        url: URL, navigationType: NavigationType = .other, target: Target = .currentView,
        isUserGesture: Bool = false, isRedirect: Bool = false, httpMethod: String = "GET",
        phase: Phase = .request, parentOrigin: Origin? = nil
    ) {
        self.url = url
        self.navigationType = navigationType
        self.target = target
        self.isUserGesture = isUserGesture
        self.isRedirect = isRedirect
        self.httpMethod = httpMethod
        self.phase = phase
        self.parentOrigin = parentOrigin
    }

    /// Whether the document would be top-level (the view's main frame or a new window): known
    /// for new windows and responses, and for `about:srcdoc` (only ever a frame's); nil for
    /// other requests in the view, where WebKitGTK 4.1 does not say which frame navigates.
    public var isTopLevel: Bool? {
        if target == .newWindow { return true }
        if let response { return response.isMainFrame }
        if url.absoluteString.lowercased().hasPrefix("about:srcdoc") { return false }
        return nil
    }

    /// The origin of the document this navigation would make, the URL standard's way:
    /// `blob:` URLs have their creator's, `about:blank` / `about:srcdoc` frames their
    /// parent's (never a top-level document's), other hostless URLs none (opaque: nil).
    public var documentOrigin: Origin? {
        Origin(document: url, inheriting: isTopLevel == true ? nil : parentOrigin)
    }

    /// The response, for response-phase decisions.
    public var response: NavigationResponse? {
        if case .response(let response) = phase { return response }
        return nil
    }
}

