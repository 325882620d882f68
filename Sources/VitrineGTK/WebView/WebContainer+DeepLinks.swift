import CWebKitGTK
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Vitrine

/// Deep links waiting for the app's page, and the one the chain is deciding.
struct DeepLinkInbox {
    /// At most this many links wait for the page to finish loading; more are refused.
    static let capacity = 16
    /// The link handed to the chain by `openDeepLink`: only it may reach the pages (a
    /// page's own `myapp:` link is cancelled by the chain and told to nobody).
    var deciding: URL?
    /// Links that passed the chain before the page finished loading.
    var waiting: [DeepLink] = []
    /// Whether a page has finished loading (its `deep-link` listeners are in place).
    var pageLoaded = false
}

extension WebContainer {
    /// Hands a deep link (`myapp://…`, one of `[app] url-schemes`) to the app: checked as a
    /// `DeepLink`, then by the navigation chain (its deep-link handler), then told to the
    /// pages of origins granted `app` as a `deep-link` event — at once, or when the page
    /// has finished loading. A kiosk takes none. Answers why it was refused, or nil.
    @discardableResult
    public func openDeepLink(_ url: URL) -> String? {
        let link: DeepLink
        do throws(ScriptMessageError) {
            guard configuration.kiosk == nil else { throw ScriptMessageError("deep link: a kiosk takes no deep links") }
            link = try DeepLink(url.absoluteString, schemes: configuration.urlSchemes)
        } catch {
            record(.native(action: .deepLinkRefused, detail: error.description))
            return error.description
        }
        deepLinks.deciding = link.url
        let configuration = configuration
        let action = NavigationAction(url: link.url)
        let context = NavigationContext(host: self, appOrigins: configuration.appOrigins)
        Task.immediate { @MainActor [weak self] in
            let verdict = await configuration.decide(action, context: context)
            guard let self, !self.isTornDown else { return }
            self.record(.navigation(url: link.url.absoluteString, handler: verdict.handler, policy: verdict.policy,
                                    navigationType: action.navigationType, target: action.target, phase: .request))
            if self.deepLinks.deciding == link.url {
                // No deep-link handler took it: the chain refused it (or would load it as a page).
                self.deepLinks.deciding = nil
                self.record(.native(action: .deepLinkRefused, detail: "\(link.url.absoluteString): the navigation chain's \(verdict.handler) decided \(verdict.policy)"))
            }
        }
        return nil
    }

    /// The chain's deep-link handler took `url`: the link `openDeepLink` is deciding goes
    /// to the pages; any other (a page's own link to the app's scheme) is dropped.
    func deepLinkPassedChain(_ url: URL) {
        guard deepLinks.deciding == url, let link = try? DeepLink(url.absoluteString, schemes: configuration.urlSchemes) else {
            record(.native(action: .deepLinkRefused, detail: "\(url.absoluteString.prefix(200)): not handed over by the desktop"))
            return
        }
        deepLinks.deciding = nil
        guard deepLinks.pageLoaded else {
            guard deepLinks.waiting.count < DeepLinkInbox.capacity else {
                record(.native(action: .deepLinkRefused, detail: "\(url.absoluteString): \(DeepLinkInbox.capacity) links already wait for the page"))
                return
            }
            deepLinks.waiting.append(link)
            return
        }
        tellPages(link)
    }

    /// The page finished loading: the links that waited for it go now.
    func deliverWaitingDeepLinks() {
        deepLinks.pageLoaded = true
        let waiting = deepLinks.waiting
        deepLinks.waiting = []
        waiting.forEach(tellPages)
    }

    private func tellPages(_ link: DeepLink) {
        let sent = emit("deep-link", link.event, grantedTo: .app)
        record(.native(action: .deepLink, detail: "\(link.url.absoluteString) to \(sent) page(s)"))
    }

    /// Tells the pages whose origin was granted `capability` an event; answers how many.
    @discardableResult
    func emit(_ name: String, _ payload: JSONValue, grantedTo capability: Capability) -> Int {
        let script = ScriptBridge.eventDispatch(name: name, payloadJSON: payload.jsonText)
        var sent = 0
        for pane in panes {
            guard let url = pane.currentURL, configuration.capabilities.isGranted(capability, to: Origin(url)) else { continue }
            webkit_web_view_evaluate_javascript(pane.webView, script, -1, ScriptBridge.worldName, nil, nil, nil, nil)
            sent += 1
        }
        return sent
    }
}
