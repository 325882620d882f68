import CWebKitGTK

/// `webkit_web_view_get_snapshot` to a PNG file.
@MainActor
enum Snapshot {
    static func write(_ webView: UnsafeMutablePointer<WebKitWebView>, to path: String) async throws {
        // The surface crosses from GIO's callback to this task as a sendable value.
        let surface: CairoSurface = try await withCheckedThrowingContinuation { continuation in
            AsyncCallback.call({ callback, data in
                webkit_web_view_get_snapshot(
                    webView, WEBKIT_SNAPSHOT_REGION_VISIBLE, WEBKIT_SNAPSHOT_OPTIONS_NONE, nil, callback, data)
            }, finish: { _, result in
                var error: UnsafeMutablePointer<GError>?
                if let surface = webkit_web_view_get_snapshot_finish(webView, result, &error) {
                    continuation.resume(returning: CairoSurface(pointer: surface))
                } else {
                    continuation.resume(throwing: GLibError.take(&error, "snapshot failed"))
                }
            })
        }
        defer { cairo_surface_destroy(surface.pointer) }
        let status = cairo_surface_write_to_png(surface.pointer, path)
        guard status == CAIRO_STATUS_SUCCESS else {
            throw GLibError(description: "cannot write \(path): \(String(cString: cairo_status_to_string(status)))")
        }
    }
}

/// A cairo surface this code owns, handed from a callback to the task that waits for it.
private struct CairoSurface: @unchecked Sendable {
    let pointer: OpaquePointer
}
