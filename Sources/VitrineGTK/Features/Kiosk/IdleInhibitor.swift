import CWebKitGTK
import Vitrine

/// Keeps the screen from blanking while it lives: through the program's GtkApplication
/// when it has one, otherwise the freedesktop ScreenSaver service on the session bus.
/// The inhibition's cookie is kept and handed back when the inhibitor goes. Each holder
/// (a kiosk, a page granted `power`) has its own: one let go leaves the others holding.
/// The window's events log hears both ends: `inhibit-idle` "reason (how)", and
/// `uninhibit-idle` "reason" once a held inhibition is handed back.
@MainActor
final class IdleInhibitor: CustomStringConvertible {
    private enum Hold {
        case application(UnsafeMutablePointer<GtkApplication>, cookie: guint)
        case screenSaver(bus: OpaquePointer, cookie: guint32)
        case none
    }

    private var hold = Hold.none
    /// How the screen is kept on, as the events log says it (`inhibit-idle`).
    let description: String
    /// Why, as the desktop shows it.
    let reason: String
    private weak var container: WebContainer?

    /// Whether the screen is kept on (false: no application and no screen saver service).
    var isHolding: Bool {
        if case .none = hold { return false }
        return true
    }

    /// Inhibits idle for `container`'s window, saying `reason`, and logs it.
    convenience init(for container: WebContainer, reason: String) {
        self.init(window: container.windowPointer, reason: reason)
        self.container = container
        container.record(.native(action: .inhibitIdle, detail: "\(reason) (\(description))"))
    }

    private init(window: UnsafeMutablePointer<GtkWindow>, reason: String) {
        self.reason = reason
        if let application = Self.gtkApplication() {
            let cookie = gtk_application_inhibit(application, window, GTK_APPLICATION_INHIBIT_IDLE, reason)
            if cookie != 0 {
                hold = .application(application, cookie: cookie)
                description = "gtk-application"
                return
            }
        }
        var error: UnsafeMutablePointer<GError>?
        guard let bus = g_bus_get_sync(G_BUS_TYPE_SESSION, nil, &error) else {
            description = "no session bus: \(GLibError.take(&error, "unavailable"))"
            return
        }
        let parameters = g_variant_new_tuple([g_variant_new_string("vitrine"), g_variant_new_string(reason)], 2)
        guard let reply = Self.callScreenSaver(bus, "Inhibit", parameters, error: &error) else {
            g_object_unref(gptr(bus))
            description = "not available: \(GLibError.take(&error, "no screen saver service"))"
            return
        }
        var cookie: guint32 = 0
        if g_variant_n_children(reply) == 1, let value = g_variant_get_child_value(reply, 0) {
            if g_variant_classify(value) == G_VARIANT_CLASS_UINT32 { cookie = g_variant_get_uint32(value) }
            g_variant_unref(value)
        }
        g_variant_unref(reply)
        hold = .screenSaver(bus: bus, cookie: cookie) // the inhibitor's reference
        description = "org.freedesktop.ScreenSaver"
    }

    isolated deinit {
        switch hold {
        case .application(let application, let cookie):
            gtk_application_uninhibit(application, cookie)
        case .screenSaver(let bus, let cookie):
            var error: UnsafeMutablePointer<GError>?
            if let reply = Self.callScreenSaver(bus, "UnInhibit", g_variant_new_tuple([g_variant_new_uint32(cookie)], 1), error: &error) {
                g_variant_unref(reply)
            }
            g_clear_error(&error)
            g_object_unref(gptr(bus))
        case .none:
            return
        }
        container?.record(.native(action: .uninhibitIdle, detail: reason))
    }

    private static func gtkApplication() -> UnsafeMutablePointer<GtkApplication>? {
        guard let application = g_application_get_default(),
              g_type_check_instance_is_a(UnsafeMutableRawPointer(application).assumingMemoryBound(to: GTypeInstance.self),
                                         gtk_application_get_type()) != 0
        else { return nil }
        return UnsafeMutableRawPointer(application).assumingMemoryBound(to: GtkApplication.self)
    }

    private static func callScreenSaver(_ bus: OpaquePointer, _ method: String,
                                        _ parameters: OpaquePointer?, error: inout UnsafeMutablePointer<GError>?) -> OpaquePointer? {
        g_dbus_connection_call_sync(
            bus, "org.freedesktop.ScreenSaver", "/org/freedesktop/ScreenSaver", "org.freedesktop.ScreenSaver",
            method, parameters, nil, G_DBUS_CALL_FLAGS_NONE, 2000, nil, &error)
    }
}
