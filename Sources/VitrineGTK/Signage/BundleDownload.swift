import CWebKitGTK
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif
import Vitrine

/// One conditional GET of a bundle's archive with libsoup, into a file, with its SHA-256
/// (GLib's GChecksum) taken on the way. Blocking: it runs on the sync's own queue, with a
/// session of its own made there (a libsoup session belongs to the thread that made it).
struct BundleDownload: Sendable {
    static let timeoutSeconds: guint = 60

    let url: URL
    let headers: [(name: String, value: String)]
    let maxBytes: Int

    /// Downloads into `file` (created or truncated); a body over `maxBytes` is dropped.
    func run(into file: URL) -> BundleAnswer {
        guard let message = soup_message_new("GET", url.absoluteString) else { return .unreachable("not a usable URL") }
        defer { g_object_unref(gptr(message)) }
        let session = soup_session_new()!
        defer { g_object_unref(gptr(session)) }
        soup_session_set_timeout(session, Self.timeoutSeconds)
        let requestHeaders = soup_message_get_request_headers(message)
        for header in headers { soup_message_headers_append(requestHeaders, header.name, header.value) }
        var error: UnsafeMutablePointer<GError>?
        guard let stream = soup_session_send(session, message, nil, &error) else {
            return .unreachable(GLibError.take(&error, "no answer").description)
        }
        defer {
            g_input_stream_close(stream, nil, nil)
            g_object_unref(gptr(stream))
        }
        let status = Int(soup_message_get_status(message).rawValue)
        let responseHeaders = soup_message_get_response_headers(message)
        let validators = BundleValidators(etag: soup_message_headers_get_one(responseHeaders, "ETag").map { String(cString: $0) },
                                          lastModified: soup_message_headers_get_one(responseHeaders, "Last-Modified")
                                              .map { String(cString: $0) })
        guard status == 200 else { return .status(status, validators, sha256: "") }
        return copy(stream, to: file, validators: validators)
    }

    private func copy(_ stream: UnsafeMutablePointer<GInputStream>, to file: URL, validators: BundleValidators) -> BundleAnswer {
        let output = open(file.path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard output >= 0 else { return .unreachable("cannot write '\(file.path)': \(String(cString: strerror(errno)))") }
        defer { close(output) }
        let checksum = g_checksum_new(G_CHECKSUM_SHA256)!
        defer { g_checksum_free(checksum) }
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        var total = 0
        while true {
            var error: UnsafeMutablePointer<GError>?
            let count = buffer.withUnsafeMutableBytes { g_input_stream_read(stream, $0.baseAddress, gsize($0.count), nil, &error) }
            if count < 0 { return .unreachable("the download broke off: \(GLibError.take(&error, "read error").description)") }
            if count == 0 { break }
            total += count
            guard total <= maxBytes else { return .tooLarge(limit: maxBytes) }
            let written = buffer.withUnsafeBytes { bytes -> Bool in
                g_checksum_update(checksum, bytes.baseAddress!.assumingMemoryBound(to: guchar.self), gssize(count))
                var offset = 0
                while offset < count {
                    let step = write(output, bytes.baseAddress! + offset, count - offset)
                    if step < 0, errno == EINTR { continue }
                    guard step > 0 else { return false }
                    offset += step
                }
                return true
            }
            guard written else { return .unreachable("cannot write the download: \(String(cString: strerror(errno)))") }
        }
        return .status(200, validators, sha256: String(cString: g_checksum_get_string(checksum)))
    }
}
