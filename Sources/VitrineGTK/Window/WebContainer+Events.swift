import CWebKitGTK
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Vitrine

/// Native → page events (`vitrine.on` listeners), and the window as its features' host.
extension WebContainer {
    /// Sends a native event to the `vitrine.on(name, …)` listeners of the pages of `audience`
    /// (by default every page whose origin belongs to the app); answers how many. An event
    /// for the app's pages is recorded; one for a capability's grantees is its feature's to record.
    @discardableResult
    public func emit(_ name: String, _ payload: JSONValue = .null, to audience: PageAudience = .app) -> Int {
        let script = ScriptBridge.eventDispatch(name: name, payloadJSON: payload.jsonText)
        var sent = 0
        for pane in panes {
            guard let url = pane.currentURL, isListening(Origin(url), audience) else { continue }
            webkit_web_view_evaluate_javascript(pane.webView, script, -1, ScriptBridge.worldName, nil, nil, nil, nil)
            sent += 1
        }
        if case .app = audience { record(.native(action: .emit, detail: name)) }
        return sent
    }

    private func isListening(_ origin: Origin?, _ audience: PageAudience) -> Bool {
        switch audience {
        case .app: return origin.map(configuration.appOrigins.contains) ?? false
        case .granted(let capability): return configuration.capabilities.isGranted(capability, to: origin)
        }
    }

    /// Sends a native event to `pane`'s top document only (see `emit`).
    func emit(to pane: WebPane, _ name: String, _ payload: JSONValue) {
        let script = ScriptBridge.eventDispatch(name: name, payloadJSON: payload.jsonText)
        webkit_web_view_evaluate_javascript(pane.webView, script, -1, ScriptBridge.worldName, nil, nil, nil, nil)
        record(.native(action: .emit, detail: name))
    }
}
