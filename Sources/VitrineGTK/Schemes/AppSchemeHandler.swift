import CWebKitGTK
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Vitrine

/// One container's app directory: the host it answers to and its files.
struct AppSite {
    let host: String
    let files: AppResourceResolver
}

/// Serves app directories under `app://<host>/` on the process's web context (`ProcessWebContext`).
///
/// WebKit allows one handler per scheme and context, so the scheme is registered once per
/// process and lives as long as it. Each request is answered from the app directory of
/// the container whose view asked (`route`), and only for that container's host: two
/// containers in one process never see each other's files. The scheme is registered as
/// secure (so `fetch`, ES modules and secure-context APIs work) and CORS-enabled.
@MainActor
final class AppSchemeHandler {
    static let shared = AppSchemeHandler()

    /// Each view's site, held by the view's `AppSchemeRoute`.
    private var routes: [UnsafeMutableRawPointer: AppSite] = [:]
    /// Playlist bundles' `current` folders by host (`bundle-<id>`), served to every view of
    /// the process: they are the configuration's own content, as its playlists are.
    private var bundles: [String: URL] = [:]
    private var isRegistered = false

    /// The site for `directory`; registers the scheme the first time.
    func site(for directory: AppDirectory) -> AppSite {
        registerScheme()
        return AppSite(host: directory.host.lowercased(), files: AppResourceResolver(root: directory.path))
    }

    /// Serves a playlist bundle's current version under `app://<host>/`; registers the scheme
    /// the first time. `current` is looked up at each request: a swapped version is served at once.
    func serveBundle(host: String, from current: URL) {
        registerScheme()
        bundles[host.lowercased()] = current
    }

    /// Serves `site` to `view` until the returned route goes.
    func route(_ view: UnsafeMutablePointer<WebKitWebView>, to site: AppSite) -> AppSchemeRoute {
        let key = UnsafeMutableRawPointer(view)
        routes[key] = site
        return AppSchemeRoute(key: key)
    }

    fileprivate func removeRoute(_ key: UnsafeMutableRawPointer) {
        routes[key] = nil
    }

    private func registerScheme() {
        guard !isRegistered else { return }
        isRegistered = true
        let context = ProcessWebContext.current
        webkit_web_context_register_uri_scheme(context, AppDirectory.scheme, { request, _ in
            guard let request else { return }
            onMainLoop(request) { request in AppSchemeHandler.shared.respond(to: request) }
        }, nil, nil)
        let security = webkit_web_context_get_security_manager(context)
        webkit_security_manager_register_uri_scheme_as_secure(security, AppDirectory.scheme)
        webkit_security_manager_register_uri_scheme_as_cors_enabled(security, AppDirectory.scheme)
    }

    private func respond(to request: UnsafeMutablePointer<WebKitURISchemeRequest>) {
        guard let uri = string(webkit_uri_scheme_request_get_uri(request)),
              let components = URLComponents(string: uri), let host = components.host?.lowercased()
        else {
            SchemeResponse.finish(request, status: 404, text: "Not found")
            return
        }
        if host.hasPrefix(BundleSource.hostPrefix), let current = bundles[host] {
            return respondFromBundle(request, current: current, path: components.percentEncodedPath)
        }
        guard let view = webkit_uri_scheme_request_get_web_view(request),
              let site = routes[UnsafeMutableRawPointer(view)], site.host == host
        else {
            SchemeResponse.finish(request, status: 404, text: "Not found")
            return
        }
        serve(request, site.files.open(encodedPath: components.percentEncodedPath))
    }

    /// A bundle's file, through the same resolver (no `..`, no symlink out); with no version
    /// on disk yet the load fails (so the playlist skips the item) instead of showing a 404 page.
    private func respondFromBundle(_ request: UnsafeMutablePointer<WebKitURISchemeRequest>, current: URL, path: String) {
        guard FileManager.default.fileExists(atPath: current.path) else {
            return SchemeResponse.failNotFound(request, "the bundle has no version on disk yet")
        }
        serve(request, AppResourceResolver(root: current).open(encodedPath: path))
    }

    /// Serves the descriptor the resolver opened (and checked), never the path again: the
    /// stream owns the descriptor and closes it. A refusal is a plain-text error page.
    private func serve(_ request: UnsafeMutablePointer<WebKitURISchemeRequest>, _ opened: Result<AppResourceResolver.OpenFile, AppResourceResolver.Failure>) {
        switch opened {
        case .failure(.forbidden): SchemeResponse.finish(request, status: 403, text: "Forbidden")
        case .failure(.notFound): SchemeResponse.finish(request, status: 404, text: "Not found")
        case .success(let file):
            SchemeResponse.finish(request, body: .file(descriptor: file.descriptor, size: file.size), status: 200,
                                  contentType: Self.mimeType(for: file.name))
        }
    }

    /// The MIME type GLib's shared-mime-info database gives the file name.
    static func mimeType(for fileName: String) -> String {
        var uncertain: gboolean = 0
        guard let contentType = takeString(g_content_type_guess(fileName, nil, 0, &uncertain)),
              let mime = takeString(g_content_type_get_mime_type(contentType))
        else { return "application/octet-stream" }
        return mime
    }
}

/// A view's claim on an app site: the view is served its container's files until this goes.
@MainActor
final class AppSchemeRoute {
    private let key: UnsafeMutableRawPointer

    fileprivate init(key: UnsafeMutableRawPointer) {
        self.key = key
    }

    isolated deinit {
        AppSchemeHandler.shared.removeRoute(key)
    }
}
