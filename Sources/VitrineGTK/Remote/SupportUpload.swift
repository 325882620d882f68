import CWebKitGTK
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Vitrine

/// An HTTP PUT of a support bundle to `[remote] support-upload` (`HTTPUpload`).
@MainActor
enum SupportUpload {
    /// PUTs `bytes` to `url`; `done` gets nil on a 2xx answer, else why it failed. Called once.
    static func put(_ bytes: [UInt8], to url: URL, done: @escaping @MainActor (String?) -> Void) {
        HTTPUpload.send("PUT", bytes, contentType: "application/gzip", to: url, key: "remote.support-upload", done: done)
    }
}

/// An HTTP upload with libsoup (which WebKitGTK already links): the system's trust store
/// and proxy, a minute at most; https, or http to a loopback host only.
@MainActor
enum HTTPUpload {
    static let timeoutSeconds: guint = 60

    /// Sends `bytes` to `url` with `method`; `done` gets nil on a 2xx answer, else why it
    /// failed (naming the configuration `key` the URL came from). Called once.
    static func send(_ method: String, _ bytes: [UInt8], contentType: String, to url: URL, key: String,
                     done: @escaping @MainActor (String?) -> Void) {
        guard SupportArchive.acceptsUpload(url), let message = soup_message_new(method, url.absoluteString) else {
            return done("the upload URL (\(key)) is not usable: it takes https, or http on a loopback address")
        }
        let session = soup_session_new()!
        soup_session_set_timeout(session, timeoutSeconds)
        let body = bytes.withUnsafeBytes { g_bytes_new($0.baseAddress, gsize($0.count)) }
        soup_message_set_request_body_from_bytes(message, contentType, body)
        g_bytes_unref(body)
        AsyncCallback.call({ callback, data in
            soup_session_send_and_read_async(session, message, G_PRIORITY_DEFAULT, nil, callback, data)
        }, finish: { _, result in
            // The session and message live until their answer, then go.
            defer {
                g_object_unref(gptr(message))
                g_object_unref(gptr(session))
            }
            var error: UnsafeMutablePointer<GError>?
            let answer = soup_session_send_and_read_finish(session, result, &error)
            if let answer { g_bytes_unref(answer) }
            guard error == nil else { return done("the upload to \(url.host ?? "") failed: \(GLibError.take(&error, "no answer"))") }
            let status = soup_message_get_status(message).rawValue
            guard ReportUpload.accepts(status: Int(status)) else {
                return done("the upload to \(url.host ?? "") was refused: HTTP \(status)")
            }
            done(nil)
        })
    }
}
