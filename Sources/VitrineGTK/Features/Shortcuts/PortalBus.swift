import CWebKitGTK
import Vitrine

/// What one request of the desktop portal came to: its Request's `Response` (code and the
/// results read here), or why there was none.
struct PortalAnswer: Sendable {
    /// 0 done, 1 the user cancelled, 2 ended otherwise.
    var response: UInt32 = 2
    /// Why no Response came (the call failed, the portal went).
    var failure: String?
    /// `session_handle` (CreateSession).
    var sessionHandle: String?
    /// The ids of `shortcuts` (BindShortcuts).
    var shortcutIDs: [String] = []
}

/// The desktop portal (`org.freedesktop.portal.Desktop`) on the session bus, for one of its
/// interfaces, with GDBus: its requests the portal answers through a Request object's
/// `Response` signal, subscribed to BEFORE the call (the handle is predictable from the
/// `handle_token`, as the Request documentation asks), and only from the portal's owner
/// (its unique name: another client of the bus cannot answer for it).
///
/// Ownership: the bus connection's reference and every signal subscription are released in
/// deinit; each subscription's user data is a weak reference, so a signal after finds
/// nobody. Every request is answered exactly once: by its Response, by its call's error,
/// when the portal leaves the bus, or at deinit.
@MainActor
final class PortalBus {
    static let name = "org.freedesktop.portal.Desktop", path = "/org/freedesktop/portal/desktop"
    let connection: OpaquePointer
    /// The unique name of the portal's owner: the only sender whose signals count.
    let portal: String
    /// `/org/freedesktop/portal/desktop/request/SENDER/`: this connection's request handles.
    private let requestPrefix: String
    private var pending: [String: (subscription: guint, answer: CheckedContinuation<PortalAnswer, Never>)] = [:]
    private var subscriptions: [guint] = []
    /// Tells the owner the portal left the bus (its sessions are gone with it).
    var onVanished: (() -> Void)?

    /// Connects to the session bus's portal when it offers `interface` (its `version`
    /// property answers); throws `missing` otherwise.
    init(interface: String, missing: ScriptMessageError) throws(ScriptMessageError) {
        var error: UnsafeMutablePointer<GError>?
        guard let connection = g_bus_get_sync(G_BUS_TYPE_SESSION, nil, &error) else {
            throw ScriptMessageError("\(missing) — there is no session bus: \(GLibError.take(&error, "unknown error"))")
        }
        func callSync(_ path: String, _ interface: String, _ method: String, _ arguments: [OpaquePointer?], to name: String) -> OpaquePointer? {
            g_dbus_connection_call_sync(connection, name, path, interface, method, DBusMenuLayout.tuple(arguments), nil,
                                        G_DBUS_CALL_FLAGS_NONE, 5000, nil, nil)
        }
        // The property first: it starts an activatable portal, then it has an owner.
        guard let version = callSync(Self.path, "org.freedesktop.DBus.Properties", "Get",
                                     [g_variant_new_string(interface), g_variant_new_string("version")], to: Self.name),
              let owner = callSync("/org/freedesktop/DBus", "org.freedesktop.DBus", "GetNameOwner",
                                   [g_variant_new_string(Self.name)], to: "org.freedesktop.DBus")
        else {
            g_object_unref(gptr(connection))
            throw missing
        }
        g_variant_unref(version)
        portal = Self.firstString(owner) ?? ""
        g_variant_unref(owner)
        self.connection = connection
        let sender = string(g_dbus_connection_get_unique_name(connection)) ?? ""
        requestPrefix = Self.path + "/request/" + sender.dropFirst().replacing(".", with: "_") + "/"
        // The portal leaving the bus: NameOwnerChanged(name, old, new) from the bus itself.
        subscriptions.append(subscribe(owner: self, sender: "org.freedesktop.DBus", interface: "org.freedesktop.DBus",
                                       member: "NameOwnerChanged", path: "/org/freedesktop/DBus", arg0: Self.name, handler: onNameOwnerChanged))
    }

    isolated deinit {
        for subscription in subscriptions { g_dbus_connection_signal_unsubscribe(connection, subscription) }
        for (path, _) in pending { answer(path, PortalAnswer(failure: "the app stopped using the desktop portal")) }
        g_object_unref(gptr(connection))
    }

    /// Subscribes `handler` to a signal of the portal's owner (or of `sender`); its user data
    /// is a weak reference to `owner`, tagged `tag`. Unsubscribe with `unsubscribe(_:)`.
    func subscribe(owner: AnyObject, sender: String? = nil, interface: String, member: String, path: String?, arg0: String? = nil,
                   tag: String = "", handler: GDBusSignalCallback) -> guint {
        let data = Unmanaged.passRetained(SignalContext(owner: owner, tag: tag)).toOpaque()
        return g_dbus_connection_signal_subscribe(connection, sender ?? portal, interface, member, path, arg0, G_DBUS_SIGNAL_FLAGS_NONE,
                                                  handler, data, { Unmanaged<SignalContext>.fromOpaque($0!).release() })
    }

    func unsubscribe(_ subscription: guint) {
        g_dbus_connection_signal_unsubscribe(connection, subscription)
    }

    /// Calls `method` of `interface` with `arguments(options)` — `options` holds a fresh
    /// `handle_token` and `extraOptions` — and waits for its Request's Response.
    func request(_ interface: String, _ method: String, extraOptions: [(String, OpaquePointer)] = [],
                 _ arguments: (_ options: OpaquePointer) -> [OpaquePointer?]) async -> PortalAnswer {
        let token = Self.token()
        let path = requestPrefix + token
        let options = Self.vardict([("handle_token", g_variant_new_string(token))] + extraOptions)
        let parameters = DBusMenuLayout.tuple(arguments(options))
        return await withCheckedContinuation { answer in
            pending[path] = (subscribe(owner: self, interface: "org.freedesktop.portal.Request", member: "Response", path: path,
                                       tag: path, handler: onResponse), answer)
            let connection = connection
            AsyncCallback.call({ callback, data in
                g_dbus_connection_call(connection, Self.name, Self.path, interface, method, parameters, nil, G_DBUS_CALL_FLAGS_NONE,
                                       -1, nil, callback, data)
            }, finish: { [weak self] _, result in
                var error: UnsafeMutablePointer<GError>?
                let reply = g_dbus_connection_call_finish(connection, result, &error)
                guard let self else { g_clear_error(&error); if let reply { g_variant_unref(reply) }; return }
                guard let reply else {
                    self.answer(path, PortalAnswer(failure: "\(method): \(GLibError.take(&error, "no reply"))"))
                    return
                }
                // An old portal's handle is not the predicted one: listen there instead.
                if let handle = Self.firstString(reply), handle != path, let waiting = pending.removeValue(forKey: path) {
                    unsubscribe(waiting.subscription)
                    pending[handle] = (subscribe(owner: self, interface: "org.freedesktop.portal.Request", member: "Response",
                                                 path: handle, tag: handle, handler: onResponse), waiting.answer)
                }
                g_variant_unref(reply)
            })
        }
    }

    /// Closes `session` (org.freedesktop.portal.Session.Close); its shortcuts go with it.
    func closeSession(_ session: String) {
        g_dbus_connection_call(connection, Self.name, session, "org.freedesktop.portal.Session", "Close", nil, nil,
                               G_DBUS_CALL_FLAGS_NONE, -1, nil, nil, nil)
    }

    /// The Request at `path` responded: `(u code, a{sv} results)`.
    fileprivate func responded(_ path: String, _ parameters: OpaquePointer) {
        guard g_variant_n_children(parameters) == 2 else { return }
        var answer = PortalAnswer()
        let code = g_variant_get_child_value(parameters, 0)!, results = g_variant_get_child_value(parameters, 1)!
        defer { g_variant_unref(code); g_variant_unref(results) }
        guard string(g_variant_get_type_string(code)) == "u", string(g_variant_get_type_string(results)) == "a{sv}" else { return }
        answer.response = g_variant_get_uint32(code)
        if let handle = g_variant_lookup_value(results, "session_handle", nil) {
            if ["s", "o"].contains(string(g_variant_get_type_string(handle))) { answer.sessionHandle = string(g_variant_get_string(handle, nil)) }
            g_variant_unref(handle)
        }
        if let shortcuts = g_variant_lookup_value(results, "shortcuts", nil) {
            if string(g_variant_get_type_string(shortcuts)) == "a(sa{sv})" {
                for index in 0..<min(g_variant_n_children(shortcuts), 1000) { // a bound: the app binds at most 16
                    let shortcut = g_variant_get_child_value(shortcuts, index)!
                    answer.shortcutIDs.append(Self.firstString(shortcut) ?? "")
                    g_variant_unref(shortcut)
                }
            }
            g_variant_unref(shortcuts)
        }
        self.answer(path, answer)
    }

    /// Answers the request at `path` once; later answers find nothing.
    private func answer(_ path: String, _ answer: PortalAnswer) {
        guard let waiting = pending.removeValue(forKey: path) else { return }
        unsubscribe(waiting.subscription)
        waiting.answer.resume(returning: answer)
    }

    fileprivate func ownerChanged(_ parameters: OpaquePointer) {
        guard string(g_variant_get_type_string(parameters)) == "(sss)" else { return }
        let names = (0..<3).map { index -> String? in
            let child = g_variant_get_child_value(parameters, gsize(index))!
            defer { g_variant_unref(child) }
            return string(g_variant_get_string(child, nil))
        }
        guard names[0] == Self.name, names[1] == portal, names[2] != portal else { return }
        for path in Array(pending.keys) { answer(path, PortalAnswer(failure: "the desktop portal left the session bus")) }
        onVanished?()
    }

    /// The first child of a tuple when it is a string or an object path.
    static func firstString(_ tuple: OpaquePointer) -> String? {
        guard g_variant_n_children(tuple) > 0, let child = g_variant_get_child_value(tuple, 0) else { return nil }
        defer { g_variant_unref(child) }
        guard ["s", "o"].contains(string(g_variant_get_type_string(child))) else { return nil }
        return string(g_variant_get_string(child, nil))
    }

    /// `a{sv}` of `entries`.
    static func vardict(_ entries: [(String, OpaquePointer)]) -> OpaquePointer {
        DBusMenuLayout.array(of: "{sv}", entries.map { g_variant_new_dict_entry(g_variant_new_string($0.0), g_variant_new_variant($0.1)) })
    }

    /// A token no other client guesses: an object path element.
    static func token() -> String {
        "vitrine_" + (0..<4).map { _ in String(UInt32.random(in: .min ... .max), radix: 16) }.joined()
    }
}

private let onResponse: GDBusSignalCallback = { _, _, _, _, _, parameters, data in
    guard let parameters else { return }
    onMainLoop((data, parameters)) { data, parameters in
        SignalContext.owner(data, as: PortalBus.self)?.responded(SignalContext.tag(data), parameters)
    }
}

private let onNameOwnerChanged: GDBusSignalCallback = { _, _, _, _, _, parameters, data in
    guard let parameters else { return }
    onMainLoop((data, parameters)) { data, parameters in SignalContext.owner(data, as: PortalBus.self)?.ownerChanged(parameters) }
}
