import CWebKitGTK
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Vitrine

/// A playlist's media items (`video = "…"`) in one pane: WebKit shows the file in its own
/// media document; `media-item.js` (isolated world, top frame) fills the window with it and
/// reports its end on `vitrine-media`. The schedule's runner decides what the end means
/// (`SignageScheduler.mediaEnded`): the next item, or play again (`vitrineMediaReplay()`,
/// evaluated in the same world).
///
/// Page scripts cannot reach the handler (it lives in the isolated world) and the script
/// reports only in a media document, so no page can end a media item's turn; a report is
/// taken only for the URL the runner shows as a media item.
///
/// Ownership: owned by its pane; its handler registration and signal are released on
/// `tearDown` and in `deinit`; the pane is weak (a report that finds it gone is dropped).
@MainActor
final class MediaItemPlayer: PaneCollaborator {
    let signals = SignalConnections()
    private let contentManager: GObjectReference<WebKitUserContentManager>
    private weak var pane: WebPane?
    private var isRegistered = false

    /// Whether `configuration` has media items (else no pane gets a player or its script).
    static func isNeeded(for configuration: Configuration) -> Bool {
        (configuration.schedule.playlist + configuration.displays.flatMap(\.playlist)).contains { $0.media != nil }
    }

    /// The page side, injected at document end (the media document's element exists by then).
    static var script: UserScript {
        UserScript(source: SDKFile.script([.mediaItem]), injectionTime: .documentEnd, frames: .topFrame)
    }

    init(contentManager: GObjectReference<WebKitUserContentManager>) {
        self.contentManager = contentManager
    }

    func attach(to pane: WebPane) {
        self.pane = pane
        let name = BridgeProtocol.mediaHandler
        webkit_user_content_manager_register_script_message_handler_in_world(contentManager.pointer, name, ScriptBridge.worldName)
        isRegistered = true
        signals.connect(gptr(contentManager.pointer), "script-message-received::\(name)",
                        context: SignalContext(owner: self), handler: gCallback(onMediaMessage))
    }

    func tearDown() {
        signals.disconnectAll()
        unregister()
    }

    /// Plays the media on screen again from its start.
    func replay() {
        guard let pane, !pane.isTornDown else { return }
        webkit_web_view_evaluate_javascript(pane.webView, "\(BridgeProtocol.mediaReplayFunction)()", -1, ScriptBridge.worldName,
                                            nil, nil, nil, nil)
    }

    fileprivate func received(_ text: String?) {
        guard let pane, !pane.isTornDown, text == "ended", let url = pane.currentURL else { return }
        pane.container?.feature(SignageFeature.self)?.mediaEnded(showing: url)
    }

    private func unregister() {
        guard isRegistered else { return }
        isRegistered = false
        webkit_user_content_manager_unregister_script_message_handler_in_world(
            contentManager.pointer, BridgeProtocol.mediaHandler, ScriptBridge.worldName)
    }

    isolated deinit {
        unregister()
    }
}

/// `script-message-received::vitrine-media`:
/// `void (*)(WebKitUserContentManager*, WebKitJavascriptResult*, gpointer)`.
private let onMediaMessage: @convention(c) (OpaquePointer?, OpaquePointer?, gpointer?) -> Void = { _, result, data in
    onMainLoop((result, data)) { result, data in
        let text: String? = result.flatMap { result in
            guard let value = webkit_javascript_result_get_js_value(result), jsc_value_is_string(value) != 0 else { return nil }
            return takeString(jsc_value_to_string(value))
        }
        SignalContext.owner(data, as: MediaItemPlayer.self)?.received(text)
    }
}
