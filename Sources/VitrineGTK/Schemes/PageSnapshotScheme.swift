import CWebKitGTK
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Vitrine

/// The `vitrine-snapshot` scheme: a kept page (`SnapshotContent`) is served — its document
/// and its parts, as often as they are asked — only to the view it is shown in, and only
/// while that view shows it; any other request gets "not found".
///
/// The scheme is registered as local: WebKit refuses a non-local page's load of a local URL,
/// so a live page can neither show nor fetch a snapshot's document or parts.
@MainActor
final class PageSnapshotScheme {
    static let shared = PageSnapshotScheme()
    /// Each view's snapshot on screen, held by the view's `PageSnapshotRoute`.
    private var shown: [UnsafeMutableRawPointer: (route: ObjectIdentifier, content: SnapshotContent)] = [:]

    /// Registers the scheme on `context` (before its first view), as local.
    static func register(in context: UnsafeMutablePointer<WebKitWebContext>) {
        webkit_web_context_register_uri_scheme(context, PageSnapshots.scheme, { request, _ in
            guard let request else { return }
            onMainLoop(request) { request in PageSnapshotScheme.shared.respond(to: request) }
        }, nil, nil)
        webkit_security_manager_register_uri_scheme_as_local(webkit_web_context_get_security_manager(context), PageSnapshots.scheme)
    }

    /// Serves `content` to `view` until the returned route goes or the view shows something else.
    func serve(_ content: SnapshotContent, to view: UnsafeMutablePointer<WebKitWebView>) -> PageSnapshotRoute {
        let route = PageSnapshotRoute(view: view, address: content.address)
        shown[UnsafeMutableRawPointer(view)] = (ObjectIdentifier(route), content)
        return route
    }

    /// How many views have a snapshot served (tests: nothing is kept once they moved on).
    var servedViewCount: Int { shown.count }

    fileprivate func remove(_ view: UnsafeMutableRawPointer, route: ObjectIdentifier) {
        if shown[view]?.route == route { shown[view] = nil }
    }

    private func respond(to request: UnsafeMutablePointer<WebKitURISchemeRequest>) {
        guard let view = webkit_uri_scheme_request_get_web_view(request), let entry = shown[UnsafeMutableRawPointer(view)],
              string(webkit_web_view_get_uri(view)) == entry.content.address.absoluteString,
              let uri = string(webkit_uri_scheme_request_get_uri(request)), let url = URL(string: uri),
              let resource = entry.content.resource(at: url) else {
            return SchemeResponse.failNotFound(request, "Not found")
        }
        // Nothing from the network, no script: the copy is made of its own parts.
        resource.body.withUnsafeBytes { body in
            SchemeResponse.finish(request, body: .bytes(body), contentType: resource.contentType,
                                  contentSecurityPolicy: PageSnapshots.contentSecurityPolicy)
        }
    }
}

/// A view's claim on the snapshot it shows: served until this goes (the pane shows another
/// snapshot, or is torn down) or a load of anything else commits in the view.
@MainActor
final class PageSnapshotRoute {
    private let view: UnsafeMutableRawPointer
    private let address: String
    private let signals = SignalConnections()

    fileprivate init(view: UnsafeMutablePointer<WebKitWebView>, address: URL) {
        self.view = UnsafeMutableRawPointer(view)
        self.address = address.absoluteString
        signals.connect(gptr(view), "load-changed", context: SignalContext(owner: self), handler: gCallback(onSnapshotViewLoadChanged))
    }

    fileprivate func loadChanged(_ event: WebKitLoadEvent) {
        guard event == WEBKIT_LOAD_COMMITTED,
              string(webkit_web_view_get_uri(view.assumingMemoryBound(to: WebKitWebView.self))) != address else { return }
        release()
    }

    private func release() {
        PageSnapshotScheme.shared.remove(view, route: ObjectIdentifier(self))
        signals.disconnectAll()
    }

    isolated deinit {
        release()
    }
}

/// `load-changed`: `void (*)(WebKitWebView*, WebKitLoadEvent, gpointer)`.
private let onSnapshotViewLoadChanged: @convention(c) (OpaquePointer?, WebKitLoadEvent, gpointer?) -> Void = { _, event, data in
    onMainLoop((event, data)) { event, data in SignalContext.owner(data, as: PageSnapshotRoute.self)?.loadChanged(event) }
}
