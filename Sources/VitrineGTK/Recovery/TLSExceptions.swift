import CWebKitGTK
import Vitrine

/// Trusts configured certificates for their hosts, before anything loads, on the default
/// web context (process-wide, for the process's lifetime). Only that exact certificate,
/// only for that host: any other TLS error still shows the error page.
@MainActor
enum TLSExceptions {
    static func install(_ exceptions: [TLSException], record: (ContainerEvent) -> Void) {
        for exception in exceptions {
            var error: UnsafeMutablePointer<GError>?
            guard let certificate = g_tls_certificate_new_from_file(exception.certificatePath, &error) else {
                record(.native(action: .tlsExceptionFailed,
                               detail: "\(exception.host): \(GLibError.take(&error, "cannot read certificate"))"))
                continue
            }
            webkit_web_context_allow_tls_certificate_for_host(ProcessWebContext.current, certificate, exception.host)
            g_object_unref(gptr(certificate))
            record(.native(action: .tlsException, detail: exception.host))
        }
    }
}
