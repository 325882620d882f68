import CWebKitGTK

/// The signal connections one Swift object owns, disconnected together when it goes
/// (`deinit`) or earlier on teardown.
///
/// Each connection passes a retained `SignalContext` as user data; GLib releases it through
/// the destroy notify when the connection goes away (disconnect or the instance's
/// finalisation), so a context never outlives its connection nor dies before it.
/// The context holds its owner weakly: a signal that fires during teardown finds nil
/// and does nothing. Each connection also holds a reference to its instance, so the
/// instance outlives the connection and disconnecting is always safe.
@MainActor
final class SignalConnections {
    private var connections: [(instance: gpointer, id: gulong)] = []

    /// Connects `handler` (a `@convention(c)` function of the signal's exact C signature,
    /// cast to `GCallback`) to `signal` on `instance`, until `disconnect(from:)` or
    /// `disconnectAll()`.
    @discardableResult
    func connect(_ instance: gpointer, _ signal: String, context: SignalContext, handler: GCallback) -> gulong {
        let data = Unmanaged.passRetained(context).toOpaque()
        let id = g_signal_connect_data(instance, signal, handler, data, { data, _ in
            guard let data else { return }
            Unmanaged<SignalContext>.fromOpaque(data).release()
        }, GConnectFlags(rawValue: 0))
        g_object_ref(instance)
        connections.append((instance, id))
        return id
    }

    /// Disconnects this owner's connections on `instance` and releases it.
    func disconnect(from instance: gpointer) {
        for connection in connections where connection.instance == instance { release(connection) }
        connections.removeAll { $0.instance == instance }
    }

    /// Disconnects one connection `connect` returned, and releases its instance.
    func disconnect(id: gulong) {
        guard let index = connections.firstIndex(where: { $0.id == id }) else { return }
        release(connections.remove(at: index))
    }

    /// Disconnects everything this owner connected. Safe to call twice.
    func disconnectAll() {
        for connection in connections { release(connection) }
        connections.removeAll()
    }

    private func release(_ connection: (instance: gpointer, id: gulong)) {
        if g_signal_handler_is_connected(connection.instance, connection.id) != 0 {
            g_signal_handler_disconnect(connection.instance, connection.id)
        }
        g_object_unref(connection.instance)
    }

    var count: Int { connections.count }

    isolated deinit {
        disconnectAll()
    }
}

/// User data of a signal connection: a weak owner, an optional tag (for example the
/// script-message handler name, which the reply signal does not carry) and an optional
/// object the connection stands for (a bridge channel), held as long as the connection.
final class SignalContext {
    weak var owner: AnyObject?
    let tag: String
    let item: AnyObject?

    init(owner: AnyObject, tag: String = "", item: AnyObject? = nil) {
        self.owner = owner
        self.tag = tag
        self.item = item
    }

    /// The object a connection stands for, from its user data.
    static func item<Item: AnyObject>(_ data: gpointer?, as type: Item.Type) -> Item? {
        guard let data else { return nil }
        return Unmanaged<SignalContext>.fromOpaque(data).takeUnretainedValue().item as? Item
    }

    /// The owner of a connection from its user data, if still alive.
    static func owner<Owner: AnyObject>(_ data: gpointer?, as type: Owner.Type) -> Owner? {
        guard let data else { return nil }
        return Unmanaged<SignalContext>.fromOpaque(data).takeUnretainedValue().owner as? Owner
    }

    static func tag(_ data: gpointer?) -> String {
        guard let data else { return "" }
        return Unmanaged<SignalContext>.fromOpaque(data).takeUnretainedValue().tag
    }
}

