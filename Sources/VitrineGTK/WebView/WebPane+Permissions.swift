import CWebKitGTK
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Vitrine

/// `permission-request`: denied unless the configuration grants that kind to the page's
/// origin. Every answer is logged.
extension WebPane {
    func connectPermissionSignals() {
        signals.connect(gptr(webView), "permission-request", context: SignalContext(owner: self), handler: gCallback(onPermissionRequest))
    }

    func decidePermission(_ request: OpaquePointer) {
        guard let container else {
            webkit_permission_request_deny(request)
            return
        }
        let kinds = Self.kinds(of: request)
        let origin = currentURL.flatMap(Origin.init)
        let granted = container.configuration.grantedPermissions(for: origin)
        let allow = !kinds.isEmpty && kinds.isSubset(of: granted)
        if allow { webkit_permission_request_allow(request) } else { webkit_permission_request_deny(request) }
        container.record(.permission(
            kind: kinds.map { $0.rawValue }.sorted().joined(separator: "+").nonEmpty ?? "unknown",
            origin: origin?.description ?? "null", granted: allow))
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

extension String {
    var nonEmpty: String? { isEmpty ? nil : self }
}

/// `permission-request`: `gboolean (*)(WebKitWebView*, WebKitPermissionRequest*, gpointer)`.
private let onPermissionRequest: @convention(c) (OpaquePointer?, OpaquePointer?, gpointer?) -> gboolean = {
    _, request, data in
    guard let request else { return 0 }
    guard let pane = WebPane.from(data) else {
        webkit_permission_request_deny(request)
        return 1
    }
    MainActor.assumeIsolated { pane.decidePermission(request) }
    return 1
}
