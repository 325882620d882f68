import CWebKitGTK
import Vitrine

/// Desktop notifications (`notification` capability) through the application's
/// GNotification: GLib picks the desktop's service (the portal, org.gtk.Notifications or
/// org.freedesktop.Notifications). A click activates the application's action
/// `app.vitrine-notification` with the notification's id: the window that sent it is
/// brought forward and its pages hear `notification:clicked` `{id}`. A button activates
/// `app.vitrine-notification-action` with `(id, serial, action)`: the `NotificationBook`
/// decides whether it is still that notification's, and only the top document that showed
/// it hears `notification:action` `{id, action}`, while it is shown.
///
/// One per app (`AppServices.notifier()`), for its registered application (`VitrineApplication`,
/// registered by `RemoteControl` under the app's id, which names the notifications' sender);
/// it owns its two actions (added to the application, removed when it goes) and their
/// signal connections.
@MainActor
final class Notifier {
    static let actionName = "vitrine-notification"
    static let buttonActionName = "vitrine-notification-action"

    /// Who showed a notification: its window, and for one with buttons, the pane and the
    /// top document.
    struct Owner {
        weak var container: WebContainer?
        weak var pane: WebPane?
        let document: FrameToken?
    }

    private let application: UnsafeMutablePointer<GApplication>
    /// The GSimpleActions (an opaque type here); their references are released in deinit.
    private let clickAction: OpaquePointer
    private let buttonAction: OpaquePointer
    private let signals = SignalConnections()
    private var book = NotificationBook<Owner>()

    init(application: UnsafeMutablePointer<GApplication>) {
        self.application = application
        g_object_ref(gptr(application))
        clickAction = Self.addAction(Self.actionName, parameter: "s", to: application)
        buttonAction = Self.addAction(Self.buttonActionName, parameter: "(sus)", to: application)
        signals.connect(gptr(clickAction), "activate", context: SignalContext(owner: self), handler: gCallback(onClick))
        signals.connect(gptr(buttonAction), "activate", context: SignalContext(owner: self), handler: gCallback(onButton))
    }

    private static func addAction(_ name: String, parameter: String, to application: UnsafeMutablePointer<GApplication>) -> OpaquePointer {
        let type = g_variant_type_new(parameter)
        defer { g_variant_type_free(type) }
        let action = g_simple_action_new(name, type)!
        g_action_map_add_action(OpaquePointer(application), action)
        return action
    }

    /// Shows `notification` for `container`; throws where the desktop has no notification
    /// server, or the document that asked for buttons has gone meanwhile.
    func send(_ notification: DesktopNotification, from container: WebContainer) async throws(ScriptMessageError) {
        if let connection = g_application_get_dbus_connection(application) {
            try await NotificationServer.check(on: connection)
        }
        var owner = Owner(container: container, pane: nil, document: notification.owner)
        if let document = notification.owner {
            owner.pane = try container.stage.pane(showing: document, for: "notification")
        } else if container.isTornDown {
            throw ScriptMessageError("notification: this window is closed")
        }
        let serial = book.show(id: notification.id, actions: notification.actions.map(\.id), owner: owner)
        let gNotification = g_notification_new(notification.title)!
        defer { g_object_unref(gptr(gNotification)) }
        if let body = notification.body { g_notification_set_body(gNotification, body) }
        g_notification_set_default_action_and_target_value(
            gNotification, "app.\(Self.actionName)", g_variant_new_string(notification.id))
        for action in notification.actions {
            let target = DBusMenuLayout.tuple([
                g_variant_new_string(notification.id), g_variant_new_uint32(serial), g_variant_new_string(action.id)])
            g_notification_add_button_with_target_value(gNotification, action.label, "app.\(Self.buttonActionName)", target)
        }
        g_application_send_notification(application, notification.id, gNotification)
    }

    /// Takes off the desktop the notifications with buttons whose document went: another
    /// page committed in its pane (`pane`), or its window (`container`) or pane is gone.
    func withdrawGone(committedIn pane: WebPane?, of container: WebContainer, windowGone: Bool = false) {
        let ids = book.withdraw { entry in
            let owner = entry.owner
            guard owner.document != nil else { return false }
            return owner.container == nil || owner.pane == nil || (windowGone && owner.container === container)
                || (pane != nil && owner.pane === pane)
        }
        for id in ids {
            g_application_withdraw_notification(application, id)
            container.record(.native(action: .notificationAction, detail: "\(id): withdrawn, its document has gone"))
        }
    }

    fileprivate func clicked(_ id: String) {
        let container = book.owner(of: id)?.container
        book.remove(id: id)
        guard let container, !container.isTornDown else { return }
        gtk_window_present(container.windowPointer)
        container.record(.native(action: .notificationClicked, detail: id))
        container.emit("notification:clicked", ["id": .string(id)])
    }

    fileprivate func pressed(id: String, serial: UInt32, action: String) {
        switch book.invoked(id: id, serial: serial, action: action) {
        case .deliver(let owner, let event):
            guard let container = owner.container, !container.isTornDown else { return }
            guard let pane = owner.pane, let document = owner.document, pane.messages.frames.mainToken == document else {
                container.record(.native(action: .notificationAction, detail: "\(id) \(action): its document has gone"))
                return
            }
            container.record(.native(action: .notificationAction, detail: "\(id) \(action)"))
            container.stage.emit(to: pane, "notification:action", event.payload)
        case .refused(let reason, let owner):
            owner?.container?.record(.native(action: .notificationAction, detail: "\(id) \(action): \(reason)"))
        }
    }

    isolated deinit {
        signals.disconnectAll()
        g_action_map_remove_action(OpaquePointer(application), Self.actionName)
        g_action_map_remove_action(OpaquePointer(application), Self.buttonActionName)
        g_object_unref(gptr(clickAction))
        g_object_unref(gptr(buttonAction))
        g_object_unref(gptr(application))
    }
}

/// `activate` on the click's action: `void (*)(GSimpleAction*, GVariant*, gpointer)`.
private let onClick: @convention(c) (OpaquePointer?, OpaquePointer?, gpointer?) -> Void = { _, parameter, data in
    guard let parameter, string(g_variant_get_type_string(parameter)) == "s",
          let id = g_variant_get_string(parameter, nil).map({ String(cString: $0) }) else { return }
    onMainLoop((data, id)) { data, id in SignalContext.owner(data, as: Notifier.self)?.clicked(id) }
}

/// `activate` on the buttons' action, with `(s id, u serial, s action)`.
private let onButton: @convention(c) (OpaquePointer?, OpaquePointer?, gpointer?) -> Void = { _, parameter, data in
    guard let parameter, string(g_variant_get_type_string(parameter)) == "(sus)" else { return }
    func child(_ index: Int) -> OpaquePointer { g_variant_get_child_value(parameter, gsize(index))! }
    let idValue = child(0), serialValue = child(1), actionValue = child(2)
    defer { g_variant_unref(idValue); g_variant_unref(serialValue); g_variant_unref(actionValue) }
    let id = string(g_variant_get_string(idValue, nil)) ?? "", action = string(g_variant_get_string(actionValue, nil)) ?? ""
    let serial = g_variant_get_uint32(serialValue)
    onMainLoop((data, id, serial, action)) { data, id, serial, action in
        SignalContext.owner(data, as: Notifier.self)?.pressed(id: id, serial: serial, action: action)
    }
}
