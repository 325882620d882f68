import Foundation
import Vitrine

/// A recording `ContainerHost`: a test double of the container, not of WebKit (the core has
/// none). Handlers and strategies are tested on it without a display: give it to the chain
/// or the strategy as its host, then read what they asked of the container.
@MainActor
public final class TestHost: ContainerHost {
    public var currentURL: URL?

    /// What `showHome()` answers.
    public var showHomeResult: Bool
    /// What `confirm(title:message:)` answers.
    public var confirmAnswer: Bool

    public private(set) var presentedRoutes: [NativeRoute] = []
    public private(set) var openedURLs: [URL] = []
    public private(set) var showHomeCalls = 0
    public private(set) var confirmations: [(title: String, message: String)] = []
    public private(set) var closeCalls = 0
    public private(set) var reloadCalls = 0
    public private(set) var titles: [String] = []
    /// The capability services it provides (`ClipboardService`, `MenuService`…): the
    /// capabilities' strategies find them through `service(_:)`. None by default: the
    /// capabilities then say this container has no desktop.
    public var services: [AnyObject] = []

    public init(showHomeResult: Bool = false, confirmAnswer: Bool = false, currentURL: URL? = nil) {
        self.showHomeResult = showHomeResult
        self.confirmAnswer = confirmAnswer
        self.currentURL = currentURL
    }

    /// What the window does with a route it is shown (a deep link goes to its feature), at once.
    public var onPresent: (@MainActor (NativeRoute) -> Void)?

    public func present(_ route: NativeRoute) {
        presentedRoutes.append(route)
        onPresent?(route)
    }
    public func openExternally(_ url: URL) { openedURLs.append(url) }
    public func showHome() -> Bool {
        showHomeCalls += 1
        return showHomeResult
    }
    public func confirm(title: String, message: String) async -> Bool {
        confirmations.append((title, message))
        return confirmAnswer
    }
    public func close() { closeCalls += 1 }
    public func reload() { reloadCalls += 1 }
    public func setTitle(_ title: String) { titles.append(title) }
    public func service<S>(_ type: S.Type) -> S? { services.lazy.compactMap { $0 as? S }.first }

    /// True when nothing at all was asked of the container.
    public var untouched: Bool {
        presentedRoutes.isEmpty && openedURLs.isEmpty && showHomeCalls == 0 && confirmations.isEmpty
            && closeCalls == 0 && reloadCalls == 0 && titles.isEmpty
    }
}
