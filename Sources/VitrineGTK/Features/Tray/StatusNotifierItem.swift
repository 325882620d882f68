import CWebKitGTK
import Vitrine

/// The app's tray icon on the session bus: an org.kde.StatusNotifierItem at
/// `/StatusNotifierItem` under the name `org.kde.StatusNotifierItem-PID-1`, its menu a
/// com.canonical.dbusmenu at `/MenuBar`, registered with the desktop's
/// org.kde.StatusNotifierWatcher (again whenever a watcher appears). Written with GDBus
/// directly: two objects and a handful of methods need no other library.
///
/// Ownership: the bus connection's reference, both object registrations, the bus name and
/// the watch on the watcher's name are released in deinit; their user data (a weak
/// reference to this object) goes with them, so a call that arrives after finds nobody.
@MainActor
final class StatusNotifierItem {
    struct Shown {
        var title: String
        var tooltip: String
        var iconName: String
        /// ARGB32 pixels in network byte order, with their size.
        var pixmap: (width: Int32, height: Int32, argb: [UInt8])?
        var menu: DBusMenuLayout
    }

    static let itemPath = "/StatusNotifierItem"
    static let menuPath = "/MenuBar"
    let busName: String
    private let connection: OpaquePointer
    private var registrations: [guint] = []
    private var nameID: guint = 0
    private var watchID: guint = 0
    private var shown: Shown
    private var revision: UInt32 = 1
    /// Tells the owner the user clicked the icon.
    var onClick: (() -> Void)?
    /// Tells the owner the user chose a command of the menu (its id).
    var onChoose: ((String) -> Void)?

    init(_ shown: Shown) throws(ScriptMessageError) {
        var error: UnsafeMutablePointer<GError>?
        guard let connection = g_bus_get_sync(G_BUS_TYPE_SESSION, nil, &error) else {
            defer { g_clear_error(&error) }
            throw ScriptMessageError("tray: no session bus: \(error.map { String(cString: $0.pointee.message) } ?? "")")
        }
        self.connection = connection
        self.shown = shown
        busName = "org.kde.StatusNotifierItem-\(getpid())-1"
        guard let node = g_dbus_node_info_new_for_xml(Self.introspection, &error) else { fatalError("the D-Bus interfaces' XML") }
        defer { g_dbus_node_info_unref(node) }
        var vtable = GDBusInterfaceVTable(method_call: onMethodCall, get_property: onGetProperty, set_property: nil,
                                          padding: (nil, nil, nil, nil, nil, nil, nil, nil))
        for (path, interface) in [(Self.itemPath, "org.kde.StatusNotifierItem"), (Self.menuPath, "com.canonical.dbusmenu")] {
            let data = Unmanaged.passRetained(SignalContext(owner: self, tag: interface)).toOpaque()
            let id = g_dbus_connection_register_object(connection, path, g_dbus_node_info_lookup_interface(node, interface), &vtable, data,
                                                       { Unmanaged<SignalContext>.fromOpaque($0!).release() }, &error)
            guard id != 0 else {
                defer { g_clear_error(&error) }
                throw ScriptMessageError("tray: cannot export \(path): \(error.map { String(cString: $0.pointee.message) } ?? "")")
            }
            registrations.append(id)
        }
        nameID = g_bus_own_name_on_connection(connection, busName, G_BUS_NAME_OWNER_FLAGS_NONE, nil, nil, nil, nil)
        let data = Unmanaged.passRetained(SignalContext(owner: self)).toOpaque()
        watchID = g_bus_watch_name_on_connection(connection, "org.kde.StatusNotifierWatcher", G_BUS_NAME_WATCHER_FLAGS_NONE,
                                                 onWatcherAppeared, nil, data, { Unmanaged<SignalContext>.fromOpaque($0!).release() })
    }

    isolated deinit {
        g_bus_unwatch_name(watchID)
        for id in registrations { g_dbus_connection_unregister_object(connection, id) }
        g_bus_unown_name(nameID)
        g_object_unref(gptr(connection))
    }

    /// Shows `shown` instead: the hosts hear the icon, tooltip, title and menu changed.
    func update(_ shown: Shown) {
        self.shown = shown
        revision += 1
        for name in ["NewIcon", "NewToolTip", "NewTitle"] { emit(Self.itemPath, "org.kde.StatusNotifierItem", name, nil) }
        emit(Self.menuPath, "com.canonical.dbusmenu", "LayoutUpdated", DBusMenuLayout.tuple([g_variant_new_uint32(revision), g_variant_new_int32(0)]))
    }

    /// Shows `menu`, the same menu with items toggled: the hosts hear the items that changed
    /// (ItemsPropertiesUpdated) and redraw them.
    func updateMenu(_ menu: DBusMenuLayout) {
        let changed = shown.menu.changedNodes(in: menu)
        shown.menu = menu
        guard !changed.isEmpty else { return }
        let updated = changed.map { DBusMenuLayout.tuple([g_variant_new_int32($0.id), DBusMenuLayout.properties($0)]) }
        emit(Self.menuPath, "com.canonical.dbusmenu", "ItemsPropertiesUpdated",
             DBusMenuLayout.tuple([DBusMenuLayout.array(of: "(ia{sv})", updated), DBusMenuLayout.array(of: "(ias)", [])]))
    }

    private func emit(_ path: String, _ interface: String, _ name: String, _ parameters: OpaquePointer?) {
        g_dbus_connection_emit_signal(connection, nil, path, interface, name, parameters, nil)
    }

    fileprivate func registerWithWatcher() {
        g_dbus_connection_call(connection, "org.kde.StatusNotifierWatcher", "/StatusNotifierWatcher", "org.kde.StatusNotifierWatcher",
                               "RegisterStatusNotifierItem", DBusMenuLayout.tuple([g_variant_new_string(busName)]), nil,
                               G_DBUS_CALL_FLAGS_NONE, -1, nil, nil, nil)
    }

    // MARK: Properties and calls

    fileprivate func property(_ interface: String, _ name: String) -> OpaquePointer? {
        if interface == "com.canonical.dbusmenu" {
            switch name {
            case "Version": return g_variant_new_uint32(3)
            case "TextDirection": return g_variant_new_string("ltr")
            case "Status": return g_variant_new_string("normal")
            case "IconThemePath": return g_variant_new_strv(nil, 0)
            default: return nil
            }
        }
        switch name {
        case "Category": return g_variant_new_string("ApplicationStatus")
        case "Id": return g_variant_new_string(g_get_prgname().map { String(cString: $0) } ?? "vitrine")
        case "Title": return g_variant_new_string(shown.title)
        case "Status": return g_variant_new_string("Active")
        case "WindowId": return g_variant_new_int32(0)
        case "IconName": return g_variant_new_string(shown.iconName)
        case "IconThemePath": return g_variant_new_string("")
        case "IconPixmap": return pixmaps()
        case "ToolTip":
            return DBusMenuLayout.tuple([g_variant_new_string(shown.iconName), pixmaps(), g_variant_new_string(shown.tooltip), g_variant_new_string("")])
        case "ItemIsMenu": return g_variant_new_boolean(0)
        case "Menu": return g_variant_new_object_path(Self.menuPath)
        default: return nil
        }
    }

    /// `a(iiay)`: the icon file's pixels, or none for a themed icon.
    private func pixmaps() -> OpaquePointer {
        guard let pixmap = shown.pixmap else { return DBusMenuLayout.array(of: "(iiay)", []) }
        let byte = g_variant_type_new("y")
        defer { g_variant_type_free(byte) }
        let bytes = pixmap.argb.withUnsafeBytes { buffer in
            g_variant_new_fixed_array(byte, buffer.baseAddress, gsize(buffer.count), 1)
        }
        return DBusMenuLayout.array(of: "(iiay)", [DBusMenuLayout.tuple([g_variant_new_int32(pixmap.width), g_variant_new_int32(pixmap.height), bytes])])
    }

    /// Answers `method` with its reply (nil: no return values), or an error.
    fileprivate func call(_ interface: String, _ method: String, _ parameters: OpaquePointer?) -> Result<OpaquePointer?, ScriptMessageError> {
        func argument(_ index: Int) -> OpaquePointer? { parameters.flatMap { g_variant_get_child_value($0, gsize(index)) } }
        func int(_ index: Int) -> Int32 {
            guard let value = argument(index) else { return -1 }
            defer { g_variant_unref(value) }
            return g_variant_get_int32(value)
        }
        func string(_ index: Int) -> String {
            guard let value = argument(index) else { return "" }
            defer { g_variant_unref(value) }
            return String(cString: g_variant_get_string(value, nil))
        }
        switch (interface, method) {
        case ("org.kde.StatusNotifierItem", "Activate"), ("org.kde.StatusNotifierItem", "SecondaryActivate"):
            onClick?()
            return .success(nil)
        case ("org.kde.StatusNotifierItem", _):
            return .success(nil)
        case (_, "GetLayout"):
            guard let layout = shown.menu.layout(of: int(0), depth: int(1)) else { return .failure(ScriptMessageError("no such menu item")) }
            return .success(DBusMenuLayout.tuple([g_variant_new_uint32(revision), layout]))
        case (_, "GetGroupProperties"):
            var ids: [Int32] = []
            if let array = argument(0) {
                for index in 0..<min(g_variant_n_children(array), 1000) { // a bound: the menu has at most 200 items
                    let child = g_variant_get_child_value(array, index)!
                    ids.append(g_variant_get_int32(child))
                    g_variant_unref(child)
                }
                g_variant_unref(array)
            }
            return .success(DBusMenuLayout.tuple([shown.menu.groupProperties(ids)]))
        case (_, "GetProperty"):
            let (id, name) = (int(0), string(1))
            guard let node = shown.menu.node(id), let property = node.properties.first(where: { $0.0 == name })?.1 else {
                return .failure(ScriptMessageError("no such property"))
            }
            let value: OpaquePointer = switch property {
            case .string(let text): g_variant_new_string(text)
            case .bool(let flag): g_variant_new_boolean(flag ? 1 : 0)
            case .int(let number): g_variant_new_int32(number)
            }
            return .success(DBusMenuLayout.tuple([g_variant_new_variant(value)]))
        case (_, "Event"):
            guard menuEvent(int(0), string(1)) else { return .failure(ScriptMessageError("no such menu item")) }
            return .success(nil)
        case (_, "EventGroup"):
            // libdbusmenu's hosts (waybar, Xfce, …) send their clicks this way: `a(isvu)`, the ids not found back.
            var missing: [Int32] = [], count = 0
            if let group = argument(0) {
                count = Int(min(g_variant_n_children(group), 1000)) // a bound: the menu has at most 200 items
                for index in 0..<count {
                    let event = g_variant_get_child_value(group, gsize(index))!
                    let id = g_variant_get_child_value(event, 0)!, name = g_variant_get_child_value(event, 1)!
                    let number = g_variant_get_int32(id)
                    if !menuEvent(number, String(cString: g_variant_get_string(name, nil))) { missing.append(number) }
                    g_variant_unref(name); g_variant_unref(id); g_variant_unref(event)
                }
                g_variant_unref(group)
            }
            guard count == 0 || missing.count < count else { return .failure(ScriptMessageError("no such menu item")) }
            return .success(DBusMenuLayout.tuple([DBusMenuLayout.array(of: "i", missing.map { g_variant_new_int32($0) })]))
        case (_, "AboutToShow"):
            return .success(DBusMenuLayout.tuple([g_variant_new_boolean(0)]))
        case (_, "AboutToShowGroup"):
            return .success(DBusMenuLayout.tuple([DBusMenuLayout.array(of: "i", []), DBusMenuLayout.array(of: "i", [])]))
        default:
            return .failure(ScriptMessageError("unknown method \(method)"))
        }
    }

    /// A host's event `name` on the menu item `id`; whether the item exists. Whether a clicked
    /// command may be chosen (enabled) and what it does (a check flips) is the owner's to decide.
    private func menuEvent(_ id: Int32, _ name: String) -> Bool {
        guard shown.menu.node(id) != nil else { return false }
        if name == "clicked", let command = shown.menu.commands[id] { onChoose?(command) }
        return true
    }

    static let introspection = """
        <node>
          <interface name="org.kde.StatusNotifierItem">
            <property name="Category" type="s" access="read"/>
            <property name="Id" type="s" access="read"/>
            <property name="Title" type="s" access="read"/>
            <property name="Status" type="s" access="read"/>
            <property name="WindowId" type="i" access="read"/>
            <property name="IconName" type="s" access="read"/>
            <property name="IconThemePath" type="s" access="read"/>
            <property name="IconPixmap" type="a(iiay)" access="read"/>
            <property name="ToolTip" type="(sa(iiay)ss)" access="read"/>
            <property name="ItemIsMenu" type="b" access="read"/>
            <property name="Menu" type="o" access="read"/>
            <method name="ContextMenu"><arg name="x" type="i" direction="in"/><arg name="y" type="i" direction="in"/></method>
            <method name="Activate"><arg name="x" type="i" direction="in"/><arg name="y" type="i" direction="in"/></method>
            <method name="SecondaryActivate"><arg name="x" type="i" direction="in"/><arg name="y" type="i" direction="in"/></method>
            <method name="Scroll"><arg name="delta" type="i" direction="in"/><arg name="orientation" type="s" direction="in"/></method>
            <signal name="NewTitle"/><signal name="NewIcon"/><signal name="NewToolTip"/>
            <signal name="NewStatus"><arg name="status" type="s"/></signal>
          </interface>
          <interface name="com.canonical.dbusmenu">
            <property name="Version" type="u" access="read"/>
            <property name="TextDirection" type="s" access="read"/>
            <property name="Status" type="s" access="read"/>
            <property name="IconThemePath" type="as" access="read"/>
            <method name="GetLayout"><arg type="i" direction="in"/><arg type="i" direction="in"/><arg type="as" direction="in"/>
              <arg type="u" direction="out"/><arg type="(ia{sv}av)" direction="out"/></method>
            <method name="GetGroupProperties"><arg type="ai" direction="in"/><arg type="as" direction="in"/>
              <arg type="a(ia{sv})" direction="out"/></method>
            <method name="GetProperty"><arg type="i" direction="in"/><arg type="s" direction="in"/><arg type="v" direction="out"/></method>
            <method name="Event"><arg type="i" direction="in"/><arg type="s" direction="in"/><arg type="v" direction="in"/>
              <arg type="u" direction="in"/></method>
            <method name="EventGroup"><arg type="a(isvu)" direction="in"/><arg type="ai" direction="out"/></method>
            <method name="AboutToShow"><arg type="i" direction="in"/><arg type="b" direction="out"/></method>
            <method name="AboutToShowGroup"><arg type="ai" direction="in"/><arg type="ai" direction="out"/><arg type="ai" direction="out"/></method>
            <signal name="ItemsPropertiesUpdated"><arg type="a(ia{sv})"/><arg type="a(ias)"/></signal>
            <signal name="LayoutUpdated"><arg type="u"/><arg type="i"/></signal>
          </interface>
        </node>
        """
}

/// GDBus's method call: `void (*)(GDBusConnection*, const gchar* sender, const gchar* path, const gchar* interface,
/// const gchar* method, GVariant*, GDBusMethodInvocation*, gpointer)`. Every invocation is answered here, once.
private let onMethodCall: GDBusInterfaceMethodCallFunc = { _, _, _, interface, method, parameters, invocation, data in
    onMainLoop((data, interface, method, parameters, invocation)) { data, interface, method, parameters, invocation in
        guard let invocation else { return }
        guard let item = SignalContext.owner(data, as: StatusNotifierItem.self), let interface, let method else {
            g_dbus_method_invocation_return_dbus_error(invocation, "org.freedesktop.DBus.Error.UnknownObject", "the tray icon is gone")
            return
        }
        switch item.call(String(cString: interface), String(cString: method), parameters) {
        case .success(let reply): g_dbus_method_invocation_return_value(invocation, reply)
        case .failure(let error): g_dbus_method_invocation_return_dbus_error(invocation, "org.freedesktop.DBus.Error.InvalidArgs", error.message)
        }
    }
}

/// GDBus's property read: `GVariant* (*)(GDBusConnection*, sender, path, interface, property, GError**, gpointer)`.
private let onGetProperty: GDBusInterfaceGetPropertyFunc = { _, _, _, interface, name, error, data in
    // The value crosses as its address: a pointer is not Sendable.
    let address = onMainLoop((data, interface, name, error)) { data, interface, name, error -> Int in
        guard let item = SignalContext.owner(data, as: StatusNotifierItem.self), let interface, let name,
              let value = item.property(String(cString: interface), String(cString: name))
        else {
            g_set_error_literal(error, g_dbus_error_quark(), gint(G_DBUS_ERROR_UNKNOWN_PROPERTY.rawValue), "no such property")
            return 0
        }
        return Int(bitPattern: value)
    }
    return OpaquePointer(bitPattern: address)
}

/// The watcher's name got an owner: `void (*)(GDBusConnection*, const gchar* name, const gchar* owner, gpointer)`.
private let onWatcherAppeared: GBusNameAppearedCallback = { _, _, _, data in
    onMainLoop(data) { data in SignalContext.owner(data, as: StatusNotifierItem.self)?.registerWithWatcher() }
}
