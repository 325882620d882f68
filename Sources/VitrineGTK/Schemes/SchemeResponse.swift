import CWebKitGTK

/// How Vitrine's custom schemes (`app://`, `vitrine-snapshot://`) answer a request: one
/// place that builds the response, so every scheme sends the same headers and each request
/// is finished by exactly one call here (WebKit aborts on a request finished twice).
///
/// Called while the scheme's callback runs (the request is WebKit's for that long): nothing
/// is kept, so no answer can outlive its request.
@MainActor
enum SchemeResponse {
    /// What a response carries.
    enum Body {
        /// Bytes in memory, valid for the call (GLib copies them before it returns).
        case bytes(UnsafeRawBufferPointer)
        /// An open file of `size` bytes; the response's stream owns and closes the descriptor.
        case file(descriptor: Int32, size: Int)
    }

    /// Answers `request` with `body`: WebKit renders by the content type, while `fetch()`
    /// sees only the HTTP headers, so both carry it; `nosniff` always, a content security
    /// policy where given. A nil `status` leaves WebKit's own.
    static func finish(_ request: UnsafeMutablePointer<WebKitURISchemeRequest>, body: Body, status: Int? = nil,
                       contentType: String, contentSecurityPolicy: String? = nil) {
        let (stream, length) = inputStream(for: body)
        defer { g_object_unref(gptr(stream)) }
        let response = webkit_uri_scheme_response_new(stream, gint64(length))!
        defer { g_object_unref(gptr(response)) }
        if let status { webkit_uri_scheme_response_set_status(response, guint(status), nil) }
        webkit_uri_scheme_response_set_content_type(response, contentType)
        let headers = soup_message_headers_new(SOUP_MESSAGE_HEADERS_RESPONSE)
        soup_message_headers_append(headers, "Content-Type", contentType)
        soup_message_headers_set_content_length(headers, goffset(length))
        soup_message_headers_append(headers, "X-Content-Type-Options", "nosniff")
        if let contentSecurityPolicy { soup_message_headers_append(headers, "Content-Security-Policy", contentSecurityPolicy) }
        webkit_uri_scheme_response_set_http_headers(response, headers) // takes ownership
        webkit_uri_scheme_request_finish_with_response(request, response)
    }

    /// Answers `request` with a short plain-text page (an error page's text, say).
    static func finish(_ request: UnsafeMutablePointer<WebKitURISchemeRequest>, status: Int, text: String) {
        Array(text.utf8).withUnsafeBytes { bytes in
            finish(request, body: .bytes(bytes), status: status, contentType: "text/plain; charset=utf-8")
        }
    }

    /// Fails `request`'s load (no page at all, unlike a 404 page) with GIO's "not found".
    static func failNotFound(_ request: UnsafeMutablePointer<WebKitURISchemeRequest>, _ message: String) {
        let error = g_error_new_literal(g_io_error_quark(), gint(G_IO_ERROR_NOT_FOUND.rawValue), message)
        webkit_uri_scheme_request_finish_error(request, error)
        g_error_free(error)
    }

    /// A new stream of `body` (the caller's reference) and its length.
    private static func inputStream(for body: Body) -> (UnsafeMutablePointer<GInputStream>, Int) {
        switch body {
        case .bytes(let bytes):
            let gbytes = g_bytes_new(bytes.baseAddress, gsize(bytes.count))
            defer { g_bytes_unref(gbytes) }
            return (g_memory_input_stream_new_from_bytes(gbytes)!, bytes.count)
        case .file(let descriptor, let size):
            return (g_unix_input_stream_new(descriptor, 1)!, size)
        }
    }
}
