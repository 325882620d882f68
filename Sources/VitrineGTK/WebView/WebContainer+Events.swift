import CWebKitGTK
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Vitrine

/// Native → page events (`vitrine.on` listeners).
extension WebContainer {
    /// Sends a native event to the `vitrine.on(name, …)` listeners of every page whose
    /// origin belongs to the app. Returns how many pages it was sent to.
    @discardableResult
    public func emit(_ name: String, _ payload: JSONValue = .null) -> Int {
        let script = ScriptBridge.eventDispatch(name: name, payloadJSON: payload.jsonText)
        var sent = 0
        for pane in panes {
            guard let url = pane.currentURL, let origin = Origin(url), configuration.appOrigins.contains(origin) else { continue }
            webkit_web_view_evaluate_javascript(pane.webView, script, -1, ScriptBridge.worldName, nil, nil, nil, nil)
            sent += 1
        }
        record(.native(action: .emit, detail: name))
        return sent
    }

    /// Sends a native event to `pane`'s top document only (see `emit`).
    func emit(to pane: WebPane, _ name: String, _ payload: JSONValue) {
        let script = ScriptBridge.eventDispatch(name: name, payloadJSON: payload.jsonText)
        webkit_web_view_evaluate_javascript(pane.webView, script, -1, ScriptBridge.worldName, nil, nil, nil, nil)
        record(.native(action: .emit, detail: name))
    }
}
