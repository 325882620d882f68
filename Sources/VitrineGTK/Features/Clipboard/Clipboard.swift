import CWebKitGTK
import Vitrine

/// The desktop's clipboard (`clipboard` capability), through GtkClipboard. Holds nothing:
/// GTK owns the clipboard object; an image's pixbuf is released once the clipboard took it.
@MainActor
enum Clipboard {
    private static var board: OpaquePointer? { gtk_clipboard_get(gdk_atom_intern_static_string("CLIPBOARD")) }

    static func setText(_ text: String) {
        gtk_clipboard_set_text(board, text, -1)
    }

    /// The clipboard's text, or nil. GTK calls the callback exactly once (with NULL when
    /// there is no text), which resumes the waiting task.
    static func text() async -> String? {
        await withCheckedContinuation { (continuation: CheckedContinuation<String?, Never>) in
            let request = Unmanaged.passRetained(TextRequest(continuation)).toOpaque()
            gtk_clipboard_request_text(board, { _, text, data in
                guard let data else { return }
                let request = Unmanaged<TextRequest>.fromOpaque(data).takeRetainedValue()
                request.continuation.resume(returning: text.map { String(cString: $0) })
            }, request)
        }
    }

    /// Decodes `png` and puts the image on the clipboard; throws if it is not a PNG image.
    static func setImage(png: [UInt8]) throws(ScriptMessageError) {
        let refusal = ScriptMessageError("clipboard: writeImage: the bytes are not a PNG image")
        guard let loader = gdk_pixbuf_loader_new_with_type("png", nil) else { throw refusal }
        defer { g_object_unref(gptr(loader)) }
        var writeError: UnsafeMutablePointer<GError>?, closeError: UnsafeMutablePointer<GError>?
        let written = png.withUnsafeBufferPointer { gdk_pixbuf_loader_write(loader, $0.baseAddress, gsize($0.count), &writeError) }
        // Closed even after a failed write: a loader must be closed before it goes.
        let closed = gdk_pixbuf_loader_close(loader, &closeError)
        g_clear_error(&writeError)
        g_clear_error(&closeError)
        guard written != 0, closed != 0, let pixbuf = gdk_pixbuf_loader_get_pixbuf(loader) else { throw refusal }
        // The pixbuf belongs to the loader; the clipboard takes its own reference.
        gtk_clipboard_set_image(board, pixbuf)
    }

    private final class TextRequest {
        let continuation: CheckedContinuation<String?, Never>
        init(_ continuation: CheckedContinuation<String?, Never>) { self.continuation = continuation }
    }
}
