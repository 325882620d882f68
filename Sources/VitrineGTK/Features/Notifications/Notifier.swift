import CWebKitGTK
import Vitrine

/// Desktop notifications (`notification` capability) through the application's
/// GNotification: GLib picks the desktop's service (the portal, org.gtk.Notifications or
/// org.freedesktop.Notifications). A click activates the application's action
/// `app.vitrine-notification` with the notification's id: the window that sent it is
/// brought forward and its pages hear `notification:clicked` `{id}`.
///
/// One per app (`AppServices.notifier()`), for its registered application (`VitrineApplication`,
/// registered by `RemoteControl` under the app's id, which names the notifications' sender);
/// it owns its action (added to the application, removed when it goes) and the action's
/// signal connection.
@MainActor
final class Notifier {
    static let actionName = "vitrine-notification"

    private let application: UnsafeMutablePointer<GApplication>
    /// The GSimpleAction (an opaque type here); its reference is released in deinit.
    private let action: OpaquePointer
    private let signals = SignalConnections()
    /// Who sent each notification, by id, until it is clicked or replaced.
    private var senders: [String: Weak] = [:]

    private struct Weak { weak var container: WebContainer? }

    init(application: UnsafeMutablePointer<GApplication>) {
        self.application = application
        g_object_ref(gptr(application))
        let type = g_variant_type_new("s")
        action = g_simple_action_new(Self.actionName, type)!
        g_variant_type_free(type)
        signals.connect(gptr(action), "activate", context: SignalContext(owner: self), handler: gCallback(onActivate))
        g_action_map_add_action(OpaquePointer(application), action)
    }

    func send(_ notification: DesktopNotification, from container: WebContainer) {
        let gNotification = g_notification_new(notification.title)!
        defer { g_object_unref(gptr(gNotification)) }
        if let body = notification.body { g_notification_set_body(gNotification, body) }
        g_notification_set_default_action_and_target_value(
            gNotification, "app.\(Self.actionName)", g_variant_new_string(notification.id))
        senders[notification.id] = Weak(container: container)
        g_application_send_notification(application, notification.id, gNotification)
    }

    fileprivate func clicked(_ id: String) {
        guard let container = senders.removeValue(forKey: id)?.container, !container.isTornDown else { return }
        gtk_window_present(container.windowPointer)
        container.record(.native(action: .notificationClicked, detail: id))
        container.emit("notification:clicked", ["id": .string(id)])
    }

    isolated deinit {
        signals.disconnectAll()
        g_action_map_remove_action(OpaquePointer(application), Self.actionName)
        g_object_unref(gptr(action))
        g_object_unref(gptr(application))
    }
}

/// `activate` on the action: `void (*)(GSimpleAction*, GVariant*, gpointer)`.
private let onActivate: @convention(c) (OpaquePointer?, OpaquePointer?, gpointer?) -> Void = { _, parameter, data in
    guard let parameter, let id = g_variant_get_string(parameter, nil).map({ String(cString: $0) }) else { return }
    onMainLoop((data, id)) { data, id in SignalContext.owner(data, as: Notifier.self)?.clicked(id) }
}
