import CWebKitGTK
import Vitrine

/// The web context every view of this process uses.
///
/// WebKit fixes a context's web-process memory settings when it is made, so the first
/// container's configuration decides: WebKit's default context, or, with a web memory
/// limit, one of Vitrine's own made with it. Everything that acts on "the" context (URI
/// schemes, downloads, trusted certificates, website data) uses this one.
@MainActor
enum ProcessWebContext {
    private static var context: UnsafeMutablePointer<WebKitWebContext>?

    /// The process's context, made for `configuration` the first time.
    @discardableResult
    static func prepare(for configuration: Configuration) -> UnsafeMutablePointer<WebKitWebContext> {
        if let context { return context }
        let made = configuration.webProcessMemory.map(makeContext) ?? webkit_web_context_get_default()!
        context = made
        return made
    }

    /// The process's context (WebKit's default until a container prepared another).
    static var current: UnsafeMutablePointer<WebKitWebContext> {
        if let context { return context }
        let fallback = webkit_web_context_get_default()!
        context = fallback
        return fallback
    }

    /// A new view of the process's context, with `contentManager` (floating, as GTK makes it).
    static func makeView(contentManager: UnsafeMutablePointer<WebKitUserContentManager>) -> UnsafeMutablePointer<WebKitWebView> {
        var values = [GValue(), GValue()]
        g_value_init(&values[0], webkit_web_context_get_type())
        g_value_set_object(&values[0], gptr(current))
        g_value_init(&values[1], webkit_user_content_manager_get_type())
        g_value_set_object(&values[1], gptr(contentManager))
        defer { for index in values.indices { g_value_unset(&values[index]) } }
        let names = ["web-context", "user-content-manager"]
        let view = names.withCStringArray { names in
            g_object_new_with_properties(webkit_web_view_get_type(), guint(values.count), names, values)
        }
        return UnsafeMutableRawPointer(view!).assumingMemoryBound(to: WebKitWebView.self)
    }

    private static func makeContext(_ memory: WebProcessMemory) -> UnsafeMutablePointer<WebKitWebContext> {
        let settings = webkit_memory_pressure_settings_new()
        defer { webkit_memory_pressure_settings_free(settings) }
        webkit_memory_pressure_settings_set_memory_limit(settings, guint(memory.limit))
        let (seconds, attoseconds) = memory.pollInterval.components
        webkit_memory_pressure_settings_set_poll_interval(settings, Double(seconds) + Double(attoseconds) / 1e18)
        webkit_memory_pressure_settings_set_kill_threshold(settings, memory.killThreshold)
        var value = GValue()
        g_value_init(&value, webkit_memory_pressure_settings_get_type())
        g_value_set_boxed(&value, UnsafeRawPointer(settings))
        defer { g_value_unset(&value) }
        let context = "memory-pressure-settings".withCString { name in
            var names: [UnsafePointer<CChar>?] = [name]
            return g_object_new_with_properties(webkit_web_context_get_type(), 1, &names, [value])
        }
        return UnsafeMutableRawPointer(context!).assumingMemoryBound(to: WebKitWebContext.self)
    }
}

private extension Array where Element == String {
    /// Runs `body` with the strings as a C array of C strings.
    func withCStringArray<Result>(_ body: (UnsafeMutablePointer<UnsafePointer<CChar>?>) -> Result) -> Result {
        let copies = map { strdup($0) }
        defer { copies.forEach { free($0) } }
        var pointers = copies.map { UnsafePointer($0) }
        return body(&pointers)
    }
}
