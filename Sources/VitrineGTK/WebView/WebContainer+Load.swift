import CWebKitGTK
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Vitrine

/// Load events and the page title.
extension WebContainer {
    func loadChanged(_ event: WebKitLoadEvent) {
        let name: String
        switch event {
        case WEBKIT_LOAD_STARTED: name = "started"
        case WEBKIT_LOAD_REDIRECTED: name = "redirected"
        case WEBKIT_LOAD_COMMITTED: name = "committed"
        case WEBKIT_LOAD_FINISHED: name = "finished"
        default: return
        }
        let url = currentURL
        record(.load(event: name, url: url?.absoluteString ?? "", error: nil))
        for observer in loadObservers { observer(name, url) }
    }

    func loadFailed(uri: String, error: String) {
        record(.load(event: "failed", url: uri, error: error))
        for observer in loadObservers { observer("failed", URL(string: uri)) }
    }

    func titleChanged() {
        guard configuration.titleFollowsPage, let title = string(webkit_web_view_get_title(webView)), !title.isEmpty
        else { return }
        setTitle(title)
    }
}

/// `load-changed`: `void (*)(WebKitWebView*, WebKitLoadEvent, gpointer)`.
let onLoadChanged: @convention(c) (OpaquePointer?, WebKitLoadEvent, gpointer?) -> Void = { _, event, data in
    guard let container = WebContainer.from(data) else { return }
    MainActor.assumeIsolated { container.loadChanged(event) }
}

/// `load-failed`: `gboolean (*)(WebKitWebView*, WebKitLoadEvent, gchar*, GError*, gpointer)`.
/// Returns FALSE so WebKit still shows its own error page.
let onLoadFailed: @convention(c) (OpaquePointer?, WebKitLoadEvent, UnsafeMutablePointer<gchar>?, UnsafeMutablePointer<GError>?, gpointer?) -> gboolean = {
    _, _, uri, error, data in
    guard let container = WebContainer.from(data) else { return 0 }
    let message = error.flatMap { string($0.pointee.message) } ?? "unknown error"
    let uriString = uri.map { String(cString: $0) } ?? ""
    MainActor.assumeIsolated { container.loadFailed(uri: uriString, error: message) }
    return 0
}

/// `notify::title`: `void (*)(GObject*, GParamSpec*, gpointer)`.
let onTitleChanged: @convention(c) (OpaquePointer?, OpaquePointer?, gpointer?) -> Void = { _, _, data in
    guard let container = WebContainer.from(data) else { return }
    MainActor.assumeIsolated { container.titleChanged() }
}
