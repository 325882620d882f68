import CWebKitGTK
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Vitrine

/// Serves app directories under `app://<host>/` on WebKit's default web context.
///
/// The scheme is registered once per process (WebKit allows one handler per scheme and
/// context) and lives as long as the process; each container adds its directory by host.
/// It is registered as secure (so `fetch`, ES modules and secure-context APIs work) and
/// CORS-enabled.
@MainActor
final class AppSchemeHandler {
    static let shared = AppSchemeHandler()

    private var resolvers: [String: AppResourceResolver] = [:]
    private var isRegistered = false

    func serve(_ directory: AppDirectory) {
        resolvers[directory.host.lowercased()] = AppResourceResolver(root: directory.path)
        guard !isRegistered else { return }
        isRegistered = true
        let context = webkit_web_context_get_default()
        webkit_web_context_register_uri_scheme(context, AppDirectory.scheme, { request, _ in
            guard let request else { return }
            MainActor.assumeIsolated { AppSchemeHandler.shared.respond(to: request) }
        }, nil, nil)
        let security = webkit_web_context_get_security_manager(context)
        webkit_security_manager_register_uri_scheme_as_secure(security, AppDirectory.scheme)
        webkit_security_manager_register_uri_scheme_as_cors_enabled(security, AppDirectory.scheme)
    }

    private func respond(to request: UnsafeMutablePointer<WebKitURISchemeRequest>) {
        guard let uri = string(webkit_uri_scheme_request_get_uri(request)),
              let components = URLComponents(string: uri), let host = components.host?.lowercased(),
              let resolver = resolvers[host]
        else {
            finish(request, status: 404, text: "Not found")
            return
        }
        switch resolver.resolve(encodedPath: components.percentEncodedPath) {
        case .failure(.forbidden): finish(request, status: 403, text: "Forbidden")
        case .failure(.notFound): finish(request, status: 404, text: "Not found")
        case .success(let file): finishWithFile(request, file)
        }
    }

    private func finishWithFile(_ request: UnsafeMutablePointer<WebKitURISchemeRequest>, _ file: URL) {
        let gfile = g_file_new_for_path(file.path)!
        defer { g_object_unref(gptr(gfile)) }
        var error: UnsafeMutablePointer<GError>?
        guard let stream = g_file_read(gfile, nil, &error) else {
            g_clear_error(&error)
            finish(request, status: 404, text: "Not found")
            return
        }
        defer { g_object_unref(gptr(stream)) }
        let size = (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int) ?? -1
        let inputStream = UnsafeMutableRawPointer(stream).assumingMemoryBound(to: GInputStream.self)
        let response = webkit_uri_scheme_response_new(inputStream, gint64(size))!
        defer { g_object_unref(gptr(response)) }
        Self.describe(response, status: 200, mimeType: Self.mimeType(for: file.lastPathComponent), length: size)
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
