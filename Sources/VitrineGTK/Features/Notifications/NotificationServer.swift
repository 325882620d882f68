import CWebKitGTK
import Vitrine

/// Whether the session bus has a notification server GLib can hand a GNotification to
/// (org.freedesktop.Notifications or org.gtk.Notifications, running or activatable).
/// Without one GLib sends into the void and says nothing; the page hears why instead. An
/// app inside Flatpak notifies through the portal, which GLib picks there: not checked.
@MainActor
enum NotificationServer {
    static let names: Set<String> = ["org.freedesktop.Notifications", "org.gtk.Notifications"]

    static func check(on connection: OpaquePointer) async throws(ScriptMessageError) {
        if access("/.flatpak-info", F_OK) == 0 { return }
        for method in ["ListNames", "ListActivatableNames"] {
            if !(await busNames(method, on: connection)).isEmpty { return }
        }
        throw ScriptMessageError("notification: no notification server on the desktop session bus (org.freedesktop.Notifications)")
    }

    /// The bus's answer to `method` (`as`), or none.
    private static func busNames(_ method: String, on connection: OpaquePointer) async -> Set<String> {
        await withCheckedContinuation { answer in
            AsyncCallback.call({ callback, data in
                g_dbus_connection_call(connection, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", method,
                                       nil, nil, G_DBUS_CALL_FLAGS_NONE, 5000, nil, callback, data)
            }, finish: { _, result in
                guard let reply = g_dbus_connection_call_finish(connection, result, nil) else { return answer.resume(returning: []) }
                defer { g_variant_unref(reply) }
                guard string(g_variant_get_type_string(reply)) == "(as)", let list = g_variant_get_child_value(reply, 0) else {
                    return answer.resume(returning: [])
                }
                defer { g_variant_unref(list) }
                var found: Set<String> = []
                for index in 0..<g_variant_n_children(list) {
                    let name = g_variant_get_child_value(list, index)!
                    if let text = string(g_variant_get_string(name, nil)), names.contains(text) { found.insert(text) }
                    g_variant_unref(name)
                }
                answer.resume(returning: found)
            })
        }
    }
}
