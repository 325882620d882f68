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
            finish(request, status: 404, text: "Not found")
            return
        }
        if host.hasPrefix(BundleSource.hostPrefix), let current = bundles[host] {
            return respondFromBundle(request, current: current, path: components.percentEncodedPath)
        }
        guard let view = webkit_uri_scheme_request_get_web_view(request),
              let site = routes[UnsafeMutableRawPointer(view)], site.host == host
        else {
            finish(request, status: 404, text: "Not found")
            return
        }
        switch site.files.open(encodedPath: components.percentEncodedPath) {
        case .failure(.forbidden): finish(request, status: 403, text: "Forbidden")
        case .failure(.notFound): finish(request, status: 404, text: "Not found")
        case .success(let file): finishWithFile(request, file)
        }
    }

    /// A bundle's file, through the same resolver (no `..`, no symlink out); with no version
    /// on disk yet the load fails (so the playlist skips the item) instead of showing a 404 page.
    private func respondFromBundle(_ request: UnsafeMutablePointer<WebKitURISchemeRequest>, current: URL, path: String) {
        guard FileManager.default.fileExists(atPath: current.path) else {
            let error = g_error_new_literal(g_io_error_quark(), gint(G_IO_ERROR_NOT_FOUND.rawValue), "the bundle has no version on disk yet")
            webkit_uri_scheme_request_finish_error(request, error)
            g_error_free(error)
            return
        }
        switch AppResourceResolver(root: current).open(encodedPath: path) {
        case .failure(.forbidden): finish(request, status: 403, text: "Forbidden")
        case .failure(.notFound): finish(request, status: 404, text: "Not found")
        case .success(let file): finishWithFile(request, file)
        }
    }

    /// Serves the descriptor the resolver opened (and checked), never the path again: the
    /// stream owns the descriptor and closes it.
    private func finishWithFile(_ request: UnsafeMutablePointer<WebKitURISchemeRequest>, _ file: AppResourceResolver.OpenFile) {
        let stream = g_unix_input_stream_new(file.descriptor, 1)!
        defer { g_object_unref(gptr(stream)) }
        let response = webkit_uri_scheme_response_new(stream, gint64(file.size))!
        defer { g_object_unref(gptr(response)) }
        Self.describe(response, status: 200, mimeType: Self.mimeType(for: file.name), length: file.size)
        webkit_uri_scheme_request_finish_with_response(request, response)
    }

    private func finish(_ request: UnsafeMutablePointer<WebKitURISchemeRequest>, status: Int, text: String) {
        let bytes = Array(text.utf8)
        let gbytes = g_bytes_new(bytes, gsize(bytes.count))
        let stream = g_memory_input_stream_new_from_bytes(gbytes)!
        g_bytes_unref(gbytes)
        defer { g_object_unref(gptr(stream)) }
        let response = webkit_uri_scheme_response_new(stream, gint64(bytes.count))!
        defer { g_object_unref(gptr(response)) }
        Self.describe(response, status: status, mimeType: "text/plain; charset=utf-8", length: bytes.count)
        webkit_uri_scheme_request_finish_with_response(request, response)
    }

    /// Status, MIME type and HTTP headers: WebKit uses the content type to render, while
    /// `fetch()` sees only the headers, so both carry it.
    private static func describe(_ response: UnsafeMutablePointer<WebKitURISchemeResponse>, status: Int, mimeType: String, length: Int) {
        webkit_uri_scheme_response_set_status(response, guint(status), nil)
        webkit_uri_scheme_response_set_content_type(response, mimeType)
        let headers = soup_message_headers_new(SOUP_MESSAGE_HEADERS_RESPONSE)
        soup_message_headers_append(headers, "Content-Type", mimeType)
        if length >= 0 { soup_message_headers_set_content_length(headers, goffset(length)) }
        soup_message_headers_append(headers, "X-Content-Type-Options", "nosniff")
        webkit_uri_scheme_response_set_http_headers(response, headers) // takes ownership
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
