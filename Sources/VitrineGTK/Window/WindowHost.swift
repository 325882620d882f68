#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Vitrine

/// What the chain's handlers, the strategies and the features may ask of a window: the
/// window's `ContainerHost` and `FeatureHost`. It holds its window weakly and fails closed
/// once the window has gone (no URL, no dialog, nothing shown, nothing sent), so an answer
/// that arrives late never reaches a window that is not there.
@MainActor
final class WindowHost: ContainerHost, FeatureHost {
    private weak var window: WebContainer?
    let configuration: Configuration

    init(_ window: WebContainer) {
        self.window = window
        configuration = window.configuration
    }

    /// The window while it is open.
    private var open: WebContainer? {
        guard let window, !window.isTornDown else { return nil }
        return window
    }

    // MARK: ContainerHost

    var currentURL: URL? { open?.currentURL }
    func present(_ route: NativeRoute) { open?.present(route) }
    func openExternally(_ url: URL) { open?.openExternally(url) }
    func showHome() -> Bool { open?.showHome() ?? false }
    func confirm(title: String, message: String) async -> Bool {
        await open?.confirm(title: title, message: message) ?? false
    }
    func close() { open?.close() }
    func reload() { open?.reload() }
    func setTitle(_ title: String) { open?.setTitle(title) }
    func service<S>(_ type: S.Type) -> S? { open?.service(type) }

    // MARK: FeatureHost

    var isClosed: Bool { open == nil }
    var containerHost: any ContainerHost { self }
    var container: WebContainer? { open }
    func record(_ event: ContainerEvent) { window?.record(event) }
    @discardableResult
    func emit(_ name: String, _ payload: JSONValue, to audience: PageAudience) -> Int {
        open?.emit(name, payload, to: audience) ?? 0
    }
}
