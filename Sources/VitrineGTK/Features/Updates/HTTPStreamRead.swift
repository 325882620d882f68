import CWebKitGTK
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Vitrine

/// One HTTP GET with libsoup (which WebKitGTK already links: the system's trust store and
/// proxy), its body handed over piece by piece as it arrives, so that a download is capped
/// and hashed on the way and never held whole. Owns the session, the message and the stream
/// until it ends; `done` is called exactly once.
@MainActor
final class HTTPStreamRead {
    /// What the reader does with each piece: false stops the transfer (a cap reached).
    typealias Piece = @MainActor (UnsafeRawBufferPointer) -> Bool
    /// nil: the whole body arrived; else why the transfer stopped.
    typealias Done = @MainActor (String?) -> Void

    static let timeoutSeconds: guint = 60
    private static let pieceSize = 64 * 1024

    private let session: UnsafeMutablePointer<SoupSession>
    private let message: OpaquePointer
    private var stream: UnsafeMutablePointer<GInputStream>?
    private let piece: Piece
    private var done: Done?

    /// Starts the GET of `url` (https, or http to a loopback host, as `UpdateFeedCheck` allows).
    @discardableResult
    static func start(_ url: URL, piece: @escaping Piece, done: @escaping Done) -> HTTPStreamRead? {
        guard BundleSource.acceptsArchiveURL(url), let message = soup_message_new("GET", url.absoluteString) else {
            done(UpdateRefusal.insecureURL(url.absoluteString).description)
            return nil
        }
        let read = HTTPStreamRead(message: message, piece: piece, done: done)
        read.send()
        return read
    }

    private init(message: OpaquePointer, piece: @escaping Piece, done: @escaping Done) {
        session = soup_session_new()!
        soup_session_set_timeout(session, Self.timeoutSeconds)
        self.message = message
        self.piece = piece
        self.done = done
    }

    isolated deinit {
        if let stream { g_object_unref(gptr(stream)) }
        g_object_unref(gptr(message))
        g_object_unref(gptr(session))
    }

    private func send() {
        // The pending call holds this reader (and so its GObjects) until it answers.
        AsyncCallback.call({ callback, data in
            soup_session_send_async(session, message, G_PRIORITY_DEFAULT, nil, callback, data)
        }, finish: { [self] _, result in
            var error: UnsafeMutablePointer<GError>?
            let opened = soup_session_send_finish(session, result, &error)
            guard let opened, error == nil else { return finish("no answer: \(GLibError.take(&error, "the connection failed"))") }
            stream = opened
            let status = Int(soup_message_get_status(message).rawValue)
            guard (200..<300).contains(status) else { return finish("HTTP \(status)") }
            readNext()
        })
    }

    private func readNext() {
        guard let stream else { return finish("no stream") }
        AsyncCallback.call({ callback, data in
            g_input_stream_read_bytes_async(stream, gsize(Self.pieceSize), G_PRIORITY_DEFAULT, nil, callback, data)
        }, finish: { [self] _, result in
            var error: UnsafeMutablePointer<GError>?
            guard let bytes = g_input_stream_read_bytes_finish(stream, result, &error), error == nil else {
                return finish("the transfer broke off: \(GLibError.take(&error, "read failed"))")
            }
            defer { g_bytes_unref(bytes) }
            var size: gsize = 0
            let data = g_bytes_get_data(bytes, &size)
            guard size > 0 else { return finish(nil) }
            guard piece(UnsafeRawBufferPointer(start: data, count: Int(size))) else { return finish("stopped") }
            readNext()
        })
    }

    private func finish(_ failure: String?) {
        guard let done else { return }
        self.done = nil
        if let stream { g_input_stream_close(stream, nil, nil) }
        done(failure)
    }
}
