import CWebKitGTK
import Vitrine

/// GStreamer's decoders listed by a helper process (`ProcessRendering.decoderLister`): its
/// standard output is the decoders' caps, one per line; a helper that cannot start or
/// fails is GStreamer's failure, with what it said. The pending read holds the
/// only reference to the subprocess and answers exactly once.
@MainActor
enum DecoderListing {
    typealias Listed = @MainActor @Sendable (Result<MediaCodecs, ProcessRendering.GStreamerError>) -> Void

    static func start(_ command: [String], then listed: @escaping Listed) {
        var error: UnsafeMutablePointer<GError>?
        let flags = GSubprocessFlags(rawValue: G_SUBPROCESS_FLAGS_STDOUT_PIPE.rawValue | G_SUBPROCESS_FLAGS_STDERR_PIPE.rawValue)
        guard let process = command.withCStringArray({ g_subprocess_newv($0, flags, &error) }) else {
            let failure = GLibError.take(&error, "cannot start \(command.first ?? "")")
            return listed(.failure(.init(message: failure.description)))
        }
        AsyncCallback.call({ callback, data in
            g_subprocess_communicate_utf8_async(process, nil, nil, callback, data)
        }, finish: { _, result in
            defer { g_object_unref(gptr(process)) }
            var output: UnsafeMutablePointer<gchar>?, complaint: UnsafeMutablePointer<gchar>?
            var error: UnsafeMutablePointer<GError>?
            let read = g_subprocess_communicate_utf8_finish(process, result, &output, &complaint, &error) != 0
            defer { g_free(output); g_free(complaint) }
            guard read else { return listed(.failure(.init(message: GLibError.take(&error, "no answer").description))) }
            guard g_subprocess_get_if_exited(process) != 0 && g_subprocess_get_exit_status(process) == 0 else {
                let said = (complaint.map { String(cString: $0) } ?? "").split(whereSeparator: \.isNewline).joined(separator: "; ")
                return listed(.failure(.init(message: said.isEmpty ? "\(command.joined(separator: " ")) failed" : said)))
            }
            let lines = output.map { String(cString: $0) }?.split(separator: "\n").map(String.init) ?? []
            listed(.success(MediaCodecs(decoderCaps: lines)))
        })
    }
}
