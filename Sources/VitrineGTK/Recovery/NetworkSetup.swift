import CWebKitGTK
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Vitrine

/// `[network]` on the process's web context (`ProcessWebContext`), before anything loads (process-wide, for the
/// process's lifetime): the proxy, and the extra certificate authorities.
@MainActor
enum NetworkSetup {
    static func install(_ network: NetworkSettings, record: (ContainerEvent) -> Void) {
        installProxy(network, record: record)
        TrustAnchors.load(network.caCertificates, record: record)
    }

    private static func installProxy(_ network: NetworkSettings, record: (ContainerEvent) -> Void) {
        let manager = webkit_web_context_get_website_data_manager(ProcessWebContext.current)
        guard let proxy = network.proxy else {
            // WebKit's default, set again: a container built before in this process may have changed it.
            webkit_website_data_manager_set_network_proxy_settings(manager, WEBKIT_NETWORK_PROXY_MODE_DEFAULT, nil)
            return
        }
        switch proxy {
        case .system:
            webkit_website_data_manager_set_network_proxy_settings(manager, WEBKIT_NETWORK_PROXY_MODE_DEFAULT, nil)
            record(.native(action: .proxy, detail: "system"))
        case .custom(let url):
            let settings = network.noProxy.withCStringArray { webkit_network_proxy_settings_new(url.absoluteString, $0) }
            webkit_website_data_manager_set_network_proxy_settings(manager, WEBKIT_NETWORK_PROXY_MODE_CUSTOM, settings)
            webkit_network_proxy_settings_free(settings)
            record(.native(action: .proxy, detail: Redaction.withoutURLPassword(url.absoluteString)))  // the log is published
        }
    }
}

/// The configured certificate authorities. WebKitGTK 4.1 offers no way to add trust
/// anchors to its network process (glib-networking's GnuTLS backend reads only the system
/// bundle), so a certificate the system does not trust is checked here, in full, against
/// them: a chain to one of them, valid now, for this host. Only then is that exact
/// certificate allowed for that host and the load tried again; anything else stays a TLS
/// error. Checking is never turned off.
@MainActor
enum TrustAnchors {
    private static var anchors: [UnsafeMutablePointer<GTlsCertificate>] = []

    static var isEmpty: Bool { anchors.isEmpty }

    /// Replaces the anchors with those in `files` (the last configuration built wins).
    static func load(_ files: [String], record: (ContainerEvent) -> Void) {
        anchors.forEach { g_object_unref(gptr($0)) }
        anchors = []
        for file in files {
            var error: UnsafeMutablePointer<GError>?
            guard let list = g_tls_certificate_list_new_from_file(file, &error) else {
                record(.native(action: .caFailed, detail: "\(file): \(GLibError.take(&error, "no certificate in the file"))"))
                continue
            }
            var node: UnsafeMutablePointer<GList>? = list
            while let current = node {
                if let data = current.pointee.data { anchors.append(data.assumingMemoryBound(to: GTlsCertificate.self)) }
                node = current.pointee.next
            }
            g_list_free(list)  // the anchors keep the references
            record(.native(action: .ca, detail: file))
        }
    }

    /// Whether `certificate` chains to a configured authority and names `host`; if so,
    /// allows it for `host` on the process's web context.
    static func vouch(for certificate: UnsafeMutablePointer<GTlsCertificate>, host: String, port: Int) -> Bool {
        guard !anchors.isEmpty, let identity = g_network_address_new(host, guint16(clamping: port)) else { return false }
        defer { g_object_unref(gptr(identity)) }
        let trusted = anchors.contains { anchor in
            g_tls_certificate_verify(certificate, identity, anchor) == GTlsCertificateFlags(rawValue: 0)
        }
        if trusted { webkit_web_context_allow_tls_certificate_for_host(ProcessWebContext.current, certificate, host) }
        return trusted
    }
}
