import CWebKitGTK
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Vitrine

/// The desktop portal's `org.freedesktop.appearance` `color-scheme`
/// (org.freedesktop.portal.Settings): read once (`ReadOne`, or `Read` on portals older than
/// version 2) and followed through `SettingChanged`, each value handed on as it came
/// (`DesktopColorScheme.Reading`) for the core to believe or not.
///
/// Only the portal's owner is heard (GDBus matches the sender against the name's owner), and
/// the portal is never started for this: a desktop runs it already, and a test or a bare
/// session must not get one spawned. With no session bus named by the environment nothing
/// is read (GLib would otherwise try to launch one).
///
/// Ownership: the bus connection's reference and the signal subscription are released in
/// deinit; the subscription's and the call's user data are weak references, so a value that
/// comes after finds nobody.
@MainActor
final class DesktopAppearance {
    static let portal = "org.freedesktop.portal.Desktop", path = "/org/freedesktop/portal/desktop"
    static let interface = "org.freedesktop.portal.Settings", namespace = "org.freedesktop.appearance", key = "color-scheme"

    private let connection: OpaquePointer
    private var subscription: guint = 0
    private let heard: @MainActor (DesktopColorScheme.Reading) -> Void

    /// Starts reading; nil where the environment names no session bus.
    init?(heard: @escaping @MainActor (DesktopColorScheme.Reading) -> Void) {
        guard let connection = Self.sessionBus() else { return nil }
        self.connection = connection
        self.heard = heard
        let data = Unmanaged.passRetained(SignalContext(owner: self)).toOpaque()
        subscription = g_dbus_connection_signal_subscribe(
            connection, Self.portal, Self.interface, "SettingChanged", Self.path, Self.namespace, G_DBUS_SIGNAL_FLAGS_NONE,
            onSettingChanged, data, { Unmanaged<SignalContext>.fromOpaque($0!).release() })
        read(method: "ReadOne")
    }

    isolated deinit {
        g_dbus_connection_signal_unsubscribe(connection, subscription)
        g_object_unref(gptr(connection))
    }

    /// The app's own connection when it has one, else the bus the environment names.
    private static func sessionBus() -> OpaquePointer? {
        if let application = g_application_get_default(), let own = g_application_get_dbus_connection(application) {
            g_object_ref(gptr(own))
            return own
        }
        let environment = ProcessInfo.processInfo.environment
        let named = environment["DBUS_SESSION_BUS_ADDRESS"].map { !$0.isEmpty } ?? false
        let runtimeBus = environment["XDG_RUNTIME_DIR"].map { access($0 + "/bus", F_OK) == 0 } ?? false
        guard named || runtimeBus else { return nil }
        return g_bus_get_sync(G_BUS_TYPE_SESSION, nil, nil)
    }

    /// `method` (`ReadOne`, then `Read` where the portal has no `ReadOne`) of the setting.
    private func read(method: String) {
        let connection = connection
        let arguments = DBusMenuLayout.tuple([g_variant_new_string(Self.namespace), g_variant_new_string(Self.key)])
        AsyncCallback.call({ callback, data in
            g_dbus_connection_call(connection, Self.portal, Self.path, Self.interface, method, arguments, nil,
                                   G_DBUS_CALL_FLAGS_NO_AUTO_START, 5000, nil, callback, data)
        }, finish: { [weak self] _, result in
            var error: UnsafeMutablePointer<GError>?
            let reply = g_dbus_connection_call_finish(connection, result, &error)
            let unknownMethod = error.map { g_dbus_error_get_remote_error($0).map { String(cString: $0) } } ?? nil
            g_clear_error(&error)
            guard let self else { if let reply { g_variant_unref(reply) }; return }
            guard let reply else {
                if method == "ReadOne", unknownMethod == "org.freedesktop.DBus.Error.UnknownMethod" { self.read(method: "Read") }
                return
            }
            defer { g_variant_unref(reply) }
            guard g_variant_n_children(reply) == 1, let value = g_variant_get_child_value(reply, 0) else { return }
            defer { g_variant_unref(value) }
            self.heard(Self.reading(value))
        })
    }

    /// `SettingChanged(s namespace, s key, v value)` of the portal.
    fileprivate func settingChanged(_ parameters: OpaquePointer) {
        guard string(g_variant_get_type_string(parameters)) == "(ssv)" else { return }
        let key = g_variant_get_child_value(parameters, 1)!, value = g_variant_get_child_value(parameters, 2)!
        defer { g_variant_unref(key); g_variant_unref(value) }
        guard string(g_variant_get_string(key, nil)) == Self.key else { return }
        heard(Self.reading(value))
    }

    /// The value inside `variant` (a portal wraps it once, `Read` twice), as read.
    static func reading(_ variant: OpaquePointer) -> DesktopColorScheme.Reading {
        var value = g_variant_ref(variant)!
        for _ in 0..<2 where string(g_variant_get_type_string(value)) == "v" {
            let inner = g_variant_get_variant(value)!
            g_variant_unref(value)
            value = inner
        }
        defer { g_variant_unref(value) }
        let type = string(g_variant_get_type_string(value)) ?? ""
        return type == "u" ? .unsigned(g_variant_get_uint32(value)) : .other(type: type)
    }
}

private let onSettingChanged: GDBusSignalCallback = { _, _, _, _, _, parameters, data in
    guard let parameters else { return }
    onMainLoop((data, parameters)) { data, parameters in SignalContext.owner(data, as: DesktopAppearance.self)?.settingChanged(parameters) }
}
