import CWebKitGTK
import Vitrine

/// A tray icon's image as the StatusNotifierItem sends it: a themed icon's name, or the
/// icon file of the app's folder decoded into pixels.
@MainActor
enum TrayIconImage {
    /// What the StatusNotifierItem shows for `icon`: its file read from the app's folder and
    /// decoded here, after GLib's content sniffing found a PNG or an SVG.
    static func item(for icon: TrayIcon, in window: WebContainer) throws(ScriptMessageError) -> StatusNotifierItem.Shown {
        let configuration = window.configuration
        guard configuration.kiosk == nil else { throw ScriptMessageError("tray: a kiosk has no tray icon") }
        guard !window.isTornDown else { throw ScriptMessageError("tray: this window is closed") }
        var iconName = ""
        var pixmap: (width: Int32, height: Int32, argb: [UInt8])?
        switch icon.image {
        case .themed(let name):
            iconName = name
        case .file(let path):
            let bytes = try icon.iconFileBytes(in: configuration.appDirectory?.path) ?? []
            pixmap = try decodedPixmap(bytes, path: path)
        }
        return .init(title: configuration.title, tooltip: icon.tooltip, iconName: iconName, pixmap: pixmap, menu: DBusMenuLayout(icon.menu))
    }

    /// The largest side of the pixels sent over the bus.
    private static let pixmapSide: Int32 = 128

    /// `bytes` decoded (PNG or SVG only, by content) into ARGB32 in network byte order.
    private static func decodedPixmap(_ bytes: [UInt8], path: String) throws(ScriptMessageError) -> (width: Int32, height: Int32, argb: [UInt8]) {
        let type = bytes.withUnsafeBytes { buffer in takeString(g_content_type_guess(nil, buffer.bindMemory(to: guchar.self).baseAddress, gsize(buffer.count), nil)) } ?? ""
        guard type == "image/png" || type == "image/svg+xml" else {
            throw ScriptMessageError("tray: icon \(JSONValue.string(path).jsonText) is \(type.isEmpty ? "not an image" : type), not a PNG or SVG image")
        }
        let loader = gdk_pixbuf_loader_new()!
        defer { g_object_unref(gptr(loader)) }
        var error: UnsafeMutablePointer<GError>?
        let written = bytes.withUnsafeBytes { gdk_pixbuf_loader_write(loader, $0.bindMemory(to: guchar.self).baseAddress, gsize($0.count), &error) }
        let closed = written != 0 ? gdk_pixbuf_loader_close(loader, &error) : gdk_pixbuf_loader_close(loader, nil)
        defer { g_clear_error(&error) }
        guard written != 0, closed != 0, let decoded = gdk_pixbuf_loader_get_pixbuf(loader) else {
            throw ScriptMessageError("tray: icon \(JSONValue.string(path).jsonText) cannot be decoded: \(error.map { String(cString: $0.pointee.message) } ?? "")")
        }
        var width = gdk_pixbuf_get_width(decoded), height = gdk_pixbuf_get_height(decoded)
        let scale = min(1, Double(pixmapSide) / Double(max(width, height)))
        width = max(1, gint(Double(width) * scale)); height = max(1, gint(Double(height) * scale))
        let pixbuf = gdk_pixbuf_scale_simple(decoded, width, height, GDK_INTERP_BILINEAR)!
        defer { g_object_unref(gptr(pixbuf)) }
        let channels = Int(gdk_pixbuf_get_n_channels(pixbuf)), stride = Int(gdk_pixbuf_get_rowstride(pixbuf))
        let hasAlpha = gdk_pixbuf_get_has_alpha(pixbuf) != 0
        let pixels = gdk_pixbuf_read_pixels(pixbuf)!
        var argb = [UInt8](repeating: 0, count: Int(width) * Int(height) * 4)
        for y in 0..<Int(height) {
            for x in 0..<Int(width) {
                let source = pixels + y * stride + x * channels, target = (y * Int(width) + x) * 4
                argb[target] = hasAlpha ? source[3] : 255
                argb[target + 1] = source[0]; argb[target + 2] = source[1]; argb[target + 3] = source[2]
            }
        }
        return (width, height, argb)
    }
}
