import CWebKitGTK
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Vitrine

/// `permission-request` → `Configuration.permissionDecision` → allow or deny, logged.
/// `authenticate` (HTTP authentication, client certificates) is answered with the
/// configured credential or client certificate (`NetworkSettings.answer(to:)`); a retry
/// after it was refused is cancelled, never looped. Unconfigured, it is WebKit's to ask
/// about where native dialogs may open; under kiosk lockdown it is cancelled (the page
/// gets an error) and logged. With the pane gone, both are refused and claimed.
@MainActor
final class PermissionGate: PaneCollaborator {
    private weak var pane: WebPane?
    let signals = SignalConnections()

    func attach(to pane: WebPane) {
        self.pane = pane
        connect("permission-request", of: pane, gCallback(onPermissionRequest))
        connect("authenticate", of: pane, gCallback(onAuthenticate))
    }

    /// Answers the request. Returns false only when there is nobody to decide.
    fileprivate func decide(_ request: OpaquePointer) -> Bool {
        guard let pane, let container = pane.container, !pane.isTornDown else { return false }
        let origin = pane.currentURL.flatMap(Origin.init)
        let decision = container.configuration.permissionDecision(for: Self.kinds(of: request), from: origin)
        if decision.isGranted { webkit_permission_request_allow(request) } else { webkit_permission_request_deny(request) }
        container.record(.permission(kind: decision.kindName, origin: decision.originName, granted: decision.isGranted))
        return true
    }

    /// What became of an `authenticate` request.
    fileprivate enum Outcome { case answered, cancel, ask }

    /// Answers the request from the configuration, or says to cancel it or let WebKit ask.
    fileprivate func authenticate(_ request: UnsafeMutablePointer<WebKitAuthenticationRequest>) -> Outcome {
        guard let pane, pane.container != nil, !pane.isTornDown else { return .cancel }
        let host = string(webkit_authentication_request_get_host(request)) ?? ""
        switch pane.configuration.network.answer(to: Self.challenge(request, host: host)) {
        case .credential(let credential):
            let answer = webkit_credential_new(credential.username, credential.password.revealed, WEBKIT_CREDENTIAL_PERSISTENCE_FOR_SESSION)
            webkit_authentication_request_authenticate(request, answer)
            webkit_credential_free(answer)
            pane.record(.native(action: .credentials, detail: credential.description))
        case .clientCertificate(let certificate):
            var error: UnsafeMutablePointer<GError>?
            guard let tls = g_tls_certificate_new_from_files(certificate.certificatePath, certificate.keyPath, &error) else {
                pane.record(.native(action: .clientCertificateFailed, detail: "\(host): \(GLibError.take(&error, "cannot read"))"))
                return .cancel
            }
            let answer = webkit_credential_new_for_certificate(tls, WEBKIT_CREDENTIAL_PERSISTENCE_FOR_SESSION)
            webkit_authentication_request_authenticate(request, answer)
            webkit_credential_free(answer)
            g_object_unref(gptr(tls))
            pane.record(.native(action: .clientCertificate, detail: host))
        case .cancel(let reason):
            pane.record(.native(action: .authenticationRefused, detail: "\(host): \(reason)"))
            return .cancel
        case .unconfigured:
            if pane.configuration.opensNativeDialogs { return .ask }
            pane.record(.native(action: .blockedDialog, detail: "authentication: \(host)"))
            return .cancel
        }
        return .answered
    }

    private static func challenge(_ request: UnsafeMutablePointer<WebKitAuthenticationRequest>, host: String) -> AuthenticationChallenge {
        var origin: Origin?
        if let security = webkit_authentication_request_get_security_origin(request) {
            let text = webkit_security_origin_to_string(security)
            origin = string(text).flatMap { Origin(string: $0) }
            g_free(text)
            webkit_security_origin_unref(security)
        }
        let scheme = webkit_authentication_request_get_scheme(request)
        return AuthenticationChallenge(
            origin: origin, host: host,
            isClientCertificate: scheme == WEBKIT_AUTHENTICATION_SCHEME_CLIENT_CERTIFICATE_REQUESTED,
            isRetry: webkit_authentication_request_is_retry(request) != 0,
            isForProxy: webkit_authentication_request_is_for_proxy(request) != 0)
    }

    /// The permission kinds a request asks for, from its GType.
    static func kinds(of request: OpaquePointer) -> Set<PermissionKind> {
        // The request is a GInterface pointer; its GType tells the kind (C's WEBKIT_IS_… macros).
        let instance = UnsafeMutableRawPointer(request).assumingMemoryBound(to: GTypeInstance.self)
        func isA(_ type: GType) -> Bool { g_type_check_instance_is_a(instance, type) != 0 }
        if isA(webkit_user_media_permission_request_get_type()) {
            let media = UnsafeMutableRawPointer(request).assumingMemoryBound(to: WebKitUserMediaPermissionRequest.self)
            var kinds: Set<PermissionKind> = []
            if webkit_user_media_permission_is_for_audio_device(media) != 0 { kinds.insert(.microphone) }
            if webkit_user_media_permission_is_for_video_device(media) != 0 { kinds.insert(.camera) }
            if webkit_user_media_permission_is_for_display_device(media) != 0 { kinds.insert(.screenCapture) }
            return kinds
        }
        if isA(webkit_geolocation_permission_request_get_type()) { return [.geolocation] }
        if isA(webkit_notification_permission_request_get_type()) { return [.notifications] }
        if isA(webkit_clipboard_permission_request_get_type()) { return [.clipboard] }
        if isA(webkit_pointer_lock_permission_request_get_type()) { return [.pointerLock] }
        if isA(webkit_device_info_permission_request_get_type()) { return [.deviceInfo] }
        if isA(webkit_media_key_system_permission_request_get_type()) { return [.mediaKeySystem] }
        return []
    }
}

/// `permission-request`: `gboolean (*)(WebKitWebView*, WebKitPermissionRequest*, gpointer)`.
/// Always TRUE: WebKit's default handler would deny too, but silently.
private let onPermissionRequest: @convention(c) (OpaquePointer?, OpaquePointer?, gpointer?) -> gboolean = {
    _, request, data in
    guard let request else { return 1 }
    onMainLoop((request, data)) { request, data in
        if SignalContext.owner(data, as: PermissionGate.self)?.decide(request) != true {
            webkit_permission_request_deny(request)
        }
    }
    return 1
}

/// `authenticate`: `gboolean (*)(WebKitWebView*, WebKitAuthenticationRequest*, gpointer)`.
/// FALSE lets WebKit ask for credentials; otherwise the request is answered or cancelled, and claimed.
private let onAuthenticate: @convention(c) (OpaquePointer?, UnsafeMutablePointer<WebKitAuthenticationRequest>?, gpointer?) -> gboolean = {
    _, request, data in
    guard let request else { return 1 }
    return onMainLoop((request, data)) { request, data in
        switch SignalContext.owner(data, as: PermissionGate.self)?.authenticate(request) ?? .cancel {
        case .ask: return false
        case .answered: return true
        case .cancel:
            webkit_authentication_request_cancel(request)
            return true
        }
    } ? 1 : 0
}
