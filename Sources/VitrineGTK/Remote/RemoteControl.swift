import CWebKitGTK
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Vitrine
import Glibc

/// Vitrine as a single-instance application on the session bus, with actions other
/// programs can call: every `RemoteCommandName` the session bus carries (`reload`, `home`,
/// `next`, `navigate(s)`, `screenshot(s)`, `display(s)`, `quit`), each argument checked by
/// `RemoteCommand.parse` as MQTT's are.
///
/// The actions are GActions of a GtkApplication whose id is the app's (`org.vitrine.Vitrine`
/// for the stock program), so the desktop's standard tools reach them (`gapplication action
/// org.vitrine.Vitrine reload`, `gdbus call … org.gtk.Actions.Activate`), and so does
/// `vitrine ctl --app-id ID`. A second start of the same app hands its URL to the running
/// instance (GApplication's `open`). Navigation always goes through the container's chain,
/// so a kiosk's allowlist still holds.
///
/// Ownership: the primary instance's `RemoteControl` holds the application (a reference and
/// a hold, released in deinit) and its actions; its signal connections are recorded in `signals`.
@MainActor
public final class RemoteControl {
    /// The result of trying to become the single instance.
    public enum Role {
        /// This process is the instance: it serves the actions.
        case primary(RemoteControl)
        /// Another instance runs; the request was handed to it.
        case handedOver
        /// No session bus: this process runs alone, without remote control.
        case standalone(reason: String)
    }

    /// The object path GApplication exports an id's actions at: `/org/vitrine/Vitrine`.
    public static func objectPath(for applicationID: String) -> String {
        "/" + applicationID.replacing(".", with: "/").replacing("-", with: "_")
    }
    /// The GActions this instance exports: the commands the session bus carries.
    public static var actionNames: [String] { RemoteCommandName.carried(by: .sessionBus).map(\.rawValue) }

    private let application: UnsafeMutablePointer<GtkApplication>
    private let signals = SignalConnections()
    /// What the actions do (the same dispatch MQTT commands go through); set by the
    /// program once its window exists. The bus has no reply channel: failures are logged.
    public var dispatch: RemoteDispatch?

    private init(application: UnsafeMutablePointer<GtkApplication>) {
        self.application = application
    }

    isolated deinit {
        signals.disconnectAll()
        g_application_release(cast(application))
        g_object_unref(gptr(application))
    }

    /// Registers `applicationID` (checked by the configuration) on the session bus. When an
    /// instance of the same id already runs, hands `url` to it (or just raises it) and
    /// returns `.handedOver`.
    public static func register(applicationID: String, handingOver url: URL?) -> Role {
        GTKRuntime.initialize(applicationID: applicationID)
        guard g_application_id_is_valid(applicationID) != 0 else { return .standalone(reason: "'\(applicationID)' is not a valid application id") }
        let application = gtk_application_new(applicationID, G_APPLICATION_HANDLES_OPEN)!
        let gApplication: UnsafeMutablePointer<GApplication> = cast(application)
        var error: UnsafeMutablePointer<GError>?
        guard g_application_register(gApplication, nil, &error) != 0 else {
            let reason = GLibError.take(&error, "cannot register on the session bus").description
            g_object_unref(gptr(application))
            return .standalone(reason: reason)
        }
        if g_application_get_is_remote(gApplication) != 0 {
            if let url {
                let file = g_file_new_for_uri(url.absoluteString)
                var files: [OpaquePointer?] = [file]
                g_application_open(gApplication, &files, 1, "")
                g_object_unref(gptr(file!))
            } else {
                g_application_activate(gApplication)
            }
            flush(gApplication)
            g_object_unref(gptr(application))
            return .handedOver
        }
        StartupTrace.process.mark(.registered)
        let control = RemoteControl(application: application)
        control.installActions()
        control.signals.connect(gptr(application), "open", context: SignalContext(owner: control), handler: gCallback(onOpen))
        control.signals.connect(gptr(application), "activate", context: SignalContext(owner: control), handler: gCallback(onActivate))
        // Held for the whole run: the program ends when it says so (its last window closed,
        // quit, a signal), not when GTK sees no window between two containers.
        g_application_hold(gApplication)
        return .primary(control)
    }

    /// Runs the application's main loop (`g_application_run`) until `GTKRuntime.quit()`.
    public func run() {
        GTKRuntime.whileQuittingOnSignals {
            GTKRuntime.runningApplication = cast(application)
            defer { GTKRuntime.runningApplication = nil }
            _ = g_application_run(cast(application), 0, nil)
        }
    }

    /// Adds a window to the application (for idle inhibition and `gapplication` tools).
    public func adopt(_ container: WebContainer) {
        gtk_application_add_window(application, container.windowPointer)
    }

    private func installActions() {
        let group: OpaquePointer = OpaquePointer(application)
        for command in RemoteCommandName.carried(by: .sessionBus) {
            // A command with an argument takes a string, checked when it arrives.
            let parameter: OpaquePointer? = command.argument == .none ? nil : g_variant_type_new("s")
            let action = g_simple_action_new(command.rawValue, parameter)!
            if let parameter { g_variant_type_free(parameter) }
            signals.connect(gptr(action), "activate", context: SignalContext(owner: self, tag: command.rawValue), handler: gCallback(onAction))
            g_action_map_add_action(group, action)
            g_object_unref(gptr(action))
        }
    }

    fileprivate func activate(_ name: String, _ parameter: OpaquePointer?) {
        // GActions check the parameter's type: an action with an argument receives a string.
        let argument = parameter.flatMap { g_variant_is_of_type($0, g_variant_type_checked_("s")) != 0 ? g_variant_get_string($0, nil) : nil }
        let bytes = argument.map { Array(UnsafeBufferPointer(start: UnsafeRawPointer($0).assumingMemoryBound(to: UInt8.self), count: strlen($0))) } ?? []
        switch RemoteCommand.parse(name: name, argument: bytes, from: .sessionBus) {
        case .success(let command):
            perform(command)
        case .failure(let error):
            Self.log("vitrine: remote \(name): \(error)")
        }
    }

    /// Another start of the app without a page: its window comes forward.
    fileprivate func raise() {
        guard let window = gtk_application_get_active_window(application) else { return }
        gtk_window_present(window)
    }

    fileprivate func open(_ files: UnsafeMutablePointer<OpaquePointer?>?, count: gint) {
        guard let files, count > 0, let file = files[0], let uri = takeString(g_file_get_uri(file)) else { return }
        // A URL of the app's own schemes is a deep link for its page, not a page to open.
        if let container = dispatch?.container, let url = URL(string: uri), DeepLink.isDeepLink(url, schemes: container.configuration.urlSchemes) {
            if let refusal = container.feature(DeepLinkFeature.self)?.open(url) { Self.log("vitrine: deep link refused: \(refusal)") }
            return
        }
        guard case .success(let url) = RemoteCommand.navigate(uri) else { return }
        perform(.navigate(url))
    }

    private func perform(_ command: RemoteCommand) {
        dispatch?.perform(command) { reply in
            if let error = reply.error { Self.log("vitrine: remote \(command.name): \(error)") }
        }
    }

    private static func log(_ line: String) {
        printToStandardError(line)
    }

    private static func flush(_ application: UnsafeMutablePointer<GApplication>) {
        if let connection = g_application_get_dbus_connection(application) {
            g_dbus_connection_flush_sync(connection, nil, nil)
        }
    }

    // MARK: The client side (`vitrine ctl`)

    /// Activates `action` on the running instance of `applicationID`. Needs a session bus,
    /// not a display.
    public static func send(_ action: String, argument: String?, applicationID: String = ApplicationID.stock) throws {
        guard g_application_id_is_valid(applicationID) != 0 else {
            throw RemoteControlError("'\(applicationID)' is not a valid application id: \(ApplicationID.problem(with: applicationID) ?? "")")
        }
        var error: UnsafeMutablePointer<GError>?
        guard let bus = g_bus_get_sync(G_BUS_TYPE_SESSION, nil, &error) else {
            throw RemoteControlError("cannot reach the session bus: \(GLibError.take(&error, "unavailable"))")
        }
        defer { g_object_unref(gptr(bus)) }
        guard nameHasOwner(bus, applicationID) else { throw RemoteControlError("no Vitrine instance of \(applicationID) is running") }
        // A launcher never becomes the instance: it only forwards to the running one.
        let application = g_application_new(applicationID, G_APPLICATION_IS_LAUNCHER)!
        defer { g_object_unref(gptr(application)) }
        guard g_application_register(application, nil, &error) != 0 else {
            throw RemoteControlError("cannot reach the running instance: \(GLibError.take(&error, "unavailable"))")
        }
        let parameter: OpaquePointer? = argument.flatMap { g_variant_new_string($0) }
        g_action_group_activate_action(OpaquePointer(application), action, parameter)
        flush(application)
    }

    private static func nameHasOwner(_ connection: OpaquePointer, _ applicationID: String) -> Bool {
        var error: UnsafeMutablePointer<GError>?
        let name: [OpaquePointer?] = [g_variant_new_string(applicationID)]
        let reply = g_dbus_connection_call_sync(
            connection, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "NameHasOwner",
            g_variant_new_tuple(name, 1), nil,
            G_DBUS_CALL_FLAGS_NONE, 2000, nil, &error)
        guard let reply else {
            g_clear_error(&error)
            return false
        }
        defer { g_variant_unref(reply) }
        let value = g_variant_get_child_value(reply, 0)
        defer { if let value { g_variant_unref(value) } }
        return value.map { g_variant_get_boolean($0) != 0 } ?? false
    }
}

/// `activate` on a GSimpleAction: `void (*)(GSimpleAction*, GVariant*, gpointer)`.
private let onAction: @convention(c) (OpaquePointer?, OpaquePointer?, gpointer?) -> Void = { _, parameter, data in
    onMainLoop((parameter, data)) { parameter, data in
        SignalContext.owner(data, as: RemoteControl.self)?.activate(SignalContext.tag(data), parameter)
    }
}

/// `open` on the application: `void (*)(GApplication*, GFile**, gint, gchar*, gpointer)`.
private let onOpen: @convention(c) (OpaquePointer?, UnsafeMutablePointer<OpaquePointer?>?, gint, UnsafeMutablePointer<gchar>?, gpointer?) -> Void = {
    _, files, count, _, data in
    onMainLoop((files, count, data)) { files, count, data in
        SignalContext.owner(data, as: RemoteControl.self)?.open(files, count: count)
    }
}

/// `activate` on the application: `void (*)(GApplication*, gpointer)`.
private let onActivate: @convention(c) (OpaquePointer?, gpointer?) -> Void = { _, data in
    onMainLoop(data) { data in SignalContext.owner(data, as: RemoteControl.self)?.raise() }
}
