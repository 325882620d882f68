#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Vitrine

/// Deep links (`myapp://…`, one of `[app] url-schemes`) handed to the app by the desktop:
/// checked as a `DeepLink`, then by the navigation chain (its deep-link handler), then told
/// to the pages of origins granted `app` as a `deep-link` event — at once, or once a page
/// has finished loading (at most `capacity` wait). A kiosk takes none; a page's own link to
/// the app's scheme reaches nobody.
@MainActor
public final class DeepLinkFeature: WindowFeature {
    /// At most this many links wait for the page to finish loading; more are refused.
    public static let capacity = 16
    private weak var host: (any FeatureHost)?
    /// The link handed to the chain by `open`: only it may reach the pages.
    private var deciding: URL?
    /// Links that passed the chain before a page finished loading.
    private var waiting: [DeepLink] = []
    /// Whether a page has finished loading (its `deep-link` listeners are in place).
    private var pageLoaded = false

    public init() {}

    public func attach(to host: any FeatureHost) {
        self.host = host
    }

    public func loadChanged(_ load: PaneLoad) {
        guard load.event == .finished else { return }
        pageLoaded = true
        let links = waiting
        waiting = []
        links.forEach(tellPages)
    }

    public func tearDown() {
        waiting = []
        deciding = nil
    }

    /// Hands `url` to the app; answers why it was refused, or nil (the chain decides next).
    @discardableResult
    public func open(_ url: URL) -> String? {
        guard let host, !host.isClosed else { return "deep link: the window is closed" }
        let configuration = host.configuration
        let link: DeepLink
        do throws(ScriptMessageError) {
            guard configuration.kiosk == nil else { throw ScriptMessageError("deep link: a kiosk takes no deep links") }
            link = try DeepLink(url.absoluteString, schemes: configuration.urlSchemes)
        } catch {
            host.record(.native(action: .deepLinkRefused, detail: error.description))
            return error.description
        }
        deciding = link.url
        let action = NavigationAction(url: link.url)
        let context = NavigationContext(host: host.containerHost, appOrigins: configuration.appOrigins)
        Task.immediate { @MainActor [weak self] in
            let verdict = await configuration.decide(action, context: context)
            guard let self, let host = self.host, !host.isClosed else { return }
            host.record(.navigation(url: link.url.absoluteString, handler: verdict.handler, policy: verdict.policy,
                                    navigationType: action.navigationType, target: action.target, phase: .request))
            if self.deciding == link.url {
                // No deep-link handler took it: the chain refused it (or would load it as a page).
                self.deciding = nil
                host.record(.native(action: .deepLinkRefused, detail: "\(link.url.absoluteString): the navigation chain's \(verdict.handler) decided \(verdict.policy)"))
            }
        }
        return nil
    }

    /// The chain's deep-link handler took `url`: the link `open` is deciding goes to the
    /// pages; any other (a page's own link to the app's scheme) is dropped.
    func passedChain(_ url: URL) {
        guard let host else { return }
        guard deciding == url, let link = try? DeepLink(url.absoluteString, schemes: host.configuration.urlSchemes) else {
            host.record(.native(action: .deepLinkRefused, detail: "\(url.absoluteString.prefix(200)): not handed over by the desktop"))
            return
        }
        deciding = nil
        guard pageLoaded else {
            guard waiting.count < Self.capacity else {
                host.record(.native(action: .deepLinkRefused, detail: "\(url.absoluteString): \(Self.capacity) links already wait for the page"))
                return
            }
            waiting.append(link)
            return
        }
        tellPages(link)
    }

    private func tellPages(_ link: DeepLink) {
        guard let host else { return }
        let sent = host.emit("deep-link", link.event, to: .granted(.app))
        host.record(.native(action: .deepLink, detail: "\(link.url.absoluteString) to \(sent) page(s)"))
    }
}
